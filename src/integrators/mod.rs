//! Time steppers behind one trait, and what each step reports about its contacts.
//!
//! | name | file | what it enforces | what it approximates |
//! |---|---|---|---|
//! | `acceleration` | [`acceleration`] | 0 ≤ N ⟂ d̈ ≥ 0 on closed contacts, Newton impacts at located events | d and ḋ drift unless Baumgarte terms are on |
//! | `moreau-jean` | [`moreau_jean`] | 0 ≤ P ⟂ ḋ⁺ + e ḋ⁻ ≥ 0 and planar Coulomb on contacts that close in the step | first-order in time; impact times within a step |
//! | `penalty-explicit` | [`penalty`] | N = max(0, −k d − c ḋ), symplectic Euler | overlap d = −N/k; stable only for h < 2/ω_max |
//! | `penalty-implicit` | [`penalty`] | the same law, linearised backward Euler | overlap; numerical damping |
//! | `nsga` | [`nsga`] | gaps ≥ 0 exactly at position level; impact law, Coulomb, rolling and spinning resistance at velocity level | second-order smooth motion, tunable numerical damping ρ∞ |

pub mod acceleration;
pub mod joint_projection;
mod law_contacts;
mod mixed_lcp;
pub mod moreau_jean;
pub mod nsga;
pub mod penalty;
mod penalty_implicit;
mod penalty_rigid;
mod smooth_contacts;
mod smooth_joints;
mod warm_start;

use serde::{Deserialize, Serialize};

use crate::contact::{Contact, ContactKey, ContactMaterial};
use crate::error::{Error, Result};
use crate::lcp::LcpStatus;
use crate::model::System;

pub use acceleration::{AccelerationSettings, AccelerationStepper};
pub use moreau_jean::{MoreauJeanSettings, MoreauJeanStepper};
pub use nsga::{NsgaSettings, NsgaStepper};
pub use penalty::{PenaltyScheme, PenaltyStepper};

/// What a contact is doing at the end of a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContactState {
    /// Gap open, no force.
    Open,
    /// Closed (d = 0 within tolerance) but unloaded: N = 0.
    Touching,
    /// Closed and carrying a compressive force N > 0.
    Loaded,
    /// An impact impulse acted in this step.
    Impact,
}

impl ContactState {
    /// The label used in traces.
    pub fn label(self) -> &'static str {
        match self {
            ContactState::Open => "open",
            ContactState::Touching => "touching",
            ContactState::Loaded => "loaded",
            ContactState::Impact => "impact",
        }
    }

    /// A small integer code for typed-array exports: open 0, touching 1, loaded 2, impact 3.
    pub fn code(self) -> u8 {
        self as u8
    }
}

/// One contact at the end of a step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ContactReport {
    /// Stable identity.
    #[serde(skip)]
    pub key: ContactKey,
    /// Gap d at the end of the step, m.
    pub gap: f64,
    /// Gap rate ḋ at the end of the step, m/s.
    pub gap_rate: f64,
    /// Normal reaction N ≥ 0 averaged over the step (impulse / h for impulsive steppers), N.
    pub normal: f64,
    /// Normal impulse of the step (including impacts), N·s.
    pub impulse: f64,
    /// Tangential (friction) force along t = k×n averaged over the step, N.
    pub friction: f64,
    /// State label.
    pub state: ContactState,
    /// World contact point on the surface body B, m (z = 0 in the plane; for drawing).
    #[serde(skip)]
    pub point: [f64; 3],
    /// Unit normal from B towards A (for drawing force arrows).
    #[serde(skip)]
    pub direction: [f64; 3],
    /// Friction, rolling and spinning detail (augmented-Lagrangian steppers).
    #[serde(skip)]
    pub laws: Option<LawReport>,
}

/// One value per direction of a friction-type law (two at most), kept inline: a report is
/// made for every contact in every step.
pub type LawValues = smallvec::SmallVec<[f64; 2]>;

/// What the friction-type laws of one contact did in a step (NSGA and spatial Moreau–Jean).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LawReport {
    /// Slip velocity in the tangent frame (t₁, t₂), m/s (one entry in the plane).
    pub slip: LawValues,
    /// Relative angular velocity along the tangents (rolling), rad/s.
    pub rolling: LawValues,
    /// Relative angular velocity about the normal (spinning), rad/s.
    pub spinning: f64,
    /// Friction force in the tangent frame (step average), N.
    pub friction_force: LawValues,
    /// Rolling-resistance torque along the tangents (step average), N·m.
    pub rolling_torque: LawValues,
    /// Spinning-resistance torque about the normal (step average), N·m.
    pub spinning_torque: f64,
    /// `open`, `slip`, `spinning`, `rolling` or `stick` (the first that applies).
    pub case: &'static str,
}

impl ContactReport {
    /// The direction of the normal force on a moving body of the pair: `direction` (from B to
    /// A, the force on A), turned round when A is fixed and B moves (a disk sliding over a
    /// fixed disk), so a drawn arrow always pushes the body that moves.
    pub fn direction_on_moving_body(&self, bodies: &[crate::model::Body]) -> [f64; 3] {
        let (a, b, _) = self.key.point_body_first();
        if bodies[a].is_fixed() && !bodies[b].is_fixed() {
            self.direction.map(|x| -x)
        } else {
            self.direction
        }
    }

    /// The report of `contact` at the end-of-step velocities `v`, with the step's forces.
    pub fn new(
        contact: &Contact,
        v: &nalgebra::DVector<f64>,
        (normal, impulse, friction): (f64, f64, f64),
        state: ContactState,
    ) -> Self {
        Self {
            key: contact.key,
            gap: contact.gap,
            gap_rate: contact.gap_rate(v),
            normal,
            impulse,
            friction,
            state,
            point: contact.point.to_array(),
            direction: contact.normal.to_array(),
            laws: None,
        }
    }
}

/// The method that produced a step's contact forces; when a step solves several problems,
/// the report keeps the last in this order (a fallback outranks the normal path).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StepSolver {
    /// No contact problem was solved (no contact, or a closed-form law such as explicit penalty).
    #[default]
    None,
    /// Lexicographic Lemke on an LCP.
    Lemke,
    /// Projected Gauss–Seidel on an LCP.
    Pgs,
    /// Semismooth Newton (the augmented-Lagrangian laws, or the implicit penalty's loaded set).
    Newton,
    /// Newton stalled; proximal-point rounds (Newton on W + ηI) solved the laws.
    Proximal,
    /// Newton stalled; block Gauss–Seidel with exact contact-by-contact solves.
    Nsgs,
    /// A large island: block Gauss–Seidel on the block-sparse problem (W never formed).
    SparseNsgs,
    /// NSGA: the position-level problem with Coulomb friction did not converge, so the gaps
    /// were corrected exactly by the normal multipliers alone (no position-level friction).
    NormalOnlyCorrection,
    /// Newton stalled; the polyhedral LCP by Lemke, polished by Newton, solved the laws.
    LemkeFallback,
    /// Newton stalled; the polygon's multipliers were kept (inside the laws; not converged).
    Polyhedral,
    /// No method reached the tolerance; the multipliers were projected onto their laws.
    Failed,
}

impl StepSolver {
    /// The label used in traces and on the page.
    pub fn label(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Lemke => "lemke",
            Self::Pgs => "pgs",
            Self::Newton => "newton",
            Self::Proximal => "proximal",
            Self::Nsgs => "nsgs",
            Self::SparseNsgs => "sparse-nsgs",
            Self::NormalOnlyCorrection => "normal-only-correction",
            Self::LemkeFallback => "lemke-fallback",
            Self::Polyhedral => "polyhedral",
            Self::Failed => "failed",
        }
    }

    /// The solver of an LCP solve.
    pub fn of_lcp(kind: crate::lcp::LcpSolverKind) -> Self {
        match kind {
            crate::lcp::LcpSolverKind::Lemke => Self::Lemke,
            crate::lcp::LcpSolverKind::Pgs => Self::Pgs,
        }
    }

    /// The solver of a law solve.
    pub fn of_laws(method: crate::laws::LawMethod) -> Self {
        match method {
            crate::laws::LawMethod::Lemke => Self::Lemke,
            crate::laws::LawMethod::Pgs => Self::Pgs,
            crate::laws::LawMethod::Newton => Self::Newton,
            crate::laws::LawMethod::Proximal => Self::Proximal,
            crate::laws::LawMethod::Nsgs => Self::Nsgs,
            crate::laws::LawMethod::SparseNsgs => Self::SparseNsgs,
            crate::laws::LawMethod::LemkeFallback => Self::LemkeFallback,
            crate::laws::LawMethod::PolyhedralOnly => Self::Polyhedral,
            crate::laws::LawMethod::Failed => Self::Failed,
        }
    }
}

/// One joint at the end of a step.
#[derive(Debug, Clone, PartialEq)]
pub struct JointReport {
    /// Index of the joint in the system.
    pub joint: usize,
    /// Its equations g_k(q) at the end of the step, m (zero when held exactly).
    pub constraint: Vec<f64>,
    /// Their rates ġ_k = G_k v, m/s.
    pub rate: Vec<f64>,
    /// The reaction on body A: the step's mean force through the joint, N (world axes).
    pub reaction: [f64; 3],
    /// The torque on body A about z from the joint's angle equation (a drive's torque; a
    /// slider's or weld's moment), N·m.
    pub torque: f64,
}

/// What one step did.
#[derive(Debug, Clone, PartialEq)]
pub struct StepReport {
    /// Contacts within the margin at the end of the step, sorted by key.
    pub contacts: Vec<ContactReport>,
    /// Joints, in system order (empty when the system has none).
    pub joints: Vec<JointReport>,
    /// Solver iterations (pivots, sweeps, Newton iterations) summed over the solves of the step.
    pub iterations: usize,
    /// Largest relative (scale-free) residual of the step's solves.
    pub residual: f64,
    /// False when a solve did not reach its tolerance (the forces are then not trustworthy,
    /// though every multiplier still satisfies its law).
    pub converged: bool,
    /// Events (gap closures) located inside the step.
    pub events: usize,
    /// The method that produced the contact forces (the most exceptional one of the step).
    pub solver: StepSolver,
}

thread_local! {
    /// Lists of contact reports given back ([`StepReport::recycle`]), for the next steps'.
    static SPARE_CONTACT_REPORTS: crate::linalg::buffers::ScratchPool<Vec<ContactReport>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// An empty list of contact reports, in the storage of one given back when there is one.
pub(crate) fn spare_contact_reports() -> Vec<ContactReport> {
    let mut reports = crate::linalg::buffers::take_spare(&SPARE_CONTACT_REPORTS);
    reports.clear();
    reports
}

impl StepReport {
    /// Gives this report's list of contacts back to this thread's steppers, whose next
    /// report fills its storage (a simulation does so with the report its step replaces).
    pub fn recycle(mut self) {
        let mut contacts = std::mem::take(&mut self.contacts);
        contacts.clear();
        crate::linalg::buffers::give_back(&SPARE_CONTACT_REPORTS, contacts, 2);
    }

    /// Folds one solve's evidence into the report.
    pub(crate) fn record_solve(
        &mut self,
        solver: StepSolver,
        iterations: usize,
        residual: f64,
        converged: bool,
    ) {
        self.solver = self.solver.max(solver);
        self.iterations += iterations;
        self.residual = self.residual.max(residual);
        self.converged &= converged;
    }
}

impl Default for StepReport {
    /// No contacts, no iterations, converged.
    fn default() -> Self {
        Self {
            contacts: Vec::new(),
            joints: Vec::new(),
            iterations: 0,
            residual: 0.0,
            converged: true,
            events: 0,
            solver: StepSolver::None,
        }
    }
}

/// Scene-wide contact settings every stepper reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactSettings {
    /// Contact material.
    pub material: ContactMaterial,
    /// Contacts with gap ≤ margin are detected (and reported as open if apart), m.
    pub margin: f64,
}

/// A time stepper: advances the system by h and reports its contacts.
pub trait Stepper: Send {
    /// CLI name, e.g. `moreau-jean`.
    fn name(&self) -> &'static str;
    /// Advances `system` by `h` seconds. `start` holds the contacts detected at the current
    /// positions (within `settings.margin`, sorted by key); the answer carries the contacts
    /// detected at the new positions, which the pipeline hands to the next step, so detection
    /// runs once per step unless the method itself looks elsewhere (an event search, a
    /// predicted position). On error the system is left unchanged.
    fn step(
        &mut self,
        system: &mut System,
        start: Vec<Contact>,
        settings: &ContactSettings,
        h: f64,
    ) -> Result<Stepped>;
    /// Forgets warm starts and active sets (after a reset or a scene change).
    fn reset(&mut self) {}
    /// True when the stepper solves every island through [`crate::laws::assembly`], whose
    /// large islands never form W (so the island-size limit does not apply to it).
    fn solves_large_islands(&self) -> bool {
        false
    }
    /// Clears whatever the stepper carries for the given velocity ranges (bodies falling
    /// asleep, whose velocity is now zero; see [`crate::sleep`]).
    fn freeze(&mut self, _dofs: &[std::ops::Range<usize>]) {}
    /// Sleeping bodies woke (their forces act again): a stepper that carries a recursion
    /// over steps restarts it from the present state.
    fn wake(&mut self) {}
    /// Energy stored in the contact law (penalty springs), J.
    fn contact_energy(&self, _contacts: &[Contact], _settings: &ContactSettings) -> f64 {
        0.0
    }
}

/// What one step produced: its report, and the contacts at the positions it ended on.
#[derive(Debug, Clone)]
pub struct Stepped {
    /// Forces, impulses, states and solver figures of the step.
    pub report: StepReport,
    /// Every contact within the margin at the end-of-step positions, sorted by key.
    pub end_contacts: Vec<Contact>,
}

/// The names accepted by [`StepperKind::parse`].
pub const STEPPER_NAMES: [&str; 5] = [
    "acceleration",
    "moreau-jean",
    "penalty-explicit",
    "penalty-implicit",
    "nsga",
];

/// A stepper as offered for a scene: whether it can run it, and what it leaves out there.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepperOffer {
    /// The stepper's name.
    pub name: &'static str,
    /// True when the stepper can run the scene (the page greys out the others).
    pub available: bool,
    /// What the stepper approximates or ignores for this scene (empty when nothing).
    pub note: String,
}

/// True when the stepper called `name` takes a system restricted by `needs` (what
/// [`crate::model::System::held_by`] names): joints run under every stepper (the
/// acceleration one holds them at acceleration level, drifting unless Baumgarte is on;
/// Moreau–Jean and the penalty steppers at velocity level, then projected); flexible beams
/// under every stepper but the acceleration one, all but NSGA taking their elastic forces
/// explicitly (below the beam's step limit 2/ω_max).
pub fn takes(name: &str, needs: Option<&str>) -> bool {
    needs != Some("flexible beams") || name != "acceleration"
}

/// Every stepper as offered for a scene with this material: all of them run every scene of
/// rigid bodies without joints; the notes say what each leaves out. Scenes with joints or
/// beams run under the steppers [`takes`] names.
pub fn offers(material: &ContactMaterial, needs: Option<&str>) -> Vec<StepperOffer> {
    let joints = needs == Some("joints");
    let resistance = material.rolling_resistance > 0.0 || material.spinning_resistance > 0.0;
    STEPPER_NAMES
        .iter()
        .map(|&name| {
            let mut notes: Vec<&str> = Vec::new();
            match name {
                "acceleration" => {
                    if material.friction > 0.0 || resistance {
                        notes.push("frictionless: ignores μ and rolling and spinning resistance");
                    }
                    notes.push("d and ḋ drift unless Baumgarte is on");
                }
                "penalty-explicit" | "penalty-implicit" => {
                    notes.push("compliant: overlaps d = −N/k");
                    if material.friction > 0.0 {
                        notes.push("friction regularised (viscous below the slip speed v_ε)");
                    }
                    if resistance {
                        notes.push("ignores rolling and spinning resistance");
                    }
                    if material.restitution > 0.0 {
                        notes.push("ignores restitution (damping c sets the energy loss)");
                    }
                }
                _ => {}
            }
            let available = takes(name, needs);
            if !available {
                notes = vec![match needs {
                    Some("flexible beams") => "does not take flexible beams yet",
                    _ => "does not hold joints yet",
                }];
            } else if needs == Some("flexible beams") && name == "penalty-implicit" {
                notes.push(
                    "beam forces implicit (linearly implicit Euler); explicit, below 2/ω_max, with joints or springs",
                );
            } else if needs == Some("flexible beams") && name != "nsga" {
                notes.push(
                    "elastic forces explicit: stable only below the beam's step limit 2/ω_max",
                );
            } else if joints && name == "acceleration" {
                notes.push(
                    "joints held at acceleration level: g and ġ drift unless Baumgarte is on",
                );
            } else if joints && name != "nsga" {
                notes.push("joints held at velocity level, then positions projected onto them");
            }
            StepperOffer {
                name,
                available,
                note: notes.join("; "),
            }
        })
        .collect()
}

/// Which stepper, with its settings.
#[derive(Debug, Clone, PartialEq)]
pub enum StepperKind {
    /// Acceleration-level LCP with impact events.
    Acceleration(AccelerationSettings),
    /// Velocity-level Moreau–Jean time stepping.
    MoreauJean(MoreauJeanSettings),
    /// Penalty contact with the given scheme.
    Penalty(PenaltyScheme),
    /// Nonsmooth generalized-α with GGL stabilisation.
    Nsga(NsgaSettings),
}

impl StepperKind {
    /// The stepper called `name` with default settings.
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "acceleration" => Ok(Self::Acceleration(AccelerationSettings::default())),
            "moreau-jean" => Ok(Self::MoreauJean(MoreauJeanSettings::default())),
            "penalty-explicit" => Ok(Self::Penalty(PenaltyScheme::Explicit)),
            "penalty-implicit" => Ok(Self::Penalty(PenaltyScheme::Implicit)),
            "nsga" => Ok(Self::Nsga(NsgaSettings::default())),
            _ => Err(Error::unknown("stepper", name, &STEPPER_NAMES)),
        }
    }

    /// The CLI name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Acceleration(_) => "acceleration",
            Self::MoreauJean(_) => "moreau-jean",
            Self::Penalty(PenaltyScheme::Explicit) => "penalty-explicit",
            Self::Penalty(PenaltyScheme::Implicit) => "penalty-implicit",
            Self::Nsga(_) => "nsga",
        }
    }

    /// A fresh stepper of this kind.
    pub fn build(&self) -> Box<dyn Stepper> {
        match self {
            Self::Acceleration(s) => Box::new(AccelerationStepper::new(s.clone())),
            Self::MoreauJean(s) => Box::new(MoreauJeanStepper::new(s.clone())),
            Self::Penalty(s) => Box::new(PenaltyStepper::new(*s)),
            Self::Nsga(s) => Box::new(NsgaStepper::new(s.clone())),
        }
    }
}

/// Converged unless an LCP says otherwise.
pub(crate) fn lcp_converged(status: LcpStatus) -> bool {
    status == LcpStatus::Solved
}

/// The one threshold set of the contact states. A force at or below this counts as no
/// force (unloaded), N.
pub(crate) const FORCE_TOLERANCE: f64 = 1e-9;

/// A gap at or below this counts as closed, m.
pub(crate) const CLOSED_GAP: f64 = 1e-9;

/// An approach faster than this that an impulse stops is an impact, m/s.
pub(crate) const IMPACT_VELOCITY: f64 = 1e-3;

/// The one classification of a contact at the end of a step, for every stepper: `impact`
/// when an impulse stopped an approach in the step, else `loaded` when it carried a force
/// above [`FORCE_TOLERANCE`], else `touching` when it is closed (as its stepper judges
/// closure: the gap within [`CLOSED_GAP`], or the acceleration stepper's active set), else
/// `open`.
pub(crate) fn classify(impact: bool, normal: f64, closed: bool) -> ContactState {
    if impact {
        ContactState::Impact
    } else if normal > FORCE_TOLERANCE {
        ContactState::Loaded
    } else if closed {
        ContactState::Touching
    } else {
        ContactState::Open
    }
}
