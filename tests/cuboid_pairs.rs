//! Two boxes in space meet across one pair of faces (`geometry/cuboid_pair.rs`): side by side
//! they do not clamp each other, and a pile of boxes' small islands find their laws' answer.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;

/// Box B (8 cm cube, 1 kg) rests on the floor beside a fixed box A of the same size, level
/// with it, their facing sides overlapping by 10 µm (a step's rounding of two boxes pushed
/// together), and is thrown straight up at 1 m/s. The boxes meet across their side faces, so
/// NSGA's position level corrects the overlap sideways (B ends with its centre at x ≥ 8 cm),
/// and nothing presses the side faces together, so B flies freely: z(t) = z₀ + v₀ t − g t²/2,
/// 5.095 cm up after 0.1 s. When each corner took the other box's nearest face, the corners of
/// the shared edges, level with the top and bottom faces and 10 µm inside the side face, found
/// the top and bottom faces nearest: the pair had vertical contacts of opposite normals, and
/// the overlap was never corrected (B stayed at x = 7.999 cm).
#[test]
fn a_box_beside_another_flies_up_freely() {
    let overlap = 1e-5;
    let scene = format!(
        r#"{{"gravity": [0, 0, -9.81], "spatial_bodies": [
            {{"name": "floor", "fixed": true, "shape": {{"type": "plane"}}}},
            {{"name": "a", "fixed": true, "position": [0, 0, 0.04],
              "shape": {{"type": "box", "size": [0.08, 0.08, 0.08]}}}},
            {{"name": "b", "mass": 1, "position": [{x}, 0, 0.04], "velocity": [0, 0, 1],
              "shape": {{"type": "box", "size": [0.08, 0.08, 0.08]}}}}],
          "material": {{"friction": 1}},
          "stepper": {{"kind": "nsga", "dt": {h}}}}}"#,
        x = 0.08 - overlap,
        h = 1.0 / 240.0,
    );
    let mut sim = Simulation::from_json(&scene).unwrap();
    for _ in 0..24 {
        let report = sim.step().unwrap();
        assert!(report.converged, "{report:?}");
    }
    let t = sim.time();
    let rise = sim.system().q[2] - 0.04;
    let ballistic = t - 0.5 * 9.81 * t * t;
    assert!((t - 0.1).abs() < 1e-12, "t = {t}");
    assert!(
        (rise - ballistic).abs() < 1e-6,
        "B rose {rise} m in {t} s; in free flight {ballistic} m"
    );
    // The overlap is corrected sideways, not vertically: B moved off A along x.
    let x = sim.system().q[0];
    assert!(x >= 0.08 - 1e-12, "B's centre at x = {x}");
}
