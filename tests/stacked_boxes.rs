//! Towers of boxes resting face on face, whose redundant corners make W singular: every step's laws are solved, and each interface carries the weight above it.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use contactlab::Simulation;

const G: f64 = 9.81;

/// The tower's cubes from the bottom: edge (m) and mass (kg).
const CUBES: [(f64, f64); 3] = [(0.12, 1.0), (0.09, 0.5), (0.06, 0.25)];

/// The tower standing on the floor, cube k turned by 0.2 k rad about the vertical (so each
/// cube's four bottom corners lie inside the top face below it: a corner at 0.75·√2·e/2
/// from the axis, turned, reaches 0.0472 m of the lower face's 0.06 m half width, and 0.0354
/// of 0.045), each `drop` m above the one below, at rest, μ = 1, h = 1/240 s, under
/// `stepper`.
fn tower(drop: f64, stepper: &str) -> String {
    tower_of(&CUBES, 0.2, drop, 1.0, stepper)
}

/// A tower of `cubes` (edge, mass) from the bottom, cube k turned by `turn`·k rad about the
/// vertical, each `drop` m above the one below, contacts detected within `margin` m.
fn tower_of(cubes: &[(f64, f64)], turn: f64, drop: f64, margin: f64, stepper: &str) -> String {
    let mut bodies =
        vec![r#"{"name": "floor", "fixed": true, "shape": {"type": "plane"}}"#.to_string()];
    let mut z = 0.0;
    for (k, (edge, mass)) in cubes.iter().enumerate() {
        let half = 0.5 * turn * k as f64;
        z += edge / 2.0 + if k > 0 { drop } else { 0.0 };
        bodies.push(format!(
            r#"{{"name": "c{k}", "mass": {mass}, "position": [0, 0, {z}],
                "orientation": [{w}, 0, 0, {s}],
                "shape": {{"type": "box", "size": [{edge}, {edge}, {edge}]}}}}"#,
            w = half.cos(),
            s = half.sin(),
        ));
        z += edge / 2.0;
    }
    format!(
        r#"{{"gravity": [0, 0, -{G}], "spatial_bodies": [{}],
            "material": {{"friction": 1}}, "contact_margin": {margin},
            "stepper": {{"kind": "{stepper}", "dt": {h}}}}}"#,
        bodies.join(","),
        h = 1.0 / 240.0,
    )
}

/// Steps the tower for 1 s (240 steps): every step's laws converged (the report's verdict,
/// its residual against the scene's tolerance); from 0.25 s on no cube moves faster than
/// 1e-9 m/s or rad/s, and the normal forces between cube k and what is below it sum to the
/// weight of the cubes from k up, to `relative` (statics: their split among the corners is
/// not determined, their sum is).
fn stands(drop: f64, stepper: &str, relative: [f64; 3]) {
    let label = format!("{stepper}, dropped {drop} m");
    stands_as_built(&CUBES, &tower(drop, stepper), &label, relative);
}

/// [`stands`] for the tower of `cubes` that `scene` describes (`label` names it in the
/// messages); also, from 0.25 s on each cube's centre is where the stack puts it, to 1e-3 m
/// (Moreau–Jean's drift is 1e-4 m): no cube has sunk into the one below.
fn stands_as_built(cubes: &[(f64, f64)], scene: &str, label: &str, relative: [f64; 3]) {
    let mut sim = Simulation::from_json(scene).unwrap();
    for step in 0..240 {
        let report = sim.step().unwrap();
        assert!(
            report.converged,
            "{label}: step {step} did not converge: {report:?}"
        );
        if step < 60 {
            continue;
        }
        let sample = sim.sample();
        let index = |name: &str| name.strip_prefix('c').map(|k| k.parse::<usize>().unwrap());
        let mut loads: BTreeMap<usize, f64> = BTreeMap::new();
        for c in &sample.contacts {
            let (pair, _) = c.id.split_once('#').unwrap();
            let (a, b) = pair.split_once('/').unwrap();
            // The upper cube of the pair carries the contact's load from below.
            let upper = index(a).max(index(b)).unwrap();
            *loads.entry(upper).or_default() += c.normal;
        }
        for k in 0..cubes.len() {
            let weight: f64 = cubes[k..].iter().map(|(_, m)| m * G).sum();
            let load = loads.get(&k).copied().unwrap_or(0.0);
            assert!(
                (load - weight).abs() <= relative[k] * weight,
                "{label}, step {step}: cube {k} carried by {load} N, weight above {weight} N"
            );
        }
        let mut top = 0.0;
        for ((edge, _), body) in cubes.iter().zip(&sample.bodies) {
            let height = top + edge / 2.0;
            assert!(
                (body.q[2] - height).abs() < 1e-3,
                "{label}, step {step}: a cube's centre at {} m, the stack puts it at {height} m",
                body.q[2]
            );
            top += edge;
            assert!(
                body.v.iter().all(|v| v.abs() < 1e-9),
                "{label}, step {step}: a cube moves: {:?}",
                body.v
            );
        }
    }
}

/// NSGA keeps every gap closed to rounding, so the faces stay level and each interface's
/// normal forces sum to the weight above it to 1e-9.
const LEVEL: [f64; 3] = [1e-9; 3];

/// Moreau–Jean leaves penetrations of up to 1e-4 m between the cubes (its positions drift
/// by h·u each step, and nothing corrects them), which tilts the upper faces by up to
/// 1e-3 rad; the friction at those corners (up to μN, a self-equilibrated set the laws do
/// not determine) then has a vertical part of up to 1e-3 N in a normal sum of the order of
/// 1 N. The floor stays level: its interface carries the whole tower to 1e-9.
const DRIFTED: [f64; 3] = [1e-9, 1e-3, 1e-3];

/// Standing at rest under Moreau–Jean. Before the dense solver's proximal-point rounds
/// (`laws/proximal.rs`), Newton's stick Jacobian r W was singular, its line search failed,
/// and block Gauss–Seidel crawled: 24 of these 240 steps ended above the tolerance.
#[test]
fn a_tower_of_turned_cubes_stands_under_moreau_jean() {
    stands(0.0, "moreau-jean", DRIFTED);
}

/// Each cube dropped 2 mm onto the one below under Moreau–Jean: 41 of 240 steps ended
/// above the tolerance before the rounds.
#[test]
fn a_dropped_tower_of_turned_cubes_settles_under_moreau_jean() {
    stands(0.002, "moreau-jean", DRIFTED);
}

/// NSGA's velocity level is the same kind of problem.
#[test]
fn a_tower_of_turned_cubes_stands_under_nsga() {
    stands(0.0, "nsga", LEVEL);
    stands(0.002, "nsga", LEVEL);
}

/// Three equal cubes (6 cm, 0.5 kg), each turned by 0.3 rad from the one below, with contacts
/// detected within 5 mm. A turned cube's corners overhang the face below by 7.5 mm (a
/// corner at √2·3 cm from the axis, turned to 45° + 17.2°, lies √2·3 cm · sin 62.2° = 3.75
/// cm out from it), and the lower cube's corners overhang the upper face alike, so no corner lies
/// over the other face within the margin: the faces share an octagon whose corners are the
/// crossings of their edges. Before those crossings were contacts (`cuboid_pair.rs`), the
/// pair had none, and the upper cubes fell through the lower ones to the floor.
#[test]
fn a_tower_of_equal_cubes_turned_past_their_corners_stands() {
    let cubes = [(0.06, 0.5); 3];
    for (stepper, relative) in [("nsga", LEVEL), ("moreau-jean", DRIFTED)] {
        let scene = tower_of(&cubes, 0.3, 0.0, 0.005, stepper);
        stands_as_built(&cubes, &scene, &format!("equal cubes, {stepper}"), relative);
    }
}
