//! The JSON scene description, its validation with clear errors, and building a [`System`] from it.

use glam::{DVec2, DVec3};
use serde::{Deserialize, Serialize};

use crate::contact::ContactMaterial;
use crate::error::{Error, Result, check_count, check_each, check_range};
use crate::geometry::Shape;
use crate::integrators::nsga::EXACT_GAP;
use crate::integrators::{
    AccelerationSettings, ContactSettings, MoreauJeanSettings, NsgaSettings, StepperKind,
};
use crate::laws::NewtonOptions;
use crate::lcp::{LcpSolverKind, PgsOptions};
use crate::model::{AppliedForce, Body, BodyKind, FixedBody, PlanarRigid, Pose, System};
pub use crate::scene_beams::BeamSpec;
pub use crate::scene_joints::JointSpec;
pub use crate::scene_loads::{ForceSpec, TorqueSpec};
pub use crate::scene_spatial::{SpatialBodySpec, SpatialShapeSpec};
pub use crate::scene_spatial_beams::SpatialBeamSpec;

/// The smallest time step a scene takes, s.
pub const MIN_TIME_STEP: f64 = 1e-7;

/// A whole scene: bodies, loads, contact material, stepper and run length.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// A name for traces and titles.
    #[serde(default)]
    pub name: String,
    /// Gravitational acceleration, m/s²: two entries for a planar scene (default (0, −9.81)),
    /// three for a spatial one (default (0, 0, −9.81)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gravity: Option<Vec<f64>>,
    /// Planar bodies; a scene has these or `spatial_bodies`, and at least one must move.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bodies: Vec<BodySpec>,
    /// Flexible beams (planar scenes), beside the rigid bodies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub beams: Vec<BeamSpec>,
    /// Spatial bodies (spheres on planes), for a scene in space.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spatial_bodies: Vec<SpatialBodySpec>,
    /// Flexible beams in space, beside the spatial bodies.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spatial_beams: Vec<SpatialBeamSpec>,
    /// Applied loads.
    #[serde(default)]
    pub forces: Vec<ForceSpec>,
    /// Joints between bodies (planar revolute joints so far; the NSGA stepper only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<JointSpec>,
    /// Contact material (scene-wide).
    #[serde(default)]
    pub material: ContactMaterial,
    /// Stepper and its settings.
    #[serde(default)]
    pub stepper: StepperSpec,
    /// Contacts with a gap up to this are detected and traced, m.
    #[serde(default = "default_margin")]
    pub contact_margin: f64,
    /// Default run length, s.
    #[serde(default = "default_duration")]
    pub duration: f64,
}

/// The physical ranges every scene quantity must lie in (docs/scenes.md lists them): wide
/// enough for any laboratory scene, narrow enough that no product of them overflows.
pub mod limits {
    /// Largest |coordinate| of a position, anchor or contact point, m.
    pub const COORDINATE: f64 = 1e4;
    /// Largest |angle|, rad.
    pub const ANGLE: f64 = 1e4;
    /// Largest |velocity component|, m/s.
    pub const SPEED: f64 = 1e4;
    /// Largest |angular velocity component|, rad/s.
    pub const ANGULAR_SPEED: f64 = 1e5;
    /// Largest |gravity component|, m/s².
    pub const GRAVITY: f64 = 1e3;
    /// Largest |force| or |torque| component of a load, N or N·m (a ramp's rate, N/s).
    pub const LOAD: f64 = 1e9;
    /// Largest spring stiffness or damping of a load, N/m or N·s/m.
    pub const SPRING: f64 = 1e12;
    /// Most moving bodies in a scene.
    pub const BODIES: usize = 10_000;
    /// Most fixed bodies (floors, walls, supports) in a scene.
    pub const FIXED_BODIES: usize = 256;
    /// Most contact points (feet) on one body.
    pub const CONTACT_POINTS: usize = 64;
    /// Most contacts detected at once within the margin; a step beyond it is refused.
    pub const CONTACTS: usize = 100_000;
    /// Most contacts in one island (contacts linked through shared moving bodies) for the
    /// steppers that solve an island with dense algebra (acceleration, penalty); a step
    /// beyond it is refused. NSGA and Moreau–Jean solve larger islands block-sparsely.
    pub const ISLAND_CONTACTS: usize = 1024;
    /// Most loads in a scene.
    pub const LOADS: usize = 256;
    /// An initial overlap deeper than this fraction of the smaller body's smallest extent is
    /// a scene error; shallower ones are accepted as a modelled penalty preload.
    pub const INITIAL_OVERLAP: f64 = 0.1;
}

fn default_margin() -> f64 {
    1.0
}
fn default_duration() -> f64 {
    1.0
}

/// One body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodySpec {
    /// Unique name.
    pub name: String,
    /// True for a body that never moves (floors, supports).
    #[serde(default)]
    pub fixed: bool,
    /// Mass, kg (moving bodies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mass: Option<f64>,
    /// Moment of inertia about the centre, kg·m²; default from the shape (uniform density).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inertia: Option<f64>,
    /// Position of the body origin (centre of mass), m.
    #[serde(default)]
    #[serde(deserialize_with = "crate::scene_fields::array")]
    pub position: [f64; 2],
    /// Angle, rad.
    #[serde(default)]
    pub angle: f64,
    /// Initial velocity, m/s.
    #[serde(default)]
    #[serde(deserialize_with = "crate::scene_fields::array")]
    pub velocity: [f64; 2],
    /// Initial angular velocity, rad/s.
    #[serde(default)]
    pub angular_velocity: f64,
    /// Shape.
    pub shape: ShapeSpec,
    /// Body-fixed contact points replacing the shape's corners, m.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[serde(deserialize_with = "crate::scene_fields::array_list")]
    pub contact_points: Vec<[f64; 2]>,
}

/// Shape of a body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ShapeSpec {
    /// Solid half-plane y ≤ 0 in the body frame (fixed bodies only).
    HalfPlane,
    /// Rectangle, m.
    Box {
        /// Width (x), m.
        width: f64,
        /// Height (y), m.
        height: f64,
    },
    /// Disk, m.
    Disk {
        /// Radius, m.
        radius: f64,
    },
}

/// Which stepper and how it is set up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StepperSpec {
    /// `acceleration`, `moreau-jean`, `penalty-explicit` or `penalty-implicit`.
    pub kind: String,
    /// Time step h, s.
    pub dt: f64,
    /// LCP solver: `lemke` or `pgs`.
    pub solver: LcpSolverKind,
    /// PGS sweep cap.
    pub pgs_max_iterations: u64,
    /// PGS relative tolerance.
    pub pgs_tolerance: f64,
    /// Baumgarte feedback [α, β] in 1/s for the acceleration stepper (absent = off).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "crate::scene_fields::optional_array")]
    pub baumgarte: Option<[f64; 2]>,
    /// Acceleration stepper: impacts slower than this are plastic, m/s.
    pub rest_velocity: f64,
    /// NSGA: spectral radius at infinite frequency ρ∞ ∈ [0, 1].
    pub spectral_radius: f64,
    /// NSGA: 3 for smooth contact forces in the generalized-α step beside the impulses and
    /// the position correction (second order under persistent contact), 2 for impulses and
    /// position correction only.
    pub nsga_levels: u64,
    /// NSGA and spatial Moreau–Jean: relative tolerance of the semismooth Newton solves.
    pub newton_tolerance: f64,
    /// NSGA and spatial Moreau–Jean: Newton iteration cap.
    pub newton_max_iterations: u64,
    /// NSGA and Moreau–Jean: sweep cap of block Gauss–Seidel on large islands.
    pub nsgs_max_sweeps: u64,
    /// Moreau–Jean: a fixed budget of block Gauss–Seidel sweeps for the impulses of large
    /// islands, without Newton–Krylov rounds, as an engine of fixed iterations takes
    /// (absent: solved to `newton_tolerance`); steps that stop short say so. NSGA ignores it:
    /// its velocity level is always solved (at a budget its position level failed on the
    /// planar pile of 1000; docs/benchmarks.md, thirty-fourth sitting).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub velocity_sweeps: Option<u64>,
    /// NSGA: the deepest gap (and largest joint equation) its position level may leave, m,
    /// in [1e-14, 1e-6] (absent: 1e-14, gaps resolved to rounding). A larger tolerance ends
    /// the position passes sooner; a step that leaves a gap deeper says it did not converge.
    /// The other steppers have no position level and ignore it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gap_tolerance: Option<f64>,
    /// Islands of bodies at rest fall asleep until touched (see `crate::sleep`).
    pub sleep: bool,
    /// With `sleep`: the speed |v| + |ω| r below which a body is at rest, m/s.
    pub sleep_speed: f64,
    /// With `sleep`: how long a body must be at rest before its island sleeps, s.
    pub sleep_time: f64,
}

impl Default for StepperSpec {
    fn default() -> Self {
        let pgs = PgsOptions::default();
        Self {
            kind: "acceleration".into(),
            dt: 1e-3,
            solver: LcpSolverKind::Lemke,
            pgs_max_iterations: pgs.max_iterations as u64,
            pgs_tolerance: pgs.tolerance,
            baumgarte: None,
            rest_velocity: AccelerationSettings::default().rest_velocity,
            spectral_radius: NsgaSettings::default().spectral_radius,
            nsga_levels: if NsgaSettings::default().three_levels {
                3
            } else {
                2
            },
            newton_tolerance: NewtonOptions::default().tolerance,
            newton_max_iterations: NewtonOptions::default().max_iterations as u64,
            nsgs_max_sweeps: NewtonOptions::default().max_sweeps as u64,
            velocity_sweeps: None,
            gap_tolerance: None,
            sleep: false,
            sleep_speed: crate::sleep::SLEEP_SPEED,
            sleep_time: crate::sleep::SLEEP_TIME,
        }
    }
}

impl StepperSpec {
    /// The semismooth Newton settings, range-checked.
    pub fn newton(&self) -> Result<NewtonOptions> {
        check_range(
            "stepper.newton_tolerance",
            self.newton_tolerance,
            1e-16,
            1e-2,
        )?;
        let max_iterations = check_count(
            "stepper.newton_max_iterations",
            self.newton_max_iterations,
            1,
            10_000,
        )?;
        let max_sweeps = check_count("stepper.nsgs_max_sweeps", self.nsgs_max_sweeps, 1, 100_000)?;
        Ok(NewtonOptions {
            tolerance: self.newton_tolerance,
            max_iterations,
            max_sweeps,
            ..NewtonOptions::default()
        })
    }

    /// Moreau–Jean's sweep budget for the impulses of large islands, range-checked (checked
    /// whatever the stepper, so that a bad value is refused before a switch to it).
    pub fn velocity_sweeps(&self) -> Result<Option<usize>> {
        self.velocity_sweeps
            .map(|v| check_count("stepper.velocity_sweeps", v, 1, 100_000))
            .transpose()
    }

    /// NSGA's gap tolerance, range-checked (whatever the stepper, as
    /// [`Self::velocity_sweeps`]): the field's value, or [`crate::integrators::nsga::EXACT_GAP`].
    pub fn gap_tolerance(&self) -> Result<f64> {
        match self.gap_tolerance {
            Some(g) => check_range("stepper.gap_tolerance", g, EXACT_GAP, 1e-6),
            None => Ok(EXACT_GAP),
        }
    }

    /// The sleeping thresholds, range-checked.
    pub fn sleep_thresholds(&self) -> Result<crate::sleep::SleepThresholds> {
        check_range("stepper.sleep_speed", self.sleep_speed, 1e-9, 10.0)?;
        check_range("stepper.sleep_time", self.sleep_time, 0.0, 1000.0)?;
        Ok(crate::sleep::SleepThresholds {
            speed: self.sleep_speed,
            time: self.sleep_time,
        })
    }

    /// Validates and turns the spec into a [`StepperKind`].
    pub fn to_kind(&self) -> Result<StepperKind> {
        check_range("stepper.dt", self.dt, MIN_TIME_STEP, 0.1)?;
        self.sleep_thresholds()?;
        self.velocity_sweeps()?;
        self.gap_tolerance()?;
        check_range("stepper.pgs_tolerance", self.pgs_tolerance, 0.0, 1.0)?;
        let pgs_max_iterations = check_count(
            "stepper.pgs_max_iterations",
            self.pgs_max_iterations,
            1,
            crate::lcp::MAX_PGS_ITERATIONS as u64,
        )?;
        check_range("stepper.rest_velocity", self.rest_velocity, 0.0, 10.0)?;
        let pgs = PgsOptions {
            max_iterations: pgs_max_iterations,
            tolerance: self.pgs_tolerance,
        };
        let mut kind = StepperKind::parse(&self.kind).map_err(|e| match e {
            Error::Unknown { known, name, .. } => Error::field(
                "stepper.kind",
                format!("unknown stepper '{name}'; known: {known}"),
            ),
            other => other,
        })?;
        match &mut kind {
            StepperKind::Acceleration(s) => {
                s.solver = self.solver;
                s.pgs = pgs;
                s.rest_velocity = self.rest_velocity;
                if let Some([a, b]) = self.baumgarte {
                    check_range("stepper.baumgarte[0]", a, 0.0, 1e6)?;
                    check_range("stepper.baumgarte[1]", b, 0.0, 1e6)?;
                    s.baumgarte = Some((a, b));
                }
            }
            StepperKind::MoreauJean(s) => {
                *s = MoreauJeanSettings {
                    solver: self.solver,
                    pgs,
                    newton: self.newton()?,
                    velocity_sweeps: self.velocity_sweeps()?,
                    ..MoreauJeanSettings::default()
                };
            }
            StepperKind::Penalty(_) => {}
            StepperKind::Nsga(s) => {
                s.spectral_radius =
                    check_range("stepper.spectral_radius", self.spectral_radius, 0.0, 1.0)?;
                s.newton = self.newton()?;
                s.three_levels = check_count("stepper.nsga_levels", self.nsga_levels, 2, 3)? == 3;
                s.gap_tolerance = self.gap_tolerance()?;
            }
        }
        Ok(kind)
    }
}

impl Scene {
    /// Parses and validates a scene from JSON (an object; the error names the field's path).
    pub fn from_json(json: &str) -> Result<Self> {
        let trimmed = json.trim_start();
        if !trimmed.starts_with('{') {
            return Err(Error::Json(
                "a scene is a JSON object {\"bodies\": [...], ...}; see docs/scenes.md".into(),
            ));
        }
        let mut reader = serde_json::Deserializer::from_str(json);
        let scene: Scene = serde_path_to_error::deserialize(&mut reader).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            if path == "." || path.is_empty() {
                Error::Json(inner.to_string())
            } else {
                Error::Json(format!("{path}: {inner}"))
            }
        })?;
        reader.end()?;
        scene.validate()?;
        Ok(scene)
    }

    /// The scene as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Checks every field; the first problem found is returned with its path and range.
    pub fn validate(&self) -> Result<()> {
        let gravity = self.gravity_vector()?;
        let components = if self.is_spatial() { 3 } else { 2 };
        check_each(
            "gravity",
            &gravity.to_array()[..components],
            -limits::GRAVITY,
            limits::GRAVITY,
        )?;
        check_range("contact_margin", self.contact_margin, 0.0, 100.0)?;
        let fixed = self.bodies.iter().filter(|b| b.fixed).count()
            + self.spatial_bodies.iter().filter(|b| b.fixed).count();
        let moving = self.bodies.len()
            + self.spatial_bodies.len()
            + self.beams.len()
            + self.spatial_beams.len()
            - fixed;
        let list = if self.is_spatial() {
            "spatial_bodies"
        } else {
            "bodies"
        };
        if moving > limits::BODIES || fixed > limits::FIXED_BODIES {
            return Err(Error::field(
                list,
                format!(
                    "has {moving} moving and {fixed} fixed bodies; at most {} moving and {} fixed are allowed in this version",
                    limits::BODIES,
                    limits::FIXED_BODIES
                ),
            ));
        }
        if self.forces.len() > limits::LOADS {
            return Err(Error::field(
                "forces",
                format!(
                    "has {} loads; at most {} are allowed",
                    self.forces.len(),
                    limits::LOADS
                ),
            ));
        }
        check_range("duration", self.duration, 0.0, 1e5)?;
        self.material.validate("material")?;
        self.stepper.to_kind()?;
        self.validate_joint_count()?;
        self.validate_beam_stepper()?;
        if self.is_spatial() {
            if !self.beams.is_empty() {
                return Err(Error::field(
                    "beams",
                    "beams live in planar scenes (bodies), not beside spatial_bodies",
                ));
            }
            return self.validate_spatial();
        }
        if self.bodies.is_empty() && self.beams.is_empty() {
            return Err(Error::field(
                "bodies",
                "must list at least one body (or spatial_bodies for a scene in space)",
            ));
        }
        if self.beams.is_empty() && self.bodies.iter().all(|b| b.fixed) {
            return Err(Error::field(
                "bodies",
                "at least one body must move (fixed: false)",
            ));
        }
        let mut names = std::collections::BTreeSet::new();
        for (i, b) in self.bodies.iter().enumerate() {
            let path = format!("bodies[{i}]");
            check_name(&path, &b.name, &mut names)?;
            b.validate(&path)?;
        }
        for (i, b) in self.beams.iter().enumerate() {
            let path = format!("beams[{i}]");
            check_name(&path, &b.name, &mut names)?;
            b.validate(&path)?;
        }
        self.validate_forces()?;
        let bodies: Vec<(&str, bool)> = self
            .bodies
            .iter()
            .map(|b| (b.name.as_str(), b.fixed))
            .chain(self.beams.iter().map(|b| (b.name.as_str(), false)))
            .collect();
        for (i, joint) in self.joints.iter().enumerate() {
            let path = format!("joints[{i}]");
            joint.validate(&path, &bodies, false)?;
            // On a beam a joint attaches at a node.
            for (k, name) in joint.bodies.iter().enumerate() {
                if let Some(beam) = self.beams.iter().find(|b| &b.name == name) {
                    let (field, point) = match (k, &joint.anchor_b) {
                        (1, Some(_)) => ("anchor_b", joint.anchor_b2().to_array()),
                        _ => ("anchor", joint.anchor2().to_array()),
                    };
                    beam.node_at(point, &format!("{path}.{field}"))?;
                }
            }
        }
        Ok(())
    }

    /// Beams run under NSGA (implicit in their elastic forces), Moreau–Jean and the penalty
    /// steppers (explicit in them).
    fn validate_beam_stepper(&self) -> Result<()> {
        if self.beams.is_empty() && self.spatial_beams.is_empty() {
            return Ok(());
        }
        let kind = self.stepper.to_kind()?;
        if !crate::integrators::takes(kind.name(), Some("flexible beams")) {
            return Err(Error::field(
                "stepper.kind",
                format!(
                    "a scene with beams runs under nsga, moreau-jean, penalty-explicit or penalty-implicit (the steppers that take flexible bodies so far); got {}",
                    kind.name()
                ),
            ));
        }
        Ok(())
    }

    /// Joints: at most [`crate::scene_joints::MAX_JOINTS`] (every stepper holds them).
    fn validate_joint_count(&self) -> Result<()> {
        if self.joints.is_empty() {
            return Ok(());
        }
        if self.joints.len() > crate::scene_joints::MAX_JOINTS {
            return Err(Error::field(
                "joints",
                format!(
                    "has {} joints; at most {} are allowed",
                    self.joints.len(),
                    crate::scene_joints::MAX_JOINTS
                ),
            ));
        }
        Ok(())
    }

    /// Each load: its fields in range, and a moving body of this scene to act on.
    pub(crate) fn validate_forces(&self) -> Result<()> {
        let spatial = self.is_spatial();
        let bodies: Vec<(&str, bool)> = if spatial {
            self.spatial_bodies
                .iter()
                .map(|b| (b.name.as_str(), b.fixed))
                .chain(self.spatial_beams.iter().map(|b| (b.name.as_str(), false)))
                .collect()
        } else {
            self.bodies
                .iter()
                .map(|b| (b.name.as_str(), b.fixed))
                .chain(self.beams.iter().map(|b| (b.name.as_str(), false)))
                .collect()
        };
        for (i, f) in self.forces.iter().enumerate() {
            let path = format!("forces[{i}]");
            f.law(&path, spatial)?;
            let body = f.body();
            match bodies.iter().find(|(name, _)| *name == body) {
                None => {
                    let names: Vec<&str> = bodies.iter().map(|b| b.0).collect();
                    return Err(Error::field(
                        format!("{path}.body"),
                        format!("no body named '{body}'; bodies: {}", names.join(", ")),
                    ));
                }
                Some((_, true)) => {
                    return Err(Error::field(
                        format!("{path}.body"),
                        format!("'{body}' is fixed; loads act on moving bodies only"),
                    ));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// True for a scene in space (it lists spatial bodies or beams).
    pub fn is_spatial(&self) -> bool {
        !self.spatial_bodies.is_empty() || !self.spatial_beams.is_empty()
    }

    /// Gravity as a 3-vector (a planar scene's (gx, gy) gets z = 0); the error names the field.
    pub fn gravity_vector(&self) -> Result<DVec3> {
        let spatial = self.is_spatial();
        match &self.gravity {
            None if spatial => Ok(DVec3::new(0.0, 0.0, -9.81)),
            None => Ok(DVec3::new(0.0, -9.81, 0.0)),
            Some(g) if spatial && g.len() == 3 => Ok(DVec3::new(g[0], g[1], g[2])),
            Some(g) if !spatial && g.len() == 2 => Ok(DVec3::new(g[0], g[1], 0.0)),
            Some(g) => Err(Error::field(
                "gravity",
                format!(
                    "must have {} entries in a {} scene, got {}",
                    if spatial { 3 } else { 2 },
                    if spatial { "spatial" } else { "planar" },
                    g.len()
                ),
            )),
        }
    }

    /// Builds the mechanical system and the contact settings (the scene must be valid).
    pub fn build(&self) -> Result<(System, ContactSettings, StepperKind)> {
        self.validate()?;
        let mut bodies: Vec<Body> = self.bodies.iter().map(BodySpec::to_body).collect();
        bodies.extend(self.beams.iter().map(BeamSpec::to_body));
        bodies.extend(self.spatial_bodies.iter().map(SpatialBodySpec::to_body));
        bodies.extend(self.spatial_beams.iter().map(SpatialBeamSpec::to_body));
        let spatial = self.is_spatial();
        let forces = self
            .forces
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let law = f.law(&format!("forces[{i}]"), spatial)?;
                let body = bodies.iter().position(|b| b.name == f.body()).unwrap_or(0);
                Ok(AppliedForce { body, law })
            })
            .collect::<Result<Vec<_>>>()?;
        let mut system = System::new(bodies, self.gravity_vector()?, forces);
        system.joints = self
            .joints
            .iter()
            .enumerate()
            .map(|(i, j)| j.to_joint(i, &system.bodies, &system.q))
            .collect();
        let settings = ContactSettings {
            material: self.material,
            margin: self.contact_margin,
        };
        Ok((system, settings, self.stepper.to_kind()?))
    }
}

/// A fixed body has no mass; a moving one needs a mass in [1e-9, 1e9] kg. Returns the mass of
/// a moving body, None for a fixed one.
pub(crate) fn check_mass(path: &str, fixed: bool, mass: Option<f64>) -> Result<Option<f64>> {
    let field = format!("{path}.mass");
    if fixed {
        return match mass {
            Some(_) => Err(Error::field(
                field,
                "a fixed body has no mass; remove it or set fixed: false",
            )),
            None => Ok(None),
        };
    }
    let mass =
        mass.ok_or_else(|| Error::field(&field, "is required for a moving body (kg, > 0)"))?;
    check_range(&field, mass, 1e-9, 1e9).map(Some)
}

/// A body name must be non-empty and differ from the names before it.
pub(crate) fn check_name<'a>(
    path: &str,
    name: &'a str,
    earlier: &mut std::collections::BTreeSet<&'a str>,
) -> Result<()> {
    if name.is_empty() {
        return Err(Error::field(format!("{path}.name"), "must not be empty"));
    }
    if name.len() > 64
        || name
            .chars()
            .any(|c| matches!(c, ',' | ';' | '"' | '#' | '/') || c.is_control())
    {
        return Err(Error::field(
            format!("{path}.name"),
            "must be at most 64 characters without , ; \" # / or control characters (names go into CSV columns, contact ids and share links)",
        ));
    }
    if !earlier.insert(name) {
        return Err(Error::field(
            format!("{path}.name"),
            format!("'{name}' is used by an earlier body; names must be unique"),
        ));
    }
    Ok(())
}

impl BodySpec {
    fn validate(&self, path: &str) -> Result<()> {
        let c = limits::COORDINATE;
        check_each(&format!("{path}.position"), &self.position, -c, c)?;
        check_range(
            &format!("{path}.angle"),
            self.angle,
            -limits::ANGLE,
            limits::ANGLE,
        )?;
        let v = limits::SPEED;
        check_each(&format!("{path}.velocity"), &self.velocity, -v, v)?;
        let w = limits::ANGULAR_SPEED;
        check_range(
            &format!("{path}.angular_velocity"),
            self.angular_velocity,
            -w,
            w,
        )?;
        check_contact_point_count(path, self.contact_points.len())?;
        for (k, p) in self.contact_points.iter().enumerate() {
            check_each(&format!("{path}.contact_points[{k}]"), p, -c, c)?;
        }
        match self.shape {
            ShapeSpec::HalfPlane => {
                if !self.fixed {
                    return Err(Error::field(
                        format!("{path}.shape"),
                        "a half_plane must belong to a fixed body (set fixed: true)",
                    ));
                }
            }
            ShapeSpec::Box { width, height } => {
                check_range(&format!("{path}.shape.width"), width, 1e-6, 1e4)?;
                check_range(&format!("{path}.shape.height"), height, 1e-6, 1e4)?;
            }
            ShapeSpec::Disk { radius } => {
                check_range(&format!("{path}.shape.radius"), radius, 1e-6, 1e4)?;
            }
        }
        if check_mass(path, self.fixed, self.mass)?.is_none() {
            return Ok(());
        }
        if let Some(i) = self.inertia {
            check_range(&format!("{path}.inertia"), i, 1e-15, 1e12)?;
        }
        Ok(())
    }

    fn shape(&self) -> Shape {
        match self.shape {
            ShapeSpec::HalfPlane => Shape::HalfPlane,
            ShapeSpec::Box { width, height } => Shape::Box {
                half_extents: DVec2::new(0.5 * width, 0.5 * height),
            },
            ShapeSpec::Disk { radius } => Shape::Disk { radius },
        }
    }

    /// Moment of inertia: given, or that of the uniform shape (box m(w²+h²)/12, disk mR²/2).
    pub fn inertia_or_default(&self) -> f64 {
        let m = self.mass.unwrap_or(0.0);
        self.inertia.unwrap_or(match self.shape {
            ShapeSpec::Box { width, height } => m * (width * width + height * height) / 12.0,
            ShapeSpec::Disk { radius } => 0.5 * m * radius * radius,
            ShapeSpec::HalfPlane => 0.0,
        })
    }

    fn to_body(&self) -> Body {
        let pose = Pose::new(DVec2::from(self.position), self.angle);
        let kind = if self.fixed {
            BodyKind::Fixed(FixedBody::planar(pose))
        } else {
            BodyKind::Planar(PlanarRigid {
                mass: self.mass.unwrap_or(1.0),
                inertia: self.inertia_or_default(),
                pose,
                velocity: DVec2::from(self.velocity),
                angular_velocity: self.angular_velocity,
            })
        };
        Body {
            name: self.name.clone(),
            kind,
            shape: self.shape(),
            contact_points: self
                .contact_points
                .iter()
                .map(|p| DVec2::from(*p).extend(0.0))
                .collect(),
            q_offset: 0,
            v_offset: 0,
        }
    }
}

/// A body's contact points are at most [`limits::CONTACT_POINTS`] (`path` names the body).
pub(crate) fn check_contact_point_count(path: &str, count: usize) -> Result<()> {
    if count > limits::CONTACT_POINTS {
        return Err(Error::field(
            format!("{path}.contact_points"),
            format!(
                "has {count} points; at most {} are allowed",
                limits::CONTACT_POINTS
            ),
        ));
    }
    Ok(())
}
