//! Recorded signals per step (poses, velocities, contact reactions, gaps, states, energy) and their export.

use std::fmt::Write as _;

use serde::Serialize;

use crate::integrators::{ContactState, LawReport, StepSolver};

/// One body in a sample.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BodySample {
    /// Generalized positions of the body ((x, y, θ) in the plane; (x, y, z, q_w, q_x, q_y,
    /// q_z) in space), m, rad and unit quaternion; names in [`BodyLayout`].
    pub q: Vec<f64>,
    /// Generalized velocities ((vx, vy, ω); (v, ω) in world axes in space), m/s and rad/s.
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

/// One joint in a sample.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JointSample {
    /// The joint's name.
    pub name: String,
    /// The reaction on its first body (mean force of the step), N: (x, y) in the plane.
    pub reaction: Vec<f64>,
    /// The torque on the first body from its angle equation (a drive's torque), N·m.
    pub torque: f64,
    /// The largest |g_k| of its equations, m (zero when held exactly).
    pub violation: f64,
    /// The largest |ġ_k|, m/s.
    pub rate: f64,
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
    /// Joints, in system order (none for most scenes).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<JointSample>,
    /// Mechanical energy T + V_gravity + V_contact, J.
    pub energy: f64,
    /// The coupled modes of the compressed contacts, when asked for
    /// ([`crate::Simulation::sample_with_modes`]; the cheap [`crate::Simulation::sample`]
    /// leaves them out).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub modes: Option<SampleModes>,
    /// For a penalty stepper on a system too large for its modes: an upper bound on h·ω_max
    /// (Gershgorin's, `frequency_bound.rs`), against the central-difference limit 2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub h_omega_bound: Option<f64>,
    /// Solver iterations in the step.
    pub iterations: usize,
    /// Largest relative (scale-free) residual of the step's solves.
    pub residual: f64,
    /// False when a solve did not reach its tolerance.
    pub converged: bool,
    /// The method that produced the step's contact forces (`lemke`, `newton`,
    /// `lemke-fallback`, …; `none` without a contact problem).
    pub solver: StepSolver,
}

/// The modal analysis of a sample (seed 003), computed only when asked for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SampleModes {
    /// Angular frequencies of the coupled modes of the compressed contacts, rad/s.
    pub frequencies: Vec<f64>,
    /// h·ω_max against the central-difference limit 2.
    pub h_omega_max: f64,
    /// Energy in each of those modes, J.
    pub modal_energy: Vec<f64>,
}

impl Sample {
    /// One JSON object on one line.
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The CSV columns of one moving body: its name and the names (with units) of its
/// generalized positions and then velocities, from its kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BodyLayout {
    /// Body name (the column prefix).
    pub name: String,
    /// Column names with units, q first then v, e.g. `x [m]`, `qw [1]`, `omega [rad/s]`.
    pub columns: Vec<String>,
}

/// The numbers of each contact in the wasm `contactData()` array, in order, with units: one
/// description for the API and the page (which reads it through `layout()`).
pub const CONTACT_FIELDS: [&str; 12] = [
    "gap [m]",
    "gap_rate [m/s]",
    "normal [N]",
    "friction [N]",
    "impulse [N s]",
    "state",
    "x [m]",
    "y [m]",
    "z [m]",
    "nx [1]",
    "ny [1]",
    "nz [1]",
];

/// The numbers of each contact in the wasm `lawData()` array, in order, with units.
pub const LAW_FIELDS: [&str; 9] = [
    "slip_t1 [m/s]",
    "slip_t2 [m/s]",
    "slip_speed [m/s]",
    "rolling_speed [rad/s]",
    "spinning_rate [rad/s]",
    "friction [N]",
    "rolling_torque [N m]",
    "spinning_torque [N m]",
    "case",
];

/// The columns of each contact.
pub const CONTACT_COLUMNS: [&str; 6] = [
    "gap [m]",
    "gap_rate [m/s]",
    "normal [N]",
    "impulse [N s]",
    "friction [N]",
    "state",
];

/// The columns of each joint (g and its rate: the largest over the joint's equations).
pub const JOINT_COLUMNS: [&str; 5] = ["Rx [N]", "Ry [N]", "torque [N m]", "g [m]", "g_rate [m/s]"];

/// The columns after the contacts.
const STEP_COLUMNS: &str = "energy [J],iterations,residual [1],converged,solver";

/// Writes samples as CSV rows under a fixed header: one column per value, each named with its
/// unit, for every kind of body; rows can be written one at a time (streaming).
#[derive(Debug, Clone, PartialEq)]
pub struct CsvLayout {
    /// The moving bodies.
    pub bodies: Vec<BodyLayout>,
    /// The contact ids that get columns (empty cells where a contact is absent).
    pub contacts: Vec<String>,
    /// The joint names (every sample has every joint).
    pub joints: Vec<String>,
}

impl CsvLayout {
    /// The header line (with its newline).
    pub fn header(&self) -> String {
        let mut out = String::from("t [s]");
        for b in &self.bodies {
            for col in &b.columns {
                let _ = write!(out, ",{}.{col}", b.name);
            }
        }
        for id in &self.contacts {
            for col in CONTACT_COLUMNS {
                let _ = write!(out, ",{id}.{col}");
            }
        }
        for name in &self.joints {
            for col in JOINT_COLUMNS {
                let _ = write!(out, ",{name}.{col}");
            }
        }
        let _ = writeln!(out, ",{STEP_COLUMNS}");
        out
    }

    /// The row of one sample (with its newline).
    pub fn row(&self, s: &Sample) -> String {
        let mut out = String::new();
        let _ = write!(out, "{}", s.t);
        for (layout, b) in self.bodies.iter().zip(&s.bodies) {
            let values: Vec<f64> = b.q.iter().chain(&b.v).copied().collect();
            for k in 0..layout.columns.len() {
                match values.get(k) {
                    Some(x) => {
                        let _ = write!(out, ",{x}");
                    }
                    None => out.push(','),
                }
            }
        }
        for id in &self.contacts {
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
        for name in &self.joints {
            match s.joints.iter().find(|j| j.name == *name) {
                Some(j) => {
                    let r = |k: usize| j.reaction.get(k).copied().unwrap_or(f64::NAN);
                    let _ = write!(
                        out,
                        ",{},{},{},{},{}",
                        r(0),
                        r(1),
                        j.torque,
                        j.violation,
                        j.rate
                    );
                }
                None => out.push_str(",,,,,"),
            }
        }
        let _ = writeln!(
            out,
            ",{},{},{},{},{}",
            s.energy,
            s.iterations,
            s.residual,
            s.converged,
            s.solver.label()
        );
        out
    }
}

/// A sequence of samples with CSV export.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Trace {
    /// The moving bodies' column layouts.
    pub bodies: Vec<BodyLayout>,
    /// The samples, in time order.
    pub samples: Vec<Sample>,
}

impl Trace {
    /// Every contact id seen in the samples, in order of first appearance.
    pub fn contact_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = Vec::new();
        for s in &self.samples {
            for c in &s.contacts {
                if !ids.contains(&c.id) {
                    ids.push(c.id.clone());
                }
            }
        }
        ids
    }

    /// CSV with a header naming quantity and unit; contact columns for every contact id seen,
    /// empty where a contact was not within the margin.
    pub fn to_csv(&self) -> String {
        let layout = CsvLayout {
            bodies: self.bodies.clone(),
            contacts: self.contact_ids(),
            joints: self
                .samples
                .first()
                .map(|s| s.joints.iter().map(|j| j.name.clone()).collect())
                .unwrap_or_default(),
        };
        let mut out = layout.header();
        for s in &self.samples {
            out.push_str(&layout.row(s));
        }
        out
    }
}
