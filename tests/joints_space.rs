//! Joints in space (seed 002's sphere in a mechanism): ball joints, hinges, welds, sliders and
//! distance joints whose rows are the exact derivatives of their equations, a box sliding
//! down a prismatic guide, a hinged rod that swings with the planar
//! pendulum's elliptic period, a rod on a ball joint that turns as a conical pendulum, and
//! the sphere mill, whose reactions and drive torque approach their closed forms.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;

mod common;
use contactlab::theory::elliptic_k;
use contactlab::theory_mill::mill_steady;
use glam::{DQuat, DVec3};
use nalgebra::DVector;

/// Two moving boxes in space, turned and moving, linked by `joint` (JSON), without gravity.
fn two_boxes(joint: &str) -> Simulation {
    Simulation::from_json(&format!(
        r#"{{"gravity": [0, 0, 0], "spatial_bodies": [
            {{"name": "a", "mass": 1, "position": [0.1, 0.2, 0.3], "orientation": [0.9, 0.2, -0.3, 0.1],
              "velocity": [0.3, -0.2, 0.1], "angular_velocity": [1.5, -0.4, 0.8],
              "shape": {{"type": "box", "size": [0.4, 0.1, 0.2]}}}},
            {{"name": "b", "mass": 2, "position": [0.5, 0.1, 0.2], "orientation": [0.8, -0.1, 0.4, 0.3],
              "velocity": [-0.1, 0.4, 0.2], "angular_velocity": [-0.7, 0.9, 0.3],
              "shape": {{"type": "box", "size": [0.4, 0.1, 0.2]}}}}],
          "joints": [{joint}], "stepper": {{"kind": "nsga"}}}}"#
    ))
    .unwrap()
}

/// For any velocity (not only one the joint allows), each row is ∂g/∂q (ġ = G v + ∂g/∂t
/// against central differences of g) and its velocity product is Ġ v (against central
/// differences of the rows along v), for every equation of every joint type in space.
#[test]
fn each_joint_row_in_space_is_the_derivative_of_its_equation() {
    let joints = [
        r#"{"type": "spherical", "bodies": ["a", "b"], "anchor": [0.3, 0.15, 0.25]}"#,
        r#"{"type": "revolute", "bodies": ["a", "b"], "anchor": [0.3, 0.15, 0.25], "axis": [1, 2, -1]}"#,
        r#"{"type": "revolute", "bodies": ["a", "b"], "anchor": [0.3, 0.15, 0.25], "axis": [0, 0, 1], "drive_speed": 2.5}"#,
        r#"{"type": "distance", "bodies": ["a", "b"], "anchor": [0.2, 0.2, 0.3], "anchor_b": [0.6, 0.05, 0.1]}"#,
        r#"{"type": "weld", "bodies": ["a", "b"], "anchor": [0.3, 0.15, 0.25]}"#,
        r#"{"type": "prismatic", "bodies": ["a", "b"], "anchor": [0.3, 0.15, 0.25], "axis": [1, 2, -1]}"#,
    ];
    let mut checked = 0;
    for (joint, equations) in joints.iter().zip([3, 5, 6, 1, 6, 5]) {
        let sim = two_boxes(joint);
        let v = DVector::from_vec(vec![
            0.3, -0.2, 0.1, 1.5, -0.4, 0.8, -0.1, 0.4, 0.2, -0.7, 0.9, 0.3,
        ]);
        let rows = common::joint_rows_are_derivatives(&sim, &v, joint);
        assert_eq!(rows, equations, "{joint}");
        checked += rows;
    }
    assert_eq!(checked, 26);
}

/// A box on a prismatic joint along d = (1, 0, −1)/√2 (a frictionless guide in space),
/// released at rest turned about an oblique axis: it slides down the guide at g/√2, s = g t²/(2√2),
/// without turning, the joint held to 1e-10 every step.
#[test]
fn a_box_on_a_prismatic_guide_in_space_slides_at_g_over_root_two() {
    let mut sim = Simulation::from_json(
        r#"{"spatial_bodies": [
            {"name": "frame", "fixed": true, "position": [0, 0, 2], "shape": {"type": "sphere", "radius": 0.01}},
            {"name": "box", "mass": 1.5, "position": [0, 0, 1], "orientation": [0.9, 0.3, -0.2, 0.25],
             "shape": {"type": "box", "size": [0.3, 0.2, 0.1]}}],
          "joints": [{"type": "prismatic", "bodies": ["box", "frame"], "anchor": [0, 0, 1], "axis": [1, 0, -1]}],
          "stepper": {"kind": "nsga", "dt": 0.001}}"#,
    )
    .unwrap();
    let start = sim.system().q.clone();
    for _ in 0..1000 {
        sim.step().unwrap();
        let report = sim.last_report();
        assert!(report.converged);
        for (g, rate) in report.joints[0]
            .constraint
            .iter()
            .zip(&report.joints[0].rate)
        {
            assert!(g.abs() <= 1e-10 && rate.abs() <= 1e-10, "g {g}, ġ {rate}");
        }
    }
    let q = &sim.system().q;
    let t = sim.time();
    let travel = 9.81 / std::f64::consts::SQRT_2 * t * t / 2.0;
    let expected = [
        travel / std::f64::consts::SQRT_2,
        0.0,
        1.0 - travel / std::f64::consts::SQRT_2,
    ];
    for k in 0..3 {
        assert!(
            (q[k] - expected[k]).abs() < 1e-9,
            "centre {:?} against {expected:?}",
            &q.as_slice()[0..3]
        );
    }
    for k in 3..7 {
        assert!(
            (q[k] - start[k]).abs() < 1e-12,
            "turned: {:?}",
            &q.as_slice()[3..7]
        );
    }
}

/// A box rod (mass `m`, `length` × `thickness`²) hanging from a fixed pivot at the origin by
/// `joint` (JSON), its axis from the pivot along `axis` (in the x–z plane, at `angle` from
/// the downward vertical), moving with `velocity` and turning at `spin` about z.
fn hung_rod(
    joint: &str,
    (m, length, thickness): (f64, f64, f64),
    angle: f64,
    (velocity, spin): (DVec3, f64),
) -> Simulation {
    // The rod's body x along (sin θ, 0, −cos θ): a turn about y by π/2 − θ.
    let orientation = DQuat::from_rotation_y(std::f64::consts::FRAC_PI_2 - angle);
    let centre = 0.5 * length * DVec3::new(angle.sin(), 0.0, -angle.cos());
    Simulation::from_json(&format!(
        r#"{{"spatial_bodies": [
            {{"name": "pivot", "fixed": true, "shape": {{"type": "sphere", "radius": 0.01}}}},
            {{"name": "rod", "mass": {m}, "position": [{}, {}, {}], "orientation": [{}, {}, {}, {}],
              "velocity": [{}, {}, {}], "angular_velocity": [0, 0, {spin}],
              "shape": {{"type": "box", "size": [{length}, {thickness}, {thickness}]}}}}],
          "joints": [{joint}],
          "stepper": {{"kind": "nsga", "dt": 0.001}}}}"#,
        centre.x,
        centre.y,
        centre.z,
        orientation.w,
        orientation.x,
        orientation.y,
        orientation.z,
        velocity.x,
        velocity.y,
        velocity.z,
    ))
    .unwrap()
}

/// A rod hanging from a hinge about y, as a scene in space.
fn hinged_rod(theta0: f64, length: f64, thickness: f64) -> Simulation {
    hung_rod(
        r#"{"type": "revolute", "bodies": ["rod", "pivot"], "anchor": [0, 0, 0], "axis": [0, 1, 0]}"#,
        (1.0, length, thickness),
        theta0,
        (DVec3::ZERO, 0.0),
    )
}

/// The hinged rod swings in its plane with the period 4K(sin(θ₀/2))/ω₀ of the planar
/// pendulum, ω₀² = m g (L/2)/I_O with I_O = m(L² + t²)/12 + m L²/4, to second order in h;
/// the hinge holds to 1e-10 every step.
#[test]
fn a_rod_on_a_hinge_in_space_swings_with_the_elliptic_period() {
    let (theta0, length, thickness): (f64, f64, f64) = (1.5, 1.0, 0.04);
    let inertia = (length * length + thickness * thickness) / 12.0 + 0.25 * length * length;
    let omega0 = (9.81 * 0.5 * length / inertia).sqrt();
    let exact = 4.0 * elliptic_k((0.5 * theta0).sin()) / omega0;
    let mut errors = Vec::new();
    for h in [2e-3, 1e-3] {
        let mut sim = hinged_rod(theta0, length, thickness);
        sim.set_time_step(h).unwrap();
        // The period: the second time the swing turns (ω_y changes sign from the start's
        // fall), interpolated within the step.
        let (mut turns, mut previous) = (Vec::new(), 0.0f64);
        while turns.len() < 2 {
            sim.step().unwrap();
            let report = sim.last_report();
            assert!(report.converged);
            for joint in &report.joints {
                for (g, rate) in joint.constraint.iter().zip(&joint.rate) {
                    assert!(g.abs() <= 1e-10 && rate.abs() <= 1e-10, "g {g}, ġ {rate}");
                }
            }
            let w = sim.system().v[4];
            if previous != 0.0 && w.signum() != previous.signum() {
                turns.push(sim.time() - h * w / (w - previous));
            }
            previous = w;
            assert!(sim.time() < 10.0);
        }
        errors.push((turns[1] - exact).abs() / exact);
    }
    assert!(
        errors[1] < 2e-5,
        "period error {errors:?} (exact {exact} s)"
    );
    // Second order: halving h divides the error by about four (interpolated turns add a
    // little noise).
    assert!(errors[0] / errors[1] > 3.0, "{errors:?}");
}

/// A rod on a ball joint, started in steady conical motion at angle α from the vertical:
/// Ω² = m g (L/2) / ((I_⊥ − I_∥) cos α) about the pin (the rod's weight balances the change
/// of its angular momentum), and it keeps that cone and rate.
#[test]
fn a_rod_on_a_ball_joint_turns_as_a_conical_pendulum() {
    let (alpha, length, thickness, m) = (0.6f64, 0.8, 0.03, 1.5);
    let across = m * (length * length + thickness * thickness) / 12.0 + m * 0.25 * length * length;
    let along = m * thickness * thickness / 6.0;
    let omega = (m * 9.81 * 0.5 * length / ((across - along) * alpha.cos())).sqrt();
    let centre = 0.5 * length * DVec3::new(alpha.sin(), 0.0, -alpha.cos());
    let mut sim = hung_rod(
        r#"{"type": "spherical", "bodies": ["rod", "pivot"], "anchor": [0, 0, 0]}"#,
        (m, length, thickness),
        alpha,
        (DVec3::Z.cross(centre) * omega, omega),
    );
    let mut height = (f64::INFINITY, f64::NEG_INFINITY);
    for _ in 0..2000 {
        sim.step().unwrap();
        let report = sim.last_report();
        for (g, rate) in report.joints[0]
            .constraint
            .iter()
            .zip(&report.joints[0].rate)
        {
            assert!(g.abs() <= 1e-10 && rate.abs() <= 1e-10, "g {g}, ġ {rate}");
        }
        let z = sim.system().q[2];
        height = (height.0.min(z), height.1.max(z));
    }
    // Two seconds (2.5 turns): the centre stays at −(L/2) cos α and turns at Ω.
    let expected = -0.5 * length * alpha.cos();
    assert!(
        (height.0 - expected).abs() < 1e-6 && (height.1 - expected).abs() < 1e-6,
        "centre height in [{}, {}] against {expected}",
        height.0,
        height.1
    );
    let q = &sim.system().q;
    let turned = q[1].atan2(q[0]);
    let predicted = contactlab::model::wrap_angle(omega * sim.time());
    assert!(
        (turned - predicted).abs() < 1e-4,
        "precession angle {turned} against Ω t = {predicted}"
    );
}

/// The sphere mill at step h for one second: (max joint |g|, max |ġ|, the last sample's
/// floor load, radial friction, drive torque, worst |ω·ê_r + ΩR/r| and worst slip over
/// the run).
fn mill(h: f64) -> [f64; 7] {
    let mut sim = Simulation::from_preset("sphere-mill", &[]).unwrap();
    sim.set_time_step(h).unwrap();
    let (omega, arm, r) = (2.0, 0.3, 0.05);
    let mut worst = [0.0f64; 4];
    for _ in 0..(1.0 / h).round() as usize {
        sim.step().unwrap();
        let report = sim.last_report();
        assert!(report.converged, "t = {}", sim.time());
        for joint in &report.joints {
            for (g, rate) in joint.constraint.iter().zip(&joint.rate) {
                worst[0] = worst[0].max(g.abs());
                worst[1] = worst[1].max(rate.abs());
            }
        }
        let s = sim.sample();
        let sphere = &s.bodies[3];
        let radial = DVec3::new(sphere.q[0], sphere.q[1], 0.0).normalize();
        let w = DVec3::new(sphere.v[3], sphere.v[4], sphere.v[5]);
        worst[2] = worst[2].max((w.dot(radial) + omega * arm / r).abs());
        let floor = s
            .contacts
            .iter()
            .find(|c| c.id == "sphere/floor#0")
            .unwrap();
        let slip = &floor.laws.as_ref().unwrap().slip;
        worst[3] = worst[3].max(slip[0].hypot(slip[1]));
    }
    let s = sim.sample();
    let sphere = &s.bodies[3];
    let radial = DVec3::new(sphere.q[0], sphere.q[1], 0.0).normalize();
    let floor = s
        .contacts
        .iter()
        .find(|c| c.id == "sphere/floor#0")
        .unwrap();
    let f = &floor.laws.as_ref().unwrap().friction_force;
    let drive = s.joints.iter().find(|j| j.name == "drive").unwrap().torque;
    [
        worst[0],
        worst[1],
        floor.normal,
        DVec3::new(f[0], f[1], 0.0).dot(radial),
        drive,
        worst[2],
        worst[3],
    ]
}

/// The sphere mill: four hinges held exactly, rolling without slip at ω·ê_r = −ΩR/r
/// exactly, the floor's load and radial friction to 1e-5 of their closed forms and the drive
/// torque N(ρR/r + γ) to 5e-5 (tests/three_levels.rs measures its second order; with two
/// levels it is first order, docs/joints.md).
#[test]
fn the_sphere_mill_rolls_exactly_and_meets_its_closed_forms() {
    let steady = mill_steady(2.0, 0.3, 0.05, 2.0, (1e-3, 1e-3), 9.81);
    for h in [1e-3, 5e-4] {
        let run = mill(h);
        assert!(run[0] <= 1e-10 && run[1] <= 1e-10, "joints {run:?}");
        assert!(run[5] <= 1e-9, "rolling rate off by {}", run[5]);
        assert!(run[6] <= 1e-9, "slip {}", run[6]);
        for (k, name, exact, tolerance) in [
            (2, "N", steady.normal, 1e-5),
            (3, "F_r", steady.radial_friction, 1e-5),
            (4, "T", steady.drive_torque, 5e-5),
        ] {
            assert!(
                (run[k] - exact).abs() <= tolerance * exact,
                "h = {h}: {name} = {} against {exact}",
                run[k]
            );
        }
    }
}

#[test]
fn joints_in_space_are_refused_by_field_where_they_are_incomplete() {
    let scene = |joint: &str| {
        format!(
            r#"{{"spatial_bodies": [
                {{"name": "pivot", "fixed": true, "shape": {{"type": "sphere", "radius": 0.01}}}},
                {{"name": "rod", "mass": 1, "position": [0.5, 0, 0], "shape": {{"type": "box", "size": [1, 0.04, 0.04]}}}}],
              "joints": [{joint}]}}"#
        )
    };
    for (joint, words) in [
        (
            r#"{"type": "revolute", "bodies": ["rod", "pivot"], "anchor": [0, 0, 0]}"#,
            &["joints[0].axis", "[x, y, z]"][..],
        ),
        (
            r#"{"type": "spherical", "bodies": ["rod", "pivot"], "anchor": [0, 0]}"#,
            &["joints[0].anchor", "3 numbers"],
        ),
        (
            r#"{"type": "prismatic", "bodies": ["rod", "pivot"], "anchor": [0, 0, 0]}"#,
            &["joints[0].axis", "[x, y, z]"],
        ),
        (
            r#"{"type": "weld", "bodies": ["rod", "pivot"], "anchor": [0, 0, 0], "axis": [1, 0, 0]}"#,
            &["joints[0].axis", "revolute and prismatic"],
        ),
        (
            r#"{"type": "revolute", "bodies": ["rod", "pivot"], "anchor": [0, 0, 0], "axis": [0, 0, 0]}"#,
            &["joints[0].axis", "zero"],
        ),
        (
            r#"{"type": "spherical", "bodies": ["rod", "pivot"], "anchor": [0, 0, 0], "drive_speed": 1}"#,
            &["joints[0].drive_speed", "revolute"],
        ),
    ] {
        let message = Simulation::from_json(&scene(joint))
            .err()
            .unwrap()
            .to_string();
        for w in words {
            assert!(message.contains(w), "{joint}: '{message}' lacks '{w}'");
        }
    }
    // A spherical joint in a planar scene is named as unavailable there.
    let planar = r#"{"bodies": [{"name": "pivot", "fixed": true, "shape": {"type": "disk", "radius": 0.01}},
        {"name": "rod", "mass": 1, "position": [0.5, 0], "shape": {"type": "box", "width": 1, "height": 0.04}}],
        "joints": [{"type": "spherical", "bodies": ["rod", "pivot"], "anchor": [0, 0]}]}"#;
    let message = Simulation::from_json(planar).err().unwrap().to_string();
    assert!(
        message.contains("joints[0].type") && message.contains("planar"),
        "{message}"
    );
}
