//! The sphere-on-bridge preset (seed 002): a ball rolling across a simply supported flexible bridge on a compliant contact, against the influence line, PL³/(48EI) and the loaded bridge's modal series.

use contactlab::Simulation;
use contactlab::beam_theory::{
    central_mass_frequency, loaded_bridge_frequency, simply_supported_deflection,
    simply_supported_frequency, uniform_load_midspan_deflection,
};
use contactlab::presets_beams::bridge_properties;
use contactlab::theory_beams::bridge_state;

fn bridge(values: &[(&str, f64)]) -> Simulation {
    let overrides: Vec<(String, f64)> = values.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    Simulation::from_preset("sphere-on-bridge", &overrides).unwrap()
}

/// The steel bridge of the preset: EI, ρA, q.
fn steel() -> (f64, f64, f64) {
    bridge_properties(2.1e11)
}

#[test]
fn the_modal_series_meets_the_central_mass_closed_form_and_both_limits() {
    let (ei, rho_a, _) = steel();
    let beam_mass = rho_a * 1.0;
    // A rigid mass at midspan: the series against 2 = μ z (tan z − tanh z).
    for mass in [0.1, 1.0, 10.0, 100.0] {
        let series = loaded_bridge_frequency((mass, f64::INFINITY), 0.5, (ei, rho_a, 1.0));
        let closed = central_mass_frequency(mass, ei, rho_a, 1.0);
        assert!(
            (series / closed - 1.0).abs() < 1e-9,
            "{mass}: {series} {closed}"
        );
    }
    // A vanishing mass leaves the bare beam's π² √(EI/(ρA L⁴)); a heavy one rides on the
    // midspan spring 48EI/L³ with about half the beam's mass (Rayleigh: 17/35).
    let bare = simply_supported_frequency(1, ei, rho_a, 1.0);
    let light = loaded_bridge_frequency((1e-9, f64::INFINITY), 0.5, (ei, rho_a, 1.0));
    assert!((light / bare - 1.0).abs() < 1e-8, "{light} {bare}");
    let heavy_mass = 1e3 * beam_mass;
    let heavy = central_mass_frequency(heavy_mass, ei, rho_a, 1.0);
    let rayleigh = (48.0 * ei / (heavy_mass + 17.0 / 35.0 * beam_mass)).sqrt();
    assert!((heavy / rayleigh - 1.0).abs() < 1e-6, "{heavy} {rayleigh}");
    // A spring in series lowers it: M on k alone is √(k/M) when the beam is rigid.
    let stiff_beam = loaded_bridge_frequency((10.0, 1e3), 0.5, (ei * 1e8, rho_a, 1.0));
    assert!(
        (stiff_beam / (1e3f64 / 10.0).sqrt() - 1.0).abs() < 1e-6,
        "{stiff_beam}"
    );
}

#[test]
fn the_influence_line_is_reciprocal_and_gives_pl3_over_48ei_at_midspan() {
    let (ei, _, _) = steel();
    let p = 98.1;
    let middle = simply_supported_deflection((p, 0.5), 0.5, ei, 1.0);
    assert!((middle / (p / (48.0 * ei)) - 1.0).abs() < 1e-14);
    // Maxwell: the deflection at x under a load at a is the deflection at a under it at x.
    for (a, x) in [(0.2, 0.7), (0.9, 0.35), (0.3, 0.31)] {
        let ax = simply_supported_deflection((p, a), x, ei, 1.0);
        let xa = simply_supported_deflection((p, x), a, ei, 1.0);
        assert!((ax / xa - 1.0).abs() < 1e-13, "{a} {x}");
    }
}

/// The ball's x and the midspan deflection after `duration` s at step `h`.
fn settle(values: &[(&str, f64)], h: f64, duration: f64) -> (Simulation, f64, f64) {
    let mut sim = bridge(values);
    sim.set_time_step(h).unwrap();
    while sim.time() < duration {
        sim.step().unwrap();
        assert!(sim.last_report().converged, "t = {}", sim.time());
    }
    let (x, midspan) = bridge_state(&sim);
    (sim, x, midspan)
}

#[test]
fn a_ball_at_rest_at_midspan_deflects_the_bridge_by_pl3_over_48ei_whatever_the_step() {
    // 1 kg at midspan, implicit penalty steps of 10 and 5 ms (their numerical damping
    // settles the drop within 5 s). The linearly implicit step rests at the exact static
    // equilibrium, so both steps give the same deflection. Gravity is the consistent load of
    // the Hermite element (end moments included), so the nodal deflection is exact with any
    // element count; what is left is the co-rotational beam's geometric stiffening, of order
    // (w/L)² = 1.3e-6 here (6e-6 measured; 1.7e-4 under 10 kg).
    let (ei, _, q) = steel();
    let theory = 9.81 / (48.0 * ei) + uniform_load_midspan_deflection(q, ei, 1.0);
    for n in [4.0, 20.0] {
        let values = [("x0", 0.5), ("v0", 0.0), ("n", n), ("m", 1.0)];
        let (_, x, coarse) = settle(&values, 0.01, 5.0);
        let (_, _, fine) = settle(&values, 0.005, 5.0);
        assert!((coarse / fine - 1.0).abs() < 1e-9, "{coarse} {fine}");
        assert!((x - 0.5).abs() < 1e-5, "the ball rolled to {x}");
        assert!(
            (coarse / theory - 1.0).abs() < 2e-5,
            "{n} elements: {coarse} against {theory}"
        );
    }
}

#[test]
fn the_loaded_bridge_s_first_mode_is_the_modal_series_with_the_ball_on_its_contact_spring() {
    // 10 kg at midspan on k = 1e8 N/m: (K_beam + Jᵀ k J) φ = ω² M φ at the settled state
    // against the series, converging with the element count to the geometric stiffening of
    // the loaded beam (2.4e-4 at w/L = 6.4e-3; 5e-5 under 1 kg).
    let (ei, rho_a, _) = steel();
    let mut errors = Vec::new();
    for n in [20.0, 40.0] {
        let (sim, x, _) = settle(&[("x0", 0.5), ("v0", 0.0), ("n", n)], 0.01, 5.0);
        let omega = sim.modes().omega[0];
        let theory = loaded_bridge_frequency((10.0, 1e8), x, (ei, rho_a, 1.0));
        errors.push(omega / theory - 1.0);
    }
    assert!(errors.iter().all(|e| e.abs() < 5e-4), "{errors:?}");
    assert!(errors[1].abs() < errors[0].abs(), "{errors:?}");
}

#[test]
fn a_ball_rolling_across_follows_the_influence_line_touching_once_with_friction_in_its_cone() {
    // The preset as it opens: 10 kg rolling at 0.1 m/s from 5 cm. After the first second
    // (the start's drop has settled), the midspan deflection is within 1 % of the quasi-static
    // influence line P x(3L² − 4x²)/(48EI) + 5qL⁴/(384EI) — the ball speeds to about 0.23 m/s in
    // the sag, far below the speeds at which a moving load's dynamics tell (ω₁L/π ≈ 12.6 m/s
    // with the loaded ω₁ = 39.5 rad/s).
    let (ei, _, q) = steel();
    let mut sim = bridge(&[]);
    let duration = sim.scene().duration;
    let mut worst: f64 = 0.0;
    let mut passed_midspan = false;
    while sim.time() < duration {
        sim.step().unwrap();
        let report = sim.last_report();
        assert!(report.converged, "t = {}", sim.time());
        assert_eq!(report.contacts.len(), 1, "t = {}", sim.time());
        let c = &report.contacts[0];
        assert!(c.normal > 0.0 && c.friction.abs() <= 0.5 * c.normal * (1.0 + 1e-12));
        let (x, midspan) = bridge_state(&sim);
        passed_midspan |= x > 0.5;
        if sim.time() > 1.0 {
            let theory = simply_supported_deflection((98.1, x), 0.5, ei, 1.0)
                + uniform_load_midspan_deflection(q, ei, 1.0);
            worst = worst.max((midspan / theory - 1.0).abs());
        }
    }
    assert!(passed_midspan);
    assert!(worst < 0.01, "{worst}");
    let (x, _) = bridge_state(&sim);
    assert!(x > 0.9 && x <= 1.0, "the ball ended at {x}");
}

#[test]
fn the_preset_s_theory_lines_are_finite_where_they_compare() {
    let mut sim = bridge(&[("x0", 0.5), ("v0", 0.0)]);
    sim.set_time_step(0.01).unwrap();
    while sim.time() < 3.0 {
        sim.step().unwrap();
    }
    let lines = contactlab::theory::theory(&sim);
    assert_eq!(lines.len(), 4);
    for line in &lines[..3] {
        assert!(
            line.predicted.is_finite() && line.simulated.is_finite(),
            "{line:?}"
        );
        assert!(
            (line.simulated / line.predicted - 1.0).abs() < 1e-3,
            "{}: {} against {}",
            line.label,
            line.simulated,
            line.predicted
        );
    }
    // The bare bridge's line compares only once the ball is off it.
    assert!(lines[3].simulated.is_nan());
}

#[test]
fn a_ball_thrown_sliding_onto_the_bridge_feels_coulomb_friction_never_above_mu_n() {
    // 1 m/s without spin: it slides until rolling (v = 2v₀/3 for a disk). The implicit drag's
    // coefficient comes from the larger of the start and end slips, so the force is μN while
    // it slides fast and never above it.
    let base = bridge(&[("v0", 1.0), ("x0", 0.1)]);
    let mut scene = base.scene().clone();
    scene.bodies[0].angular_velocity = 0.0;
    let mut sim = Simulation::from_scene(scene).unwrap();
    let mut sliding_steps = 0;
    for _ in 0..300 {
        sim.step().unwrap();
        let report = sim.last_report();
        assert!(report.converged, "t = {}", sim.time());
        for c in &report.contacts {
            assert!(
                c.friction.abs() <= 0.5 * c.normal * (1.0 + 1e-9),
                "t = {}: |F| {} above μN {}",
                sim.time(),
                c.friction.abs(),
                0.5 * c.normal
            );
            if c.normal > 0.0 && c.friction.abs() >= 0.45 * c.normal {
                sliding_steps += 1;
            }
        }
    }
    assert!(
        sliding_steps > 10,
        "{sliding_steps} steps at Coulomb's bound"
    );
    // Rolling by the end: v = ω R to the slip regularisation.
    let v = &sim.system().v;
    assert!(
        (v[0] + v[2] * 0.05).abs() < 0.02,
        "slip {}",
        v[0] + v[2] * 0.05
    );
}
