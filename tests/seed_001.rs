//! Seed 001 through the public API: the pulled block (S1), the coupled pair (S2), the penalty floor (S3).
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::needless_range_loop)] // index loops read like the maths here

use contactlab::Simulation;
use contactlab::lcp::{complementarity_residual, solve_lemke};

const G: f64 = 9.81;
const M: f64 = 2.0;

fn block(u: f64, stepper: &str) -> Simulation {
    let mut sim = Simulation::from_preset("block-pull", &[("u".into(), u)]).unwrap();
    sim.set_stepper(stepper).unwrap();
    sim
}

/// Reaction and vertical acceleration of the block after one step of the acceleration stepper.
fn reaction_and_acceleration(u: f64) -> (f64, f64, String) {
    let mut sim = block(u, "acceleration");
    let h = sim.time_step();
    let v0 = sim.system().v[1];
    sim.step().unwrap();
    let s = sim.sample();
    let c = &s.contacts[0];
    // Constant acceleration over the step: v₁ = v₀ + h a exactly.
    (
        c.normal,
        (s.bodies[0].v[1] - v0) / h,
        c.state.label().to_string(),
    )
}

#[test]
fn s1_pull_5n_leaves_reaction_mg_minus_u() {
    let (n, a, state) = reaction_and_acceleration(5.0);
    assert!((n - (M * G - 5.0)).abs() <= 1e-9 * M * G, "N = {n}");
    assert!((n - 14.62).abs() < 1e-9 * 14.62);
    assert!(a.abs() < 1e-12, "d̈ = {a}");
    assert_eq!(state, "loaded");
}

#[test]
fn s1_pull_equal_to_weight_touches_unloaded() {
    let (n, a, state) = reaction_and_acceleration(19.62);
    assert!(n.abs() < 1e-12, "N = {n}");
    assert!(a.abs() < 1e-12, "d̈ = {a}");
    assert_eq!(state, "touching");
}

#[test]
fn s1_pull_25n_lifts_off() {
    let (n, a, state) = reaction_and_acceleration(25.0);
    assert_eq!(n, 0.0);
    let expected = (25.0 - M * G) / M;
    assert!(
        (a - expected).abs() < 1e-9 * expected,
        "d̈ = {a}, expected {expected}"
    );
    assert!((a - 2.69).abs() < 1e-9 * 2.69);
    assert_eq!(state, "open");
}

#[test]
fn s1_the_contact_lcp_itself_has_the_seed_numbers() {
    for (u, n_expected) in [(5.0, 14.62), (19.62, 0.0), (25.0, 0.0)] {
        let sim = block(u, "acceleration");
        let lcp = sim.acceleration_lcp().unwrap();
        assert_eq!(lcp.len(), 1);
        // W = 1/m for one contact under the centre of mass; b = (u − mg)/m.
        assert!((lcp.m[(0, 0)] - 1.0 / M).abs() < 1e-15);
        assert!((lcp.q[0] - (u - M * G) / M).abs() < 1e-12);
        let sol = solve_lemke(&lcp);
        assert!(
            (sol.z[0] - n_expected).abs() <= 1e-9 * 14.62,
            "u = {u}: N = {}",
            sol.z[0]
        );
        assert!(sol.residual <= 1e-12);
    }
}

#[test]
fn s2_coupled_pair_reactions_are_one_newton_each() {
    let sim = Simulation::from_preset("coupled-pair", &[]).unwrap();
    let lcp = sim.acceleration_lcp().unwrap();
    assert_eq!(lcp.len(), 2);
    let expected_w = [[2.0, 1.0], [1.0, 2.0]];
    for i in 0..2 {
        assert!((lcp.q[i] + 3.0).abs() < 1e-12, "b = {:?}", lcp.q);
        for j in 0..2 {
            assert!(
                (lcp.m[(i, j)] - expected_w[i][j]).abs() < 1e-12,
                "W = {}",
                lcp.m
            );
        }
    }
    let sol = solve_lemke(&lcp);
    for i in 0..2 {
        assert!((sol.z[i] - 1.0).abs() < 1e-12, "N = {:?}", sol.z);
        assert!(sol.w[i].abs() < 1e-12, "W N + b = {:?}", sol.w);
    }
    // The same through a step of the simulation.
    let mut sim = sim;
    sim.step().unwrap();
    let s = sim.sample();
    for c in &s.contacts {
        assert!((c.normal - 1.0).abs() < 1e-12, "{}: N = {}", c.id, c.normal);
    }
}

#[test]
fn s2_decoupled_guess_violates_complementarity() {
    let sim = Simulation::from_preset("coupled-pair", &[]).unwrap();
    let lcp = sim.acceleration_lcp().unwrap();
    // Per-contact formula N_i = −b_i / W_ii ignores the coupling: 3/2 = 1.5 N each.
    let guess: Vec<f64> = (0..2).map(|i| -lcp.q[i] / lcp.m[(i, i)]).collect();
    assert_eq!(guess, vec![1.5, 1.5]);
    let w = lcp.slack(&nalgebra::DVector::from_vec(guess.clone()));
    for i in 0..2 {
        assert!(
            (w[i] - 1.5).abs() < 1e-12,
            "separating acceleration {}",
            w[i]
        );
    }
    // Positive force with positive separating acceleration: a clear violation.
    let r = complementarity_residual(&guess, w.as_slice());
    assert!((r - 1.5).abs() < 1e-12);
}

fn settled_gap(stepper: &str, k: f64) -> f64 {
    let mut sim = Simulation::from_preset("penalty-block", &[("k".into(), k)]).unwrap();
    sim.set_stepper(stepper).unwrap();
    let steps = sim.steps_for(2.0);
    sim.run(steps, steps).unwrap();
    sim.sample().contacts[0].gap
}

#[test]
fn s3_penalty_overlap_is_load_over_stiffness() {
    for stepper in ["penalty-explicit", "penalty-implicit"] {
        let d = settled_gap(stepper, 1e5);
        let expected = -(M * G - 5.0) / 1e5;
        assert!((expected + 0.1462e-3).abs() < 1e-12);
        assert!(
            ((d - expected) / expected).abs() < 1e-6,
            "{stepper}: d = {d}, expected {expected}"
        );
        let d2 = settled_gap(stepper, 2e5);
        assert!(
            ((d2 / d) - 0.5).abs() < 1e-6,
            "{stepper}: doubling k gives {d2} vs {d}"
        );
    }
}

#[test]
fn load_cell_reading_falls_to_zero_at_lift_off() {
    let rate = 10.0;
    let mut sim = Simulation::from_preset("load-cell", &[("rate".into(), rate)]).unwrap();
    let steps = sim.steps_for(sim.scene().duration);
    let trace = sim.run(steps, 1).unwrap();
    let lift_off = M * G / rate;
    for s in &trace.samples {
        let n = s.contacts.first().map(|c| c.normal).unwrap_or(0.0);
        assert!(n >= 0.0);
        // The reaction is solved at the start of the step ending at t, where u = rate·(t − h).
        let expected = (M * G - rate * (s.t - sim.time_step())).max(0.0);
        if (s.t - lift_off).abs() > 2.0 * sim.time_step() {
            assert!(
                (n - expected).abs() < 1e-9,
                "t = {}: N = {n}, expected {expected}",
                s.t
            );
        }
        if s.t > lift_off + 0.05 {
            assert_eq!(s.contacts[0].state.label(), "open");
            assert!(s.contacts[0].gap > 0.0);
        }
    }
}
