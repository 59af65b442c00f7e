//! Contact kinematics checked by finite differences: ḋ = J_N v and d̈ = J_N v̇ + J̇_N v for every shape pair.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::needless_range_loop)] // index loops read like the maths here

use contactlab::contact::detect_contacts;
use contactlab::scene::Scene;
use nalgebra::DVector;

/// Two moving bodies (A above B) with arbitrary velocities, plus a floor.
fn scene(shape_a: &str, shape_b: &str) -> Scene {
    scene_at(shape_a, shape_b, [0.03, 0.31])
}

/// [`scene`] with A at `position`.
fn scene_at(shape_a: &str, shape_b: &str, [x, y]: [f64; 2]) -> Scene {
    let json = format!(
        r#"{{"gravity": [0, 0], "contact_margin": 10,
        "bodies": [
          {{"name": "floor", "fixed": true, "angle": 0.1, "shape": {{"type": "half_plane"}}}},
          {{"name": "a", "mass": 1.3, "inertia": 0.02, "position": [{x}, {y}], "angle": 0.2,
            "velocity": [0.4, -0.7], "angular_velocity": 2.1, "shape": {shape_a}}},
          {{"name": "b", "mass": 2.1, "inertia": 0.05, "position": [0.0, 0.12], "angle": -0.15,
            "velocity": [-0.3, 0.2], "angular_velocity": -1.7, "shape": {shape_b}}}
        ]}}"#
    );
    Scene::from_json(&json).unwrap()
}

#[test]
fn gap_rate_and_velocity_product_match_finite_differences() {
    use contactlab::geometry::GapKinematics;
    let boxy = r#"{"type": "box", "width": 0.2, "height": 0.1}"#;
    let disk = r#"{"type": "disk", "radius": 0.08}"#;
    // The disk over the box's top face, and beyond its top right corner (the corner's
    // region: B's corner at (0.1, 0.05) in B's frame, the disk's centre at (0.13, 0.09)).
    let over = [0.03, 0.31];
    let by_corner = [0.14199, 0.189562];
    let (mut checked, mut corners) = (0, 0);
    for (a, b, at_a) in [
        (boxy, boxy, over),
        (disk, disk, over),
        (disk, boxy, over),
        (boxy, disk, over),
        (disk, boxy, by_corner),
    ] {
        let (system, settings, _) = scene_at(a, b, at_a).build().unwrap();
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
                .map(|c| (c.key, c.gap, c.gap_rate(&vs)))
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
            if let GapKinematics::PointToPoint { arm_b, .. } = c.kinematics
                && arm_b != glam::DVec3::ZERO
            {
                corners += 1;
            }
        }
    }
    assert!(checked >= 9, "only {checked} contacts checked");
    assert_eq!(corners, 1, "the disk against the box's corner");
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

/// Relative angular velocity of bodies a and b along a motion (q, v), from the change of
/// orientation: R(+ε) R(−ε)ᵀ ≈ exp(2ε ω).
fn relative_spin(
    system: &contactlab::model::System,
    (a, b): (usize, usize),
    q: &DVector<f64>,
    v: &DVector<f64>,
    eps: f64,
) -> glam::DVec3 {
    let spin = |body: usize| {
        let r = &system.bodies[body];
        let (qp, qm) = (
            system.integrate_positions(q, v, eps),
            system.integrate_positions(q, v, -eps),
        );
        (r.orientation(&qp) * r.orientation(&qm).inverse()).to_scaled_axis() / (2.0 * eps)
    };
    spin(a) - spin(b)
}

/// Every row of every contact against finite differences of the touching material points
/// (slip along each tangent, gap rate) and of the orientations (rolling, spinning).
fn check_rows(system: &contactlab::model::System, margin: f64) -> usize {
    let (q, v) = (system.q.clone(), system.v.clone());
    let eps = 1e-6;
    let mut checked = 0;
    for c in detect_contacts(system, &q, margin) {
        let pa = c.point + c.gap * c.normal; // A's surface point
        let at = |s: f64| {
            let qs = system.integrate_positions(&q, &v, s);
            material_point(system, c.body_a, &q, &qs, pa)
                - material_point(system, c.body_b, &q, &qs, c.point)
        };
        let rate = (at(eps) - at(-eps)) / (2.0 * eps);
        for (t, row) in c.tangents.iter().zip(&c.tangent_rows) {
            let slip = t.dot(rate);
            assert!(
                (slip - row.dot(&v)).abs() < 1e-7,
                "{:?}: slip {slip} vs {}",
                c.key,
                row.dot(&v)
            );
        }
        assert!(
            (c.normal.dot(rate) - c.gap_rate(&v)).abs() < 1e-7,
            "{:?}: gap rate",
            c.key
        );
        let relative = relative_spin(system, (c.body_a, c.body_b), &q, &v, eps);
        for (axis, row) in c.rolling_axes.iter().zip(&c.rolling_rows) {
            assert!(
                (axis.dot(relative) - row.dot(&v)).abs() < 1e-7,
                "{:?}: rolling",
                c.key
            );
        }
        if let Some(spin) = &c.spin_row {
            assert!(
                (c.normal.dot(relative) - spin.dot(&v)).abs() < 1e-7,
                "{:?}: spinning",
                c.key
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn slip_rows_are_the_relative_velocity_of_the_touching_material_points() {
    // Planar: box on box, disks, against the turned floor (as above).
    let boxy = r#"{"type": "box", "width": 0.2, "height": 0.1}"#;
    let disk = r#"{"type": "disk", "radius": 0.08}"#;
    let mut checked = 0;
    for (a, b) in [(boxy, boxy), (disk, disk), (disk, boxy)] {
        let (system, settings, _) = scene(a, b).build().unwrap();
        checked += check_rows(&system, settings.margin);
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
    checked += check_rows(&system, settings.margin);
    assert!(checked >= 9, "only {checked} contacts checked");
}

/// Boxes and a sphere in space, all moving and turning, over a turned plane; margin 10 m so
/// that every corner–face, sphere–face and corner–sphere candidate is a contact.
const SPATIAL_SCENE: &str = r#"{"spatial_bodies": [
    {"name": "plane", "fixed": true, "orientation": [0.9950041652780258, 0.0, 0.09983341664682815, 0.0], "shape": {"type": "plane"}},
    {"name": "a", "mass": 1.3, "position": [0.0, 0.0, 0.4], "orientation": [0.9, 0.1, 0.3, 0.2],
     "velocity": [0.3, -0.2, 0.1], "angular_velocity": [2.0, -1.0, 3.0], "shape": {"type": "box", "size": [0.2, 0.1, 0.15]}},
    {"name": "b", "mass": 2.0, "position": [0.05, -0.02, 0.15], "orientation": [0.8, -0.2, 0.1, 0.4],
     "velocity": [-0.1, 0.4, 0.2], "angular_velocity": [-1.0, 0.5, 2.0], "shape": {"type": "box", "size": [0.3, 0.2, 0.1]}},
    {"name": "c", "mass": 0.7, "position": [0.25, 0.2, 0.3], "orientation": [0.7, 0.3, -0.4, 0.2],
     "velocity": [0.5, 0.1, -0.3], "angular_velocity": [1.5, 2.5, -0.5], "shape": {"type": "sphere", "radius": 0.08}}],
  "gravity": [0, 0, 0], "stepper": {"kind": "nsga"}, "contact_margin": 10}"#;

#[test]
fn spatial_pairs_match_finite_differences() {
    let checked = check_spatial_pairs(SPATIAL_SCENE);
    // On the plane every corner (8 + 8) and the sphere; the two boxes across one pair of
    // faces, the margin of 10 m taking every corner of each against the other's face (16);
    // the sphere against each box's face, edge or corner nearest its centre (here an edge of
    // each); every contact's rows.
    assert_eq!(checked.on_surface, 17 + 16, "{checked:?}");
    assert_eq!(
        checked.point_to_point + checked.point_to_line,
        2,
        "{checked:?}"
    );
    assert_eq!(checked.edge_to_edge, 0, "{checked:?}");
    assert_eq!(checked.rows, 35, "{checked:?}");
}

/// A box turned and moving, a sphere beside one of its edges (centre at (0.01, 0.08, 0.105)
/// in the box's frame: beyond the ±y and ±z faces, within x) and a sphere beside a corner
/// (at (0.13, 0.07, 0.115): beyond all three), both moving.
const SPHERES_BY_A_BOX_SCENE: &str = r#"{"spatial_bodies": [
    {"name": "box", "mass": 1.3, "position": [0.02, -0.01, 0.3], "orientation": [0.9, 0.1, 0.3, 0.2],
     "velocity": [0.3, -0.2, 0.1], "angular_velocity": [2.0, -1.0, 3.0], "shape": {"type": "box", "size": [0.2, 0.1, 0.15]}},
    {"name": "by edge", "mass": 0.7, "position": [0.066105, 0.059368, 0.402895],
     "velocity": [0.5, 0.1, -0.3], "angular_velocity": [1.5, 2.5, -0.5], "shape": {"type": "sphere", "radius": 0.05}},
    {"name": "by corner", "mass": 0.4, "position": [0.162526, 0.102842, 0.344474],
     "velocity": [-0.2, 0.3, 0.4], "angular_velocity": [-2.0, 1.0, 0.5], "shape": {"type": "sphere", "radius": 0.05}}],
  "gravity": [0, 0, 0], "stepper": {"kind": "nsga"}, "contact_margin": 10}"#;

/// A sphere against a box's edge (the distance of its centre from the edge's line) and
/// against a corner (two points): one contact each, whose gap rate, rows and d̈ match finite
/// differences; the two spheres' own contact besides.
#[test]
fn a_sphere_by_an_edge_or_a_corner_matches_finite_differences() {
    let expected = Checked {
        point_to_line: 1,
        point_to_point: 2,
        rows: 3,
        ..Checked::default()
    };
    assert_eq!(check_spatial_pairs(SPHERES_BY_A_BOX_SCENE), expected);
}

/// Two cubes crossed edge on edge, 3 mm apart, both moving and turning: A turned by about
/// 45° about x (its top a ridge along x), B by about 45° about y above it (its bottom a ridge
/// along y), each tilted a little more so that nothing is symmetric.
const CROSSED_EDGES_SCENE: &str = r#"{"spatial_bodies": [
    {"name": "a", "mass": 1.3, "position": [0.0, 0.0, 0.0], "orientation": [0.92, 0.38, 0.05, 0.03],
     "velocity": [0.3, -0.2, 0.1], "angular_velocity": [2.0, -1.0, 3.0], "shape": {"type": "box", "size": [0.2, 0.1, 0.15]}},
    {"name": "b", "mass": 2.0, "position": [0.01, -0.005, 0.227], "orientation": [0.92, -0.04, 0.38, 0.06],
     "velocity": [-0.1, 0.4, 0.2], "angular_velocity": [-1.0, 0.5, 2.0], "shape": {"type": "box", "size": [0.3, 0.2, 0.1]}}],
  "gravity": [0, 0, 0], "stepper": {"kind": "nsga"}, "contact_margin": 10}"#;

/// Two crossing edges are one contact, whose gap rate, rows and d̈ = J v̇ + J̇v match finite
/// differences as every other pair's do.
#[test]
fn crossing_edges_match_finite_differences() {
    let expected = Checked {
        edge_to_edge: 1,
        rows: 1,
        ..Checked::default()
    };
    assert_eq!(check_spatial_pairs(CROSSED_EDGES_SCENE), expected);
}

/// How many contacts of each kind of gap were checked, and how many contacts' rows.
#[derive(Debug, PartialEq, Default)]
struct Checked {
    on_surface: usize,
    point_to_point: usize,
    point_to_line: usize,
    edge_to_edge: usize,
    rows: usize,
}

/// Checks every contact of the scene `json` against finite differences along a path with an
/// arbitrary acceleration, and every contact's rows (`check_rows`).
fn check_spatial_pairs(json: &str) -> Checked {
    use contactlab::geometry::GapKinematics;
    let (system, settings, _) = Scene::from_json(json).unwrap().build().unwrap();
    let (q, v) = (system.q.clone(), system.v.clone());
    let acc = DVector::from_fn(system.dofs(), |i, _| 0.3 * (i as f64 + 1.0).sin());
    let path = |s: f64| {
        let qs = system.displace(&q, &(&v * s + &acc * (0.5 * s * s)));
        (qs, &v + &acc * s)
    };
    let at = |s: f64| {
        let (qs, vs) = path(s);
        detect_contacts(&system, &qs, settings.margin)
            .into_iter()
            .map(|c| (c.key, c.gap, c.gap_rate(&vs)))
            .collect::<Vec<_>>()
    };
    let eps = 1e-5;
    let (minus, plus) = (at(-eps), at(eps));
    let contacts = detect_contacts(&system, &q, settings.margin);
    let mut checked = Checked::default();
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
            "{:?}: ḋ {rate} vs {}",
            c.key,
            c.gap_rate(&v)
        );
        let second = (up - um) / (2.0 * eps);
        let predicted = c.normal_row.dot(&acc) + c.normal_velocity_product(&system, &v);
        assert!(
            (second - predicted).abs() < 1e-6,
            "{:?}: d̈ {second} vs {predicted}",
            c.key
        );
        match c.kinematics {
            GapKinematics::PointOnSurface { .. } => checked.on_surface += 1,
            GapKinematics::PointToPoint { .. } => checked.point_to_point += 1,
            GapKinematics::PointToLine { .. } => checked.point_to_line += 1,
            GapKinematics::EdgeToEdge { .. } => checked.edge_to_edge += 1,
            GapKinematics::Rotation | GapKinematics::AxisPair { .. } => {
                panic!("{:?}: only joints have angle equations", c.key)
            }
        }
    }
    checked.rows = check_rows(&system, settings.margin);
    checked
}
