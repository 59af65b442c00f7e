//! Every preset runs under every stepper the API offers for it: 10 s of simulated time
//! without an error, every state finite (one core for every body), and no contact pushes
//! from a distance.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use contactlab::contact::ContactKey;
use contactlab::{Simulation, presets};

/// A contact that carries a force or impulse in a step started it no further open than its
/// gap rate (at the start or at the end of the step) and an acceleration of the order of g
/// could close in one step: d₀ ≤ h·max(|ḋ₀|, |ḋ₁|) + A h², A in m/s². (Moreau–Jean acts on a
/// contact that the free motion would close within the step; NSGA on the predicted
/// positions; the acceleration stepper at a located event; the implicit penalty on the
/// end-of-step gap.)
const PUSH_ACCELERATION: f64 = 10.0;

/// The acceleration stepper holds d̈ = 0, not d = 0: its active contacts drift (O(h) on a
/// curved path, docs/steppers.md §1.5), so it is allowed this much gap while loaded, m.
const ACCELERATION_DRIFT: f64 = 1e-3;

#[test]
fn every_preset_runs_ten_seconds_under_every_offered_stepper() {
    let (mut runs, mut expected_runs) = (0, 0);
    for preset in presets::all() {
        let probe = Simulation::from_preset(preset.name, &[]).unwrap();
        // Every stepper runs every rigid scene, with joints or without; beams run under all
        // but the acceleration stepper: NSGA at any step, the implicit penalty stepper too
        // unless the beam has joints or springs, the others (explicit in the elastic forces)
        // only below the beam's explicit limit.
        let offered = probe.steppers_for().iter().filter(|o| o.available).count();
        let explicit = usize::from(
            probe
                .system()
                .explicit_step_limit()
                .is_none_or(|limit| limit >= probe.time_step()),
        );
        let expected = match probe.system().held_by() {
            // NSGA; penalty-implicit at any step without joints or springs; the rest below
            // the beam's limit.
            Some("flexible beams") => {
                let implicit = usize::from(probe.system().beams_implicit_under_penalty());
                1 + implicit + (3 - implicit) * explicit
            }
            _ => 5,
        };
        assert_eq!(
            offered, expected,
            "{}: {offered} steppers offered",
            preset.name
        );
        expected_runs += expected;
        for offer in probe.steppers_for() {
            if !offer.available {
                continue;
            }
            let mut sim = Simulation::from_preset(preset.name, &[]).unwrap();
            sim.set_stepper(offer.name).unwrap();
            // A beam's scene runs for its own duration (a rod's impact takes 5 ms in
            // thousands of steps).
            let span = if sim.system().has_beams() {
                sim.scene().duration
            } else {
                10.0
            };
            let steps = sim.steps_for(span);
            let beams: Vec<bool> = sim
                .system()
                .bodies
                .iter()
                .map(|b| matches!(b.kind, contactlab::model::BodyKind::Beam(_)))
                .collect();
            let h = sim.time_step();
            // Gap and gap rate of each contact at the start of the step (the last one's end).
            let mut start: BTreeMap<ContactKey, (f64, f64)> = BTreeMap::new();
            for k in 0..steps {
                let report = match sim.step() {
                    Ok(report) => report,
                    Err(e) => panic!("{} under {}: step {k} failed: {e}", preset.name, offer.name),
                };
                for c in &report.contacts {
                    // A beam's point moves by its own vibrations within a step (h ω_max ≫ 1
                    // under the implicit steppers), so the rates at the step's ends do not
                    // bound how far it travels: its contacts are not held to this reach.
                    let on_beam = beams[c.key.first] || beams[c.key.second];
                    if (c.normal > 0.0 || c.impulse > 0.0) && !on_beam {
                        let Some(&(d0, rate0)) = start.get(&c.key) else {
                            continue; // not within the margin at the start: nothing to compare
                        };
                        let drift = if offer.name == "acceleration" {
                            ACCELERATION_DRIFT
                        } else {
                            0.0
                        };
                        let reach = h * rate0.abs().max(c.gap_rate.abs())
                            + PUSH_ACCELERATION * h * h
                            + drift;
                        assert!(
                            d0 <= reach,
                            "{} under {}, step {k}: a contact {d0} m open carried N = {} N (it could close {reach} m)",
                            preset.name,
                            offer.name,
                            c.normal
                        );
                    }
                }
                start = report
                    .contacts
                    .iter()
                    .map(|c| (c.key, (c.gap, c.gap_rate)))
                    .collect();
            }
            assert!(sim.energy().is_finite());
            runs += 1;
        }
    }
    assert_eq!(runs, expected_runs);
}
