//! Fuzz target: scene JSON → validate → 200 steps. Any input may be refused (with an error);
//! an accepted scene must step without panicking, with finite outputs inside the laws.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "invariants.rs"]
mod invariants;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(mut sim) = contactlab::Simulation::from_json(text) {
        invariants::run_checked(&mut sim, 200);
        let _ = sim.modes();
        let mut trace = sim.empty_trace();
        trace.samples.push(sim.sample());
        let _ = trace.to_csv();
    }
});
