//! Two boxes, in space and in the plane, meet across one pair of faces
//! (`geometry/cuboid_pair.rs`, `geometry/box_pair.rs`): side by side they do not clamp each
//! other, and a pile of boxes settles without gaining energy.
#![cfg(not(target_arch = "wasm32"))]

use std::f64::consts::PI;

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
    let (t, rise, x) = thrown_up(&scene, 2);
    let ballistic = t - 0.5 * 9.81 * t * t;
    assert!((t - 0.1).abs() < 1e-12, "t = {t}");
    assert!(
        (rise - ballistic).abs() < 1e-6,
        "B rose {rise} m in {t} s; in free flight {ballistic} m"
    );
    // The overlap is corrected sideways, not vertically: B moved off A along x.
    assert!(x >= 0.08 - 1e-12, "B's centre at x = {x}");
}

/// B's run of 0.1 s (24 steps, every one converged) in `scene`: (t, how far B rose from its
/// start, B's x), B's height being coordinate `up` of the one moving body.
fn thrown_up(scene: &str, up: usize) -> (f64, f64, f64) {
    let mut sim = Simulation::from_json(scene).unwrap();
    let start = sim.system().q[up];
    for _ in 0..24 {
        let report = sim.step().unwrap();
        assert!(report.converged, "{report:?}");
    }
    let q = &sim.system().q;
    (sim.time(), q[up] - start, q[0])
}

/// The pile benchmark with boxes (`shape` = 1): 30 cubes of 8 cm and 0.512 kg (the pile
/// preset's 5 × 5 lattice, two layers, each cube turned by up to 0.2 rad about a tilted axis)
/// dropped into the box, under Moreau–Jean for 1 s. Contact with e = 0 and friction only
/// dissipates, so no cube can ever move faster than if all the pile's potential energy went into it,
/// v ≤ √(2 g Σ zᵢ) (8.4 m/s here); nothing leaves the box; and the pile comes to rest (issue
/// 11's 1e-6 m/s). Before the pair of faces (and with a stalled dense Newton's iterate taken
/// as the answer) a cube was thrown out at 53 m/s and the pile still moved at 1.3 m/s after
/// 1 s.
#[test]
fn a_pile_of_boxes_settles_under_moreau_jean_without_gaining_energy() {
    let n = 30;
    let values = [("N".into(), n as f64), ("shape".into(), 1.0)];
    let mut sim = Simulation::from_preset("pile", &values).unwrap();
    let heights: f64 = sim
        .scene()
        .spatial_bodies
        .iter()
        .filter(|b| !b.fixed)
        .map(|b| b.position[2])
        .sum();
    let bound = (2.0 * 9.81 * heights).sqrt();
    sim.set_stepper("moreau-jean").unwrap();
    let speeds = |sim: &Simulation| {
        let v = &sim.system().v;
        (0..n)
            .map(|i| (v[6 * i].powi(2) + v[6 * i + 1].powi(2) + v[6 * i + 2].powi(2)).sqrt())
            .fold(0.0, f64::max)
    };
    for step in 0..240 {
        sim.step().unwrap();
        let fastest = speeds(&sim);
        assert!(
            fastest <= bound,
            "step {step}: a cube at {fastest} m/s, above the energy bound {bound} m/s"
        );
    }
    let q = &sim.system().q;
    for i in 0..n {
        let (x, y, z) = (q[7 * i], q[7 * i + 1], q[7 * i + 2]);
        assert!(
            x.abs() < 0.35 && y.abs() < 0.35 && z > 0.0,
            "cube {i} at ({x}, {y}, {z}) m: out of the box"
        );
    }
    let fastest = speeds(&sim);
    assert!(
        fastest <= 1e-6,
        "after 1 s the fastest cube moves at {fastest} m/s"
    );
}

/// The planar twin of [`a_box_beside_another_flies_up_freely`]: a 0.2 × 0.1 m box on the
/// floor beside a fixed one of the same size, level, overlapping by 10 µm, thrown up at 1
/// m/s, rises 5.095 cm in 0.1 s as in free flight, its overlap corrected sideways. Within
/// μ times the sideways correction: a small planar island's position level corrects the
/// overlap with Coulomb friction on, whose percussion (at most μ times the normal one, which
/// is m times the correction along x) holds the side faces' tangential (vertical) motion
/// during the correction (alone, without the fixed box, B rises as in free flight to 1e-6
/// m). The two contacts are the overlap's ends, A's top corner and B's bottom one, at
/// different heights, so the correction also turns B, and B's centre moves 25 µm along x.
#[test]
fn a_planar_box_beside_another_flies_up_freely() {
    let overlap = 1e-5;
    let scene = format!(
        r#"{{"gravity": [0, -9.81], "bodies": [
            {{"name": "floor", "fixed": true, "shape": {{"type": "half_plane"}}}},
            {{"name": "a", "fixed": true, "position": [0, 0.05],
              "shape": {{"type": "box", "width": 0.2, "height": 0.1}}}},
            {{"name": "b", "mass": 1, "position": [{x}, 0.05], "velocity": [0, 1],
              "shape": {{"type": "box", "width": 0.2, "height": 0.1}}}}],
          "material": {{"friction": 1}},
          "stepper": {{"kind": "nsga", "dt": {h}}}}}"#,
        x = 0.2 - overlap,
        h = 1.0 / 240.0,
    );
    let (t, rise, x) = thrown_up(&scene, 1);
    let ballistic = t - 0.5 * 9.81 * t * t;
    // The side faces' normal percussions moved B along x by Σν/m = x − x₀ (nothing else
    // pushes it sideways), and their friction, within μ Σν, lifted it by at most μ (x − x₀).
    let pushed = x - (0.2 - overlap);
    assert!(
        (rise - ballistic).abs() <= 1.0 * pushed + 1e-12,
        "B rose {rise} m in {t} s; in free flight {ballistic} m; pushed {pushed} m along x"
    );
    assert!(x >= 0.2 - 1e-12, "B's centre at x = {x}");
}

/// The piles of boxes (`shape` = 1) under NSGA, the preset's stepper: 30 cubes in space and
/// 50 squares in the plane dropped into their boxes for 1 s. NSGA's position level makes
/// every gap non-negative to rounding (its passes re-linearise until it is, and a step that
/// ends short says so): every step's deepest gap is within −1e-12 m (the issue asks −1e-9 m
/// of a pile of 100 spheres), nothing leaves the box, and the piles come to rest (issue 11's
/// 1e-6 m/s). When a small island's passes after the first judged the gaps against the
/// free demand's scale, which counts the open gaps up to the 3 cm margin, a pass took a gap
/// of −3.6e-11 m as solved (3 cm × the presets' 1e-8) and every later pass changed nothing:
/// the pile of 30 cubes left gaps of −2e-10 m, the planar pile of 50 of −1.4e-10 m.
#[test]
fn the_piles_of_boxes_keep_every_gap_to_rounding_under_nsga() {
    for (preset, n) in [("pile", 30), ("pile-2d", 50)] {
        let values = [("N".into(), n as f64), ("shape".into(), 1.0)];
        let mut sim = Simulation::from_preset(preset, &values).unwrap();
        assert_eq!(sim.stepper_name(), "nsga");
        for step in 0..240 {
            sim.step().unwrap();
            let deepest = sim.deepest_gap();
            assert!(
                deepest >= -1e-12,
                "{preset}: a gap of {deepest} m by step {step}"
            );
        }
        let system = sim.system();
        let state = contactlab::presets_pile::pile_state(system);
        assert_eq!(state.escaped, 0, "{preset}: {state:?}");
        assert!(state.max_speed <= 1e-6, "{preset}: {state:?}");
    }
}

/// Cube B (8 cm, 0.512 kg) dropped from 1 cm onto the top edge of a fixed cube A, edge across
/// edge: A turned 45° about x (its top an edge along x at z = 0.1 + 0.04√2), B turned 45°
/// about y (its bottom an edge along y), centres on one vertical line. The two edges cross at
/// one point, which is the one contact: with e = 0 B stops on it and stays, balanced (an
/// unstable balance, exact by symmetry: nothing pushes B sideways), its centre at
/// z = 0.1 + 0.08√2, the normal force m g, vertical. Before the edges' crossing was a
/// contact, B's corners met A's tilted faces: as they came within the margin NSGA's
/// position level moved B 1 cm sideways, and B toppled off A's edge.
#[test]
fn a_cube_balances_edge_across_edge_on_another() {
    let (mass, g) = (0.512, 9.81);
    let ridge = 0.1 + 0.04 * 2f64.sqrt();
    let rest = ridge + 0.04 * 2f64.sqrt();
    let (c, s) = ((PI / 8.0).cos(), (PI / 8.0).sin());
    for (stepper, depth) in [("nsga", 1e-12), ("moreau-jean", 5e-3)] {
        let scene = format!(
            r#"{{"gravity": [0, 0, -9.81], "spatial_bodies": [
                {{"name": "a", "fixed": true, "position": [0, 0, 0.1], "orientation": [{c}, {s}, 0, 0],
                  "shape": {{"type": "box", "size": [0.08, 0.08, 0.08]}}}},
                {{"name": "b", "mass": {mass}, "position": [0, 0, {z}], "orientation": [{c}, 0, {s}, 0],
                  "shape": {{"type": "box", "size": [0.08, 0.08, 0.08]}}}}],
              "material": {{"friction": 1, "restitution": 0}},
              "stepper": {{"kind": "{stepper}", "dt": {h}}}}}"#,
            z = rest + 0.01,
            h = 1.0 / 240.0,
        );
        let mut sim = Simulation::from_json(&scene).unwrap();
        let mut loaded = Vec::new();
        for _ in 0..120 {
            let report = sim.step().unwrap();
            assert!(report.converged, "{stepper}: {report:?}");
            loaded.clear();
            loaded.extend(report.contacts.iter().filter(|c| c.normal > 0.0).cloned());
            let q = &sim.system().q;
            assert!(
                q[0].abs() < 1e-9 && q[1].abs() < 1e-9,
                "{stepper}: B moved sideways to ({}, {}) at t = {}",
                q[0],
                q[1],
                sim.time()
            );
            assert!(q[2] > rest - depth, "{stepper}: B's centre at {}", q[2]);
        }
        assert_eq!(loaded.len(), 1, "{stepper}: {loaded:?}");
        let contact = &loaded[0];
        assert!(
            (contact.normal - mass * g).abs() < 1e-9 * mass * g,
            "{stepper}: N = {} against m g = {}",
            contact.normal,
            mass * g
        );
        // Vertical, from B (the contact's second body, here the upper cube) towards A.
        assert!((contact.direction[2] + 1.0).abs() < 1e-12, "{contact:?}");
        let point = contact.point;
        assert!(
            point[0].abs() < 1e-9 && point[1].abs() < 1e-9 && (point[2] - ridge).abs() < depth,
            "{stepper}: contact at {point:?}"
        );
        let v = &sim.system().v;
        assert!(v.amax() < 1e-9, "{stepper}: B still moves, {v}");
    }
}
