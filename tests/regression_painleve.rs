//! Regression: a rod sliding on its end at a steep angle (a Painlevé-type problem).
//!
//! What went wrong: with μ above the configuration's critical value, NSGA's semismooth Newton
//! stalled on every step, returned a *negative* normal impulse (the floor pulled) with friction
//! pushing the way the end slid, reported `converged: false` and sped the rod up. The laws now
//! fall back to the polyhedral LCP (exact for a planar contact) and never return a multiplier
//! outside its law.
//!
//! Theory (uniform rod, half length l, I = m l²/3, end on the floor at angle θ, sliding away
//! from the centre with friction μN against the slide): the end's normal acceleration is
//! d̈ = B N/m − g + l sinθ θ̇², B = 1 + 3cos²θ − 3μ sinθ cosθ. For B > 0 contact needs
//! N = m (g − l sinθ θ̇²)/B (unique). For tan θ = 2, B = (8 − 6μ)/5 vanishes at μ_crit = 4/3;
//! above it the smooth problem has no consistent answer and the impulsive one (Moreau–Jean,
//! NSGA's velocity level) stops the slide by a tangential impact.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;

const MASS: f64 = 1.0;
const HALF_LENGTH: f64 = 0.5;
const G: f64 = 9.81;

/// The rod at θ = atan 2 with its lower end at the origin sliding at 1 m/s away from the centre.
fn rod(mu: f64, stepper: &str, h: f64) -> Simulation {
    let theta = 2f64.atan();
    let (s, c) = theta.sin_cos();
    let json = format!(
        r#"{{"bodies": [
            {{"name": "floor", "fixed": true, "shape": {{"type": "half_plane"}}}},
            {{"name": "rod", "mass": {MASS}, "inertia": {inertia},
              "position": [{x}, {y}], "angle": {theta}, "velocity": [-1, 0],
              "shape": {{"type": "box", "width": {w}, "height": 0.02}},
              "contact_points": [[-{HALF_LENGTH}, 0]]}}],
          "material": {{"friction": {mu}}},
          "stepper": {{"kind": "{stepper}", "dt": {h}}},
          "contact_margin": 0.01}}"#,
        inertia = MASS * HALF_LENGTH * HALF_LENGTH / 3.0,
        x = HALF_LENGTH * c,
        y = HALF_LENGTH * s,
        w = 2.0 * HALF_LENGTH,
    );
    Simulation::from_json(&json).unwrap()
}

/// N = m (g − l sinθ θ̇²)/B at the rod's current state.
fn predicted_normal(sim: &Simulation, mu: f64) -> f64 {
    let (theta, omega) = (sim.system().q[2], sim.system().v[2]);
    let (s, c) = theta.sin_cos();
    let b = 1.0 + 3.0 * c * c - 3.0 * mu * s * c;
    MASS * (G - HALF_LENGTH * s * omega * omega) / b
}

/// Every contact's multipliers inside their law: N ≥ 0, |F| ≤ μN.
fn assert_inside_laws(sim: &Simulation, mu: f64, what: &str) {
    for c in &sim.sample().contacts {
        assert!(c.normal >= 0.0, "{what}: N = {} < 0", c.normal);
        assert!(
            c.friction.abs() <= mu * c.normal * (1.0 + 1e-9) + 1e-12,
            "{what}: |F| = {} > μN = {}",
            c.friction.abs(),
            mu * c.normal
        );
    }
}

#[test]
fn below_the_critical_friction_the_floor_pushes_with_n_equal_mg_over_b() {
    let mu = 1.0;
    for stepper in ["nsga", "moreau-jean"] {
        let mut sim = rod(mu, stepper, 1e-4);
        // B = (8 − 6)/5 = 0.4: the floor pushes with 2.5 mg while the end slides.
        let theta = 2f64.atan();
        let b = 1.0 + 3.0 * theta.cos().powi(2) - 3.0 * mu * theta.sin() * theta.cos();
        assert!((b - 0.4).abs() < 1e-12);
        for k in 0..100 {
            let expected = predicted_normal(&sim, mu);
            let report = sim.step().unwrap().clone();
            assert!(report.converged, "{stepper}, step {k}: not converged");
            let c = &sim.sample().contacts[0];
            // Loaded from the second step on (the first closes the initial zero gap).
            if k > 0 {
                assert!(
                    (c.normal - expected).abs() < 0.01 * expected,
                    "{stepper}, step {k}: N = {}, expected m(g − l sinθ θ̇²)/B = {expected}",
                    c.normal
                );
                assert!(
                    (c.friction.abs() - mu * c.normal).abs() < 1e-6 * c.normal,
                    "{stepper}: sliding friction is μN"
                );
                // Friction opposes the slide (the end moves along −x, t = (−1, 0)).
                assert!(c.friction < 0.0, "{stepper}: friction along the slide");
            }
            assert_inside_laws(&sim, mu, stepper);
        }
        // The end keeps sliding: its horizontal speed is still about 1 m/s.
        let (vx, omega, theta) = (sim.system().v[0], sim.system().v[2], sim.system().q[2]);
        let end_vx = vx + HALF_LENGTH * theta.sin() * omega;
        // (It slows quickly: friction decelerates the centre and the rod turns up, a 0.54 m/s
        // change of the end's speed in 0.01 s at these rates.)
        assert!(end_vx < -0.2, "{stepper}: the end stopped ({end_vx} m/s)");
    }
}

#[test]
fn above_the_critical_friction_a_tangential_impact_stops_the_slide() {
    let mu = 2.0; // above μ_crit = 4/3: B = −0.8
    for stepper in ["nsga", "moreau-jean"] {
        let h = 1e-3;
        let mut sim = rod(mu, stepper, h);
        let theta_before = sim.system().q[2];
        let report = sim.step().unwrap().clone();
        assert!(report.converged, "{stepper}: first step not converged");
        let (vx, vy, omega) = (sim.system().v[0], sim.system().v[1], sim.system().v[2]);
        // The end's velocity through the Jacobian the step's impulse problem used: NSGA's at
        // q_{n+1}, Moreau–Jean's at q_n.
        let theta = if stepper == "nsga" {
            sim.system().q[2]
        } else {
            theta_before
        };
        let end_vx = vx + HALF_LENGTH * theta.sin() * omega;
        let end_vy = vy - HALF_LENGTH * theta.cos() * omega;
        assert!(
            end_vx.abs() < 1e-9,
            "{stepper}: the slide goes on at {end_vx} m/s after the first step"
        );
        assert!(end_vy > -1e-9, "{stepper}: the end moves into the floor");
        let c = &sim.sample().contacts[0];
        assert!(c.impulse > 0.0, "{stepper}: no normal impulse");
        assert_inside_laws(&sim, mu, stepper);
        // From then on: every step converged, inside its laws, no penetration.
        for k in 1..200 {
            let report = sim.step().unwrap().clone();
            assert!(report.converged, "{stepper}, step {k}: not converged");
            assert_inside_laws(&sim, mu, stepper);
            let gap = sim.sample().contacts[0].gap;
            let allowed = if stepper == "nsga" { 1e-9 } else { G * h * h };
            assert!(gap > -allowed, "{stepper}, step {k}: gap {gap} m");
        }
    }
}
