//! Flexible beams in a spatial scene, e.g. `{"name": "rod", "start": [0, 0, 0], "end": [1, 0, 0], "elements": 20, "youngs_modulus": 2.1e11, "density": 7850, "width": 0.01, "height": 0.02, "supports": ["clamped", "free"]}`: validated with errors that name the field, built into [`SpatialBeam`] bodies.
//!
//! A section is a rectangle (`width` × `height`, the height along `height_axis`) or a circle
//! (`diameter`). Its constants:
//!
//! - rectangle: A = w h, I_z = w h³/12 (bending across the height), I_y = h w³/12, and
//!   Saint-Venant's torsion constant J = (a b³/3)[1 − (192/π⁵)(b/a) Σ_{n odd} tanh(nπa/2b)/n⁵]
//!   (a ≥ b the sides; the series is exact and summed to rounding);
//! - circle: A = πd²/4, I_y = I_z = πd⁴/64, J = πd⁴/32.
//!
//! G = E/(2(1 + ν)) from Poisson's ratio ν.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result, check_each, check_range};
use crate::geometry::Shape;
use crate::model::corotational_spatial::SpatialStiffness;
use crate::model::{BeamMass, Body, BodyKind, SpatialBeam, SpatialBeamSection, Support};
use crate::scene::limits;
use crate::scene_beams::{MassSpec, SupportSpec};

/// One flexible beam of a spatial scene.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpatialBeamSpec {
    /// Unique name (shared with the bodies).
    pub name: String,
    /// First node, m.
    #[serde(deserialize_with = "crate::scene_fields::array")]
    pub start: [f64; 3],
    /// Last node (the tip: loads act there), m.
    #[serde(deserialize_with = "crate::scene_fields::array")]
    pub end: [f64; 3],
    /// Number of equal elements, 1 to [`crate::scene_beams::MAX_ELEMENTS`].
    pub elements: usize,
    /// Young's modulus E, Pa.
    pub youngs_modulus: f64,
    /// Poisson's ratio ν (G = E/(2(1 + ν))), 0 to 0.5.
    #[serde(default = "default_poisson")]
    pub poissons_ratio: f64,
    /// Density ρ, kg/m³.
    pub density: f64,
    /// Rectangular section: width (along the third section axis), m.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<f64>,
    /// Rectangular section: height (along `height_axis`), m.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<f64>,
    /// Circular section: diameter, m.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diameter: Option<f64>,
    /// The section's second axis (the height's direction) is the part of this across the
    /// beam; default (0, 0, 1), upward.
    #[serde(
        default = "default_height_axis",
        deserialize_with = "crate::scene_fields::array"
    )]
    pub height_axis: [f64; 3],
    /// How the start and the end are held: free, pinned (position) or clamped.
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
    /// Initial velocity of every node, m/s.
    #[serde(default, deserialize_with = "crate::scene_fields::array")]
    pub velocity: [f64; 3],
}

fn default_poisson() -> f64 {
    0.3
}

fn default_height_axis() -> [f64; 3] {
    [0.0, 0.0, 1.0]
}

/// Saint-Venant's torsion constant of an a × b rectangle (module docs).
pub fn rectangle_torsion_constant(a: f64, b: f64) -> f64 {
    let (a, b) = if a >= b { (a, b) } else { (b, a) };
    let mut sum = 0.0;
    for k in 0..200 {
        let n = (2 * k + 1) as f64;
        let term = libm::tanh(n * std::f64::consts::PI * a / (2.0 * b)) / n.powi(5);
        sum += term;
        if term < 1e-18 * sum {
            break;
        }
    }
    a * b.powi(3) / 3.0 * (1.0 - 192.0 / std::f64::consts::PI.powi(5) * (b / a) * sum)
}

/// The section's area, I_y, I_z, J and the contact radius.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SectionConstants {
    /// A, m².
    pub area: f64,
    /// I_y, I_z (about the section's second and third axes), m⁴.
    pub second_moments: [f64; 2],
    /// J, m⁴.
    pub torsion: f64,
    /// Half the height (or the radius), m.
    pub half_thickness: f64,
}

impl SpatialBeamSpec {
    /// The section's constants (the spec must be valid).
    pub fn constants(&self) -> SectionConstants {
        match (self.diameter, self.width, self.height) {
            (Some(d), _, _) => {
                let pi = std::f64::consts::PI;
                SectionConstants {
                    area: pi * d * d / 4.0,
                    second_moments: [pi * d.powi(4) / 64.0; 2],
                    torsion: pi * d.powi(4) / 32.0,
                    half_thickness: 0.5 * d,
                }
            }
            (None, w, h) => {
                let (w, h) = (w.unwrap_or(0.0), h.unwrap_or(0.0));
                SectionConstants {
                    area: w * h,
                    second_moments: [h * w.powi(3) / 12.0, w * h.powi(3) / 12.0],
                    torsion: rectangle_torsion_constant(w, h),
                    half_thickness: 0.5 * h,
                }
            }
        }
    }

    /// EA, GJ, EI_y, EI_z, ρA, ρI_p and the contact radius.
    pub fn section(&self) -> SpatialBeamSection {
        let c = self.constants();
        let e = self.youngs_modulus;
        let g = e / (2.0 * (1.0 + self.poissons_ratio));
        SpatialBeamSection {
            stiffness: SpatialStiffness {
                axial: e * c.area,
                torsion: g * c.torsion,
                bending: c.second_moments.map(|i| e * i),
            },
            mass_per_length: self.density * c.area,
            rotary_per_length: self.density * (c.second_moments[0] + c.second_moments[1]),
            half_thickness: c.half_thickness,
        }
    }

    /// The node a joint anchored at `point` attaches to: the node within 1e-6 of the beam's
    /// length of it, or an error for `field` naming the nearest node and how far it is.
    pub fn node_at(&self, point: [f64; 3], field: &str) -> Result<usize> {
        let line = (DVec3::from(self.start), DVec3::from(self.end));
        crate::scene_beams::node_along(
            false,
            &self.name,
            line,
            self.elements,
            DVec3::from(point),
            field,
        )
    }

    /// Checks every field (`path` is the beam's, e.g. `spatial_beams[0]`).
    pub fn validate(&self, path: &str) -> Result<()> {
        let c = limits::COORDINATE;
        check_each(&format!("{path}.start"), &self.start, -c, c)?;
        check_each(&format!("{path}.end"), &self.end, -c, c)?;
        let axis = DVec3::from(self.end) - DVec3::from(self.start);
        let length = axis.length();
        crate::scene_beams::check_beam(
            path,
            length,
            self.elements,
            (self.youngs_modulus, self.density),
        )?;
        check_range(
            &format!("{path}.poissons_ratio"),
            self.poissons_ratio,
            0.0,
            0.5,
        )?;
        let thickness = match (self.diameter, self.width, self.height) {
            (Some(d), None, None) => {
                check_range(&format!("{path}.diameter"), d, 1e-6, 1e2)?;
                d
            }
            (None, Some(w), Some(h)) => {
                check_range(&format!("{path}.width"), w, 1e-6, 1e2)?;
                check_range(&format!("{path}.height"), h, 1e-6, 1e2)?;
                w.max(h)
            }
            _ => {
                return Err(Error::field(
                    format!("{path}.diameter"),
                    "a section is a circle (diameter) or a rectangle (width and height), one of the two",
                ));
            }
        };
        if thickness > 0.5 * length {
            return Err(Error::field(
                format!(
                    "{path}.{}",
                    if self.diameter.is_some() {
                        "diameter"
                    } else {
                        "height"
                    }
                ),
                format!(
                    "must be at most half the length ({:.3e} m): a beam is slender",
                    0.5 * length
                ),
            ));
        }
        check_each(&format!("{path}.height_axis"), &self.height_axis, -1e3, 1e3)?;
        let up = DVec3::from(self.height_axis);
        if up.cross(axis).length() <= 1e-6 * up.length() * length {
            return Err(Error::field(
                format!("{path}.height_axis"),
                "must not lie along the beam (it sets the section's second axis across it)",
            ));
        }
        for (k, s) in self.supports.iter().enumerate() {
            if *s == SupportSpec::Roller {
                return Err(Error::field(
                    format!("{path}.supports[{k}]"),
                    "a beam in space is held free, pinned or clamped",
                ));
            }
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
        Ok(())
    }

    /// The beam as a body.
    pub fn to_body(&self) -> Body {
        let support = |s: SupportSpec| match s {
            SupportSpec::Free => Support::Free,
            SupportSpec::Pinned | SupportSpec::Roller => Support::Pinned,
            SupportSpec::Clamped => Support::Clamped,
        };
        let mass = match self.mass {
            MassSpec::Lumped => BeamMass::Lumped,
            MassSpec::Consistent => BeamMass::Consistent,
        };
        let section = self.section();
        let [a, b] = self.damping.unwrap_or([0.0, 0.0]);
        let beam = SpatialBeam::straight(
            (DVec3::from(self.start), DVec3::from(self.end)),
            DVec3::from(self.height_axis),
            self.elements,
            section,
            (support(self.supports[0]), support(self.supports[1])),
            mass,
            DVec3::from(self.velocity),
        )
        .with_damping(a, b);
        Body {
            name: self.name.clone(),
            shape: Shape::SpatialBeam {
                half_thickness: section.half_thickness,
                length: beam.length(),
                nodes: beam.nodes(),
            },
            kind: BodyKind::SpatialBeam(beam),
            contact_points: Vec::new(),
            q_offset: 0,
            v_offset: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torsion_constants_meet_their_tables() {
        // A square: J = 0.1406 a⁴ (Timoshenko & Goodier, β = 0.141); a 2:1 rectangle:
        // 0.229 a b³; a thin strip tends to a b³/3.
        assert!((rectangle_torsion_constant(1.0, 1.0) - 0.140_6).abs() < 1e-4);
        assert!((rectangle_torsion_constant(2.0, 1.0) / 2.0 - 0.228_7).abs() < 1e-4);
        let strip = rectangle_torsion_constant(100.0, 1.0) / 100.0;
        assert!((strip - (1.0 - 0.630 / 100.0) / 3.0).abs() < 1e-4);
    }
}
