//! Regression: the implicit penalty stepper took its friction explicitly, and a pile of 30 spheres (μ = 1, h = 1/240 s) gained energy without bound while every step said "converged".
//!
//! A sphere wedged between the floor and a wall under the pile alternated between the two
//! contacts, each one's friction pushing it into the other, with loads growing by a fifth
//! every two steps: after 1 s it was 0.7 m through the wall and the energy had gone from
//! 18.5 J to 5e4 J. The implicit step now takes the friction's drag at the end of the step,
//! as the minimiser of a convex potential (`penalty_rigid.rs`): the drag only dissipates.

use contactlab::Simulation;

/// Backward Euler on the contact springs with a dissipative drag, and no work done by
/// anything else (gravity is in the energy): the energy can only fall, step by step.
#[test]
fn a_pile_under_implicit_penalty_only_loses_energy() {
    let mut sim = Simulation::from_preset("pile", &[("N".into(), 30.0)]).unwrap();
    sim.set_stepper("penalty-implicit").unwrap();
    let k = sim.scene().material.stiffness;
    let start = sim.energy();
    let mut previous = start;
    let mut deepest: f64 = 0.0;
    for step in 0..sim.steps_for(2.0) {
        let report = sim.step().unwrap();
        assert!(report.converged, "step {step} did not converge");
        // The residual reported is the step's own: ‖∇Φ‖ to 1e-12 of its forces, N̂ = N to
        // 1e-10 (the rounds' stopping rules).
        assert!(
            report.residual <= 1e-10,
            "step {step}: residual {}",
            report.residual
        );
        let energy = sim.energy();
        assert!(
            energy <= previous + 1e-9 * start,
            "step {step}: energy rose from {previous} to {energy} J"
        );
        previous = energy;
        let sample = sim.sample();
        deepest = sample
            .contacts
            .iter()
            .map(|c| c.gap)
            .fold(deepest, f64::min);
        for c in &sample.contacts {
            assert!(c.normal >= 0.0, "step {step}: {} pulls", c.id);
        }
    }
    // The springs hold at most the energy the pile started with: ½ k d² ≤ E₀.
    assert!(
        0.5 * k * deepest * deepest <= start,
        "overlap {deepest} m stores more than the {start} J the pile had"
    );
    // And the pile lost energy: it landed and settled (inelastic penalty, friction).
    assert!(previous < 0.5 * start, "{previous} J of {start} J left");
}
