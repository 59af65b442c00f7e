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
