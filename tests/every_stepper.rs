//! Every preset runs under every stepper the API offers for it: 10 s of simulated time
//! without an error, every state finite (one core for every body).
#![cfg(not(target_arch = "wasm32"))]

use contactlab::{Simulation, presets};

#[test]
fn every_preset_runs_ten_seconds_under_every_offered_stepper() {
    let mut runs = 0;
    for preset in presets::all() {
        let probe = Simulation::from_preset(preset.name, &[]).unwrap();
        for offer in probe.steppers_for() {
            if !offer.available {
                continue;
            }
            let mut sim = Simulation::from_preset(preset.name, &[]).unwrap();
            sim.set_stepper(offer.name).unwrap();
            let steps = sim.steps_for(10.0);
            for k in 0..steps {
                if let Err(e) = sim.step() {
                    panic!("{} under {}: step {k} failed: {e}", preset.name, offer.name);
                }
            }
            assert!(sim.energy().is_finite());
            runs += 1;
        }
    }
    assert!(runs >= 5 * presets::all().len(), "{runs} runs");
}
