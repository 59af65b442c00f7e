//! Scene description of bodies in space (spheres on planes) and its validation.

use glam::{DQuat, DVec3};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, check_each, check_range};
use crate::geometry::Shape;
use crate::model::{Body, BodyKind, FixedBody, SpatialRigid};
use crate::scene::limits;
use crate::scene::{Scene, check_contact_point_count};

/// One body in space.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpatialBodySpec {
    /// Unique name.
    pub name: String,
    /// True for a body that never moves (a floor, an incline).
    #[serde(default)]
    pub fixed: bool,
    /// Mass, kg (moving bodies).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mass: Option<f64>,
    /// Principal moments of inertia about the centre, kg·m²; default the uniform shape
    /// (sphere (2/5) m R², box m (b² + c²)/12).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "crate::scene_fields::optional_array")]
    pub inertia: Option<[f64; 3]>,
    /// Position of the centre, m.
    #[serde(default)]
    #[serde(deserialize_with = "crate::scene_fields::array")]
    pub position: [f64; 3],
    /// Orientation as a unit quaternion [w, x, y, z] (normalised on input).
    #[serde(default = "identity")]
    #[serde(deserialize_with = "crate::scene_fields::array")]
    pub orientation: [f64; 4],
    /// Initial velocity, m/s.
    #[serde(default)]
    #[serde(deserialize_with = "crate::scene_fields::array")]
    pub velocity: [f64; 3],
    /// Initial angular velocity in world axes, rad/s.
    #[serde(default)]
    #[serde(deserialize_with = "crate::scene_fields::array")]
    pub angular_velocity: [f64; 3],
    /// Shape.
    pub shape: SpatialShapeSpec,
    /// Body-fixed contact points (feet, legs) that replace a box's corners, m.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[serde(deserialize_with = "crate::scene_fields::array_list")]
    pub contact_points: Vec<[f64; 3]>,
}

fn identity() -> [f64; 4] {
    [1.0, 0.0, 0.0, 0.0]
}

/// Shape of a body in space.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum SpatialShapeSpec {
    /// The solid half-space z ≤ 0 of the body frame (fixed bodies only; rotate for an incline).
    Plane,
    /// A sphere, m.
    Sphere {
        /// Radius, m.
        radius: f64,
    },
    /// A box centred on the body origin, edges along the body axes.
    Box {
        /// Edge lengths along the body's x, y and z, m.
        #[serde(deserialize_with = "crate::scene_fields::array")]
        size: [f64; 3],
    },
}

impl SpatialBodySpec {
    fn validate(&self, path: &str) -> Result<()> {
        let c = limits::COORDINATE;
        check_each(&format!("{path}.position"), &self.position, -c, c)?;
        check_each(&format!("{path}.orientation"), &self.orientation, -1e3, 1e3)?;
        let v = limits::SPEED;
        check_each(&format!("{path}.velocity"), &self.velocity, -v, v)?;
        let w = limits::ANGULAR_SPEED;
        check_each(
            &format!("{path}.angular_velocity"),
            &self.angular_velocity,
            -w,
            w,
        )?;
        let norm = self.orientation.iter().map(|x| x * x).sum::<f64>().sqrt();
        if norm < 1e-9 {
            return Err(Error::field(
                format!("{path}.orientation"),
                "must be a non-zero quaternion [w, x, y, z]",
            ));
        }
        match self.shape {
            SpatialShapeSpec::Plane if !self.fixed => {
                return Err(Error::field(
                    format!("{path}.shape"),
                    "a plane must belong to a fixed body (set fixed: true)",
                ));
            }
            SpatialShapeSpec::Sphere { radius } => {
                check_range(&format!("{path}.shape.radius"), radius, 1e-6, 1e4)?;
            }
            SpatialShapeSpec::Box { size } => {
                check_each(&format!("{path}.shape.size"), &size, 1e-6, 1e4)?;
            }
            SpatialShapeSpec::Plane => {}
        }
        check_contact_point_count(path, self.contact_points.len())?;
        if !self.contact_points.is_empty() && matches!(self.shape, SpatialShapeSpec::Plane) {
            return Err(Error::field(
                format!("{path}.contact_points"),
                "a plane offers a surface, not points; give feet to the body that stands on it",
            ));
        }
        for (k, p) in self.contact_points.iter().enumerate() {
            check_each(&format!("{path}.contact_points[{k}]"), p, -c, c)?;
        }
        if crate::scene::check_mass(path, self.fixed, self.mass)?.is_none() {
            return Ok(());
        }
        if let Some(i) = self.inertia {
            for (k, v) in i.iter().enumerate() {
                check_range(&format!("{path}.inertia[{k}]"), *v, 1e-15, 1e12)?;
            }
        }
        Ok(())
    }

    fn orientation(&self) -> DQuat {
        let [w, x, y, z] = self.orientation;
        DQuat::from_xyzw(x, y, z, w).normalize()
    }

    pub(crate) fn to_body(&self) -> Body {
        let shape = match self.shape {
            SpatialShapeSpec::Plane => Shape::Plane,
            SpatialShapeSpec::Sphere { radius } => Shape::Sphere { radius },
            SpatialShapeSpec::Box { size } => Shape::Cuboid {
                half_extents: DVec3::from(size) * 0.5,
            },
        };
        let position = DVec3::from(self.position);
        let kind = if self.fixed {
            BodyKind::Fixed(FixedBody::spatial(position, self.orientation()))
        } else {
            let mass = self.mass.unwrap_or(1.0);
            let default = match self.shape {
                SpatialShapeSpec::Sphere { radius } => DVec3::splat(0.4 * mass * radius * radius),
                // A uniform box: m (b² + c²)/12 about each axis.
                SpatialShapeSpec::Box { size: [x, y, z] } => {
                    DVec3::new(y * y + z * z, x * x + z * z, x * x + y * y) * (mass / 12.0)
                }
                SpatialShapeSpec::Plane => DVec3::ONE,
            };
            BodyKind::Spatial(SpatialRigid {
                mass,
                inertia: self.inertia.map(DVec3::from).unwrap_or(default),
                position,
                orientation: self.orientation(),
                velocity: DVec3::from(self.velocity),
                angular_velocity: DVec3::from(self.angular_velocity),
            })
        };
        Body {
            name: self.name.clone(),
            kind,
            shape,
            contact_points: self
                .contact_points
                .iter()
                .map(|&p| DVec3::from(p))
                .collect(),
            q_offset: 0,
            v_offset: 0,
        }
    }
}

impl Scene {
    /// Validation of a spatial scene (called by [`Scene::validate`]).
    pub(crate) fn validate_spatial(&self) -> Result<()> {
        if !self.bodies.is_empty() {
            return Err(Error::field(
                "bodies",
                "a scene is planar (bodies) or spatial (spatial_bodies), not both",
            ));
        }
        if self.spatial_beams.is_empty() && self.spatial_bodies.iter().all(|b| b.fixed) {
            return Err(Error::field(
                "spatial_bodies",
                "at least one body must move (fixed: false)",
            ));
        }
        let mut names = std::collections::BTreeSet::new();
        for (i, b) in self.spatial_bodies.iter().enumerate() {
            let path = format!("spatial_bodies[{i}]");
            crate::scene::check_name(&path, &b.name, &mut names)?;
            b.validate(&path)?;
        }
        for (i, b) in self.spatial_beams.iter().enumerate() {
            let path = format!("spatial_beams[{i}]");
            crate::scene::check_name(&path, &b.name, &mut names)?;
            b.validate(&path)?;
        }
        self.validate_forces()?;
        let bodies: Vec<(&str, bool)> = self
            .spatial_bodies
            .iter()
            .map(|b| (b.name.as_str(), b.fixed))
            .chain(self.spatial_beams.iter().map(|b| (b.name.as_str(), false)))
            .collect();
        for (i, joint) in self.joints.iter().enumerate() {
            let path = format!("joints[{i}]");
            joint.validate(&path, &bodies, true)?;
            // On a beam in space a joint attaches at a node.
            for (k, name) in joint.bodies.iter().enumerate() {
                if let Some(beam) = self.spatial_beams.iter().find(|b| &b.name == name) {
                    let (field, point) = match (k, &joint.anchor_b) {
                        (1, Some(p)) => ("anchor_b", p.as_slice()),
                        _ => ("anchor", joint.anchor.as_slice()),
                    };
                    let point = [0, 1, 2].map(|i| point.get(i).copied().unwrap_or(0.0));
                    beam.node_at(point, &format!("{path}.{field}"))?;
                }
            }
        }
        Ok(())
    }
}
