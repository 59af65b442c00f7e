//! Recorded signals per step (poses, velocities, contact reactions, gaps, states, energy) and their export.

use std::fmt::Write as _;

use serde::Serialize;

use crate::integrators::{ContactState, LawReport};

/// One body in a sample.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BodySample {
    /// Generalized positions of the body (x, y, θ), m and rad.
    pub q: Vec<f64>,
    /// Generalized velocities (vx, vy, ω), m/s and rad/s.
    pub v: Vec<f64>,
}

/// One contact in a sample.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContactSample {
    /// Stable identity, `A/B#feature` with body names.
    pub id: String,
    /// Gap d, m.
    pub gap: f64,
    /// Gap rate ḋ, m/s.
    pub gap_rate: f64,
    /// Normal reaction N (step average), N.
    pub normal: f64,
    /// Normal impulse of the step, N·s.
    pub impulse: f64,
    /// Friction force along the tangent, N.
    pub friction: f64,
    /// State label.
    pub state: ContactState,
    /// Penetration max(0, −d), m.
    pub penetration: f64,
    /// Friction, rolling and spinning detail (NSGA, spatial Moreau–Jean).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub laws: Option<LawReport>,
}

/// Everything recorded for one step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Sample {
    /// Time at the end of the step, s.
    pub t: f64,
    /// Moving bodies in scene order.
    pub bodies: Vec<BodySample>,
    /// Contacts within the margin.
    pub contacts: Vec<ContactSample>,
    /// Mechanical energy T + V_gravity + V_contact, J.
    pub energy: f64,
    /// Angular frequencies of the coupled modes of the compressed contacts, rad/s.
    pub frequencies: Vec<f64>,
    /// h·ω_max against the central-difference limit 2.
    pub h_omega_max: f64,
    /// Energy in each of those modes, J.
    pub modal_energy: Vec<f64>,
    /// Solver iterations in the step.
    pub iterations: usize,
    /// Largest complementarity residual of the step.
    pub residual: f64,
    /// False when an iterative solver hit its cap.
    pub converged: bool,
}

impl Sample {
    /// One JSON object on one line.
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A sequence of samples with CSV export.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Trace {
    /// Names of the moving bodies (CSV column prefixes).
    pub body_names: Vec<String>,
    /// The samples, in time order.
    pub samples: Vec<Sample>,
}

impl Trace {
    /// CSV with a header naming quantity and unit; contact columns for every contact id seen,
    /// empty where a contact was not within the margin.
    pub fn to_csv(&self) -> String {
        let mut ids: Vec<&str> = Vec::new();
        for s in &self.samples {
            for c in &s.contacts {
                if !ids.contains(&c.id.as_str()) {
                    ids.push(&c.id);
                }
            }
        }
        let mut out = String::from("t [s]");
        for b in &self.body_names {
            for col in [
                "x [m]",
                "y [m]",
                "theta [rad]",
                "vx [m/s]",
                "vy [m/s]",
                "omega [rad/s]",
            ] {
                let _ = write!(out, ",{b}.{col}");
            }
        }
        for id in &ids {
            for col in [
                "gap [m]",
                "gap_rate [m/s]",
                "normal [N]",
                "impulse [N s]",
                "friction [N]",
                "state",
            ] {
                let _ = write!(out, ",{id}.{col}");
            }
        }
        out.push_str(",energy [J],iterations,residual\n");
        for s in &self.samples {
            let _ = write!(out, "{}", s.t);
            for b in &s.bodies {
                for x in b.q.iter().chain(&b.v) {
                    let _ = write!(out, ",{x}");
                }
            }
            for id in &ids {
                match s.contacts.iter().find(|c| c.id == *id) {
                    Some(c) => {
                        let _ = write!(
                            out,
                            ",{},{},{},{},{},{}",
                            c.gap,
                            c.gap_rate,
                            c.normal,
                            c.impulse,
                            c.friction,
                            c.state.label()
                        );
                    }
                    None => out.push_str(",,,,,,"),
                }
            }
            let _ = writeln!(out, ",{},{},{}", s.energy, s.iterations, s.residual);
        }
        out
    }
}
