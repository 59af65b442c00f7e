//! Fuzz target: sequences of API calls with arbitrary arguments on a preset, as a page or a
//! script would make them (parameters, stepper, h, solver, pushes, resets, timelines, queries).
#![no_main]

use arbitrary::Arbitrary;
use contactlab::{Simulation, presets};
use libfuzzer_sys::fuzz_target;

#[path = "invariants.rs"]
mod invariants;

#[derive(Debug, Arbitrary)]
enum Call {
    Step(u8),
    SetParameter(u8, f64),
    SetStepper(u8),
    SetTimeStep(f64),
    SetSolver(bool, u32, f64),
    Push(u8, f64, f64, f64),
    Reset,
    Replay(String),
    Query,
}

#[derive(Debug, Arbitrary)]
struct Session {
    preset: u8,
    calls: Vec<Call>,
}

const STEPPERS: [&str; 6] = [
    "acceleration",
    "moreau-jean",
    "penalty-explicit",
    "penalty-implicit",
    "nsga",
    "rk4",
];

fuzz_target!(|session: Session| {
    let all = presets::all();
    let preset = &all[session.preset as usize % all.len()];
    let Ok(mut sim) = Simulation::from_preset(preset.name, &[]) else {
        panic!("a preset with default parameters must build");
    };
    let mut budget = 2000usize; // steps per input, so a case stays fast
    for call in session.calls.into_iter().take(64) {
        match call {
            Call::Step(n) => {
                let n = (n as usize).min(budget);
                budget -= n;
                invariants::run_checked(&mut sim, n);
            }
            Call::SetParameter(k, value) => {
                let names: Vec<&str> = preset.parameters.iter().map(|p| p.name).collect();
                let name = names
                    .get(k as usize % (names.len() + 1))
                    .copied()
                    .unwrap_or("nope");
                let _ = sim.set_parameter(name, value);
            }
            Call::SetStepper(k) => {
                let _ = sim.set_stepper(STEPPERS[k as usize % STEPPERS.len()]);
            }
            Call::SetTimeStep(h) => {
                let _ = sim.set_time_step(h);
            }
            Call::SetSolver(pgs, cap, tolerance) => {
                let name = if pgs { "pgs" } else { "lemke" };
                let _ = sim.set_lcp_solver(name, u64::from(cap % 5000), tolerance);
            }
            Call::Push(k, fx, fy, torque) => {
                let names: Vec<String> =
                    sim.system().bodies.iter().map(|b| b.name.clone()).collect();
                let body = names
                    .get(k as usize % (names.len() + 1))
                    .cloned()
                    .unwrap_or_default();
                let _ = sim.set_push(&body, [fx, fy], torque);
            }
            Call::Reset => {
                let _ = sim.reset();
            }
            Call::Replay(text) => {
                let _ = sim.replay_timeline(&text);
            }
            Call::Query => {
                let mu = sim.contact_settings().material.friction;
                invariants::check_sample(&sim, mu);
                let _ = sim.modes();
                let _ = sim.time_step_limit();
                let _ = sim.acceleration_lcp();
                let _ = sim.timeline();
            }
        }
    }
});
