//! Loads in scene files (constant forces and torques, springs, ramps): their validation and the force laws they build, in the plane and in space.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, check_each, check_range};
use crate::model::ForceLaw;
use crate::scene::limits;

/// A load on a body. Vectors have two entries ([x, y]) in a planar scene and three in a
/// spatial one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ForceSpec {
    /// Constant force through the centre of mass and torque.
    Constant {
        /// Body name.
        body: String,
        /// Force, N.
        force: Vec<f64>,
        /// Torque, N·m: a number (about z) in the plane, [τx, τy, τz] in space.
        #[serde(default)]
        torque: TorqueSpec,
    },
    /// A linear spring-damper from the body's centre to a fixed anchor.
    Spring {
        /// Body name.
        body: String,
        /// Anchor point, m.
        anchor: Vec<f64>,
        /// Stiffness, N/m (≥ 0).
        stiffness: f64,
        /// Damping, N·s/m (≥ 0).
        #[serde(default)]
        damping: f64,
    },
    /// Force growing linearly from `start`: F = rate·(t − start), capped at `max` N.
    Ramp {
        /// Body name.
        body: String,
        /// Rate, N/s.
        rate: Vec<f64>,
        /// Start time, s.
        #[serde(default)]
        start: f64,
        /// Largest magnitude, N (no cap when absent).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max: Option<f64>,
    },
}

/// A torque: about z in the plane, a vector in space.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum TorqueSpec {
    /// About z, N·m (planar scenes).
    About(f64),
    /// [τx, τy, τz], N·m (spatial scenes).
    Vector(Vec<f64>),
}

impl Default for TorqueSpec {
    fn default() -> Self {
        TorqueSpec::About(0.0)
    }
}

/// A vector field of a load: the right number of entries, each within ±`limit`.
fn check_vector(path: &str, values: &[f64], spatial: bool, limit: f64) -> Result<DVec3> {
    let dims = if spatial { 3 } else { 2 };
    if values.len() != dims {
        return Err(Error::field(
            path,
            format!(
                "must have {dims} entries in a {} scene, got {}",
                if spatial { "spatial" } else { "planar" },
                values.len()
            ),
        ));
    }
    check_each(path, values, -limit, limit)?;
    Ok(DVec3::new(
        values[0],
        values[1],
        values.get(2).copied().unwrap_or(0.0),
    ))
}

impl ForceSpec {
    /// The name of the body it acts on.
    pub fn body(&self) -> &str {
        match self {
            ForceSpec::Constant { body, .. }
            | ForceSpec::Spring { body, .. }
            | ForceSpec::Ramp { body, .. } => body,
        }
    }

    /// Checks every field (prefixing `path`) and returns the force law it describes.
    pub(crate) fn law(&self, path: &str, spatial: bool) -> Result<ForceLaw> {
        let load = limits::LOAD;
        Ok(match self {
            ForceSpec::Constant { force, torque, .. } => {
                let force = check_vector(&format!("{path}.force"), force, spatial, load)?;
                let torque = match (torque, spatial) {
                    (TorqueSpec::About(t), false) => DVec3::new(
                        0.0,
                        0.0,
                        check_range(&format!("{path}.torque"), *t, -load, load)?,
                    ),
                    (TorqueSpec::Vector(t), true) => {
                        check_vector(&format!("{path}.torque"), t, true, load)?
                    }
                    (_, true) => {
                        return Err(Error::field(
                            format!("{path}.torque"),
                            "must be [τx, τy, τz] in a spatial scene",
                        ));
                    }
                    (_, false) => {
                        return Err(Error::field(
                            format!("{path}.torque"),
                            "must be a number (about z) in a planar scene",
                        ));
                    }
                };
                ForceLaw::Constant { force, torque }
            }
            ForceSpec::Spring {
                anchor,
                stiffness,
                damping,
                ..
            } => ForceLaw::Spring {
                anchor: check_vector(
                    &format!("{path}.anchor"),
                    anchor,
                    spatial,
                    limits::COORDINATE,
                )?,
                stiffness: check_range(
                    &format!("{path}.stiffness"),
                    *stiffness,
                    0.0,
                    limits::SPRING,
                )?,
                damping: check_range(&format!("{path}.damping"), *damping, 0.0, limits::SPRING)?,
            },
            ForceSpec::Ramp {
                rate, start, max, ..
            } => ForceLaw::Ramp {
                rate: check_vector(&format!("{path}.rate"), rate, spatial, load)?,
                start: check_range(&format!("{path}.start"), *start, 0.0, 1e5)?,
                max: match max {
                    Some(m) => check_range(&format!("{path}.max"), *m, 0.0, load)?,
                    None => f64::INFINITY,
                },
            },
        })
    }
}
