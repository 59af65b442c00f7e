//! Flexible beams in a scene file, e.g. `{"name": "rod", "start": [0, 0], "end": [1, 0],
//! "elements": 20, "youngs_modulus": 2.1e11, "density": 7850, "width": 0.01, "height": 0.01,
//! "supports": ["clamped", "free"]}`: validated with errors that name the field, built into
//! [`PlanarBeam`] bodies (a rectangular section: A = w h, I = w h³/12).

use glam::DVec2;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, check_each, check_range};
use crate::geometry::Shape;
use crate::model::corotational::SectionStiffness;
use crate::model::{BeamMass, BeamSection, Body, BodyKind, PlanarBeam, Support};
use crate::scene::limits;

/// Most elements in one beam.
pub const MAX_ELEMENTS: usize = 300;

/// How a beam end is held, as a scene names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum SupportSpec {
    /// Nothing held.
    #[default]
    Free,
    /// x and y held.
    Pinned,
    /// x, y and the angle held.
    Clamped,
    /// y held.
    Roller,
}

/// The beam's mass model, as a scene names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum MassSpec {
    /// Diagonal.
    Lumped,
    /// The configuration-independent part of the Hermite consistent mass.
    #[default]
    Consistent,
}

/// One flexible beam of a scene.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BeamSpec {
    /// Unique name (shared with the bodies).
    pub name: String,
    /// First node, m.
    #[serde(deserialize_with = "crate::scene_fields::array")]
    pub start: [f64; 2],
    /// Last node (the tip: loads act there), m.
    #[serde(deserialize_with = "crate::scene_fields::array")]
    pub end: [f64; 2],
    /// Number of equal elements, 1 to [`MAX_ELEMENTS`].
    pub elements: usize,
    /// Young's modulus E, Pa.
    pub youngs_modulus: f64,
    /// Density ρ, kg/m³.
    pub density: f64,
    /// Section width (out of the plane), m.
    pub width: f64,
    /// Section height (in the plane: the bending direction), m.
    pub height: f64,
    /// How the start and the end are held.
    #[serde(default)]
    pub supports: [SupportSpec; 2],
    /// Mass model.
    #[serde(default)]
    pub mass: MassSpec,
    /// Rayleigh damping [a (1/s), b (s)]: C = a M + b K.
    #[serde(
        default,
        deserialize_with = "crate::scene_fields::optional_array",
        skip_serializing_if = "Option::is_none"
    )]
    pub damping: Option<[f64; 2]>,
    /// Initial velocity of the first node (of every node when `angular_velocity` is zero),
    /// m/s.
    #[serde(default, deserialize_with = "crate::scene_fields::array")]
    pub velocity: [f64; 2],
    /// Initial rate of turning as a rigid body about the first node, rad/s: node k moves at
    /// velocity + ω ẑ × (x_k − start) and its section turns at ω.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub angular_velocity: f64,
}

/// What every beam checks, in the plane or in space: its length (end from start) at least
/// 1e-6 m, 1 to [`MAX_ELEMENTS`] elements, E in [1e3, 1e13] Pa and ρ in [1e-3, 1e5] kg/m³.
pub(crate) fn check_beam(
    path: &str,
    length: f64,
    elements: usize,
    (youngs_modulus, density): (f64, f64),
) -> Result<()> {
    if length < 1e-6 {
        return Err(Error::field(
            format!("{path}.end"),
            "must be at least 1e-6 m from start (the beam's length)",
        ));
    }
    if elements == 0 || elements > MAX_ELEMENTS {
        return Err(Error::field(
            format!("{path}.elements"),
            format!("must be 1 to {MAX_ELEMENTS}, got {elements}"),
        ));
    }
    check_range(&format!("{path}.youngs_modulus"), youngs_modulus, 1e3, 1e13)?;
    check_range(&format!("{path}.density"), density, 1e-3, 1e5)?;
    Ok(())
}

/// The node of a straight beam `name` from `start` to `end` in `elements` equal elements within
/// 1e-6 of its length of `point`, or an error for `field` naming the nearest node and how far
/// it is (where a joint anchored at `point` attaches; a `planar` beam has z = 0 and is named by
/// (x, y)).
pub(crate) fn node_along(
    planar: bool,
    name: &str,
    (start, end): (glam::DVec3, glam::DVec3),
    elements: usize,
    point: glam::DVec3,
    field: &str,
) -> Result<usize> {
    let n = elements.max(1);
    let node = |k: usize| start + (end - start) * (k as f64 / n as f64);
    let nearest = (0..=n)
        .min_by(|&i, &j| node(i).distance(point).total_cmp(&node(j).distance(point)))
        .unwrap_or(0);
    let distance = node(nearest).distance(point);
    if distance <= 1e-6 * start.distance(end) {
        return Ok(nearest);
    }
    let at = node(nearest);
    let at = if planar {
        format!("[{}, {}]", at.x, at.y)
    } else {
        format!("[{}, {}, {}]", at.x, at.y, at.z)
    };
    Err(Error::field(
        field,
        format!(
            "a joint attaches to beam '{name}' at one of its nodes; the nearest, node {nearest} at {at}, is {distance:.3e} m away"
        ),
    ))
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

impl BeamSpec {
    /// Checks every field (`path` is the beam's, e.g. `beams[0]`).
    /// The node a joint anchored at `point` attaches to: the node within 1e-6 of the beam's
    /// length of it, or an error for `field` naming the nearest node and how far it is.
    pub fn node_at(&self, point: [f64; 2], field: &str) -> Result<usize> {
        let line = (
            DVec2::from(self.start).extend(0.0),
            DVec2::from(self.end).extend(0.0),
        );
        node_along(
            true,
            &self.name,
            line,
            self.elements,
            DVec2::from(point).extend(0.0),
            field,
        )
    }

    pub fn validate(&self, path: &str) -> Result<()> {
        let c = limits::COORDINATE;
        check_each(&format!("{path}.start"), &self.start, -c, c)?;
        check_each(&format!("{path}.end"), &self.end, -c, c)?;
        let length = DVec2::from(self.end).distance(DVec2::from(self.start));
        check_beam(
            path,
            length,
            self.elements,
            (self.youngs_modulus, self.density),
        )?;
        check_range(&format!("{path}.width"), self.width, 1e-6, 1e2)?;
        check_range(&format!("{path}.height"), self.height, 1e-6, 1e2)?;
        if self.height > 0.5 * length {
            return Err(Error::field(
                format!("{path}.height"),
                format!(
                    "must be at most half the length ({:.3e} m): a beam is slender",
                    0.5 * length
                ),
            ));
        }
        if let Some(d) = self.damping {
            check_range(&format!("{path}.damping[0]"), d[0], 0.0, 1e6)?;
            check_range(&format!("{path}.damping[1]"), d[1], 0.0, 1.0)?;
        }
        check_each(
            &format!("{path}.velocity"),
            &self.velocity,
            -limits::SPEED,
            limits::SPEED,
        )?;
        check_range(
            &format!("{path}.angular_velocity"),
            self.angular_velocity,
            -limits::ANGULAR_SPEED,
            limits::ANGULAR_SPEED,
        )?;
        Ok(())
    }

    /// EA, EI, ρA and half the height.
    pub fn section(&self) -> BeamSection {
        let area = self.width * self.height;
        let second_moment = self.width * self.height.powi(3) / 12.0;
        BeamSection {
            stiffness: SectionStiffness {
                axial: self.youngs_modulus * area,
                bending: self.youngs_modulus * second_moment,
            },
            mass_per_length: self.density * area,
            half_thickness: 0.5 * self.height,
        }
    }

    /// The beam as a body.
    pub fn to_body(&self) -> Body {
        let support = |s: SupportSpec| match s {
            SupportSpec::Free => Support::Free,
            SupportSpec::Pinned => Support::Pinned,
            SupportSpec::Clamped => Support::Clamped,
            SupportSpec::Roller => Support::Roller,
        };
        let mass = match self.mass {
            MassSpec::Lumped => BeamMass::Lumped,
            MassSpec::Consistent => BeamMass::Consistent,
        };
        let section = self.section();
        let [a, b] = self.damping.unwrap_or([0.0, 0.0]);
        let beam = PlanarBeam::straight(
            (DVec2::from(self.start), DVec2::from(self.end)),
            self.elements,
            section,
            (support(self.supports[0]), support(self.supports[1])),
            mass,
            (DVec2::from(self.velocity), self.angular_velocity),
        )
        .with_damping(a, b);
        Body {
            name: self.name.clone(),
            shape: Shape::Beam {
                half_thickness: section.half_thickness,
                length: beam.length(),
                nodes: beam.nodes(),
            },
            kind: BodyKind::Beam(beam),
            contact_points: Vec::new(),
            q_offset: 0,
            v_offset: 0,
        }
    }
}
