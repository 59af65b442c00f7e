//! Pinned digests: fixed runs of several presets must give the same 16-hex trace digest on
//! every machine and target (the same constants are checked in Node and headless Chromium by
//! the wasm tests). A change of arithmetic changes them; update them on purpose, with the
//! reason in the commit.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;

include!("digests/pinned.rs");

fn digest_of(preset: &str, stepper: &str, steps: u32) -> String {
    let mut sim = Simulation::from_preset(preset, &[]).unwrap();
    if !stepper.is_empty() {
        sim.set_stepper(stepper).unwrap();
    }
    for _ in 0..steps {
        sim.step().unwrap();
    }
    format!("{:016x}", sim.digest())
}

#[test]
fn fixed_runs_give_their_pinned_digests() {
    let mut wrong = Vec::new();
    for (preset, stepper, steps, pinned) in PINNED_DIGESTS {
        let digest = digest_of(preset, stepper, steps);
        if digest != pinned {
            wrong.push(format!(
                "(\"{preset}\", \"{stepper}\", {steps}, \"{digest}\") was \"{pinned}\""
            ));
        }
    }
    assert!(wrong.is_empty(), "digests changed:\n{}", wrong.join("\n"));
}

#[test]
fn piles_solved_block_sparse_give_their_pinned_digests() {
    for (preset, n, stepper, steps, pinned) in PINNED_PILE_DIGESTS {
        let mut sim = Simulation::from_preset(preset, &[("N".to_string(), n)]).unwrap();
        sim.set_stepper(stepper).unwrap();
        for _ in 0..steps {
            sim.step().unwrap();
        }
        assert!(
            sim.unconverged_steps().0 == 0,
            "{preset} N = {n} {stepper}: every step's solve converges"
        );
        assert_eq!(
            format!("{:016x}", sim.digest()),
            pinned,
            "{preset} N = {n} {stepper} {steps}"
        );
    }
}

#[test]
fn the_same_run_twice_gives_the_same_digest() {
    let (preset, stepper, steps, _) = PINNED_DIGESTS[6];
    assert_eq!(
        digest_of(preset, stepper, steps),
        digest_of(preset, stepper, steps)
    );
}
