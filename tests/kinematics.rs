//! Contact kinematics checked by finite differences: ḋ = J_N v and d̈ = J_N v̇ + J̇_N v for every shape pair.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::needless_range_loop)] // index loops read like the maths here

use contactlab::contact::detect_contacts;
use contactlab::scene::Scene;
use nalgebra::DVector;

/// Two moving bodies (A above B) with arbitrary velocities, plus a floor.
fn scene(shape_a: &str, shape_b: &str) -> Scene {
    let json = format!(
        r#"{{"gravity": [0, 0], "contact_margin": 10,
        "bodies": [
          {{"name": "floor", "fixed": true, "angle": 0.1, "shape": {{"type": "half_plane"}}}},
          {{"name": "a", "mass": 1.3, "inertia": 0.02, "position": [0.03, 0.31], "angle": 0.2,
            "velocity": [0.4, -0.7], "angular_velocity": 2.1, "shape": {shape_a}}},
          {{"name": "b", "mass": 2.1, "inertia": 0.05, "position": [0.0, 0.12], "angle": -0.15,
            "velocity": [-0.3, 0.2], "angular_velocity": -1.7, "shape": {shape_b}}}
        ]}}"#
    );
    Scene::from_json(&json).unwrap()
}

#[test]
fn gap_rate_and_velocity_product_match_finite_differences() {
    let boxy = r#"{"type": "box", "width": 0.2, "height": 0.1}"#;
    let disk = r#"{"type": "disk", "radius": 0.08}"#;
    let mut checked = 0;
    for (a, b) in [(boxy, boxy), (disk, disk), (disk, boxy), (boxy, disk)] {
        let (system, settings, _) = scene(a, b).build().unwrap();
        let (q, v) = (system.q.clone(), system.v.clone());
        // An arbitrary generalized acceleration to test d̈ = J v̇ + J̇ v.
        let acc = DVector::from_vec(vec![0.3, -0.2, 1.1, -0.4, 0.5, -0.9]);
        let path = |s: f64| {
            let qs = &q + &v * s + &acc * (0.5 * s * s);
            let vs = &v + &acc * s;
            (qs, vs)
        };
        let at = |s: f64| {
            let (qs, vs) = path(s);
            detect_contacts(&system, &qs, settings.margin)
                .into_iter()
                .map(|c| (c.key, c.gap(), c.gap_rate(&vs)))
                .collect::<Vec<_>>()
        };
        let contacts = detect_contacts(&system, &q, settings.margin);
        let eps = 1e-5;
        let (minus, plus) = (at(-eps), at(eps));
        for c in &contacts {
            let find = |list: &Vec<(contactlab::contact::ContactKey, f64, f64)>| {
                list.iter().find(|x| x.0 == c.key).map(|x| (x.1, x.2))
            };
            let (Some((dm, um)), Some((dp, up))) = (find(&minus), find(&plus)) else {
                continue;
            };
            let rate = (dp - dm) / (2.0 * eps);
            assert!(
                (rate - c.gap_rate(&v)).abs() < 1e-7,
                "{a} on {b}: ḋ {rate} vs {}",
                c.gap_rate(&v)
            );
            let second = (up - um) / (2.0 * eps);
            let predicted = c.normal_row.dot(&acc) + c.normal_velocity_product(&system, &v);
            assert!(
                (second - predicted).abs() < 1e-6,
                "{a} on {b}: d̈ {second} vs {predicted}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 8, "only {checked} contacts checked");
}

/// World position, at positions `q`, of the material point of `body` that sits at `p0` when q = q0.
fn material_point(
    system: &contactlab::model::System,
    body: usize,
    q0: &DVector<f64>,
    q: &DVector<f64>,
    p0: glam::DVec3,
) -> glam::DVec3 {
    let b = &system.bodies[body];
    let local = b.orientation(q0).inverse() * (p0 - b.position3(q0));
    b.position3(q) + b.orientation(q) * local
}

#[test]
fn slip_rows_are_the_relative_velocity_of_the_touching_material_points() {
    use contactlab::contact::{contact_rows, detect_contacts, detect_spatial_contacts};
    // Planar: box on box, disks, against the turned floor (as above).
    let boxy = r#"{"type": "box", "width": 0.2, "height": 0.1}"#;
    let disk = r#"{"type": "disk", "radius": 0.08}"#;
    let eps = 1e-6;
    let mut checked = 0;
    for (a, b) in [(boxy, boxy), (disk, disk), (disk, boxy)] {
        let (system, settings, _) = scene(a, b).build().unwrap();
        let (q, v) = (system.q.clone(), system.v.clone());
        for c in detect_contacts(&system, &q, settings.margin) {
            let t = c.geometry.normal.perp().extend(0.0);
            let (pa, pb) = (
                c.geometry.point_a.extend(0.0),
                c.geometry.point_b.extend(0.0),
            );
            let at = |s: f64| {
                let qs = system.integrate_positions(&q, &v, s);
                material_point(&system, c.body_a, &q, &qs, pa)
                    - material_point(&system, c.body_b, &q, &qs, pb)
            };
            let slip = t.dot(at(eps) - at(-eps)) / (2.0 * eps);
            assert!(
                (slip - c.slip_rate(&v)).abs() < 1e-7,
                "{a} on {b}: slip {slip} vs {}",
                c.slip_rate(&v)
            );
            checked += 1;
        }
    }
    // Spatial: a spinning sphere on a turned plane and against another sphere.
    let json = r#"{"spatial_bodies": [
        {"name": "plane", "fixed": true, "orientation": [0.9950041652780258, 0.0, 0.09983341664682815, 0.0], "shape": {"type": "plane"}},
        {"name": "a", "mass": 1.0, "inertia": [0.004, 0.005, 0.006], "position": [0.0, 0.0, 0.12], "orientation": [0.9, 0.1, 0.3, 0.2],
         "velocity": [0.3, -0.2, 0.1], "angular_velocity": [2.0, -1.0, 3.0], "shape": {"type": "sphere", "radius": 0.1}},
        {"name": "b", "mass": 2.0, "position": [0.15, 0.12, 0.13], "velocity": [-0.1, 0.4, 0.0],
         "angular_velocity": [-1.0, 0.5, 2.0], "shape": {"type": "sphere", "radius": 0.1}}],
      "stepper": {"kind": "nsga"}, "contact_margin": 10}"#;
    let (system, settings, _) = contactlab::scene::Scene::from_json(json)
        .unwrap()
        .build()
        .unwrap();
    let (q, v) = (system.q.clone(), system.v.clone());
    let rows = contact_rows(&system, &q, settings.margin);
    for c in detect_spatial_contacts(&system, &q, settings.margin) {
        let row = rows.iter().find(|r| r.key == c.key).unwrap();
        let pa = c.point + c.gap * c.normal; // A's surface point
        let at = |s: f64| {
            let qs = system.integrate_positions(&q, &v, s);
            material_point(&system, c.body_a, &q, &qs, pa)
                - material_point(&system, c.body_b, &q, &qs, c.point)
        };
        let rate = (at(eps) - at(-eps)) / (2.0 * eps);
        for k in 0..2 {
            let slip = c.tangents[k].dot(rate);
            assert!(
                (slip - row.tangents[k].dot(&v)).abs() < 1e-7,
                "slip {k}: {slip} vs {}",
                row.tangents[k].dot(&v)
            );
        }
        assert!(
            (c.normal.dot(rate) - row.normal.dot(&v)).abs() < 1e-7,
            "gap rate"
        );
        // Relative angular velocity from the change of orientation: R(+ε) R(−ε)ᵀ ≈ exp(2ε ω).
        let spin = |body: usize| {
            let b = &system.bodies[body];
            let (qp, qm) = (
                system.integrate_positions(&q, &v, eps),
                system.integrate_positions(&q, &v, -eps),
            );
            (b.orientation(&qp) * b.orientation(&qm).inverse()).to_scaled_axis() / (2.0 * eps)
        };
        let relative = spin(c.body_a) - spin(c.body_b);
        for k in 0..2 {
            assert!(
                (c.tangents[k].dot(relative) - row.rolling[k].dot(&v)).abs() < 1e-7,
                "rolling {k}"
            );
        }
        assert!(
            (c.normal.dot(relative) - row.spin.as_ref().unwrap().dot(&v)).abs() < 1e-7,
            "spinning"
        );
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} contacts checked");
}
