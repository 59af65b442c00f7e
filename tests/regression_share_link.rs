//! Regression: share links claimed an exact replay that was not one.
//!
//! What went wrong: after switching the stepper or h mid-run, or dragging a body, the page's
//! link (scene, parameters, stepper, h, steps) replayed a different run with a different
//! digest. Runs now record their changes by step; a link carries the start settings and
//! that timeline, and a replay reproduces the digest to the bit.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;
use contactlab::timeline::MAX_CHANGES;

fn run(sim: &mut Simulation, steps: usize) {
    for _ in 0..steps {
        sim.step().unwrap();
    }
}

#[test]
fn a_run_with_every_kind_of_change_replays_to_the_same_digest() {
    let mut sim = Simulation::from_preset("disk-over-disk", &[]).unwrap();
    sim.set_stepper("moreau-jean").unwrap(); // before the first step: part of the start
    run(&mut sim, 40);
    sim.set_time_step(5e-4).unwrap();
    run(&mut sim, 30);
    sim.set_push("slider", [0.3, -1.0 / 3.0], 0.125).unwrap();
    run(&mut sim, 30);
    sim.set_lcp_solver("pgs", 5000, 1e-12).unwrap();
    sim.set_stepper("nsga").unwrap();
    run(&mut sim, 30);
    sim.set_push("slider", [0.0, 0.0], 0.0).unwrap();
    run(&mut sim, 20);
    let start = sim.start_settings().clone();
    assert_eq!(start.stepper, "moreau-jean");
    let timeline = sim.timeline();
    assert_eq!(timeline.split(';').count(), 5, "{timeline}");
    assert!(sim.timeline_is_exact());

    let overrides: Vec<(String, f64)> = start.parameters.clone();
    let mut replay = Simulation::from_preset("disk-over-disk", &overrides).unwrap();
    replay.set_stepper(&start.stepper).unwrap();
    replay.set_time_step(start.dt).unwrap();
    replay.replay_timeline(&timeline).unwrap();
    run(&mut replay, 150);
    assert_eq!(replay.digest(), sim.digest());
    assert_eq!(replay.timeline(), timeline);
}

#[test]
fn a_reset_starts_a_new_run_from_the_current_settings() {
    let mut sim = Simulation::from_preset("block-pull", &[]).unwrap();
    run(&mut sim, 10);
    sim.set_parameter("u", 25.0).unwrap();
    assert!(!sim.timeline().is_empty());
    sim.reset().unwrap();
    assert!(sim.timeline().is_empty());
    assert!(
        sim.start_settings()
            .parameters
            .contains(&("u".to_string(), 25.0))
    );
}

#[test]
fn a_timeline_too_long_to_keep_is_marked_inexact() {
    let mut sim = Simulation::from_preset("block-pull", &[]).unwrap();
    sim.step().unwrap();
    for k in 1..=MAX_CHANGES + 1 {
        sim.set_push("block", [k as f64 * 1e-3, 0.0], 0.0).unwrap();
    }
    assert!(!sim.timeline_is_exact());
    assert_eq!(sim.timeline().split(';').count(), MAX_CHANGES);
}

#[test]
fn a_malformed_timeline_names_its_entry() {
    let mut sim = Simulation::from_preset("block-pull", &[]).unwrap();
    let e = sim
        .replay_timeline("10:dt:0.001;20:warp:9")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("timeline[1]") && e.contains("20:warp:9"),
        "{e}"
    );
    let e = sim
        .replay_timeline("20:dt:0.001;10:dt:0.002")
        .unwrap_err()
        .to_string();
    assert!(e.contains("must not decrease"), "{e}");
    // A change the simulation refuses stops the replay with the library's message.
    sim.replay_timeline("2:dt:-1").unwrap();
    sim.step().unwrap();
    sim.step().unwrap();
    assert!(sim.step().unwrap_err().to_string().starts_with("dt"));
}

/// A push in space (the 3-D view's drag) replays too, and it moves the sphere as F = m a:
/// a 1 kg sphere lifted by 2g from the floor rises at g (z = g t²/2 after t).
#[test]
fn a_push_in_space_replays_to_the_same_digest_and_lifts_at_f_over_m() {
    let mut sim = Simulation::from_preset("sphere-spin", &[("gamma".into(), 0.0)]).unwrap();
    run(&mut sim, 10);
    let z0 = sim.system().bodies[1].position3(&sim.system().q).z;
    let m = sim.system().bodies[1].mass();
    sim.set_push3("sphere", [0.0, 0.0, 2.0 * m * 9.81]).unwrap();
    let steps = 200;
    run(&mut sim, steps);
    let t = steps as f64 * sim.time_step();
    let rise = sim.system().bodies[1].position3(&sim.system().q).z - z0;
    // The steppers integrate a constant acceleration to within one step's h·v.
    assert!(
        (rise - 0.5 * 9.81 * t * t).abs() < 9.81 * t * sim.time_step(),
        "rose {rise} m in {t} s"
    );
    sim.set_push3("sphere", [0.0, 0.0, 0.0]).unwrap();
    run(&mut sim, 20);
    let timeline = sim.timeline();
    assert!(timeline.contains("push3:sphere,0,0,"), "{timeline}");
    let mut replay = Simulation::from_preset("sphere-spin", &[("gamma".into(), 0.0)]).unwrap();
    replay.replay_timeline(&timeline).unwrap();
    run(&mut replay, 10 + steps + 20);
    assert_eq!(replay.digest(), sim.digest());
    assert!(sim.set_push3("floor", [0.0, 0.0, 1.0]).is_err());
    assert!(sim.set_push3("sphere", [f64::NAN, 0.0, 0.0]).is_err());
}
