//! The pile benchmark as presets: N spheres (or cubes) dropped into an open box (`pile`), and its planar analogue, N disks (or squares) in a 2-D box (`pile-2d`).
//!
//! The scene is issue 11's benchmark, fixed so that contactlab and Rapier run the same thing:
//! spheres of radius 0.05 m and density 1000 kg/m³ (m = 4/3 π r³ ρ = 0.5236 kg), μ = 1, e = 0,
//! in a box of inner half width 0.35 m; 5 × 5 spheres per layer at a spacing of 0.12 m, layer
//! k at height 0.1 + 0.12 k, with a deterministic jitter of up to ±1 cm,
//!
//! ```text
//!     jx = 0.01 (((37 i) mod 11) − 5)/5,   jy = 0.01 (((53 i) mod 13) − 6)/6,
//!     x = −0.24 + 0.12 col + jx,           y = −0.24 + 0.12 row + jy,
//! ```
//!
//! i the sphere's index, col = i mod 5, row = ⌊i/5⌋ mod 5, layer ⌊i/25⌋; h = 1/240 s. The
//! floor and the four walls are half-spaces (walls without a top: nothing can leave over
//! them, so a body that escapes has gone through one). The planar pile puts 25 disks in a row
//! (x = −1.44 + 0.12 col + jx, row k at 0.1 + 0.12 k) between walls 1.55 m either side of the
//! centre; a disk has the sphere's mass and a disk's inertia ½ m r². The contact laws are
//! solved to a relative residual of 1e-8 (`stepper.newton_tolerance`, the parameter `tol`), by
//! NSGA with two levels (`stepper.nsga_levels`) at every N.
//!
//! With `shape` = 1 (the issue's "pile of boxes") each body is a cube of edge 8 cm and
//! density 1000 kg/m³ (0.512 kg; a square of the same edge and mass in the plane) at the same
//! place, turned by θᵢ = 0.1 (((7 i) mod 5) − 2) rad (−0.2 to 0.2) about the tilted axis
//! (0.6, 0.8, 0) (in the plane, about its normal), so that no face lands flat on another.

use std::f64::consts::FRAC_1_SQRT_2;

use crate::presets::Values;
use crate::scene::{BodySpec, Scene, ShapeSpec, SpatialBodySpec, SpatialShapeSpec};

/// Sphere (and disk) radius, m.
pub const RADIUS: f64 = 0.05;
/// Density of the spheres, kg/m³.
pub const DENSITY: f64 = 1000.0;
/// Inner half width of the 3-D box, m.
pub const HALF_WIDTH: f64 = 0.35;
/// Inner half width of the planar box, m.
pub const HALF_WIDTH_2D: f64 = 1.55;
/// Time step, s.
pub const DT: f64 = 1.0 / 240.0;
/// Edge of a cube (or square) of the pile of boxes, m.
pub const CUBE_EDGE: f64 = 0.08;
/// Centre spacing of the initial lattice, m.
const SPACING: f64 = 0.12;
/// Contacts are detected within this gap, m: more than a step's approach at the pile's
/// largest speed (≈ 5 m/s after a 1.3 m fall: 2 cm per step).
const MARGIN: f64 = 0.03;

/// Mass of one sphere, kg.
pub fn sphere_mass() -> f64 {
    DENSITY * 4.0 / 3.0 * std::f64::consts::PI * RADIUS * RADIUS * RADIUS
}

/// Mass of one cube of the pile of boxes (and of one square of the planar pile), kg.
pub fn cube_mass() -> f64 {
    DENSITY * CUBE_EDGE * CUBE_EDGE * CUBE_EDGE
}

/// The initial turn of box `i` of a pile of boxes, rad: −0.2 to 0.2 in five steps.
pub fn box_turn(i: usize) -> f64 {
    0.1 * (((7 * i) % 5) as f64 - 2.0)
}

/// Whether the pile's bodies are boxes (`shape` = 1) rather than spheres or disks.
fn boxes(v: &Values) -> bool {
    v.get("shape") == 1.0
}

/// The deterministic jitter (jx, jy) of body `i`, m.
pub fn jitter(i: usize) -> (f64, f64) {
    let jx = 0.01 * (((37 * i) % 11) as f64 - 5.0) / 5.0;
    let jy = 0.01 * (((53 * i) % 13) as f64 - 6.0) / 6.0;
    (jx, jy)
}

/// Initial centre of sphere `i` of the 3-D pile.
pub fn sphere_position(i: usize) -> [f64; 3] {
    let (jx, jy) = jitter(i);
    let (col, row, layer) = (i % 5, (i / 5) % 5, i / 25);
    [
        -0.24 + SPACING * col as f64 + jx,
        -0.24 + SPACING * row as f64 + jy,
        0.1 + SPACING * layer as f64,
    ]
}

/// Initial centre of disk `i` of the planar pile.
pub fn disk_position(i: usize) -> [f64; 2] {
    let (jx, _) = jitter(i);
    let (col, row) = (i % 25, i / 25);
    [
        -1.44 + SPACING * col as f64 + jx,
        0.1 + SPACING * row as f64,
    ]
}

/// A fixed half-space whose free side faces along `orientation`'s z axis, through `position`.
fn wall(name: &str, position: [f64; 3], orientation: [f64; 4]) -> SpatialBodySpec {
    SpatialBodySpec {
        name: name.into(),
        fixed: true,
        mass: None,
        inertia: None,
        position,
        orientation,
        velocity: [0.0; 3],
        angular_velocity: [0.0; 3],
        shape: SpatialShapeSpec::Plane,
        contact_points: vec![],
    }
}

/// The floor and the four walls of the 3-D box (each wall's free side faces the centre).
fn box_3d() -> Vec<SpatialBodySpec> {
    let (w, s) = (HALF_WIDTH, FRAC_1_SQRT_2);
    vec![
        wall("floor", [0.0; 3], [1.0, 0.0, 0.0, 0.0]),
        // A quarter turn about y takes the plane's z to −x (wall at +x) or +x (wall at −x).
        wall("wall +x", [w, 0.0, 0.0], [s, 0.0, -s, 0.0]),
        wall("wall -x", [-w, 0.0, 0.0], [s, 0.0, s, 0.0]),
        // A quarter turn about x takes z to −y (wall at +y) or +y (wall at −y).
        wall("wall +y", [0.0, w, 0.0], [s, s, 0.0, 0.0]),
        wall("wall -y", [0.0, -w, 0.0], [s, -s, 0.0, 0.0]),
    ]
}

/// A pile scene (planar bodies or spatial ones) with the material and stepper it runs with.
fn pile_scene(
    name: &str,
    gravity: Vec<f64>,
    (bodies, spatial_bodies): (Vec<BodySpec>, Vec<SpatialBodySpec>),
    v: &Values,
) -> Scene {
    let mut s = Scene {
        beams: Vec::new(),
        name: name.into(),
        gravity: Some(gravity),
        bodies,
        spatial_bodies,
        spatial_beams: Vec::new(),
        forces: vec![],
        joints: vec![],
        material: Default::default(),
        stepper: Default::default(),
        contact_margin: MARGIN,
        duration: 1000.0 * DT,
    };
    s.material.friction = v.get("mu");
    s.material.restitution = v.get("e");
    s.material.rolling_resistance = v.get("rho");
    s.material.spinning_resistance = v.get("gamma");
    s.material.stiffness = v.get("k");
    s.stepper.kind = "nsga".into();
    s.stepper.sleep = v.get("sleep") == 1.0;
    let sweeps = v.get("sweeps").round();
    s.stepper.velocity_sweeps = (sweeps >= 1.0).then_some(sweeps as u64);
    let gap = v.get("gap");
    s.stepper.gap_tolerance = (gap > crate::integrators::nsga::EXACT_GAP).then_some(gap);
    s.stepper.dt = DT;
    // The laws of a pile's one large island are solved iteratively to a relative residual of
    // 1e-8 (the parameter `tol`; the small scenes' dense Newton reaches 1e-12); NSGA's gaps
    // stay exact to 1e-14 m all the same (or to the parameter `gap`), as its position passes
    // re-correct what remains.
    s.stepper.newton_tolerance = v.get("tol");
    // Two levels (impulses and the position correction) at every N: an island of more than
    // 60 contact equations takes them anyway, and the benchmark should run one scheme from 10
    // bodies to 1000. Three levels would make a small pile's resting positions second order
    // at 2.6 times the cost of its step (docs/benchmarks.md), which is not what it measures.
    s.stepper.nsga_levels = 2;
    s
}

/// N spheres (or cubes) dropped into an open box.
pub(crate) fn pile(v: &Values) -> Scene {
    let n = v.get("N") as usize;
    let mut bodies = box_3d();
    bodies.extend((0..n).map(|i| {
        let (name, mass, orientation, shape) = if boxes(v) {
            // A turn θ about the unit axis (0.6, 0.8, 0): q = (cos θ/2, sin θ/2 · axis).
            let (s, c) = (0.5 * box_turn(i)).sin_cos();
            let size = [CUBE_EDGE; 3];
            let shape = SpatialShapeSpec::Box { size };
            (
                format!("cube {i}"),
                cube_mass(),
                [c, 0.6 * s, 0.8 * s, 0.0],
                shape,
            )
        } else {
            let shape = SpatialShapeSpec::Sphere { radius: RADIUS };
            (
                format!("sphere {i}"),
                sphere_mass(),
                [1.0, 0.0, 0.0, 0.0],
                shape,
            )
        };
        SpatialBodySpec {
            name,
            fixed: false,
            mass: Some(mass),
            inertia: None,
            position: sphere_position(i),
            orientation,
            velocity: [0.0; 3],
            angular_velocity: [0.0; 3],
            shape,
            contact_points: vec![],
        }
    }));
    pile_scene("pile", vec![0.0, 0.0, -9.81], (vec![], bodies), v)
}

/// A fixed half-plane whose free side faces along its local y, turned by `angle`.
fn half_plane(name: &str, position: [f64; 2], angle: f64) -> BodySpec {
    BodySpec {
        name: name.into(),
        fixed: true,
        mass: None,
        inertia: None,
        position,
        angle,
        velocity: [0.0, 0.0],
        angular_velocity: 0.0,
        shape: ShapeSpec::HalfPlane,
        contact_points: vec![],
    }
}

/// N disks (or squares) dropped into a 2-D box, 25 to a row.
pub(crate) fn pile_2d(v: &Values) -> Scene {
    let n = v.get("N") as usize;
    let half_pi = std::f64::consts::FRAC_PI_2;
    // A quarter turn takes the half-plane's y to −x (wall at +x) or +x (wall at −x).
    let mut bodies = vec![
        half_plane("floor", [0.0, 0.0], 0.0),
        half_plane("wall +x", [HALF_WIDTH_2D, 0.0], half_pi),
        half_plane("wall -x", [-HALF_WIDTH_2D, 0.0], -half_pi),
    ];
    bodies.extend((0..n).map(|i| {
        let (name, mass, inertia, angle, shape) = if boxes(v) {
            let (m, a) = (cube_mass(), CUBE_EDGE);
            let shape = ShapeSpec::Box {
                width: a,
                height: a,
            };
            // A square's polar moment: m (a² + a²)/12.
            (
                format!("square {i}"),
                m,
                m * a * a / 6.0,
                box_turn(i),
                shape,
            )
        } else {
            let m = sphere_mass();
            let shape = ShapeSpec::Disk { radius: RADIUS };
            (
                format!("disk {i}"),
                m,
                0.5 * m * RADIUS * RADIUS,
                0.0,
                shape,
            )
        };
        BodySpec {
            name,
            fixed: false,
            mass: Some(mass),
            inertia: Some(inertia),
            position: disk_position(i),
            angle,
            velocity: [0.0, 0.0],
            angular_velocity: 0.0,
            shape,
            contact_points: vec![],
        }
    }));
    pile_scene("pile-2d", vec![0.0, -9.81], (bodies, vec![]), v)
}

/// What the benchmark reports of a pile's state besides its cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PileState {
    /// Largest speed of any body's centre, m/s.
    pub max_speed: f64,
    /// Bodies whose centre is outside the box (through a wall or the floor).
    pub escaped: usize,
}

/// The state of a pile (`pile` or `pile-2d`) in `system`: its bodies' largest speed and how
/// many have left the box.
pub fn pile_state(system: &crate::model::System) -> PileState {
    let (q, v) = (&system.q, &system.v);
    let mut state = PileState {
        max_speed: 0.0,
        escaped: 0,
    };
    for body in system.bodies.iter().filter(|b| !b.is_fixed()) {
        let p = body.position3(q);
        state.max_speed = state.max_speed.max(body.twist3(v).0.length());
        let outside = if body.is_spatial() {
            p.x.abs() > HALF_WIDTH || p.y.abs() > HALF_WIDTH || p.z < 0.0
        } else {
            p.x.abs() > HALF_WIDTH_2D || p.y < 0.0
        };
        state.escaped += usize::from(outside);
    }
    state
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::find;

    /// The pile of boxes is the spheres' lattice with cubes of 8 cm at 1000 kg/m³ (0.512 kg),
    /// each turned about (0.6, 0.8, 0) by 0.1 (((7 i) mod 5) − 2) rad, and in the plane
    /// squares of the same edge and mass with the polar moment m (a² + a²)/12.
    #[test]
    fn the_pile_of_boxes_holds_the_cubes_it_describes() {
        let preset = find("pile").unwrap();
        let values = preset.values(&[("N".into(), 7.0), ("shape".into(), 1.0)]);
        let scene = preset.scene(&values.unwrap()).unwrap();
        let cubes: Vec<_> = scene.spatial_bodies.iter().filter(|b| !b.fixed).collect();
        assert_eq!(cubes.len(), 7);
        for (i, cube) in cubes.iter().enumerate() {
            assert!((cube.mass.unwrap() - 0.512).abs() < 1e-15);
            assert_eq!(cube.position, sphere_position(i));
            let SpatialShapeSpec::Box { size } = cube.shape else {
                panic!("cube {i}: {:?}", cube.shape);
            };
            assert_eq!(size, [0.08; 3]);
            let [w, x, y, z] = cube.orientation;
            let angle = 2.0 * f64::atan2((x * x + y * y + z * z).sqrt(), w);
            let expected: f64 = [-0.2, 0.0, 0.2, -0.1, 0.1, -0.2, 0.0][i];
            assert!(
                (angle - expected.abs()).abs() < 1e-15,
                "cube {i}: {angle} rad"
            );
            if expected != 0.0 {
                let s = expected.signum() * (x * x + y * y).sqrt();
                assert!((x / s - 0.6).abs() < 1e-12 && (y / s - 0.8).abs() < 1e-12 && z == 0.0);
            }
        }
        let preset = find("pile-2d").unwrap();
        let values = preset.values(&[("N".into(), 3.0), ("shape".into(), 1.0)]);
        let scene = preset.scene(&values.unwrap()).unwrap();
        let squares: Vec<_> = scene.bodies.iter().filter(|b| !b.fixed).collect();
        for (i, square) in squares.iter().enumerate() {
            let m = square.mass.unwrap();
            assert!((m - 0.512).abs() < 1e-15);
            assert!((square.inertia.unwrap() - m * 2.0 * 0.0064 / 12.0).abs() < 1e-15);
            assert!((square.angle - [-0.2, 0.0, 0.2][i]).abs() < 1e-15);
            assert_eq!(square.position, disk_position(i));
        }
    }
}
