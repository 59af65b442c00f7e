//! Joints in a scene file, e.g. `{"type": "revolute", "bodies": ["rod", "pivot"], "anchor":
//! [0, 1]}`: validated with errors that name the field, and built into [`Joint`]s whose
//! anchors, sliding axes and reference angles are fixed in each body from the bodies'
//! starting poses.

use glam::DVec2;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, check_each};
use crate::model::{Body, Joint, JointKind};
use crate::scene::limits;

/// Most joints in a scene.
pub const MAX_JOINTS: usize = 1024;

/// The joint types a scene can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JointType {
    /// A pin in the plane: the bodies share the anchor point and turn freely about it (or at
    /// `drive_speed`).
    Revolute,
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
    /// The joint's point in world coordinates at the start, m.
    #[serde(deserialize_with = "crate::scene_fields::array")]
    pub anchor: [f64; 2],
    /// A prismatic joint's sliding direction in world coordinates at the start (turning
    /// with B), any length > 0.
    #[serde(
        default,
        deserialize_with = "crate::scene_fields::optional_array",
        skip_serializing_if = "Option::is_none"
    )]
    pub axis: Option<[f64; 2]>,
    /// A distance joint's point on B, in world coordinates at the start, m (`anchor` is A's).
    #[serde(
        default,
        deserialize_with = "crate::scene_fields::optional_array",
        skip_serializing_if = "Option::is_none"
    )]
    pub anchor_b: Option<[f64; 2]>,
    /// A revolute joint driven at this relative angular speed θ̇_A − θ̇_B, rad/s (its
    /// multiplier is the drive torque).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drive_speed: Option<f64>,
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

    /// Checks the joint against the planar bodies `bodies` (name, fixed).
    pub fn validate(&self, path: &str, bodies: &[(&str, bool)]) -> Result<()> {
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
        check_each(
            &format!("{path}.anchor"),
            &self.anchor,
            -limits::COORDINATE,
            limits::COORDINATE,
        )?;
        match (self.kind, &self.axis) {
            (JointType::Prismatic, None) => {
                return Err(Error::field(
                    format!("{path}.axis"),
                    "is required for a prismatic joint (the sliding direction [x, y])",
                ));
            }
            (JointType::Prismatic, Some(axis)) => {
                let field = format!("{path}.axis");
                check_each(&field, axis, -1e6, 1e6)?;
                if axis[0].hypot(axis[1]) < 1e-9 {
                    return Err(Error::field(field, "must not be zero (a direction)"));
                }
            }
            (_, Some(_)) => {
                return Err(Error::field(
                    format!("{path}.axis"),
                    "belongs to prismatic joints only",
                ));
            }
            (_, None) => {}
        }
        match (self.kind, &self.anchor_b) {
            (JointType::Distance, None) => {
                return Err(Error::field(
                    format!("{path}.anchor_b"),
                    "is required for a distance joint (B's point [x, y])",
                ));
            }
            (JointType::Distance, Some(b)) => {
                let field = format!("{path}.anchor_b");
                check_each(&field, b, -limits::COORDINATE, limits::COORDINATE)?;
                let d = (b[0] - self.anchor[0]).hypot(b[1] - self.anchor[1]);
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
        let anchor = DVec2::from(self.anchor);
        let anchor_b = self.anchor_b.map_or(anchor, DVec2::from);
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
                drive: self.drive_speed,
            },
            JointType::Prismatic => {
                let axis = self.axis.unwrap_or([1.0, 0.0]);
                JointKind::Prismatic {
                    axis: pose_b
                        .inverse_rotate(DVec2::new(axis[0], axis[1]))
                        .normalize(),
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
            anchor_a: local(pose_a, anchor, node_a),
            anchor_b: local(pose_b, anchor_b, node_b),
            angle0: pose_a.angle - pose_b.angle,
            node_a,
            node_b,
        }
    }
}

/// The node of a beam nearest to `point` (None for a rigid body).
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
