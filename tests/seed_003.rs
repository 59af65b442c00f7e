//! Seed 003 through the public API: coupled penalty modes, the decoupled miss, zero modes, and
//! the central-difference stability limit (reference case S4).
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;
use contactlab::measure::measure_run;
use contactlab::modes::time_step_limit;

const M: f64 = 2.0;
const I: f64 = 0.005;
const A: f64 = 0.1;
const K: f64 = 1e5;

fn bar(preset: &str, sets: &[(&str, f64)]) -> Simulation {
    let o: Vec<(String, f64)> = sets.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    Simulation::from_preset(preset, &o).unwrap()
}

#[test]
fn s4_coupled_frequencies_and_the_decoupled_estimate() {
    let analysis = bar("rocking-bar", &[]).modes();
    let heave = (2.0 * K / M).sqrt();
    let rock = (2.0 * K * A * A / I).sqrt();
    assert!((heave - 316.23).abs() < 0.005 && (rock - 632.46).abs() < 0.005);
    assert_eq!(analysis.omega.len(), 2);
    assert!(
        (analysis.omega[0] - heave).abs() < 1e-9 * heave,
        "{:?}",
        analysis.omega
    );
    assert!((analysis.omega[1] - rock).abs() < 1e-9 * rock);
    // A = [[2.5, −1.5], [−1.5, 2.5]] 1/kg: each contact alone gives √(k·2.5) = 500 rad/s.
    for w in &analysis.decoupled_omega {
        assert!((w - 500.0).abs() < 1e-9, "decoupled {w}");
    }
    // Heave moves both gaps together, rocking opposes them.
    assert_eq!(analysis.mode_shapes[0], vec![1.0, 1.0]);
    let r = &analysis.mode_shapes[1];
    assert!(
        (r[0] - 1.0).abs() < 1e-12 && (r[1] + 1.0).abs() < 1e-12,
        "{r:?}"
    );
    assert_eq!(analysis.zero_modes, 0);
    // Sliding along the floor is a free motion (J q = 0).
    assert_eq!(analysis.free_motions, 1);
    assert!(analysis.omega_max_bound >= rock * (1.0 - 1e-12));
}

#[test]
fn s4_central_difference_limit_is_two_over_omega_max() {
    let analysis = bar("rocking-bar", &[]).modes();
    let limit = time_step_limit("penalty-explicit", &analysis.omega, K, 0.0).unwrap();
    assert!((limit - 3.162e-3).abs() < 1e-6, "limit {limit}");
    assert_eq!(
        time_step_limit("penalty-implicit", &analysis.omega, K, 0.0),
        None
    );
}

/// Spectral radius of the damped central-difference recurrence for one mode (x, v).
fn damped_radius(h: f64, k_lambda: f64, c_lambda: f64) -> f64 {
    use nalgebra::Matrix2;
    // v⁺ = v − h(kλ x + cλ v), x⁺ = x + h v⁺.
    let a = Matrix2::new(
        1.0 - h * h * k_lambda,
        h * (1.0 - h * c_lambda),
        -h * k_lambda,
        1.0 - h * c_lambda,
    );
    a.complex_eigenvalues()
        .iter()
        .map(|z| z.norm())
        .fold(0.0, f64::max)
}

#[test]
fn the_damped_limit_is_where_the_recurrence_loses_stability() {
    // The penalty block: one contact under m = 2 kg (λ = 1/m), k = 1e5 N/m, c = 200 N·s/m.
    let mut sim = bar("penalty-block", &[]);
    sim.step().unwrap(); // compress the contact a little so it has a mode
    let limit = sim.time_step_limit().expect("explicit penalty has a limit");
    let (kl, cl) = (1e5 / 2.0, 200.0 / 2.0);
    assert!(
        damped_radius(0.99 * limit, kl, cl) < 1.0,
        "stable just below {limit}"
    );
    assert!(
        damped_radius(1.01 * limit, kl, cl) > 1.0,
        "unstable just above {limit}"
    );
    // Damping tightens the limit below 2/ω = 8.94 ms.
    assert!(limit < 2.0 / (1e5f64 / 2.0).sqrt());
    // Heavy damping (c = 1e5 N·s/m on the same mode): close to 2/(cλ), far below 2/ω.
    let omega = sim.modes().omega;
    let limit = time_step_limit("penalty-explicit", &omega, 1e5, 1e5).unwrap();
    let cl = 1e5 / 2.0;
    assert!(
        limit <= 2.0 / cl && limit > 0.99 * 2.0 / cl,
        "limit {limit}"
    );
    assert!(damped_radius(0.99 * limit, kl, cl) < 1.0 && damped_radius(1.01 * limit, kl, cl) > 1.0);
}

#[test]
fn s4_frequencies_measured_from_the_trace_within_half_a_percent() {
    let heave = (2.0 * K / M).sqrt();
    let rock = (2.0 * K * A * A / I).sqrt();
    for (kind, mode, expected) in [(0.0, 0, heave), (1.0, 1, rock)] {
        for amplitude in [1e-5, 2e-6] {
            let mut sim = bar("rocking-bar", &[("kind", kind), ("amplitude", amplitude)]);
            for h in [1e-4, 5e-5] {
                sim.reset().unwrap();
                sim.set_time_step(h).unwrap();
                let m = measure_run(&mut sim, 0.1).unwrap();
                let measured = m.measured_omega[mode].expect("the perturbed mode is excited");
                assert!(
                    ((measured - expected) / expected).abs() < 0.005,
                    "kind {kind}, amplitude {amplitude}, h {h}: {measured} vs {expected}"
                );
                // The other mode is not excited by this perturbation.
                assert_eq!(m.measured_omega[1 - mode], None);
                assert!(!m.opened);
                assert_eq!(m.frequency_count, [2, 2]);
            }
        }
    }
}

#[test]
fn s4_three_milliseconds_stays_bounded_and_three_point_three_grows() {
    let tiny = [("kind", 1.0), ("amplitude", 1e-8)];
    let mut sim = bar("rocking-bar", &tiny);
    sim.set_time_step(3.0e-3).unwrap();
    let stable = measure_run(&mut sim, 3.0).unwrap();
    // Bounded: central difference at hω = 1.897 keeps the amplitude within 1/√(1 − (hω/2)²) ≈ 3.2.
    assert!(stable.growth < 4.0, "h = 3.0 ms: growth {}", stable.growth);
    assert!(!stable.opened);
    // Its measured rocking frequency follows the dispersion relation sin(ω̃h/2) = ωh/2.
    let h = 3.0e-3;
    let rock = (2.0 * K * A * A / I).sqrt();
    let discrete = 2.0 / h * (rock * h / 2.0).asin();
    let measured = stable.measured_omega[1].unwrap();
    assert!(
        ((measured - discrete) / discrete).abs() < 0.01,
        "{measured} vs {discrete}"
    );

    let mut sim = bar("rocking-bar", &tiny);
    sim.set_time_step(3.3e-3).unwrap();
    let unstable = measure_run(&mut sim, 0.2).unwrap();
    assert!(unstable.max_h_omega > 2.0);
    assert!(
        unstable.growth > 100.0,
        "h = 3.3 ms: growth {}",
        unstable.growth
    );
}

#[test]
fn three_supports_have_exactly_one_zero_mode() {
    let analysis = bar("three-support-bar", &[]).modes();
    assert_eq!(analysis.zero_modes, 1);
    assert_eq!(analysis.omega.len(), 2);
    let heave = (3.0 * K / M).sqrt();
    let rock = (2.0 * K * A * A / I).sqrt();
    assert!(
        (analysis.omega[0] - heave).abs() < 1e-9 * heave,
        "{:?}",
        analysis.omega
    );
    assert!((analysis.omega[1] - rock).abs() < 1e-9 * rock);
}

#[test]
fn unloading_a_contact_changes_the_frequency_count() {
    // The preload overlap is mg/(2k) = 98.1 µm per support: an antisymmetric rocking of 90 µm
    // keeps both compressed, one of 150 µm lifts a support every half period.
    let mut small = bar("rocking-bar", &[("kind", 1.0), ("amplitude", 9e-5)]);
    let m = measure_run(&mut small, 0.05).unwrap();
    assert_eq!(m.frequency_count, [2, 2]);
    let mut large = bar("rocking-bar", &[("kind", 1.0), ("amplitude", -1.5e-4)]);
    let trace = large.run(500, 1).unwrap();
    let counts: Vec<usize> = trace
        .samples
        .iter()
        .map(|s| s.modes.as_ref().unwrap().frequencies.len())
        .collect();
    assert!(
        counts.contains(&2) && counts.contains(&1),
        "counts seen: {:?}",
        {
            let mut c = counts.clone();
            c.dedup();
            c
        }
    );
    // A single compressed support under a bar: its lone frequency is √(k (1/m + a²/I)) = 500.
    let lone = trace
        .samples
        .iter()
        .map(|s| s.modes.clone().unwrap())
        .find(|m| m.frequencies.len() == 1)
        .unwrap();
    assert!(
        (lone.frequencies[0] - 500.0).abs() < 5.0,
        "{:?}",
        lone.frequencies
    );
}

#[test]
fn modal_energy_of_a_symmetric_perturbation_is_all_heave() {
    // Displacing both gaps by δ stores ½ (2k) δ² in the heave mode and nothing in rocking.
    let delta = 1e-5;
    let sim = bar("rocking-bar", &[("kind", 0.0), ("amplitude", delta)]);
    let (_, energy) = sim.modes_with_energy();
    let expected = 0.5 * 2.0 * K * delta * delta;
    assert!(
        ((energy[0] - expected) / expected).abs() < 1e-6,
        "{energy:?}"
    );
    assert!(energy[1] < 1e-12 * expected);
}

/// The theory panel's stability line: its simulated value is 2/ω_max of the modes the library
/// computes (here both are √(2k/m) and √(2ka²/I): 2/632.46 s), not the step in use.
#[test]
fn the_theory_panels_stability_limit_is_computed_not_the_step() {
    let sim = bar("rocking-bar", &[]);
    let lines = contactlab::theory::theory(&sim);
    let limit = lines
        .iter()
        .find(|l| l.label.starts_with("central-difference limit"))
        .expect("the rocking bar has a stability line");
    let rock = (2.0 * K * A * A / I).sqrt();
    assert!((limit.predicted - 2.0 / rock).abs() < 1e-12);
    assert!(
        (limit.simulated - 2.0 / rock).abs() < 1e-9 * limit.predicted,
        "{} against {}",
        limit.simulated,
        2.0 / rock
    );
    assert!((limit.simulated - sim.time_step()).abs() > 1e-6);
}

/// Modes are sampled (every JSON line, every frame on the page) only for systems of at most
/// 128 coordinates: the analysis is dense. A penalty pile of 30 spheres (180 coordinates)
/// samples none (but a bound on h·ω_max), yet gives its modes when asked; its spheres resting
/// on the floor alone have the decoupled frequency √(k/m) (the normal row through the
/// centre: A_ii = 1/m). The rocking bar (3 coordinates) samples its coupled heave √(2k/m).
#[test]
fn a_system_past_128_coordinates_samples_no_modes_but_gives_them_when_asked() {
    let mut pile = Simulation::from_preset("pile", &[("N".to_string(), 30.0)]).unwrap();
    pile.set_stepper("penalty-implicit").unwrap();
    for _ in 0..120 {
        pile.step().unwrap();
    }
    assert!(!pile.modes_sampled());
    assert!(pile.sample_with_modes().modes.is_none());
    let k = pile.scene().material.stiffness;
    let m = 4.0 / 3.0 * std::f64::consts::PI * 0.05f64.powi(3) * 1000.0;
    let on_floor = (k / m).sqrt();
    let modes = pile.modes();
    assert!(
        !modes.omega.is_empty(),
        "compressed penalty contacts oscillate"
    );
    let floor_contacts = modes
        .decoupled_omega
        .iter()
        .filter(|w| (**w - on_floor).abs() <= 1e-9 * on_floor)
        .count();
    assert!(
        floor_contacts >= 25,
        "{floor_contacts} contacts at √(k/m) = {on_floor} rad/s: {:?}",
        modes.decoupled_omega
    );
    // Instead it samples Gershgorin's bound on h·ω_max (`frequency_bound.rs`): above every
    // coupled mode, and so above every contact's own √(kᵢAᵢᵢ) (a Rayleigh quotient).
    let h = pile.time_step();
    let bound = pile
        .sample_with_modes()
        .h_omega_bound
        .expect("a penalty stepper's large system samples the bound");
    let largest_decoupled = modes.decoupled_omega.iter().fold(0.0f64, |a, &b| a.max(b));
    assert!(
        bound >= h * modes.omega_max(),
        "{bound} < h ω_max = {}",
        h * modes.omega_max()
    );
    assert!(bound >= h * largest_decoupled);
    assert_eq!(
        pile.time_step_limit_bound(),
        None,
        "backward Euler has no limit"
    );
    // Under central difference the step it proves stable is below the exact limit; at the
    // pile's h, two spheres pressed together alone have h √(2k/m) = 2.57 > 2, so it is below h.
    pile.set_stepper("penalty-explicit").unwrap();
    let safe = pile.time_step_limit_bound().expect("an explicit limit");
    let exact = pile.time_step_limit().expect("an explicit limit");
    assert!(
        safe <= exact,
        "bound's step {safe} s above the exact limit {exact} s"
    );
    assert!(
        safe < h && exact < h,
        "h = {h} s, limits {safe} and {exact} s"
    );
    assert!(h * (2.0 * k / m).sqrt() > 2.0);

    let bar = bar("rocking-bar", &[]);
    assert!(bar.modes_sampled());
    let sampled = bar
        .sample_with_modes()
        .modes
        .expect("a small system samples its modes");
    let heave = (2.0 * K / M).sqrt();
    assert!(
        (sampled.frequencies[0] - heave).abs() <= 1e-9 * heave,
        "heave {} against √(2k/m) = {heave}",
        sampled.frequencies[0]
    );
}

/// Gershgorin's bound on h·ω_max (`frequency_bound.rs`) decides a large system's explicit
/// step: the pile of 30 at its default k = 1e5 N/m has two spheres pressed together with
/// h√(2k/m) = 2.57 > 2, and central difference diverges there; at k = 2e4 N/m the bound stays
/// below 2 at every step, and the run is stable: no step refused, and no contact ever holds
/// more than the energy the pile started with (½ k d² ≤ E₀).
#[test]
fn the_bound_on_h_omega_tells_a_stable_explicit_pile_from_an_unstable_one() {
    let run = |k: f64| {
        let params = [("N".to_string(), 30.0), ("k".to_string(), k)];
        let mut pile = Simulation::from_preset("pile", &params).unwrap();
        pile.set_stepper("penalty-explicit").unwrap();
        let start = pile.energy();
        let (mut worst_bound, mut deepest) = (0.0f64, 0.0f64);
        for _ in 0..pile.steps_for(2.0) {
            if pile.step().is_err() {
                return (worst_bound, deepest, start, false);
            }
            let sample = pile.sample_with_modes();
            worst_bound = worst_bound.max(sample.h_omega_bound.unwrap());
            deepest = sample
                .contacts
                .iter()
                .map(|c| c.gap)
                .fold(deepest, f64::min);
        }
        (worst_bound, deepest, start, true)
    };
    let (bound, deepest, start, finished) = run(2e4);
    assert!(finished, "the soft pile's explicit run failed");
    assert!(bound < 2.0, "h·ω_max ≤ {bound}");
    assert!(
        0.5 * 2e4 * deepest * deepest <= start,
        "overlap {deepest} m"
    );
    let (bound, _, _, finished) = run(1e5);
    assert!(bound > 2.0, "h·ω_max ≤ {bound} at the default stiffness");
    assert!(
        !finished,
        "central difference above its limit did not diverge in 2 s"
    );
}
