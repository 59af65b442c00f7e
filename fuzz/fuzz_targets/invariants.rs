//! What every fuzz target asserts of a simulation that accepted its input: each step either
//! succeeds with finite, bounded outputs inside the contact laws, or fails with an error and
//! the state kept.

use contactlab::Simulation;

/// Steps `steps` times (stopping at the first refused step) and checks every outcome.
pub fn run_checked(sim: &mut Simulation, steps: usize) {
    let mu = sim.contact_settings().material.friction;
    for _ in 0..steps {
        let before = sim.system().q.clone();
        if sim.step().is_err() {
            assert_eq!(sim.system().q, before, "a refused step changed the state");
            return;
        }
        check_sample(sim, mu);
    }
}

/// The current sample is finite and inside the laws.
pub fn check_sample(sim: &Simulation, mu: f64) {
    let s = sim.sample();
    assert!(s.energy.is_finite(), "energy {}", s.energy);
    assert!(s.residual.is_finite());
    for b in &s.bodies {
        assert!(b.q.iter().chain(&b.v).all(|x| x.is_finite()));
    }
    for c in &s.contacts {
        for x in [c.gap, c.gap_rate, c.normal, c.impulse, c.friction] {
            assert!(x.is_finite(), "{}: {x}", c.id);
        }
        assert!(c.normal >= 0.0, "{}: N = {}", c.id, c.normal);
        assert!(
            c.friction.abs() <= mu * c.normal * (1.0 + 1e-9) + 1e-9,
            "{}: |F| = {} > μN = {}",
            c.id,
            c.friction.abs(),
            mu * c.normal
        );
    }
    // The modes are sampled up to a system size, and left out above it (as documented).
    let sampled = sim.sample_with_modes();
    match sampled.modes {
        Some(modes) => {
            assert!(sim.modes_sampled(), "modes of a system too large to sample");
            assert!(modes.frequencies.iter().all(|w| w.is_finite()));
            assert!(modes.h_omega_max.is_finite());
        }
        None => assert!(!sim.modes_sampled(), "asked for the modes and got none"),
    }
    if let Some(bound) = sampled.h_omega_bound {
        assert!(bound.is_finite() && bound >= 0.0, "h·ω bound {bound}");
    }
    let _ = s.to_json_line();
}
