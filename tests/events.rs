//! Events measured while a run goes (first impact, accumulation, lift-off, end of slip, stop)
//! against their closed forms, through the theory lines the page shows: each within the
//! step in which it happens.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;
use contactlab::theory::theory;

/// Runs `preset` for `seconds` and returns (predicted, measured) of the theory line whose
/// label starts with `label`, and h.
fn measure(preset: &str, sets: &[(&str, f64)], seconds: f64, label: &str) -> (f64, f64, f64) {
    let o: Vec<(String, f64)> = sets.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let mut sim = Simulation::from_preset(preset, &o).unwrap();
    let h = sim.time_step();
    let mut seen = f64::NAN;
    while sim.system().t < seconds {
        sim.step().unwrap();
        let line = theory(&sim)
            .into_iter()
            .find(|l| l.label.starts_with(label))
            .unwrap_or_else(|| panic!("{preset} has no line '{label}'"));
        // Once measured, an event's value stays put.
        if seen.is_finite() {
            assert_eq!(
                line.simulated, seen,
                "{preset}: {label} changed after it was measured"
            );
        }
        seen = line.simulated;
        if seen.is_finite() {
            return (line.predicted, seen, h);
        }
    }
    panic!("{preset}: '{label}' not measured within {seconds} s");
}

/// The event is seen at the end of the step in which it happens: in [predicted, predicted + h].
fn within_the_step(what: &str, (predicted, measured, h): (f64, f64, f64)) {
    println!("{what}: measured {measured}, predicted {predicted}, h {h}");
    assert!(
        measured >= predicted - 1e-12 && measured <= predicted + h + 1e-9,
        "{what}: {measured} against {predicted}"
    );
}

#[test]
fn first_impact_of_the_bouncing_ball_within_one_step_of_the_free_fall_time() {
    within_the_step(
        "bouncing-ball first impact",
        measure("bouncing-ball", &[], 3.0, "first impact"),
    );
}

#[test]
fn impacts_of_the_bouncing_ball_accumulate_at_t_infinity() {
    let (predicted, measured, h) = measure("bouncing-ball", &[], 6.0, "impacts accumulate");
    println!("bouncing-ball t_inf {predicted} {measured} h {h}");
    assert!(
        (measured - predicted).abs() <= 2.0 * h,
        "{measured} against {predicted}"
    );
}

#[test]
fn the_load_cell_lifts_off_at_mg_over_rate() {
    within_the_step("load-cell", measure("load-cell", &[], 5.0, "lift-off"));
}

#[test]
fn the_sliding_sphere_rolls_from_t_star() {
    within_the_step(
        "sphere-slide",
        measure("sphere-slide", &[], 3.0, "rolling from t*"),
    );
}

#[test]
fn rolling_and_spinning_resistance_stop_the_sphere_on_time() {
    within_the_step(
        "rolling",
        measure("sphere-rolling-resistance", &[], 20.0, "stops at"),
    );
    within_the_step("spin", measure("sphere-spin", &[], 20.0, "stops at"));
}

#[test]
fn the_disk_leaves_the_fixed_disk_at_cos_phi_two_thirds_cos_phi0() {
    let (predicted, measured, h) = measure(
        "disk-over-disk",
        &[("baumgarte", 20.0)],
        5.0,
        "lift-off angle",
    );
    println!("disk-over-disk {predicted} {measured} h {h}");
    // The angle moves by ω h ≈ 3.3 rad/s × 1 ms per step at lift-off: within 1.5 steps.
    assert!(
        (measured - predicted).abs() < 0.005,
        "{measured} against {predicted}"
    );
}

#[test]
fn the_two_spheres_meet_at_4r_over_v0_and_separate_at_e_v0() {
    within_the_step(
        "two-spheres impact",
        measure("two-spheres", &[], 1.0, "spheres meet"),
    );
    // Newton's law at the sphere–sphere contact, with friction coupling the floor contacts
    // into the impact (μ = 0.3): exact to the solver's tolerance.
    for (mu, e) in [(0.3, 0.9), (0.8, 0.5), (0.0, 0.9)] {
        let (predicted, measured, _) = measure(
            "two-spheres",
            &[("mu", mu), ("e", e)],
            1.0,
            "separation speed",
        );
        println!("two-spheres μ = {mu}, e = {e}: separation {measured} against {predicted}");
        assert!(
            (measured - predicted).abs() < 1e-6 * predicted,
            "μ = {mu}, e = {e}: {measured} against {predicted}"
        );
    }
    // Without friction momentum is kept too: (1 ∓ e) v₀/2.
    for label in ["v_A after impact", "v_B after impact"] {
        let (predicted, measured, _) =
            measure("two-spheres", &[("mu", 0.0), ("e", 0.6)], 1.0, label);
        assert!(
            (measured - predicted).abs() < 1e-9,
            "{label}: {measured} against {predicted}"
        );
    }
}
