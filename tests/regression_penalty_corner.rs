//! Regressions of the implicit penalty stepper's friction: a pile of 30 spheres that gained energy without bound while every step said "converged", and a wedge whose friction left its cone.
//!
//! *The pile.* The stepper took its friction explicitly (μ = 1, h = 1/240 s).
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

/// Regression (CI of c441b7a, found by `tests/properties.rs`): a disk of 1 kg rolling at
/// 3 m/s into one of 32 g on the floor, at μ = 1.93 and h ω ≈ 50. The light disk is wedged
/// between the heavy one and the floor; each contact's friction loads the other by about
/// twice its own load, so the rounds of N̂ ← N cycle instead of settling. The step applied
/// the last round's friction μ N̂ ψ', and reported |F| = 1.88 N against μN = 1.34 N. Such a
/// step now says it did not converge, and its friction is cut to the cone.
#[test]
fn a_wedge_whose_loads_do_not_settle_keeps_friction_in_its_cone() {
    let scene = r#"{"bodies": [
        {"name": "floor", "fixed": true, "shape": {"type": "half_plane"}},
        {"name": "b0", "mass": 1.0, "position": [0.0, 0.029963342643551334],
         "velocity": [-2.999674865316306, 0.0],
         "shape": {"type": "disk", "radius": 0.029963342643551334}},
        {"name": "b1", "mass": 0.03190440008954455,
         "position": [-0.7130315213104889, 0.17971054477081902],
         "shape": {"type": "disk", "radius": 0.024805590232178466}}],
      "contact_margin": 0.05,
      "material": {"damping": 52.265415915487814, "friction": 1.933346368084103,
        "restitution": 0.45374722606742146, "rolling_resistance": 0.0061334249613630275,
        "spinning_resistance": 0.0028956047956542877, "stiffness": 13279634.246424261},
      "stepper": {"kind": "penalty-implicit", "dt": 0.002335672420226065}}"#;
    let mut sim = Simulation::from_json(scene).unwrap();
    let mu = 1.933346368084103;
    let start = sim.energy();
    let mut unsettled = 0;
    for step in 0..300 {
        let report = sim.step().unwrap();
        if !report.converged {
            unsettled += 1;
            // A step that did not converge says by how much.
            assert!(
                report.residual > 1e-10,
                "step {step}: residual {}",
                report.residual
            );
        }
        let sample = sim.sample();
        for c in &sample.contacts {
            assert!(c.normal >= 0.0, "step {step}: {} pulls", c.id);
            // Settled rounds hold N̂ = N to 1e-10 (relative, plus 1e-10 N).
            assert!(
                c.friction.abs() <= mu * (c.normal + 1e-10 * (1.0 + c.normal)) * (1.0 + 1e-12),
                "step {step}: |F| = {} > μN = {} at {}",
                c.friction.abs(),
                mu * c.normal,
                c.id
            );
        }
        // Gravity, dampers and friction: nothing puts energy in.
        let energy = sim.energy();
        assert!(
            energy <= start * (1.0 + 1e-9),
            "step {step}: {energy} J > {start} J"
        );
    }
    // The wedge is real: some steps do not settle (161 of 300 when this was written).
    assert!(
        unsettled > 0,
        "every step settled: the regression no longer exercises the cut"
    );
}
