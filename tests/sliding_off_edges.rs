//! A round body slides off a box's edge (in space) or corner (in the plane) as theory says: the box's feature nearest its centre is the contact (`geometry/sphere_cuboid.rs`, `geometry/box_box.rs`).
//!
//! A frictionless sphere (or disk) of radius R slides over the top of a fixed box at v₀ and
//! reaches its edge. From there its centre moves on a circle of radius R about the edge for as
//! long as the edge pushes (nothing turns it: a frictionless normal force passes through its
//! centre), so energy gives v² = v₀² + 2 g R (1 − cos θ), θ from the vertical, and the normal
//! force N = m (g cos θ − v²/R) vanishes at
//!
//! ```text
//!     cos θ = (2 + v₀²/(g R)) / 3,
//! ```
//!
//! where the body leaves the edge. Before, the round body met the top face's plane for the
//! margin beyond the face's end: its centre went on at height R over the plane, further than
//! R from the edge.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;

const RADIUS: f64 = 0.05;
const SPEED: f64 = 0.5;
const G: f64 = 9.81;
/// The top's edge (space) or corner (plane), at x = z (or y) = 0.2 m.
const EDGE: f64 = 0.2;

/// Runs `scene` (the round body the one moving body, its x and height at coordinates 0 and
/// `up`) until it has left the edge: while the contact pushes and the centre is beyond the
/// edge, the centre is R from the edge (to 1e-9 m); returns cos θ at the last step the edge
/// pushed and at the first after it that it did not.
fn slide_off(scene: &str, up: usize) -> (f64, f64) {
    let mut sim = Simulation::from_json(scene).unwrap();
    let mut last_pushed = None;
    for _ in 0..2000 {
        let report = sim.step().unwrap();
        assert!(report.converged, "{report:?}");
        let pushed = report.contacts.iter().any(|c| c.normal > 0.0);
        let q = &sim.system().q;
        let (x, z) = (q[0] - EDGE, q[up] - EDGE);
        let cosine = z / RADIUS;
        if x <= 0.0 {
            assert!(pushed, "the top lets the body fall at x = {x}");
            continue;
        }
        if pushed {
            let distance = (x * x + z * z).sqrt();
            assert!(
                (distance - RADIUS).abs() < 1e-9,
                "the centre is {distance} m from the edge at t = {}",
                sim.time()
            );
            last_pushed = Some(cosine);
        } else if let Some(before) = last_pushed {
            return (before, cosine);
        }
        // (The step that crosses the edge reports the edge's contact unloaded: its force was
        // the top face's, under that contact's key, carried in NSGA's predictor.)
    }
    panic!("the body never left the edge");
}

/// The body of `scene` (its height at coordinate `up`) leaves the edge between two steps
/// whose cos θ bracket theory's (2 + v₀²/(g R))/3, to 2e-4 (a step turns θ by about 1e-3).
fn leaves_where_theory_says(scene: &str, up: usize) {
    let (before, after) = slide_off(scene, up);
    let theory = (2.0 + SPEED * SPEED / (G * RADIUS)) / 3.0;
    assert!(
        after - 2e-4 <= theory && theory <= before + 2e-4,
        "left between cos θ = {before} and {after}; theory {theory}"
    );
}

#[test]
fn a_frictionless_sphere_leaves_a_box_s_edge_where_theory_says() {
    let scene = format!(
        r#"{{"gravity": [0, 0, -{G}], "spatial_bodies": [
            {{"name": "table", "fixed": true, "position": [0, 0, 0.1],
              "shape": {{"type": "box", "size": [0.4, 0.4, 0.2]}}}},
            {{"name": "ball", "mass": 0.3, "position": [0.18, 0.01, {z}], "velocity": [{SPEED}, 0, 0],
              "shape": {{"type": "sphere", "radius": {RADIUS}}}}}],
          "material": {{"friction": 0, "restitution": 0}},
          "stepper": {{"kind": "nsga", "dt": 1e-4}}}}"#,
        z = EDGE + RADIUS,
    );
    leaves_where_theory_says(&scene, 2);
}

#[test]
fn a_frictionless_disk_leaves_a_box_s_corner_where_theory_says() {
    let scene = format!(
        r#"{{"gravity": [0, -{G}], "bodies": [
            {{"name": "table", "fixed": true, "position": [0, 0.1],
              "shape": {{"type": "box", "width": 0.4, "height": 0.2}}}},
            {{"name": "disk", "mass": 0.3, "position": [0.18, {y}], "velocity": [{SPEED}, 0],
              "shape": {{"type": "disk", "radius": {RADIUS}}}}}],
          "material": {{"friction": 0, "restitution": 0}},
          "stepper": {{"kind": "nsga", "dt": 1e-4}}}}"#,
        y = EDGE + RADIUS,
    );
    leaves_where_theory_says(&scene, 1);
}
