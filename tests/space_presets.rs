//! The presets in space against theory: seed 001's block in 3-D, seed 003's modes for a table
//! on three and four legs, a sphere's penalty overlap, a sliding box's stopping distance.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;
use contactlab::modes::time_step_limit;

fn preset(name: &str, sets: &[(&str, f64)]) -> Simulation {
    let o: Vec<(String, f64)> = sets.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    Simulation::from_preset(name, &o).unwrap()
}

/// (total normal reaction, vertical acceleration of the block, contact state) after one step.
fn block_pull_3d(u: f64) -> (f64, f64, &'static str) {
    let mut sim = preset("block-pull-3d", &[("u", u)]);
    sim.step().unwrap();
    let s = sim.sample();
    let normal: f64 = s.contacts.iter().map(|c| c.normal).sum();
    (normal, sim.acceleration()[2], s.contacts[0].state.label())
}

#[test]
fn seed_001_in_space() {
    // m = 2 kg, g = 9.81 m/s²: N = mg − u until lift-off, then d̈ = (u − mg)/m.
    let (n, a, state) = block_pull_3d(5.0);
    assert!((n - 14.62).abs() < 1e-12, "N = {n}");
    assert!(a.abs() < 1e-12);
    assert_eq!(state, "loaded");
    let (n, a, state) = block_pull_3d(19.62);
    assert!(
        n.abs() < 1e-12 && a.abs() < 1e-12,
        "touching: N = {n}, d̈ = {a}"
    );
    assert_eq!(state, "touching");
    let (n, a, state) = block_pull_3d(25.0);
    assert_eq!(n, 0.0);
    assert!((a - 2.69).abs() < 1e-12, "d̈ = {a}");
    assert_eq!(state, "open");
}

/// Closed-form table modes (docs/modes.md): legs at the plate's underside, symmetric so that
/// heave, roll and pitch decouple: ω² = nk/m, kΣy²/I_x, kΣx²/I_y.
fn table_frequencies(legs: usize, m: f64, k: f64, half: f64) -> Vec<f64> {
    let t = 0.02;
    let inertia = m * ((2.0 * half).powi(2) + t * t) / 12.0;
    let r = 0.8 * half;
    let sum_sq = if legs == 4 { 4.0 * r * r } else { 1.5 * r * r };
    let mut w = vec![
        (legs as f64 * k / m).sqrt(),
        (k * sum_sq / inertia).sqrt(),
        (k * sum_sq / inertia).sqrt(),
    ];
    w.sort_by(f64::total_cmp);
    w
}

#[test]
fn table_modes_match_the_closed_form() {
    for (legs, m, k, half) in [(4, 2.0, 1e5, 0.2), (3, 2.0, 1e5, 0.2), (4, 5.0, 3e5, 0.35)] {
        let sim = preset(
            "table-modes",
            &[("legs", legs as f64), ("m", m), ("k", k), ("L", half)],
        );
        let analysis = sim.modes();
        let expected = table_frequencies(legs, m, k, half);
        assert_eq!(analysis.omega.len(), 3, "{legs} legs: {:?}", analysis.omega);
        for (w, e) in analysis.omega.iter().zip(&expected) {
            assert!((w - e).abs() < 1e-9 * e, "{legs} legs: ω {w} vs {e}");
        }
        // Four legs on three constrained motions (heave, roll, pitch): one redundant support.
        assert_eq!(analysis.zero_modes, usize::from(legs == 4));
        // Central difference: h < 2/ω_max.
        let limit = time_step_limit("penalty-explicit", &analysis.omega, k, 0.0).unwrap();
        assert!((limit - 2.0 / expected[2]).abs() < 1e-12 * limit);
    }
}

#[test]
fn a_sphere_on_a_penalty_floor_settles_at_mg_over_k() {
    let (m, k) = (1.0, 1e5);
    let mut sim = preset("sphere-on-penalty-floor", &[("m", m), ("k", k)]);
    for _ in 0..sim.steps_for(1.0) {
        sim.step().unwrap();
    }
    let gap = sim.sample().contacts[0].gap;
    let expected = -m * 9.81 / k;
    assert!(
        ((gap - expected) / expected).abs() < 1e-6,
        "d = {gap}, −mg/k = {expected}"
    );
    // And under the implicit scheme too.
    let mut sim = preset("sphere-on-penalty-floor", &[("m", m), ("k", k)]);
    sim.set_stepper("penalty-implicit").unwrap();
    for _ in 0..sim.steps_for(1.0) {
        sim.step().unwrap();
    }
    let gap = sim.sample().contacts[0].gap;
    assert!(
        ((gap - expected) / expected).abs() < 1e-6,
        "implicit: d = {gap}"
    );
}

#[test]
fn a_sliding_box_stops_after_v0_squared_over_2_mu_g() {
    let (mu, v0) = (0.3, 2.0);
    for stepper in ["nsga", "moreau-jean"] {
        let mut sim = preset("box-slide-3d", &[("mu", mu), ("v0", v0)]);
        sim.set_stepper(stepper).unwrap();
        let h = sim.time_step();
        for _ in 0..sim.steps_for(1.2 * v0 / (mu * 9.81)) {
            sim.step().unwrap();
            assert!(
                sim.last_report().converged,
                "{stepper}: a step did not converge"
            );
        }
        let x = sim.system().q[0];
        let expected = v0 * v0 / (2.0 * mu * 9.81);
        assert!(
            (x - expected).abs() <= v0 * h,
            "{stepper}: stopped at {x} m, v₀²/(2μg) = {expected} m"
        );
        let v = sim.system().v.rows(0, 3).norm();
        assert!(v < 1e-9, "{stepper}: still moving at {v} m/s");
    }
}

#[test]
fn the_theory_panel_agrees_for_the_presets_in_space() {
    let check = |name: &str, seconds: f64, tolerance: f64| {
        let mut sim = preset(name, &[]);
        for _ in 0..sim.steps_for(seconds) {
            sim.step().unwrap();
        }
        let lines = contactlab::theory::theory(&sim);
        assert!(!lines.is_empty(), "{name}: no theory lines");
        for l in lines
            .iter()
            .filter(|l| l.simulated.is_finite() && !l.label.contains("limit"))
        {
            assert!(
                (l.predicted - l.simulated).abs() <= tolerance * l.predicted.abs().max(1e-12),
                "{name}: {} predicted {} simulated {}",
                l.label,
                l.predicted,
                l.simulated
            );
        }
    };
    check("block-pull-3d", 0.01, 1e-12);
    check("table-modes", 0.0, 1e-9);
    check("sphere-on-penalty-floor", 1.0, 1e-6);
    // The box stops after 0.6797 m: within one step's travel, v₀h = 2 mm.
    check("box-slide-3d", 1.0, 2e-3 / 0.6797);
}
