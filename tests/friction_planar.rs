//! Planar Coulomb friction in Moreau–Jean: a block on an incline sticks below tan θ = μ and
//! slides above it at g (sin θ − μ cos θ); the Lemke and the matrix-free PGS solves agree.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;

mod common;

/// A 1 kg block with two feet on a floor turned by `theta`, released at rest.
fn incline(theta: f64, mu: f64, solver: &str) -> Simulation {
    let stepper = format!(
        r#"{{"kind": "moreau-jean", "dt": 0.001, "solver": "{solver}", "pgs_max_iterations": 100000, "pgs_tolerance": 1e-12}}"#
    );
    Simulation::from_json(&common::block_on_incline(theta, mu, &stepper)).unwrap()
}

/// Speed along the incline after `steps` steps.
fn speed_after(sim: &mut Simulation, steps: usize) -> f64 {
    sim.run(steps, steps).unwrap();
    let v = sim.system().v.clone();
    (v[0] * v[0] + v[1] * v[1]).sqrt()
}

#[test]
fn below_the_friction_angle_the_block_holds_still() {
    let theta = 20f64.to_radians();
    let mut sim = incline(theta, 0.5, "lemke");
    assert!(theta.tan() < 0.5);
    assert!(speed_after(&mut sim, 1000) < 1e-9);
}

#[test]
fn above_it_the_block_slides_at_g_sin_minus_mu_g_cos() {
    let (theta, mu) = (30f64.to_radians(), 0.3);
    let a = 9.81 * (theta.sin() - mu * theta.cos());
    for solver in ["lemke", "pgs"] {
        let mut sim = incline(theta, mu, solver);
        let v1 = speed_after(&mut sim, 500);
        let v2 = speed_after(&mut sim, 500);
        let measured = (v2 - v1) / 0.5;
        assert!(
            ((measured - a) / a).abs() < 1e-6,
            "{solver}: a = {measured}, expected {a}"
        );
        let friction: f64 = sim.sample().contacts.iter().map(|c| c.friction.abs()).sum();
        let normal: f64 = sim.sample().contacts.iter().map(|c| c.normal).sum();
        assert!(
            (friction - mu * normal).abs() < 1e-6 * normal,
            "{solver}: |F| = {friction}, μN = {}",
            mu * normal
        );
    }
}
