//! Joints in a scene file, e.g. `{"type": "revolute", "bodies": ["pivot", "rod"], "anchor":
//! [0, 1]}`: validated with errors that name the field, and built into [`Joint`]s whose
//! anchors are fixed in each body from the bodies' starting poses.

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
    /// A pin in the plane: the bodies share the anchor point and turn freely about it.
    Revolute,
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
    pub anchor: Vec<f64>,
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
        if self.anchor.len() != 2 {
            return Err(Error::field(
                format!("{path}.anchor"),
                format!(
                    "must have 2 entries (x, y in m) in a planar scene, got {}",
                    self.anchor.len()
                ),
            ));
        }
        check_each(
            &format!("{path}.anchor"),
            &self.anchor,
            -limits::COORDINATE,
            limits::COORDINATE,
        )
    }

    /// The joint between the bodies of the built system (names already validated).
    pub fn to_joint(&self, index: usize, bodies: &[Body], q: &nalgebra::DVector<f64>) -> Joint {
        let find = |name: &str| bodies.iter().position(|b| b.name == name).unwrap_or(0);
        let (a, b) = (find(&self.bodies[0]), find(&self.bodies[1]));
        let anchor = DVec2::new(self.anchor[0], self.anchor[1]);
        let local = |i: usize| {
            let pose = bodies[i].pose(q);
            pose.inverse_rotate(anchor - pose.position)
        };
        Joint {
            name: self.display_name(index),
            kind: match self.kind {
                JointType::Revolute => JointKind::Revolute,
            },
            body_a: a,
            body_b: b,
            anchor_a: local(a),
            anchor_b: local(b),
        }
    }
}
