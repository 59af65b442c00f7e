//! Joints in a scene file, e.g. `{"type": "revolute", "bodies": ["rod", "pivot"], "anchor":
//! [0, 1]}` in the plane or `{"type": "revolute", ..., "anchor": [0, 0, 1], "axis": [0, 0, 1]}`
//! in space: validated with errors that name the field, and built into [`Joint`]s whose
//! anchors, axes and reference angles are fixed in each body from the bodies' starting poses.

use glam::{DVec2, DVec3};
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, check_each};
use crate::model::{Body, Drive, Hinge, Joint, JointKind, Lock};
use crate::scene::limits;

/// Largest |A| of a drive's oscillation, rad.
pub const MAX_AMPLITUDE: f64 = 100.0;

/// Most joints in a scene.
pub const MAX_JOINTS: usize = 1024;

/// The joint types a scene can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JointType {
    /// A pin in the plane, a hinge about `axis` in space: the bodies share the anchor point
    /// and turn freely about it (or at `drive_speed`).
    Revolute,
    /// A ball joint (space only): the bodies share the anchor point and turn freely.
    Spherical,
    /// A slider: A's anchor moves along `axis` through B's anchor, without relative rotation.
    Prismatic,
    /// The bodies move as one.
    Weld,
    /// The anchors (`anchor` on A, `anchor_b` on B) keep their starting distance.
    Distance,
}

/// One joint of a scene.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JointSpec {
    /// A name for traces (default `joint<i>`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The joint type.
    #[serde(rename = "type")]
    pub kind: JointType,
    /// The two bodies it links, by name (either may be fixed, not both).
    pub bodies: [String; 2],
    /// The joint's point in world coordinates at the start, m: [x, y] in the plane,
    /// [x, y, z] in space.
    pub anchor: Vec<f64>,
    /// The direction in world coordinates at the start (turning with B), any length > 0: a
    /// prismatic joint's sliding direction [x, y] in the plane, a revolute joint's axis
    /// [x, y, z] in space.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub axis: Option<Vec<f64>>,
    /// A distance joint's point on B, in world coordinates at the start, m (`anchor` is A's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor_b: Option<Vec<f64>>,
    /// A revolute joint driven at this relative angular speed θ̇_A − θ̇_B (about `axis` in
    /// space), rad/s (its multiplier is the drive torque).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drive_speed: Option<f64>,
    /// An oscillation [A, ω] on top of the drive (rad, rad/s): the prescribed relative
    /// turning is φ(t) = Ω t + A sin ωt, Ω the `drive_speed` (which it needs; 0 for an
    /// oscillation alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drive_oscillation: Option<[f64; 2]>,
}

impl JointSpec {
    /// The name used in traces and messages.
    pub fn display_name(&self, index: usize) -> String {
        if self.name.is_empty() {
            format!("joint{index}")
        } else {
            self.name.clone()
        }
    }

    /// The drive `drive_speed` and `drive_oscillation` prescribe.
    pub fn drive(&self) -> Option<Drive> {
        self.drive_speed.map(|speed| {
            let [amplitude, frequency] = self.drive_oscillation.unwrap_or([0.0, 0.0]);
            Drive {
                speed,
                amplitude,
                frequency,
            }
        })
    }

    /// `anchor` in the plane (z dropped).
    pub fn anchor2(&self) -> DVec2 {
        point2(&self.anchor)
    }

    /// `anchor_b`, or `anchor` when there is none, in the plane.
    pub fn anchor_b2(&self) -> DVec2 {
        self.anchor_b.as_deref().map_or(self.anchor2(), point2)
    }

    /// Checks the joint against the bodies `bodies` (name, fixed) of a planar or a spatial
    /// scene.
    pub fn validate(&self, path: &str, bodies: &[(&str, bool)], spatial: bool) -> Result<()> {
        let mut found = [0usize; 2];
        for (k, name) in self.bodies.iter().enumerate() {
            found[k] = bodies.iter().position(|(n, _)| n == name).ok_or_else(|| {
                let names: Vec<&str> = bodies.iter().map(|b| b.0).collect();
                Error::field(
                    format!("{path}.bodies[{k}]"),
                    format!("no body named '{name}'; bodies: {}", names.join(", ")),
                )
            })?;
        }
        if found[0] == found[1] {
            return Err(Error::field(
                format!("{path}.bodies"),
                "must name two different bodies",
            ));
        }
        if bodies[found[0]].1 && bodies[found[1]].1 {
            return Err(Error::field(
                format!("{path}.bodies"),
                "links two fixed bodies; at least one must move",
            ));
        }
        let dimension = if spatial { 3 } else { 2 };
        let point = |field: &str, values: &[f64]| {
            let field = format!("{path}.{field}");
            check_dimension(&field, values, spatial)?;
            check_each(&field, values, -limits::COORDINATE, limits::COORDINATE)
        };
        point("anchor", &self.anchor)?;
        let allowed: &[JointType] = if spatial {
            &[
                JointType::Revolute,
                JointType::Spherical,
                JointType::Prismatic,
                JointType::Weld,
                JointType::Distance,
            ]
        } else {
            &[
                JointType::Revolute,
                JointType::Prismatic,
                JointType::Weld,
                JointType::Distance,
            ]
        };
        if !allowed.contains(&self.kind) {
            let names: Vec<String> = allowed
                .iter()
                .map(|k| format!("{k:?}").to_lowercase())
                .collect();
            return Err(Error::field(
                format!("{path}.type"),
                format!(
                    "{} joints are not available in {} scenes; these are: {}",
                    format!("{:?}", self.kind).to_lowercase(),
                    if spatial { "spatial" } else { "planar" },
                    names.join(", ")
                ),
            ));
        }
        let axis_needed = match self.kind {
            JointType::Prismatic if spatial => Some("the sliding direction [x, y, z]"),
            JointType::Prismatic => Some("the sliding direction [x, y]"),
            JointType::Revolute if spatial => Some("the turning axis [x, y, z]"),
            _ => None,
        };
        match (axis_needed, &self.axis) {
            (Some(what), None) => {
                return Err(Error::field(
                    format!("{path}.axis"),
                    format!("is required for this joint ({what})"),
                ));
            }
            (Some(_), Some(axis)) => {
                let field = format!("{path}.axis");
                check_dimension(&field, axis, spatial)?;
                check_each(&field, axis, -1e6, 1e6)?;
                if axis.iter().map(|x| x * x).sum::<f64>().sqrt() < 1e-9 {
                    return Err(Error::field(field, "must not be zero (a direction)"));
                }
            }
            (None, Some(_)) => {
                return Err(Error::field(
                    format!("{path}.axis"),
                    if spatial {
                        "belongs to revolute and prismatic joints only in a spatial scene"
                    } else {
                        "belongs to prismatic joints only in a planar scene"
                    },
                ));
            }
            (None, None) => {}
        }
        match (self.kind, &self.anchor_b) {
            (JointType::Distance, None) => {
                return Err(Error::field(
                    format!("{path}.anchor_b"),
                    format!("is required for a distance joint (B's point, {dimension} numbers)"),
                ));
            }
            (JointType::Distance, Some(b)) => {
                point("anchor_b", b)?;
                let field = format!("{path}.anchor_b");
                let d = b
                    .iter()
                    .zip(&self.anchor)
                    .map(|(x, y)| (x - y) * (x - y))
                    .sum::<f64>()
                    .sqrt();
                if d < 1e-9 {
                    return Err(Error::field(
                        field,
                        "must lie at least 1e-9 m from anchor (the distance held); use a revolute joint for coincident points",
                    ));
                }
            }
            (_, Some(_)) => {
                return Err(Error::field(
                    format!("{path}.anchor_b"),
                    "belongs to distance joints only",
                ));
            }
            (_, None) => {}
        }
        if let Some([amplitude, frequency]) = self.drive_oscillation {
            let field = format!("{path}.drive_oscillation");
            if self.drive_speed.is_none() {
                return Err(Error::field(
                    field,
                    "needs drive_speed (0 for an oscillation alone)",
                ));
            }
            crate::error::check_range(
                &format!("{field}[0]"),
                amplitude,
                -MAX_AMPLITUDE,
                MAX_AMPLITUDE,
            )?;
            crate::error::check_range(
                &format!("{field}[1]"),
                frequency,
                0.0,
                limits::ANGULAR_SPEED,
            )?;
        }
        match (self.kind, self.drive_speed) {
            (JointType::Revolute, Some(speed)) => crate::error::check_range(
                &format!("{path}.drive_speed"),
                speed,
                -limits::ANGULAR_SPEED,
                limits::ANGULAR_SPEED,
            )
            .map(|_| ()),
            (_, Some(_)) => Err(Error::field(
                format!("{path}.drive_speed"),
                "belongs to revolute joints only",
            )),
            (_, None) => Ok(()),
        }
    }

    /// The joint between the bodies of the built system (names already validated).
    pub fn to_joint(&self, index: usize, bodies: &[Body], q: &nalgebra::DVector<f64>) -> Joint {
        let find = |name: &str| bodies.iter().position(|b| b.name == name).unwrap_or(0);
        let (a, b) = (find(&self.bodies[0]), find(&self.bodies[1]));
        if bodies[a].is_spatial() || bodies[b].is_spatial() {
            return self.to_joint_in_space(index, (a, b), bodies, q);
        }
        let (anchor, anchor_b) = (self.anchor2(), self.anchor_b2());
        // On a beam the joint's frame is that of the node at its point (validated).
        let (node_a, node_b) = (
            nearest_node(&bodies[a], q, anchor),
            nearest_node(&bodies[b], q, anchor_b),
        );
        let (pose_a, pose_b) = (bodies[a].frame(q, node_a), bodies[b].frame(q, node_b));
        let local = |pose: crate::model::Pose, point: DVec2, node: Option<usize>| {
            if node.is_some() {
                DVec2::ZERO
            } else {
                pose.inverse_rotate(point - pose.position)
            }
        };
        let kind = match self.kind {
            JointType::Revolute => JointKind::Revolute {
                drive: self.drive(),
            },
            // Validated away in the plane.
            JointType::Spherical => JointKind::Revolute { drive: None },
            JointType::Prismatic => {
                let axis = self.axis.as_deref().map_or(DVec2::X, point2);
                JointKind::Prismatic {
                    axis: pose_b.inverse_rotate(axis).normalize(),
                }
            }
            JointType::Weld => JointKind::Weld,
            JointType::Distance => JointKind::Distance {
                length: (anchor_b - anchor).length(),
            },
        };
        Joint {
            name: self.display_name(index),
            kind,
            body_a: a,
            body_b: b,
            anchor_a: local(pose_a, anchor, node_a).extend(0.0),
            anchor_b: local(pose_b, anchor_b, node_b).extend(0.0),
            angle0: pose_a.angle - pose_b.angle,
            node_a,
            node_b,
        }
    }

    /// The joint between bodies `a` and `b` of a spatial system: anchors and axes in each
    /// body's frame from the starting poses.
    fn to_joint_in_space(
        &self,
        index: usize,
        (a, b): (usize, usize),
        bodies: &[Body],
        q: &nalgebra::DVector<f64>,
    ) -> Joint {
        let anchor = point3(&self.anchor);
        let anchor_b = self.anchor_b.as_deref().map_or(anchor, point3);
        // On a beam in space the joint's frame is that of the node at its point (validated).
        let (node_a, node_b) = (
            nearest_node3(&bodies[a], q, anchor),
            nearest_node3(&bodies[b], q, anchor_b),
        );
        let ((x_a, r_a), (x_b, r_b)) = (bodies[a].frame3(q, node_a), bodies[b].frame3(q, node_b));
        let local = |(x, r): (DVec3, glam::DQuat), point: DVec3, node: Option<usize>| {
            if node.is_some() {
                DVec3::ZERO
            } else {
                r.inverse() * (point - x)
            }
        };
        let kind = match self.kind {
            JointType::Revolute => JointKind::Hinge(Hinge::new(
                self.axis.as_deref().map_or(DVec3::Z, point3),
                (r_a, r_b),
                self.drive(),
            )),
            JointType::Distance => JointKind::Distance {
                length: (anchor_b - anchor).length(),
            },
            JointType::Weld => JointKind::Locked(Lock::new(r_a, r_b)),
            JointType::Prismatic => {
                let axis = self.axis.as_deref().map_or(DVec3::X, point3).normalize();
                let [n1, n2] = crate::contact::tangent_frame(r_b.inverse() * axis);
                JointKind::Slider {
                    lock: Lock::new(r_a, r_b),
                    normals_b: [n1, n2],
                }
            }
            JointType::Spherical => JointKind::Spherical,
        };
        Joint {
            name: self.display_name(index),
            kind,
            body_a: a,
            body_b: b,
            anchor_a: local((x_a, r_a), anchor, node_a),
            anchor_b: local((x_b, r_b), anchor_b, node_b),
            angle0: 0.0,
            node_a,
            node_b,
        }
    }
}

/// The first two numbers of a point or direction (validated to be 2 in the plane).
fn point2(values: &[f64]) -> DVec2 {
    DVec2::new(
        values.first().copied().unwrap_or(0.0),
        values.get(1).copied().unwrap_or(0.0),
    )
}

/// A point or direction in space (z = 0 when only two numbers are given).
fn point3(values: &[f64]) -> DVec3 {
    point2(values).extend(values.get(2).copied().unwrap_or(0.0))
}

/// A list of 2 numbers in a planar scene, 3 in a spatial one.
fn check_dimension(field: &str, values: &[f64], spatial: bool) -> Result<()> {
    let (n, what) = if spatial {
        (3, "[x, y, z] in a spatial scene")
    } else {
        (2, "[x, y] in a planar scene")
    };
    if values.len() == n {
        Ok(())
    } else {
        Err(Error::field(
            field,
            format!("expected {n} numbers {what}, got {}", values.len()),
        ))
    }
}

/// The node of a beam nearest to `point` (None for a rigid body).
/// The node of a beam in space nearest to `point` (None for a rigid body).
fn nearest_node3(body: &Body, q: &nalgebra::DVector<f64>, point: DVec3) -> Option<usize> {
    let q = body.q_of(q);
    let model = body.model();
    model.node_frame3(q, 0)?;
    (0..)
        .map_while(|k| model.node_frame3(q, k).map(|(x, _)| (k, x.distance(point))))
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(k, _)| k)
}

fn nearest_node(body: &Body, q: &nalgebra::DVector<f64>, point: DVec2) -> Option<usize> {
    let q = body.q_of(q);
    let model = body.model();
    model.node_pose(q, 0)?;
    (0..)
        .map_while(|k| {
            model
                .node_pose(q, k)
                .map(|pose| (k, pose.position.distance(point)))
        })
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(k, _)| k)
}
