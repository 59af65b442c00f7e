//! Flexible beams (seed 002's flexible elements): the co-rotational element's forces and
//! tangent are exact derivatives, rigid motions strain nothing, and the cantilever meets its
//! closed forms: PL³/(3EI) for a small load, the elastica for large ones, the flexural
//! frequencies (βₙL)²√(EI/(ρAL⁴)).
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;
use contactlab::beam_theory::{cantilever_elastica, cantilever_frequency, cantilever_wavenumber};
use contactlab::model::corotational::{Element, SectionStiffness};
use contactlab::scene::Scene;
use contactlab::statics::static_equilibrium;

const SECTION: SectionStiffness = SectionStiffness {
    axial: 2.1e11 * 1e-4,
    bending: 2.1e11 * 1e-8 / 12.0,
};

/// A steel cantilever 1 m long, 10 mm × 10 mm, clamped at x = 0, with a tip load `p` (N)
/// downward and no gravity.
fn cantilever(elements: usize, p: f64, mass: &str) -> Simulation {
    let json = format!(
        r#"{{"gravity": [0, 0], "bodies": [],
            "beams": [{{"name": "rod", "start": [0, 0], "end": [1, 0], "elements": {elements},
                "youngs_modulus": 2.1e11, "density": 7850, "width": 0.01, "height": 0.01,
                "supports": ["clamped", "free"], "mass": "{mass}"}}],
            "forces": [{{"type": "constant", "body": "rod", "force": [0, {}]}}],
            "stepper": {{"kind": "nsga"}}}}"#,
        -p
    );
    Simulation::from_scene(Scene::from_json(&json).unwrap()).unwrap()
}

fn bending() -> f64 {
    SECTION.bending
}

#[test]
fn the_element_force_is_the_energy_gradient_and_the_tangent_its_derivative() {
    let el = Element::new([0.0, 0.0, 0.0], [0.5, 0.0, 0.0]);
    let d = [0.01, -0.02, 0.3, 0.47, 0.15, -0.2];
    let state = |d: &[f64; 6]| el.state(SECTION, [d[0], d[1], d[2]], [d[3], d[4], d[5]]);
    let st = state(&d);
    let f = st.internal_force();
    let k = st.tangent(SECTION, el.length);
    for j in 0..6 {
        let eps = 1e-7;
        let mut plus = d;
        let mut minus = d;
        plus[j] += eps;
        minus[j] -= eps;
        let (sp, sm) = (state(&plus), state(&minus));
        let grad = (el.energy(SECTION, &sp) - el.energy(SECTION, &sm)) / (2.0 * eps);
        assert!(
            (grad - f[j]).abs() <= 1e-6 * f.iter().fold(0.0f64, |m, x| m.max(x.abs())),
            "f[{j}] = {} against dV/dd = {grad}",
            f[j]
        );
        let (fp, fm) = (sp.internal_force(), sm.internal_force());
        for i in 0..6 {
            let fd = (fp[i] - fm[i]) / (2.0 * eps);
            let scale = k.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
            assert!(
                (fd - k[i][j]).abs() <= 1e-6 * scale,
                "K[{i}][{j}] = {} against {fd}",
                k[i][j]
            );
            assert!((k[i][j] - k[j][i]).abs() <= 1e-9 * scale, "K not symmetric");
        }
    }
}

#[test]
fn a_rigid_motion_strains_nothing() {
    let el = Element::new([0.1, 0.2, 0.3], [0.6, 0.2 + 0.5 * 0.3f64.tan(), 0.3]);
    // Turn the element by 2.5 rad about a far point and move it.
    let (c, s) = (2.5f64.cos(), 2.5f64.sin());
    let turn = |p: [f64; 3]| {
        let (x, y) = (p[0] - 3.0, p[1] + 1.0);
        [c * x - s * y + 7.0, s * x + c * y - 4.0, p[2] + 2.5]
    };
    let a = [0.1, 0.2, 0.3];
    let b = [0.6, 0.2 + 0.5 * 0.3f64.tan(), 0.3];
    let st = el.state(SECTION, turn(a), turn(b));
    assert!(st.stretch.abs() < 1e-14, "stretch {}", st.stretch);
    assert!(
        st.rotations.iter().all(|r| r.abs() < 1e-14),
        "{:?}",
        st.rotations
    );
    assert!(el.energy(SECTION, &st) < 1e-12);
}

/// The tip's (x, y, θ): the last three generalized positions of a cantilever.
fn tip(q: &nalgebra::DVector<f64>) -> (f64, f64, f64) {
    let n = q.len();
    (q[n - 3], q[n - 2], q[n - 1])
}

#[test]
fn a_small_tip_load_deflects_the_cantilever_by_pl3_over_3ei_with_any_element_count() {
    // Hermite elements are exact for a tip load in linear theory; at P = 1 mN the
    // deflection is 2e-6 L, so the geometric nonlinearity is ~1e-12 relative.
    let p = 1e-3;
    let exact = p / (3.0 * bending());
    for n in [1, 2, 4, 10] {
        let sim = cantilever(n, p, "consistent");
        let eq = static_equilibrium(sim.system(), 1, 1e-12).unwrap();
        let (_, y, theta) = tip(&eq.q);
        assert!(
            (-y - exact).abs() <= 1e-6 * exact,
            "n = {n}: {} against {exact}",
            -y
        );
        // Tip slope PL²/(2EI).
        let slope = p / (2.0 * bending());
        assert!(
            (-theta - slope).abs() <= 1e-6 * slope,
            "n = {n}: slope {}",
            -theta
        );
    }
}

#[test]
fn the_elastica_of_bisshopp_and_drucker() {
    // Their table: PL²/EI = 1 gives δ_v/L = 0.30172 and δ_h/L = 0.05643.
    let e = cantilever_elastica(1.0);
    assert!((e.deflection - 0.30172).abs() < 1e-5, "{e:?}");
    assert!((e.shortening - 0.05643).abs() < 1e-5, "{e:?}");
    // Small loads: α/3 and the slope α/2.
    let small = cantilever_elastica(1e-4);
    assert!((small.deflection / (1e-4 / 3.0) - 1.0).abs() < 1e-4);
    assert!((small.tip_angle / 0.5e-4 - 1.0).abs() < 1e-4);
}

/// A slender cantilever (1 mm high: axial strain P/EA ~ 1e-7 α, so the inextensible
/// elastica is the right reference to 1e-6) under PL²/EI = `alpha`, solved statically.
fn slender_tip(elements: usize, alpha: f64) -> (f64, f64, f64) {
    let ei = 2.1e11 * 0.01 * 1e-9 / 12.0;
    let json = format!(
        r#"{{"gravity": [0, 0], "bodies": [],
            "beams": [{{"name": "rod", "start": [0, 0], "end": [1, 0], "elements": {elements},
                "youngs_modulus": 2.1e11, "density": 7850, "width": 0.01, "height": 0.001,
                "supports": ["clamped", "free"]}}],
            "forces": [{{"type": "constant", "body": "rod", "force": [0, {}]}}],
            "stepper": {{"kind": "nsga"}}}}"#,
        -alpha * ei
    );
    let sim = Simulation::from_scene(Scene::from_json(&json).unwrap()).unwrap();
    let eq = static_equilibrium(sim.system(), 10, 1e-10).unwrap();
    // Equilibrium to the rounding of the internal forces (EA ε ≈ 5e-10 N per element).
    assert!(eq.residual <= 1e-6 * eq.load, "residual {}", eq.residual);
    let (x, y, theta) = tip(&eq.q);
    (-y, 1.0 - x, -theta)
}

#[test]
fn large_deflections_converge_to_the_elastica_at_second_order_in_the_element_length() {
    for (alpha, elements) in [(1.0, 40), (3.0, 40), (10.0, 80)] {
        let e = cantilever_elastica(alpha);
        let (dv, dh, angle) = slender_tip(elements, alpha);
        assert!(
            (dv - e.deflection).abs() <= 1e-4,
            "α = {alpha}: δ_v {dv} against {}",
            e.deflection
        );
        assert!(
            (dh - e.shortening).abs() <= 1e-4,
            "α = {alpha}: δ_h {dh} against {}",
            e.shortening
        );
        assert!(
            (angle - e.tip_angle).abs() <= 1e-4,
            "α = {alpha}: θ {angle} against {}",
            e.tip_angle
        );
    }
    // The order: halving the elements divides the error by about 4.
    let e = cantilever_elastica(3.0);
    let errors: Vec<f64> = [10, 20, 40]
        .iter()
        .map(|&n| (slender_tip(n, 3.0).0 - e.deflection).abs())
        .collect();
    for pair in errors.windows(2) {
        let order = (pair[0] / pair[1]).log2();
        assert!((1.8..2.3).contains(&order), "order {order} from {errors:?}");
    }
}

#[test]
fn the_cantilever_frequencies_are_within_0_1_percent_with_40_elements_and_converge_at_second_order()
{
    let rho_a = 7850.0 * 1e-4;
    let exact: Vec<f64> = (1..=2)
        .map(|k| cantilever_frequency(k, bending(), rho_a, 1.0))
        .collect();
    // (βL)² = 3.5160 and 22.0345.
    assert!((cantilever_wavenumber(1) - 1.875_104_068_7).abs() < 1e-9);
    assert!((cantilever_wavenumber(2) - 4.694_091_132_97).abs() < 1e-9);
    let error = |n: usize| -> Vec<f64> {
        let modes = cantilever(n, 0.0, "consistent").modes();
        assert_eq!(modes.free_motions, 0, "a clamped beam has no free motion");
        (0..2).map(|k| modes.omega[k] / exact[k] - 1.0).collect()
    };
    let (e20, e40) = (error(20), error(40));
    for k in 0..2 {
        assert!(e40[k].abs() <= 1e-3, "mode {}: {:.2e}", k + 1, e40[k]);
        let order = (e20[k] / e40[k]).abs().log2();
        assert!((1.8..2.3).contains(&order), "mode {}: order {order}", k + 1);
    }
}

/// A free rod 1 m long (E = 1e9 Pa, ρ = 1000 kg/m³: c = 1000 m/s), 10 mm square, moving at
/// 1 m/s towards a rigid wall 1 mm beyond its rounded end.
fn rod_rho(elements: usize, mass: &str, stepper: &str, h: f64, rho: f64) -> Simulation {
    let json = format!(
        r#"{{"gravity": [0, 0],
            "bodies": [{{"name": "wall", "fixed": true, "position": [1.006, 0], "angle": 1.5707963267948966,
                "shape": {{"type": "half_plane"}}}}],
            "beams": [{{"name": "rod", "start": [0, 0], "end": [1, 0], "elements": {elements},
                "youngs_modulus": 1e9, "density": 1000, "width": 0.01, "height": 0.01,
                "mass": "{mass}", "velocity": [1, 0]}}],
            "material": {{"friction": 0, "restitution": 0}},
            "stepper": {{"kind": "{stepper}", "dt": {h}, "spectral_radius": {rho}}}}}"#
    );
    Simulation::from_scene(Scene::from_json(&json).unwrap()).unwrap()
}

/// The rod's contact force at each step (N), from the wall's contact reports.
fn rod_forces(sim: &mut Simulation, duration: f64) -> Vec<(f64, f64)> {
    let h = sim.time_step();
    (0..(duration / h).round() as usize)
        .map(|_| {
            sim.step().unwrap();
            assert!(
                sim.last_report().converged,
                "t = {}: {:?}",
                sim.time(),
                sim.last_report()
            );
            let force = sim.last_report().contacts.iter().map(|c| c.normal).sum();
            (sim.time(), force)
        })
        .collect()
}

/// The mean force on the plateau, between 1.5 and 2.5 ms, N.
fn plateau(forces: &[(f64, f64)]) -> f64 {
    let inside: Vec<f64> = forces
        .iter()
        .filter(|(t, _)| (1.5e-3..2.5e-3).contains(t))
        .map(|f| f.1)
        .collect();
    inside.iter().sum::<f64>() / inside.len() as f64
}

/// Times at which the force first rises through and last falls through `level`, linearly
/// interpolated between steps.
fn crossings(forces: &[(f64, f64)], level: f64) -> (f64, f64) {
    let cross = |a: (f64, f64), b: (f64, f64)| a.0 + (level - a.1) / (b.1 - a.1) * (b.0 - a.0);
    let rise = forces
        .windows(2)
        .find(|w| w[0].1 < level && w[1].1 >= level)
        .unwrap();
    let fall = forces
        .windows(2)
        .rev()
        .find(|w| w[0].1 >= level && w[1].1 < level)
        .unwrap();
    (cross(rise[0], rise[1]), cross(fall[0], fall[1]))
}

#[test]
fn an_elastic_rod_strikes_a_wall_for_2l_over_c_with_force_rho_c_a_v0_and_leaves_at_v0() {
    let (duration, force, speed) = contactlab::beam_theory::rod_impact(1.0, 1e9, 1000.0, 1e-4, 1.0);
    assert!((duration - 2e-3).abs() < 1e-15 && (force - 100.0).abs() < 1e-9);
    let h = 1e-5;
    let mut sim = rod_rho(100, "consistent", "nsga", h, 1.0);
    let e0 = sim.energy();
    let forces = rod_forces(&mut sim, 5e-3);
    // The rod's rounded end meets the wall after its 1 mm gap at 1 m/s.
    let first = forces.iter().find(|f| f.1 > 0.0).unwrap().0;
    assert!(
        first > 1e-3 && first <= 1e-3 + h,
        "contact starts at {first}"
    );
    let (start, end) = crossings(&forces, 0.5 * force);
    // The pulse's width at half its plateau (the discrete wave front spreads the ends over a
    // few elements' transit times l/c = 1e-5 s).
    assert!(
        (end - start - duration).abs() <= h,
        "pulse {} s against 2L/c = {duration}",
        end - start
    );
    let mean = plateau(&forces);
    assert!(
        (mean - force).abs() <= 1e-3 * force,
        "plateau {mean} N against ρcAv₀ = {force}"
    );
    // Rebound: the rod's momentum over its mass after it leaves.
    let system = sim.system();
    let p = system.mass().apply(&system.v);
    let momentum: f64 = (0..p.len()).step_by(3).map(|i| p[i]).sum();
    let rebound = momentum / (1000.0 * 1e-4);
    assert!(
        (rebound + speed).abs() <= 0.01 * speed,
        "rebound {rebound} m/s against −{speed}"
    );
    // The energy stays below its start (the inelastic node contact only takes some away).
    assert!(
        sim.energy() <= e0 && sim.energy() >= 0.98 * e0,
        "{} -> {}",
        e0,
        sim.energy()
    );
}

#[test]
fn moreau_jean_refuses_a_step_beyond_the_explicit_limit_and_keeps_the_rod_below_it() {
    // The bound 2/ω_max from the elements lies below the assembled rod's true limit.
    let sim = rod_rho(100, "lumped", "moreau-jean", 1e-6, 1.0);
    let limit = sim.system().explicit_step_limit().unwrap();
    let omega_max = sim.modes().omega_max();
    assert!(
        2.0 / omega_max >= limit && 2.0 / omega_max <= 2.0 * limit,
        "{limit} against 2/ω_max = {}",
        2.0 / omega_max
    );
    let mut fast = rod_rho(100, "lumped", "moreau-jean", 1e-5, 1.0);
    let error = fast.step().unwrap_err().to_string();
    assert!(
        error.contains("stepper.dt") && error.contains("2/ω_max"),
        "{error}"
    );
    assert_eq!(fast.time(), 0.0, "a refused step changes nothing");
    // Below it the rod rebounds like under NSGA, with the same plateau force.
    let mut sim = rod_rho(100, "lumped", "moreau-jean", 0.5 * limit, 1.0);
    let mean = plateau(&rod_forces(&mut sim, 4e-3));
    assert!((mean - 100.0).abs() <= 1e-3 * 100.0, "plateau {mean}");
}

fn preset(name: &str, values: &[(&str, f64)]) -> Simulation {
    let overrides: Vec<(String, f64)> = values.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    Simulation::from_preset(name, &overrides).unwrap()
}

#[test]
fn the_rod_impact_preset_meets_its_theory_lines() {
    let mut sim = preset("elastic-rod-impact", &[]);
    let h = sim.time_step();
    while sim.time() < sim.scene().duration {
        sim.step().unwrap();
        assert!(sim.last_report().converged);
    }
    let lines = contactlab::theory::theory(&sim);
    assert_eq!(lines.len(), 3);
    assert!(
        (lines[0].simulated - lines[0].predicted).abs() <= h,
        "{:?}",
        lines[0]
    );
    assert!(
        (lines[1].simulated - lines[1].predicted).abs() <= 1e-3 * lines[1].predicted,
        "{:?}",
        lines[1]
    );
    assert!(
        (lines[2].simulated - lines[2].predicted).abs() <= 0.01 * lines[2].predicted.abs(),
        "{:?}",
        lines[2]
    );
}

#[test]
fn the_cantilever_preset_shows_the_elastica_beyond_the_linear_guess_and_its_frequencies() {
    let sim = preset("cantilever", &[("P", 500.0), ("n", 40.0)]);
    let lines = contactlab::theory::theory(&sim);
    let (linear, elastica) = (&lines[0], &lines[1]);
    // PL²/EI = 2.86: the linear guess is far off and marked so; the static solve is on the
    // elastica.
    assert!(linear.wrong && (linear.predicted - elastica.predicted) > 0.1 * elastica.predicted);
    assert!(
        (elastica.simulated - elastica.predicted).abs() <= 2e-4 * elastica.predicted,
        "{elastica:?}"
    );
    for line in &lines[2..] {
        assert!(
            (line.simulated / line.predicted - 1.0).abs() <= 1e-3,
            "{line:?}"
        );
    }
}

#[test]
fn a_lightly_loaded_cantilever_vibrates_at_its_first_frequency_about_its_static_deflection() {
    let mut sim = preset("cantilever", &[("P", 1.0), ("n", 20.0)]);
    let lines = contactlab::theory::theory(&sim);
    let (static_tip, omega1) = (lines[0].predicted, lines[2].predicted);
    let (mut t, mut y) = (Vec::new(), Vec::new());
    while sim.time() < sim.scene().duration {
        sim.step().unwrap();
        assert!(sim.last_report().converged);
        let q = &sim.system().q;
        t.push(sim.time());
        y.push(-q[q.len() - 2] - static_tip);
    }
    let measured = contactlab::modes::measure_frequency(&t, &y).unwrap();
    // 20 elements put ω₁ 4.3e-4 low; NSGA at T/2000 adds ~1e-6.
    assert!(
        (measured / omega1 - 1.0).abs() <= 2e-3,
        "{measured} against {omega1}"
    );
    // The suddenly applied load swings the tip between 0 and twice the static deflection.
    let low = y.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(
        (low + static_tip).abs() <= 0.02 * static_tip,
        "lowest {low} against −{static_tip}"
    );
}

#[test]
fn the_drawn_centreline_follows_the_hermite_shape_exactly_between_nodes() {
    // One element under a small tip load: Euler–Bernoulli's w(x) = P x²(3L − x)/(6EI) is the
    // element's own cubic, so the drawn midpoint sits at 5PL³/(48EI).
    let p = 1e-3;
    let sim = cantilever(1, p, "consistent");
    let eq = static_equilibrium(sim.system(), 1, 1e-12).unwrap();
    let body = &sim.system().bodies[0];
    let contactlab::model::BodyKind::Beam(beam) = &body.kind else {
        panic!("not a beam")
    };
    let line = beam.centreline(body.q_of(&eq.q), 8);
    assert_eq!(line.len(), 9);
    let (mid, normal) = line[4];
    let exact = 5.0 * p / (48.0 * bending());
    assert!(
        (-mid.y - exact).abs() <= 1e-6 * exact,
        "{} against {exact}",
        -mid.y
    );
    assert!((mid.x - 0.5).abs() < 1e-9);
    // The normal there is the slope's: w'(L/2) = 3PL²/(8EI).
    let slope = 3.0 * p / (8.0 * bending());
    assert!((normal.x - slope).abs() <= 1e-6 * slope, "{normal:?}");
}

#[test]
fn the_cantilever_under_its_largest_load_converges_every_step_and_stays_bounded() {
    // P = 2000 N applied suddenly (PL²/EI = 11.4): the tip swings through large rotations.
    let mut sim = preset("cantilever", &[("P", 2000.0)]);
    while sim.time() < sim.scene().duration {
        sim.step().unwrap();
        assert!(sim.last_report().converged, "t = {}", sim.time());
        // The load's work is at most P times the tip's travel (< 2 L): the energy stays below.
        assert!(
            sim.energy() <= 2000.0 * 2.0,
            "t = {}: {} J",
            sim.time(),
            sim.energy()
        );
    }
}

#[test]
fn a_disk_resting_on_a_simply_supported_beam_touches_its_curved_centreline_once_with_its_gap_held()
{
    // A 10 kg disk (r = 5 cm) at the middle of a 1 m steel beam 20 mm × 10 mm, pinned and on a
    // roller, 20 elements, mass-proportional damping 400/s on the beam, NSGA at 0.5 ms: every
    // step converges, the disk touches the beam's Hermite centreline at one point (on the
    // chord polyline it sat in the V of two chords, touching both and moving its load from
    // one to the other), and the gap there is never below −1e-9 m. (Its settled midspan
    // deflection is not PL³/(48EI) + 5qL⁴/(384EI) under two-level NSGA: docs/beams.md.)
    let json = r#"{"gravity": [0, -9.81],
        "bodies": [{"name": "ball", "mass": 10, "position": [0.5, 0.055], "shape": {"type": "disk", "radius": 0.05}}],
        "beams": [{"name": "bridge", "start": [0, 0], "end": [1, 0], "elements": 20,
                   "youngs_modulus": 2.1e11, "density": 7850, "width": 0.02, "height": 0.01,
                   "supports": ["pinned", "roller"], "damping": [400, 0]}],
        "material": {"friction": 0.5, "restitution": 0},
        "contact_margin": 0.01,
        "stepper": {"kind": "nsga", "dt": 0.0005}}"#;
    let mut sim = Simulation::from_scene(Scene::from_json(json).unwrap()).unwrap();
    while sim.time() < 1.0 {
        sim.step().unwrap();
        assert!(sim.last_report().converged, "t = {}", sim.time());
        let contacts = &sim.last_report().contacts;
        assert_eq!(contacts.len(), 1, "t = {}", sim.time());
        assert!(
            contacts[0].gap >= -1e-9,
            "t = {}: gap {}",
            sim.time(),
            contacts[0].gap
        );
    }
    // The disk's centre is r + h/2 from its nearest point of the curved centreline.
    let system = sim.system();
    let body = &system.bodies[1];
    let contactlab::model::BodyKind::Beam(beam) = &body.kind else {
        panic!("not a beam")
    };
    let centre = glam::DVec2::new(system.q[0], system.q[1]);
    let (_, _, foot, _) = beam.locate(&beam.node_coordinates(body.q_of(&system.q)), centre);
    let distance = (centre - foot).length();
    assert!((distance - 0.055).abs() < 1e-9, "{distance}");
}

/// The flexible bar's (heave, rocking, first bending) frequencies at Young's modulus `e` with
/// `n` elements, from the modes at its start (both supports preloaded).
fn flexible_bar(e: f64, n: f64) -> [f64; 3] {
    let mut scene = preset("flexible-bar-on-supports", &[("E", e), ("n", n)])
        .scene()
        .clone();
    // The modes do not depend on the step; stiff bars with many elements need one below the
    // smallest a scene takes.
    scene.stepper.dt = 1e-6;
    let sim = Simulation::from_scene(scene).unwrap();
    contactlab::theory_beams::flexible_bar_modes(&sim.modes())
}

#[test]
fn the_flexible_bar_s_modes_tend_to_the_rigid_bar_s_as_its_stiffness_grows() {
    // m = 2 kg, length 2a = 0.2 m, supports k = 1e5 N/m at the ends: the rigid bar heaves at
    // √(2k/m) = 316.23 rad/s and rocks at √(2ka²/I) = √(6k/m) = 547.72 rad/s (I = m(2a)²/12).
    let (m, k): (f64, f64) = (2.0, 1e5);
    let (heave, rocking) = ((2.0 * k / m).sqrt(), (6.0 * k / m).sqrt());
    // The beam's flexibility lowers them by a relative O(ω²/ω_bending²), ω_bending ∝ √E: the
    // heave's error falls tenfold per decade of E.
    let errors: Vec<f64> = [1e11, 1e12, 1e13]
        .iter()
        .map(|&e| heave - flexible_bar(e, 8.0)[0])
        .collect();
    for w in errors.windows(2) {
        let ratio = w[0] / w[1];
        assert!((9.0..11.0).contains(&ratio), "errors {errors:?}");
    }
    assert!(errors[2] > 0.0 && errors[2] <= 1e-4 * heave, "{errors:?}");
    // The rocking inertia of the beam's mass (the configuration-independent part of the
    // Hermite element's) exceeds m(2a)²/12 by the factor 1 + 18/(35 n²) (each element adds
    // m_e l² (158 − 140)/420 against ∫x² dm): at E = 1e13 the rocking is the rigid value over
    // its root, and tends to √(6k/m) as n grows.
    for n in [4.0f64, 8.0, 16.0] {
        let model = rocking / (1.0 + 18.0 / (35.0 * n * n)).sqrt();
        let got = flexible_bar(1e13, n)[1];
        assert!(
            (got - model).abs() <= 2e-4 * model,
            "n = {n}: {got} against {model}"
        );
    }
    // The first bending mode is the free–free one, 4.7300² √(EI/(ρAL⁴)), stiffened a little
    // by the supports (k ≪ 48EI/L³ = 1.7e7 N/m at E = 1e11).
    let side: f64 = 0.02;
    let bending = 1e11 * side.powi(4) / 12.0;
    let free_free = contactlab::theory_beams::FREE_FREE_WAVENUMBER.powi(2)
        * (bending / (m / 0.2 * 0.2f64.powi(4))).sqrt();
    let got = flexible_bar(1e11, 16.0)[2];
    assert!(
        got > free_free && got <= 1.01 * free_free,
        "{got} against {free_free}"
    );
}

#[test]
fn the_flexible_bar_heaves_and_rocks_at_its_modal_frequencies_under_explicit_penalty_steps() {
    // Lifted (kind 0) the bar heaves, tilted (kind 1) it rocks: the support's motion crosses
    // its mean at the modal frequency, and the explicit steps below the beam's limit keep
    // the energy within 1 % of the oscillation's k·amplitude² = 1e-5 J (symplectic Euler:
    // bounded, not drifting).
    for (kind, mode) in [(0.0, 0), (1.0, 1)] {
        let mut sim = preset("flexible-bar-on-supports", &[("kind", kind)]);
        assert_eq!(sim.stepper_name(), "penalty-explicit");
        let omega = contactlab::theory_beams::flexible_bar_modes(&sim.modes())[mode];
        let start = sim.energy();
        let scale = 1e5 * 1e-5 * 1e-5;
        let mut ys = Vec::new();
        while sim.time() < 0.1 {
            sim.step().unwrap();
            ys.push((sim.time(), sim.system().q[1]));
            assert!(
                (sim.energy() - start).abs() <= 1e-2 * scale,
                "t = {}",
                sim.time()
            );
        }
        let mean = ys.iter().map(|p| p.1).sum::<f64>() / ys.len() as f64;
        let crossings: Vec<f64> = ys
            .windows(2)
            .filter(|w| w[0].1 < mean && w[1].1 >= mean)
            .map(|w| w[0].0 + (mean - w[0].1) / (w[1].1 - w[0].1) * (w[1].0 - w[0].0))
            .collect();
        let period = (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64;
        let measured = 2.0 * std::f64::consts::PI / period;
        assert!(
            (measured - omega).abs() <= 5e-3 * omega,
            "kind {kind}: {measured} against {omega}"
        );
    }
}

#[test]
fn explicit_penalty_refuses_a_step_beyond_a_beam_s_limit_and_implicit_takes_one_far_beyond() {
    let mut sim = preset("flexible-bar-on-supports", &[]);
    let limit = sim.system().explicit_step_limit().unwrap();
    sim.set_stepper("penalty-explicit").unwrap();
    sim.set_time_step(1.5 * limit).unwrap();
    let err = sim.step().unwrap_err().to_string();
    assert!(
        err.contains("stepper.dt") && err.contains("2/ω_max"),
        "{err}"
    );
    assert_eq!(sim.time(), 0.0, "a refused step changes nothing");
    sim.set_time_step(0.5 * limit).unwrap();
    sim.step().unwrap();
    // The implicit scheme takes the beam's forces at the end of the step (linearly implicit
    // Euler): a hundred times the explicit limit is stable and only loses energy.
    sim.reset().unwrap();
    sim.set_stepper("penalty-implicit").unwrap();
    sim.set_time_step(100.0 * limit).unwrap();
    let start = sim.energy();
    for _ in 0..200 {
        sim.step().unwrap();
        assert!(sim.last_report().converged, "t = {}", sim.time());
        assert!(
            sim.energy() <= start + 1e-12 * start.abs(),
            "{} > {start}",
            sim.energy()
        );
    }
}

/// The flexible slider-crank at (E, elements, h) after `time`: the simulation.
fn flexible_crank(modulus: f64, elements: f64, h: f64, time: f64) -> Simulation {
    let mut sim = preset("flexible-slider-crank", &[("E", modulus), ("n", elements)]);
    sim.set_time_step(h).unwrap();
    for _ in 0..(time / h).round() as usize {
        sim.step().unwrap();
        let report = sim.last_report();
        assert!(report.converged, "t = {}", sim.time());
        // Every joint equation, those at the rod's end nodes too, held at both levels.
        for j in &report.joints {
            for (g, rate) in j.constraint.iter().zip(&j.rate) {
                assert!(
                    g.abs() <= 1e-10 && rate.abs() <= 1e-10,
                    "t = {}: {j:?}",
                    sim.time()
                );
            }
        }
    }
    sim
}

fn slider_x(sim: &Simulation) -> f64 {
    let system = sim.system();
    let slider = system.body_index("slider").unwrap();
    system.pose(slider, &system.q).position.x
}

#[test]
fn the_flexible_slider_crank_converges_at_second_order_in_h_and_with_the_element_count() {
    // A soft rod (E = 1 GPa, 8 elements) after 0.1 s: halving h from 0.5 ms quarters the
    // change of the slider's position.
    let xs: Vec<f64> = [5e-4, 2.5e-4, 1.25e-4, 6.25e-5]
        .iter()
        .map(|&h| slider_x(&flexible_crank(1e9, 8.0, h, 0.1)))
        .collect();
    for w in xs.windows(3) {
        let ratio = (w[0] - w[1]) / (w[1] - w[2]);
        assert!((3.2..5.5).contains(&ratio), "{xs:?}: ratio {ratio}");
    }
    // More elements: the changes shrink (8 → 16 → 32 elements at h = 62.5 µs).
    let ns: Vec<f64> = [8.0, 16.0, 32.0]
        .iter()
        .map(|&n| slider_x(&flexible_crank(1e9, n, 6.25e-5, 0.1)))
        .collect();
    let ratio = (ns[0] - ns[1]) / (ns[1] - ns[2]);
    assert!(ratio > 2.0, "{ns:?}: ratio {ratio}");
}

#[test]
fn a_stiff_rod_puts_the_slider_where_the_rigid_kinematics_says_less_its_shortening() {
    // Steel (E = 210 GPa, 15 mm square, 0.3 m): over three turns the slider is off the rigid
    // kinematics by no more than the rod's axial shortening under the largest pin force,
    // |R| l/(EA), times the lever l/√(l² − r² sin² φ) ≤ 1.06, and times 2: the rod starts
    // unstrained under load, and its axial vibration can double the static shortening.
    let (r, l) = (0.1, 0.3);
    let side: f64 = 0.15 * r;
    let axial = 2.1e11 * side * side;
    let mut sim = preset("flexible-slider-crank", &[("E", 2.1e11)]);
    let omega = 3.0 * std::f64::consts::TAU;
    let (mut worst, mut largest): (f64, f64) = (0.0, 0.0);
    while sim.time() < 1.0 - 1e-9 {
        sim.step().unwrap();
        let wrist = &sim.last_report().joints[2];
        largest = largest.max(wrist.reaction[0].hypot(wrist.reaction[1]));
        let phi = contactlab::presets::SLIDER_CRANK_PHI0 + omega * sim.time();
        let (x, _) = contactlab::presets::slider_kinematics(r, l, phi, omega);
        worst = worst.max((slider_x(&sim) - x).abs());
    }
    let bound = 2.0 * 1.06 * largest * l / axial;
    assert!(worst <= bound && worst > 0.0, "{worst:e} against {bound:e}");
}

#[test]
fn the_flexible_slider_crank_s_energy_balance_closes_at_first_order() {
    // Over three whole turns with a steel rod, the drive's work Σ τ Ω h against the energy
    // gained: what they differ by is what generalized-α (ρ∞ = 0.8) dissipates in the rod's
    // stiff modes, loaded quasi-statically through the turn, at a rate proportional to h.
    let balance = |h: f64| {
        let mut sim = preset("flexible-slider-crank", &[("E", 2.1e11)]);
        sim.set_time_step(h).unwrap();
        let start = sim.energy();
        let omega = 3.0 * std::f64::consts::TAU;
        let mut gross = 0.0;
        for _ in 0..(1.0 / h).round() as usize {
            sim.step().unwrap();
            gross += (sim.last_report().joints[0].torque * omega * h).abs();
        }
        let work = sim.events().drive_work;
        (work - (sim.energy() - start), gross)
    };
    let (coarse, gross) = balance(5e-4);
    let (fine, _) = balance(2.5e-4);
    let ratio = coarse / fine;
    assert!((1.8..2.2).contains(&ratio), "{coarse} J, {fine} J");
    // Against the work the drive moves in and out over the turns.
    assert!(fine > 0.0 && fine < 2e-3 * gross, "{fine} J of {gross} J");
}

#[test]
fn a_simply_supported_beam_sags_under_its_weight_by_5ql4_over_384ei_at_its_nodes_with_any_element_count()
 {
    // Gravity is the work of ρA g on the Hermite curve: the element's consistent load with
    // its end moments ±ql²/12, so the nodal deflections of the linear beam are exact with
    // any element count (without the moments, 20 elements sagged 0.5718 mm for 0.5730). The
    // co-rotational beam's geometric stiffening is (w/L)² ≈ 3e-7 here.
    for elements in [2, 4, 10] {
        let json = format!(
            r#"{{"gravity": [0, -9.81], "bodies": [],
            "beams": [{{"name": "bridge", "start": [0, 0], "end": [1, 0], "elements": {elements},
                       "youngs_modulus": 2.1e11, "density": 7850, "width": 0.02, "height": 0.01,
                       "supports": ["pinned", "roller"]}}],
            "stepper": {{"kind": "nsga", "dt": 0.001}}}}"#
        );
        let sim = Simulation::from_scene(Scene::from_json(&json).unwrap()).unwrap();
        let eq = static_equilibrium(sim.system(), 1, 1e-12).unwrap();
        let body = &sim.system().bodies[0];
        let contactlab::model::BodyKind::Beam(beam) = &body.kind else {
            panic!("not a beam")
        };
        let nodes = beam.node_coordinates(body.q_of(&eq.q));
        let mid = -nodes[elements / 2][1];
        let bending = 2.1e11 * 0.02 * 1e-6 / 12.0;
        let q = 7850.0 * 0.02 * 0.01 * 9.81;
        let exact = 5.0 * q / (384.0 * bending);
        assert!(
            (mid / exact - 1.0).abs() < 2e-6,
            "{elements} elements: {mid} against {exact}"
        );
    }
}
