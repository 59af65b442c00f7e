//! Presets with boxes in space: seed 001's block in 3-D, a table on penalty legs (seed 003's modes in 3-D), a sphere on a penalty floor, a sliding box, a sphere rolling into a box.

use crate::presets::Values;
use crate::scene::{ForceSpec, Scene, SpatialBodySpec, SpatialShapeSpec, TorqueSpec};

/// A fixed level plane z ≤ 0.
fn floor() -> SpatialBodySpec {
    SpatialBodySpec {
        name: "floor".into(),
        fixed: true,
        mass: None,
        inertia: None,
        position: [0.0; 3],
        orientation: [1.0, 0.0, 0.0, 0.0],
        velocity: [0.0; 3],
        angular_velocity: [0.0; 3],
        shape: SpatialShapeSpec::Plane,
        contact_points: vec![],
    }
}

/// A moving body of the given shape at `position`, at rest and level.
fn body(name: &str, mass: f64, position: [f64; 3], shape: SpatialShapeSpec) -> SpatialBodySpec {
    SpatialBodySpec {
        name: name.into(),
        fixed: false,
        mass: Some(mass),
        inertia: None,
        position,
        orientation: [1.0, 0.0, 0.0, 0.0],
        velocity: [0.0; 3],
        angular_velocity: [0.0; 3],
        shape,
        contact_points: vec![],
    }
}

/// A scene in space with gravity g along −z and the given bodies.
fn space(name: &str, g: f64, bodies: Vec<SpatialBodySpec>, stepper: &str, dt: f64) -> Scene {
    let mut s = Scene {
        beams: Vec::new(),
        name: name.into(),
        gravity: Some(vec![0.0, 0.0, -g]),
        bodies: vec![],
        spatial_bodies: bodies,
        spatial_beams: Vec::new(),
        forces: vec![],
        joints: vec![],
        material: Default::default(),
        stepper: Default::default(),
        contact_margin: 0.05,
        duration: 1.0,
    };
    s.stepper.kind = stepper.into();
    s.stepper.dt = dt;
    s
}

/// Seed 001 in space: a 0.2 × 0.2 × 0.1 m box on one foot under its centre, pulled up by u.
pub(crate) fn block_pull_3d(v: &Values) -> Scene {
    let (m, u, g) = (v.get("m"), v.get("u"), v.get("g"));
    let mut block = body(
        "block",
        m,
        [0.0, 0.0, 0.05],
        SpatialShapeSpec::Box {
            size: [0.2, 0.2, 0.1],
        },
    );
    block.contact_points = vec![[0.0, 0.0, -0.05]];
    let mut s = space(
        "block-pull-3d",
        g,
        vec![floor(), block],
        "acceleration",
        1e-3,
    );
    s.forces = vec![ForceSpec::Constant {
        body: "block".into(),
        force: vec![0.0, 0.0, u],
        torque: TorqueSpec::Vector(vec![0.0; 3]),
    }];
    s.material.stiffness = v.get("k");
    s.contact_margin = 1.0;
    s
}

/// Thickness of the table's plate, m.
pub(crate) const PLATE_THICKNESS: f64 = 0.02;

/// The table's legs in the plate frame (at its underside): four at (±0.8L, ±0.8L), or three
/// on a circle of radius 0.8L at 90°, 210° and 330° (both placements are symmetric:
/// Σx = Σy = Σxy = 0, so heave, roll and pitch decouple).
pub(crate) fn table_legs(legs: usize, half_side: f64) -> Vec<[f64; 3]> {
    let r = 0.8 * half_side;
    let z = -0.5 * PLATE_THICKNESS;
    if legs == 3 {
        [90.0f64, 210.0, 330.0]
            .iter()
            .map(|deg| {
                let a = deg.to_radians();
                [r * libm::cos(a), r * libm::sin(a), z]
            })
            .collect()
    } else {
        vec![[-r, -r, z], [r, -r, z], [r, r, z], [-r, r, z]]
    }
}

/// A square plate on three or four penalty legs, at its static overlap under gravity and
/// perturbed in heave, roll or pitch (docs/modes.md derives its modes).
pub(crate) fn table_modes(v: &Values) -> Scene {
    let (m, k, half, amp) = (v.get("m"), v.get("k"), v.get("L"), v.get("amplitude"));
    let legs = table_legs(v.get("legs").round() as usize, half);
    let preload = -m * 9.81 / (k * legs.len() as f64);
    let arm = 0.8 * half;
    let (dz, angle_x, angle_y) = match v.get("kind").round() as i64 {
        1 => (0.0, amp / arm, 0.0),  // roll: a leg at y changes its gap by y·θx
        2 => (0.0, 0.0, -amp / arm), // pitch: a leg at x changes its gap by −x·θy
        _ => (amp, 0.0, 0.0),        // heave: every gap changes by amp
    };
    let mut plate = body(
        "plate",
        m,
        [0.0, 0.0, 0.5 * PLATE_THICKNESS + preload + dz],
        SpatialShapeSpec::Box {
            size: [2.0 * half, 2.0 * half, PLATE_THICKNESS],
        },
    );
    // A small rotation about x then y: q = (cos, sin·axis) for each, composed.
    let (cx, sx) = (libm::cos(angle_x / 2.0), libm::sin(angle_x / 2.0));
    let (cy, sy) = (libm::cos(angle_y / 2.0), libm::sin(angle_y / 2.0));
    plate.orientation = [cy * cx, cy * sx, sy * cx, -sy * sx];
    plate.contact_points = legs;
    let mut s = space(
        "table-modes",
        9.81,
        vec![floor(), plate],
        "penalty-explicit",
        1e-4,
    );
    s.material.stiffness = k;
    s.material.damping = 0.0;
    s.contact_margin = 0.01;
    s.duration = 0.2;
    s
}

/// A sphere resting on a penalty floor: it settles at the overlap d = −mg/k.
pub(crate) fn sphere_on_penalty_floor(v: &Values) -> Scene {
    let r = v.get("R");
    let ball = body(
        "sphere",
        v.get("m"),
        [0.0, 0.0, r],
        SpatialShapeSpec::Sphere { radius: r },
    );
    let mut s = space(
        "sphere-on-penalty-floor",
        9.81,
        vec![floor(), ball],
        "penalty-explicit",
        1e-4,
    );
    s.material.stiffness = v.get("k");
    s.material.damping = v.get("c");
    s.material.friction = 0.5;
    s.duration = 1.0;
    s
}

/// A box launched sliding on a level plane: it stops after v₀²/(2μg).
pub(crate) fn box_slide_3d(v: &Values) -> Scene {
    let mut block = body(
        "box",
        v.get("m"),
        [0.0, 0.0, 0.05],
        SpatialShapeSpec::Box {
            size: [0.2, 0.2, 0.1],
        },
    );
    block.velocity = [v.get("v0"), 0.0, 0.0];
    let mut s = space("box-slide-3d", 9.81, vec![floor(), block], "nsga", 1e-3);
    s.material.friction = v.get("mu");
    let mu_g = (v.get("mu") * 9.81).max(1e-9);
    s.duration = (1.5 * v.get("v0").abs() / mu_g).clamp(0.5, 20.0);
    s
}

/// A sphere rolling into a box that rests on the floor.
pub(crate) fn sphere_in_box(v: &Values) -> Scene {
    let r = v.get("R");
    let v0 = v.get("v0");
    let mut ball = body(
        "sphere",
        v.get("m"),
        [0.0, 0.0, r],
        SpatialShapeSpec::Sphere { radius: r },
    );
    ball.velocity = [v0, 0.0, 0.0];
    ball.angular_velocity = [0.0, v0 / r, 0.0];
    let target = body(
        "box",
        v.get("M"),
        [0.5, 0.0, 0.15],
        SpatialShapeSpec::Box {
            size: [0.3, 0.3, 0.3],
        },
    );
    let mut s = space(
        "sphere-in-box",
        9.81,
        vec![floor(), ball, target],
        "nsga",
        1e-3,
    );
    s.material.friction = v.get("mu");
    s.material.restitution = v.get("e");
    s.duration = 2.0;
    s
}

/// Masses of the sphere mill's shaft, arm and gimbal, kg; the arm's thickness, m.
pub(crate) const MILL_SHAFT_MASS: f64 = 0.2;
/// The arm's mass, kg.
pub(crate) const MILL_ARM_MASS: f64 = 0.5;
/// The gimbal's mass, kg.
pub(crate) const MILL_GIMBAL_MASS: f64 = 0.05;
/// The arm's square section, m.
const MILL_ARM_THICKNESS: f64 = 0.02;

/// The length of the sphere mill's arm, from the shaft's axis to 1 cm short of the sphere
/// (so the arm never touches the ball it carries), m.
pub(crate) fn mill_arm_length(arm_radius: f64, sphere_radius: f64) -> f64 {
    arm_radius - sphere_radius - 0.01
}

/// An edge mill: a vertical shaft driven at Ω carries a horizontal arm on a pitch hinge; at
/// radius R the arm holds a gimbal (a second pitch hinge) and the gimbal the sphere's axle,
/// along the arm, so the sphere rolls on the floor about the axle while the arm turns it
/// about the vertical at Ω (it spins against the floor at Ω). Every velocity starts on the
/// steady rolling motion (docs/joints.md derives the reactions and the drive torque).
pub(crate) fn sphere_mill(v: &Values) -> Scene {
    use crate::scene_joints::{JointSpec, JointType};
    let (omega, arm, r) = (v.get("omega"), v.get("R"), v.get("r"));
    let length = mill_arm_length(arm, r);
    let cube = |side: f64| SpatialShapeSpec::Box { size: [side; 3] };
    let mut shaft = body("shaft", MILL_SHAFT_MASS, [0.0, 0.0, r], cube(0.04));
    shaft.angular_velocity = [0.0, 0.0, omega];
    let mut beam = body(
        "arm",
        MILL_ARM_MASS,
        [0.5 * length, 0.0, r],
        SpatialShapeSpec::Box {
            size: [length, MILL_ARM_THICKNESS, MILL_ARM_THICKNESS],
        },
    );
    beam.velocity = [0.0, omega * 0.5 * length, 0.0];
    beam.angular_velocity = [0.0, 0.0, omega];
    let mut gimbal = body("gimbal", MILL_GIMBAL_MASS, [arm, 0.0, r], cube(0.02));
    gimbal.velocity = [0.0, omega * arm, 0.0];
    gimbal.angular_velocity = [0.0, 0.0, omega];
    let mut ball = body(
        "sphere",
        v.get("m"),
        [arm, 0.0, r],
        SpatialShapeSpec::Sphere { radius: r },
    );
    // Rolling without slip: v + ω × (−r ẑ) = 0 with v = Ω R ŷ gives ω_x = −Ω R / r.
    ball.velocity = [0.0, omega * arm, 0.0];
    ball.angular_velocity = [-omega * arm / r, 0.0, omega];
    let mut s = space(
        "sphere-mill",
        9.81,
        vec![floor(), shaft, beam, gimbal, ball],
        "nsga",
        // Three-level NSGA holds the drive torque to 8e-6 N·m at this step (docs/joints.md).
        2e-3,
    );
    let hinge = |name: &str, bodies: [&str; 2], anchor: [f64; 3], axis: [f64; 3]| JointSpec {
        name: name.into(),
        kind: JointType::Revolute,
        bodies: bodies.map(String::from),
        anchor: anchor.to_vec(),
        axis: Some(axis.to_vec()),
        anchor_b: None,
        drive_speed: None,
        drive_oscillation: None,
    };
    let mut drive = hinge("drive", ["shaft", "floor"], [0.0, 0.0, r], [0.0, 0.0, 1.0]);
    drive.drive_speed = Some(omega);
    s.joints = vec![
        drive,
        hinge("pitch", ["arm", "shaft"], [0.0, 0.0, r], [0.0, 1.0, 0.0]),
        hinge("gimbal", ["gimbal", "arm"], [arm, 0.0, r], [0.0, 1.0, 0.0]),
        hinge("axle", ["sphere", "gimbal"], [arm, 0.0, r], [1.0, 0.0, 0.0]),
    ];
    s.material.friction = v.get("mu");
    s.material.rolling_resistance = v.get("rho");
    s.material.spinning_resistance = v.get("gamma");
    // The arm and the gimbal pass 4 cm above the floor: only the sphere's contact is listed.
    s.contact_margin = 0.01;
    s.duration = 2.0;
    s
}
