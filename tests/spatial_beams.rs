//! Flexible beams in space (seed 002's flexible elements, rotations on SO(3)): a clamped
//! cantilever meets PL³/(3EI) about both section axes and TL/(GJ) in torsion, the elastica in
//! a plane that is not a coordinate plane, its flexural and torsional frequencies, and swings
//! under its own weight at its first frequency about qL⁴/(8EI) through the steppers.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;
use contactlab::beam_theory::{cantilever_elastica, cantilever_frequency, cantilever_slope_ratio};
use contactlab::scene::Scene;
use contactlab::scene_spatial_beams::rectangle_torsion_constant;
use contactlab::statics::static_equilibrium;
use glam::{DQuat, DVec3};

const E: f64 = 2.1e11;
const G: f64 = 2.1e11 / 2.6;
const RHO: f64 = 7850.0;
/// The section: 10 mm wide (along world −y), 20 mm high (along world z).
const W: f64 = 0.01;
const H: f64 = 0.02;

fn stiff_axis() -> f64 {
    E * W * H.powi(3) / 12.0
}

fn weak_axis() -> f64 {
    E * H * W.powi(3) / 12.0
}

/// A steel cantilever 1 m along x, clamped at the origin, the section W × H (height up), with
/// a tip force and torque, no gravity unless `gravity`.
fn cantilever(elements: usize, force: [f64; 3], torque: [f64; 3], gravity: bool) -> Simulation {
    let json = format!(
        r#"{{"gravity": [0, 0, {}],
            "spatial_beams": [{{"name": "rod", "start": [0, 0, 0], "end": [1, 0, 0],
                "elements": {elements}, "youngs_modulus": {E}, "poissons_ratio": 0.3,
                "density": {RHO}, "width": {W}, "height": {H},
                "supports": ["clamped", "free"]}}],
            "forces": [{{"type": "constant", "body": "rod", "force": {force:?}, "torque": {torque:?}}}],
            "stepper": {{"kind": "nsga", "dt": 0.0005}}}}"#,
        if gravity { -9.81 } else { 0.0 }
    );
    Simulation::from_scene(Scene::from_json(&json).unwrap()).unwrap()
}

/// The tip's position and its rotation from the reference at equilibrium under the scene's
/// loads.
fn static_tip(sim: &Simulation, increments: usize) -> (DVec3, DQuat) {
    let eq = static_equilibrium(sim.system(), increments, 1e-11).unwrap();
    assert!(eq.residual <= 1e-6 * eq.load, "residual {}", eq.residual);
    let body = &sim.system().bodies[0];
    let reference = body.orientation(&sim.system().q);
    (
        body.position3(&eq.q),
        body.orientation(&eq.q) * reference.conjugate(),
    )
}

#[test]
fn small_tip_loads_bend_the_cantilever_by_pl3_over_3ei_about_each_axis_with_any_element_count() {
    // Hermite elements are exact for a tip load in linear theory; at 1 N the tip moves 1e-5 L
    // or less, so the geometric nonlinearity is ~1e-10 relative.
    let p = 1.0;
    for n in [1, 3, 10] {
        let (up, _) = static_tip(&cantilever(n, [0.0, 0.0, p], [0.0; 3], false), 1);
        let exact = p / (3.0 * stiff_axis());
        assert!(
            (up.z / exact - 1.0).abs() <= 1e-6,
            "n = {n}: up {} against {exact}",
            up.z
        );
        assert!(up.y.abs() <= 1e-9 * exact, "n = {n}: sideways {}", up.y);
        let (side, r) = static_tip(&cantilever(n, [0.0, p, 0.0], [0.0; 3], false), 1);
        let exact = p / (3.0 * weak_axis());
        assert!(
            (side.y / exact - 1.0).abs() <= 1e-6,
            "n = {n}: side {} against {exact}",
            side.y
        );
        // The tip section turns about z by PL²/(2EI).
        let slope = p / (2.0 * weak_axis());
        let turn = r.to_scaled_axis();
        assert!(
            (turn.z / slope - 1.0).abs() <= 1e-6,
            "n = {n}: slope {} against {slope}",
            turn.z
        );
    }
}

#[test]
fn a_tip_torque_twists_the_cantilever_by_tl_over_gj_even_through_a_large_angle() {
    let j = rectangle_torsion_constant(W, H);
    for (n, angle) in [(1, 1e-3), (8, 0.8)] {
        let t = angle * G * j;
        let (at, r) = static_tip(&cantilever(n, [0.0; 3], [t, 0.0, 0.0], false), 4);
        let turn = r.to_scaled_axis();
        assert!(
            (turn.x / angle - 1.0).abs() <= 1e-9,
            "n = {n}: twist {} against {angle}",
            turn.x
        );
        assert!(turn.y.abs() + turn.z.abs() <= 1e-9, "n = {n}: {turn}");
        assert!(
            at.distance(DVec3::X) <= 1e-12,
            "n = {n}: the tip moved to {at}"
        );
    }
}

#[test]
fn a_large_load_in_a_skew_plane_gives_the_elastica_in_that_plane() {
    // A round rod 2 mm across bends alike about every axis; its tip load along
    // (0, cos 40°, −sin 40°) bends it in the plane of x and that direction, the elastica's.
    let d: f64 = 0.002;
    let ei = E * std::f64::consts::PI * d.powi(4) / 64.0;
    let alpha = 3.0;
    let dir = DVec3::new(0.0, 40f64.to_radians().cos(), -(40f64.to_radians().sin()));
    let f = dir * (alpha * ei);
    let json = format!(
        r#"{{"gravity": [0, 0, 0],
            "spatial_beams": [{{"name": "rod", "start": [0, 0, 0], "end": [1, 0, 0],
                "elements": 40, "youngs_modulus": {E}, "density": {RHO}, "diameter": {d},
                "supports": ["clamped", "free"]}}],
            "forces": [{{"type": "constant", "body": "rod", "force": [{}, {}, {}], "torque": [0, 0, 0]}}],
            "stepper": {{"kind": "nsga"}}}}"#,
        f.x, f.y, f.z
    );
    let sim = Simulation::from_scene(Scene::from_json(&json).unwrap()).unwrap();
    let (tip, _) = static_tip(&sim, 10);
    let e = cantilever_elastica(alpha);
    let along = tip.dot(dir);
    let across = tip.dot(DVec3::X.cross(dir));
    // 40 elements hold the planar elastica to 1e-4 (tests/beams.rs); the axial strain
    // P/EA = α I/A = 7.5e-7 shifts the tip by less.
    assert!(
        (along - e.deflection).abs() <= 1e-4,
        "δ_v {along} against {}",
        e.deflection
    );
    assert!(
        (1.0 - tip.x - e.shortening).abs() <= 1e-4,
        "δ_h {} against {}",
        1.0 - tip.x,
        e.shortening
    );
    assert!(across.abs() <= 1e-10, "out of the load's plane by {across}");
    println!(
        "skew elastica: δ_v {along:.6} ({:.6}), δ_h {:.6} ({:.6}), across {across:.1e}",
        e.deflection,
        1.0 - tip.x,
        e.shortening
    );
}

#[test]
fn the_flexural_and_torsional_frequencies_are_within_0_1_percent_with_40_elements() {
    let rho_a = RHO * W * H;
    let j = rectangle_torsion_constant(W, H);
    let rho_ip = RHO * (W * H.powi(3) + H * W.powi(3)) / 12.0;
    // Euler–Bernoulli's frequencies and the shift of each by the nodes' rotary inertia ρI_p
    // (isotropic: exact in torsion, and in bending the sections' Rayleigh rotary inertia with
    // I_p for I): Δω/ω = −½ (I_p/A) ∫φ′²/∫φ², ~1e-4 and 7e-4 for the first two modes here.
    let shift = |n: usize| -0.5 * rho_ip / rho_a * cantilever_slope_ratio(n, 1.0);
    let exact = [
        (
            "weak bending 1",
            cantilever_frequency(1, weak_axis(), rho_a, 1.0),
            shift(1),
        ),
        (
            "stiff bending 1",
            cantilever_frequency(1, stiff_axis(), rho_a, 1.0),
            shift(1),
        ),
        (
            "weak bending 2",
            cantilever_frequency(2, weak_axis(), rho_a, 1.0),
            shift(2),
        ),
        (
            "stiff bending 2",
            cantilever_frequency(2, stiff_axis(), rho_a, 1.0),
            shift(2),
        ),
        // Saint-Venant torsion of a clamped–free shaft: ω = (π/2)√(GJ/(ρI_p L²)).
        (
            "torsion 1",
            std::f64::consts::FRAC_PI_2 * (G * j / rho_ip).sqrt(),
            0.0,
        ),
    ];
    let error = |n: usize| -> Vec<f64> {
        let modes = cantilever(n, [0.0; 3], [0.0; 3], false).modes();
        assert_eq!(modes.free_motions, 0, "a clamped beam has no free motion");
        exact
            .iter()
            .map(|(_, w, _)| {
                let nearest = modes
                    .omega
                    .iter()
                    .copied()
                    .min_by(|a, b| (a / w - 1.0).abs().total_cmp(&(b / w - 1.0).abs()))
                    .unwrap();
                nearest / w - 1.0
            })
            .collect()
    };
    // The order from successive differences (the rotary shift does not depend on the mesh).
    let (e10, e20, e40) = (error(10), error(20), error(40));
    for (k, (name, w, shift)) in exact.iter().enumerate() {
        assert!(
            e40[k].abs() <= 1e-3,
            "{name} ({w:.1} rad/s): {:.2e} with 40 elements",
            e40[k]
        );
        let order = ((e10[k] - e20[k]) / (e20[k] - e40[k])).abs().log2();
        assert!(
            (1.8..2.3).contains(&order),
            "{name}: order {order} ({:.2e}, {:.2e}, {:.2e})",
            e10[k],
            e20[k],
            e40[k]
        );
        // The limit (Richardson) is Euler–Bernoulli's less the rotary inertia's shift.
        let limit = e40[k] - (e20[k] - e40[k]) / 3.0;
        assert!(
            (limit - shift).abs() <= 2e-5,
            "{name}: limit {limit:.3e} against {shift:.3e}"
        );
        println!(
            "{name}: {:.2e} {:.2e} {:.2e}, order {order:.2}, limit {limit:.3e} against {shift:.3e}",
            e10[k], e20[k], e40[k]
        );
    }
}

#[test]
fn under_its_own_weight_the_cantilever_swings_at_its_first_frequency_about_ql4_over_8ei() {
    let mut sim = cantilever(20, [0.0; 3], [0.0; 3], true);
    let q = RHO * W * H * 9.81;
    let sag = q / (8.0 * stiff_axis());
    let omega = cantilever_frequency(1, stiff_axis(), RHO * W * H, 1.0);
    let (mut t, mut z) = (Vec::new(), Vec::new());
    while sim.time() < 0.4 {
        sim.step().unwrap();
        assert!(sim.last_report().converged);
        let tip = sim.system().bodies[0].position3(&sim.system().q);
        t.push(sim.time());
        z.push(tip.z + sag);
    }
    // The suddenly applied weight swings the tip between 0 and twice the sag; its mean is
    // the static sag (exact for any element count under the consistent load).
    let mean = z.iter().sum::<f64>() / z.len() as f64;
    assert!(mean.abs() <= 0.03 * sag, "mean {mean} about −{sag}");
    let low = z.iter().copied().fold(f64::INFINITY, f64::min);
    assert!(
        (low + sag).abs() <= 0.03 * sag,
        "lowest {low} against −{sag}"
    );
    let measured = contactlab::modes::measure_frequency(&t, &z).unwrap();
    // 20 elements and NSGA at T/120 put ω₁ within 2e-3.
    assert!(
        (measured / omega - 1.0).abs() <= 2e-3,
        "{measured} against {omega}"
    );
}

fn refused(json: &str, field: &str) {
    let err = Scene::from_json(json)
        .and_then(|s| s.validate())
        .unwrap_err();
    assert!(
        err.to_string().contains(field),
        "{err} does not name {field}"
    );
}

#[test]
fn bad_spatial_beams_are_refused_with_the_field_named() {
    let beam = |extra: &str| {
        format!(
            r#"{{"spatial_beams": [{{"name": "rod", "start": [0, 0, 0], "end": [1, 0, 0],
                "elements": 4, "youngs_modulus": 2e11, "density": 7850 {extra}}}],
                "stepper": {{"kind": "nsga"}}}}"#
        )
    };
    refused(&beam(r#", "width": 0.01"#), "spatial_beams[0].diameter");
    refused(
        &beam(r#", "diameter": 0.01, "width": 0.01, "height": 0.01"#),
        "spatial_beams[0].diameter",
    );
    refused(
        &beam(r#", "diameter": 0.01, "height_axis": [2, 0, 0]"#),
        "spatial_beams[0].height_axis",
    );
    refused(
        &beam(r#", "diameter": 0.01, "supports": ["roller", "free"]"#),
        "spatial_beams[0].supports[0]",
    );
    refused(
        &beam(r#", "diameter": 0.01, "poissons_ratio": 0.7"#),
        "spatial_beams[0].poissons_ratio",
    );
    refused(&beam(r#", "diameter": 0.8"#), "spatial_beams[0].diameter");
}

/// A steel beam 1 m along x, 20 mm wide and 10 mm high, clamped at both ends, with a ball of
/// `mass` (r = 5 cm) resting on it at midspan on a stiff penalty contact (k = 1e8 N/m), under
/// the implicit penalty stepper (the beam's forces at the end of the step, so its equilibrium
/// is exact at rest whatever h); mass-proportional damping settles it.
fn ball_on_clamped_beam(mass: f64, elements: usize) -> Simulation {
    let json = format!(
        r#"{{"spatial_bodies": [{{"name": "ball", "shape": {{"type": "sphere", "radius": 0.05}},
                "mass": {mass}, "position": [0.5, 0, 0.055]}}],
            "spatial_beams": [{{"name": "beam", "start": [0, 0, 0], "end": [1, 0, 0],
                "elements": {elements}, "youngs_modulus": {E}, "density": {RHO},
                "width": 0.02, "height": 0.01, "supports": ["clamped", "clamped"],
                "damping": [400, 0]}}],
            "material": {{"friction": 0.5, "stiffness": 1e8, "damping": 0}},
            "stepper": {{"kind": "penalty-implicit", "dt": 0.0005}}}}"#
    );
    Simulation::from_scene(Scene::from_json(&json).unwrap()).unwrap()
}

#[test]
fn a_ball_resting_on_a_clamped_beam_deflects_it_by_pl3_over_192ei_touching_its_curve_once() {
    let (mass, elements) = (1.0, 8);
    let mut sim = ball_on_clamped_beam(mass, elements);
    while sim.time() < 1.0 {
        sim.step().unwrap();
        let report = sim.last_report();
        assert!(report.converged);
        let touching: Vec<_> = report.contacts.iter().filter(|c| c.normal > 0.0).collect();
        assert!(
            touching.len() <= 1,
            "{} contacts at t = {}",
            touching.len(),
            sim.time()
        );
    }
    let ei = E * 0.02 * 0.01f64.powi(3) / 12.0;
    let q = RHO * 0.02 * 0.01 * 9.81;
    let exact = mass * 9.81 / (192.0 * ei) + q / (384.0 * ei);
    let beam = &sim.system().bodies[1];
    let contactlab::model::BodyKind::SpatialBeam(b) = &beam.kind else {
        panic!("the beam")
    };
    let mid = b.node_frames(beam.q_of(&sim.system().q))[elements / 2].0;
    // Linear theory; the beam's stretching stiffens it by O((δ/h)²) ~ 1e-4.
    assert!(
        (-mid.z / exact - 1.0).abs() <= 1e-3,
        "midspan {} against {exact}",
        -mid.z
    );
    assert!(mid.y.abs() <= 1e-9 * exact, "sideways {}", mid.y);
    println!(
        "ball on clamped beam: midspan {:.6e} against {exact:.6e}",
        -mid.z
    );
    // The ball sits on the tube: its centre r + h/2 above the curve, less the contact's
    // compression mg/k.
    let ball = sim.system().bodies[0].position3(&sim.system().q);
    let squeeze = mass * 9.81 / 1e8;
    assert!(
        (ball.z - mid.z - 0.055 + squeeze).abs() <= 1e-3 * squeeze,
        "ball at {ball}"
    );
    let report = sim.last_report();
    let n: f64 = report.contacts.iter().map(|c| c.normal).sum();
    assert!((n / (mass * 9.81) - 1.0).abs() <= 1e-6, "contact force {n}");
}

#[test]
fn a_beam_dropped_flat_on_the_floor_comes_to_rest_on_every_node_carrying_its_weight() {
    let json = r#"{"spatial_bodies": [{"name": "floor", "fixed": true, "shape": {"type": "plane"}}],
        "spatial_beams": [{"name": "rod", "start": [0, 0, 0.007], "end": [1, 0.2, 0.007],
            "elements": 6, "youngs_modulus": 2.1e11, "density": 7850, "diameter": 0.01,
            "damping": [50, 0]}],
        "material": {"friction": 0.5, "stiffness": 1e7, "damping": 0},
        "stepper": {"kind": "penalty-implicit", "dt": 0.001}}"#;
    let mut sim = Simulation::from_scene(Scene::from_json(json).unwrap()).unwrap();
    while sim.time() < 1.0 {
        sim.step().unwrap();
        assert!(sim.last_report().converged);
    }
    let report = sim.last_report();
    let touching: Vec<_> = report.contacts.iter().filter(|c| c.normal > 0.0).collect();
    assert_eq!(touching.len(), 7, "every node rests");
    for c in &touching {
        // Each node presses its share (about ρA l g, ≈ 1 N) into a contact of 1e7 N/m.
        assert!(c.gap < 0.0 && c.gap > -2e-7, "gap {}", c.gap);
    }
    let weight = 7850.0 * std::f64::consts::PI * 0.01f64.powi(2) / 4.0 * 1.0198 * 9.81;
    let n: f64 = touching.iter().map(|c| c.normal).sum();
    assert!((n / weight - 1.0).abs() <= 1e-4, "{n} against {weight}");
}

#[test]
fn the_spatial_cantilever_preset_meets_its_theory_lines() {
    let lines = |values: &[(&str, f64)]| {
        let values: Vec<(String, f64)> = values.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        let sim = Simulation::from_preset("spatial-cantilever", &values).unwrap();
        contactlab::theory::theory(&sim)
    };
    // Each load alone and small (the tip moves 1e-3 L, twists 5e-3 rad): the static solve
    // meets the linear lines to 1e-5 with 6 elements (Hermite elements are exact for tip loads).
    let bending = lines(&[("P", 2.0), ("T", 0.0)]);
    let twisting = lines(&[("P", 0.0), ("T", 2.0)]);
    for l in [&bending[0], &bending[1], &twisting[2]] {
        assert!(
            (l.simulated / l.predicted - 1.0).abs() <= 1e-5,
            "{}: {} against {}",
            l.label,
            l.simulated,
            l.predicted
        );
    }
    // Together, the twist turns the weak axis into the load: at the defaults (20 N at 30°,
    // 0.2 N·m) that coupling is within the 0.1 % the lines allow before they are flagged.
    for l in &lines(&[])[0..3] {
        assert!(
            !l.wrong,
            "{}: {} against {}",
            l.label, l.simulated, l.predicted
        );
    }
    // The frequencies converge at second order: 6 elements hold them to 0.5 %, 24 to 4e-4
    // (with the rotary inertia's −1e-4, above).
    for (n, tolerance) in [(6.0, 5e-3), (24.0, 4e-4)] {
        for l in &lines(&[("n", n)])[3..6] {
            assert!(
                (l.simulated / l.predicted - 1.0).abs() <= tolerance,
                "n = {n}, {}: {} against {}",
                l.label,
                l.simulated,
                l.predicted
            );
        }
    }
}

#[test]
fn a_ball_pinned_to_the_tip_swings_at_the_tip_mass_frequency_with_the_joint_held() {
    // A 1 kg ball on a spherical joint at the tip node (it carries no moment, so the ball's
    // own rotary inertia does not enter): the cantilever with a point mass at its tip.
    let json = format!(
        r#"{{"gravity": [0, 0, 0],
            "spatial_bodies": [{{"name": "ball", "shape": {{"type": "sphere", "radius": 0.03}},
                "mass": 1, "position": [1, 0, 0], "velocity": [0, 0, 0.05]}}],
            "spatial_beams": [{{"name": "rod", "start": [0, 0, 0], "end": [1, 0, 0],
                "elements": 10, "youngs_modulus": {E}, "density": {RHO}, "width": {W},
                "height": {H}, "supports": ["clamped", "free"]}}],
            "joints": [{{"type": "spherical", "bodies": ["ball", "rod"], "anchor": [1, 0, 0]}}],
            "stepper": {{"kind": "nsga", "dt": 0.0002}}}}"#
    );
    let mut sim = Simulation::from_scene(Scene::from_json(&json).unwrap()).unwrap();
    let rho_a = RHO * W * H;
    let lambda = contactlab::beam_theory::cantilever_tip_mass_wavenumber(1.0 / rho_a);
    let omega = lambda * lambda * (stiff_axis() / rho_a).sqrt();
    let (mut t, mut z) = (Vec::new(), Vec::new());
    while sim.time() < 0.5 {
        sim.step().unwrap();
        assert!(sim.last_report().converged);
        t.push(sim.time());
        z.push(sim.system().bodies[0].position3(&sim.system().q).z);
    }
    // Position and velocity level held every step (NSGA-GGL).
    let events = sim.events();
    assert!(
        events.joint_violation <= 1e-10,
        "|g| up to {}",
        events.joint_violation
    );
    assert!(
        events.joint_rate <= 1e-10,
        "|ġ| up to {}",
        events.joint_rate
    );
    let measured = contactlab::modes::measure_frequency(&t, &z).unwrap();
    // 10 elements and h = T/200 (NSGA's (ωh)²/12 ≈ 1e-4).
    assert!(
        (measured / omega - 1.0).abs() <= 1e-3,
        "{measured} against {omega}"
    );
    println!(
        "tip mass: ω {measured:.4} against {omega:.4}, |g| {:.1e}, |ġ| {:.1e}",
        events.joint_violation, events.joint_rate
    );
}

#[test]
fn a_beam_welded_to_the_ground_at_its_start_bends_like_a_clamped_one() {
    let p = 2.0;
    let json = format!(
        r#"{{"gravity": [0, 0, 0],
            "spatial_bodies": [{{"name": "wall", "fixed": true, "position": [0, 0, 0],
                "shape": {{"type": "sphere", "radius": 0.01}}}}],
            "spatial_beams": [{{"name": "rod", "start": [0, 0, 0], "end": [1, 0, 0],
                "elements": 4, "youngs_modulus": {E}, "density": {RHO}, "width": {W},
                "height": {H}, "damping": [300, 0]}}],
            "joints": [{{"type": "weld", "bodies": ["rod", "wall"], "anchor": [0, 0, 0]}}],
            "forces": [{{"type": "constant", "body": "rod", "force": [0, {p}, 0], "torque": [0, 0, 0]}}],
            "stepper": {{"kind": "nsga", "dt": 0.001}}}}"#
    );
    let mut sim = Simulation::from_scene(Scene::from_json(&json).unwrap()).unwrap();
    while sim.time() < 2.0 {
        sim.step().unwrap();
        assert!(sim.last_report().converged);
    }
    let events = sim.events();
    assert!(
        events.joint_violation <= 1e-10,
        "|g| up to {}",
        events.joint_violation
    );
    let tip = sim.system().bodies[1].position3(&sim.system().q);
    let exact = p / (3.0 * weak_axis());
    assert!(
        (tip.y / exact - 1.0).abs() <= 1e-5,
        "tip {} against {exact}",
        tip.y
    );
    println!("welded: tip {:.6e} against {exact:.6e}", tip.y);
    // A misplaced anchor is refused with the nearest node named.
    let bad = json.replace(r#""anchor": [0, 0, 0]"#, r#""anchor": [0.1, 0, 0]"#);
    let err = Scene::from_json(&bad)
        .and_then(|s| s.validate())
        .unwrap_err();
    assert!(
        err.to_string().contains("joints[0].anchor") && err.to_string().contains("node 0"),
        "{err}"
    );
}
