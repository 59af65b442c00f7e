//! The nonsmooth generalized-α scheme with GGL stabilisation (NSGA-GGL): exact gaps and exact velocity laws.
//!
//! After Brüls, Acary & Cardona (2014), "Simultaneous enforcement of constraints at position
//! and velocity levels in the nonsmooth generalized-α scheme", CMAME 281, and the seed 002
//! paper (Cavalieri, Cosimo, Cardona et al., Multibody System Dynamics) for friction, rolling
//! and spinning resistance. One step from (q_n, v_n, a_n, ä_n):
//!
//! 1. Smooth predictor (generalized-α on the applied forces, the joints' reactions and the
//!    persistent contacts' smooth forces, modules smooth_joints and smooth_contacts):
//!    ```text
//!        M ä_{n+1} = f(q̂, v̂, t_{n+1}) + Gᵀλ + Σ Dᵀλ_c
//!        (1 − α_m) a_{n+1} + α_m a_n = (1 − α_f) ä_{n+1} + α_f ä_n
//!        q̂ = q_n ⊕ [h v_n + h²(½ − β) a_n + h² β a_{n+1}]
//!        v̂ = v_n + h(1 − γ) a_n + h γ a_{n+1}
//!    ```
//!    solved by Newton on ä_{n+1} (one iteration when f does not depend on the state).
//!    α_m = (2ρ∞ − 1)/(ρ∞ + 1), α_f = ρ∞/(ρ∞ + 1), γ = ½ + α_f − α_m, β = ¼(γ + ½)².
//! 2. Position level (the GGL correction): q_{n+1} = q̂ ⊕ U with M U = G_pᵀ ν, where the
//!    normal law makes every gap of q_{n+1} non-negative and complementary to ν_N, and
//!    Coulomb's law at position level bounds the tangential correction ν_T by μ ν_N (so the
//!    correction does not drag a sticking contact sideways). At a contact that no smooth
//!    force held in the predictor (two levels, or a contact not persistent at the start of
//!    the step) friction acts on the tangential displacement the predictor's accelerations
//!    made, J_T h²[(½ − β) a_n + β a_{n+1}], as well as the correction's: a sticking contact
//!    undoes the sag of its bodies along it (a sphere held against a wall does not creep down
//!    it), a sliding one keeps h²/2 (a_T − μ a_N) of it. A large island (a pile) is
//!    corrected by the normal multipliers alone, from q̂ moved by the displacement
//!    (h/2) M⁻¹J_TᵀP_T of the friction (and rolling and spinning) percussions that held its
//!    contacts in the last step, so that a settled pile does not creep.
//! 3. Velocity level: v_{n+1} = v̂ + M⁻¹ Gᵀ Λ over the contacts closed at q_{n+1} (gap within
//!    `closed_gap`, or loaded by step 2 and closed by its linearised gap: the nonlinear gap
//!    may end a hair open, and such a contact is closed all the same), with
//!    Newton's impact law 0 ≤ Λ_N ⟂ ġ_N(v_{n+1}) + e min(ġ_N(v_n), 0) ≥ 0, Coulomb friction
//!    (‖Λ_T‖ ≤ μΛ_N), rolling resistance (‖Λ_R‖ ≤ ρΛ_N) and spinning resistance
//!    (|Λ_S| ≤ γΛ_N), each set-valued (stick / no-roll / no-spin hold the motion exactly).
//!
//! Steps 2 and 3 are augmented-Lagrangian problems solved by semismooth Newton ([`crate::laws`]),
//! warm-started from the previous step's multipliers. With three levels (the default,
//! `stepper.nsga_levels`), step 3 solves for the step's whole percussion
//! P = Λ + h[(1 − γ)λ̄_n + γλ̄_{n+1}] from v̂ − M⁻¹J_{n+1}ᵀ(that smooth part), and step 2
//! starts from q̂ without the smooth normal forces' displacement, so both laws act on totals
//! and positions under lasting contact are second order (module smooth_contacts). With two
//! levels, contacts act only through steps 2 and 3 (first order positions under persistent
//! contact). With no contact the step is exactly the generalized-α method; with ρ∞ = 1
//! that is the trapezoidal rule (Newmark β = ¼, γ = ½).

use std::collections::BTreeMap;

use nalgebra::{DMatrix, DVector};

use super::law_contacts::{
    ImpulseSettings, SolvedImpulses, report_contacts, report_joints, solve_impulses,
};
use super::smooth_contacts::{ContactMultipliers, Persistent, SmoothContacts};
use super::smooth_joints::JointConstraints;
use super::{ContactSettings, StepReport, Stepped, Stepper};
use crate::contact::{Contact, ContactKey, detect_contacts_at};
use crate::error::Result;
use crate::laws::assembly::{Laws, assemble, islands};
use crate::laws::{self, NewtonOptions};
use crate::model::System;

/// Newton steps of the smooth predictor before a step reports non-convergence.
const PREDICTOR_ITERATIONS: usize = 20;

/// Re-linearisations of the position-level correction before a step reports non-convergence.
const POSITION_PASSES: usize = 5;

/// A contact loaded by the position correction counts as closed by it when the correction's
/// linearised gap u_N is within this, m. Newton meets a *relative* tolerance (1e-12 of the
/// island's impulse scale, which open contacts up to the margin away enter), so u_N of a
/// truly closed contact can exceed 1e-9 m in an island of large mass ratios; a contact left
/// open by centimetres (the bug this guards against) is far beyond it.
const CORRECTION_CLOSED_GAP: f64 = 1e-6;

/// The rounding in a gap computed from positions of the contact point's magnitude, m: a gap
/// is a difference of coordinates, so far from the origin it cannot be resolved below
/// a few ulps of them (a sphere rolled 10⁵ m down an incline: ≈ 1e-11 m).
fn rounding_of_gap(contact: &Contact) -> f64 {
    16.0 * f64::EPSILON * contact.point.abs().max_element()
}

/// The gaps the position level's solves resolve: half the least [`exact_gap`], m. A second
/// pass corrects what the first left by its tolerance (gaps of 1e-11 m in a pile of 100)
/// and what the linearisation missed; its whole demand is then a few picometres, and
/// meeting the relative tolerance of that tiny scale took as many sweeps as the first
/// pass (78 against 55 for the pile of 100's second passes, same answers to 5e-15 m).
fn position_resolution(gap_tolerance: f64) -> f64 {
    0.5 * gap_tolerance
}

/// A large island's position passes stop when every gap is resolved to
/// [`position_resolution`] ([`NewtonOptions::absolute`]), not at the scene's relative
/// tolerance. Relative to a pile's impulse scale, the load of its deepest contact, a
/// tolerance of 1e-8 left the top's gaps open by about 1e-10 m, and a second pass closed them
/// from a cold start: in a settled planar pile of 1000 disks, 17 to 33 products of W for the
/// first pass and 160 to 190 for the second, every step. MPRGP (`laws/mprgp.rs`), warm from
/// the last step, goes the further decades at a few products each, and the second pass is
/// then rarely needed (docs/benchmarks.md, twenty-fourth sitting).
const POSITION_ABSOLUTE: bool = true;

/// The least gap tolerance, m: the position level resolves gaps to rounding unless the scene
/// asks for less ([`NsgaSettings::gap_tolerance`]).
pub const EXACT_GAP: f64 = 1e-14;

/// The position level is done with a contact when its gap is at least −this: the scene's gap
/// tolerance ([`EXACT_GAP`] unless it asks for less), or the gap's rounding where that is
/// larger.
fn exact_gap(contact: &Contact, gap_tolerance: f64) -> f64 {
    rounding_of_gap(contact).max(gap_tolerance)
}

/// True when the position level is done with `contact`: its gap non-negative to
/// [`exact_gap`], or, for a joint's equation, zero to it.
fn position_done(contact: &Contact, gap_tolerance: f64) -> bool {
    if contact.bilateral {
        contact.gap.abs() <= exact_gap(contact, gap_tolerance)
    } else {
        contact.gap >= -exact_gap(contact, gap_tolerance)
    }
}

/// Settings of the NSGA-GGL stepper.
#[derive(Debug, Clone, PartialEq)]
pub struct NsgaSettings {
    /// Spectral radius at infinite frequency ρ∞ ∈ [0, 1] (1: no numerical damping).
    pub spectral_radius: f64,
    /// Newton tolerance and cap for the contact problems.
    pub newton: NewtonOptions,
    /// Gaps below this count as closed for the velocity level, m.
    pub closed_gap: f64,
    /// Approach speeds below this are reported as `loaded`, not `impact`, m/s.
    pub impact_velocity: f64,
    /// Three levels (module smooth_contacts): persistent contacts act by smooth forces in
    /// the predictor as well; false keeps the two-level scheme (contacts by impulses only).
    pub three_levels: bool,
    /// The deepest gap (and the largest joint equation) the position level may leave, m:
    /// [`EXACT_GAP`], resolved to rounding, unless the scene asks for less
    /// (`stepper.gap_tolerance`, at most 1e-6 m). A step that ends with a gap deeper than it
    /// says it did not converge.
    pub gap_tolerance: f64,
}

impl Default for NsgaSettings {
    fn default() -> Self {
        Self {
            spectral_radius: 0.8,
            newton: NewtonOptions::default(),
            closed_gap: super::CLOSED_GAP,
            impact_velocity: super::IMPACT_VELOCITY,
            three_levels: true,
            gap_tolerance: EXACT_GAP,
        }
    }
}

/// Generalized-α coefficients from the spectral radius ρ∞.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AlphaCoefficients {
    /// α_m.
    pub alpha_m: f64,
    /// α_f.
    pub alpha_f: f64,
    /// γ.
    pub gamma: f64,
    /// β.
    pub beta: f64,
}

impl AlphaCoefficients {
    /// Chung–Hulbert's optimal choice for a given ρ∞.
    pub fn from_spectral_radius(rho: f64) -> Self {
        let alpha_m = (2.0 * rho - 1.0) / (rho + 1.0);
        let alpha_f = rho / (rho + 1.0);
        let gamma = 0.5 + alpha_f - alpha_m;
        let beta = 0.25 * (gamma + 0.5) * (gamma + 0.5);
        Self {
            alpha_m,
            alpha_f,
            gamma,
            beta,
        }
    }
}

/// The NSGA-GGL stepper: it carries a_n, ä_n and the last multipliers.
pub struct NsgaStepper {
    settings: NsgaSettings,
    acceleration: Option<(DVector<f64>, DVector<f64>)>,
    warm: super::warm_start::WarmStart,
    /// The first position pass's multipliers of the last step, by contact: a resting pile
    /// needs nearly the same correction every step (large islands start from them).
    warm_position: super::warm_start::WarmStart,
    /// This step's first position pass's multipliers, becoming `warm_position` at its end
    /// (kept as a field for its storage).
    next_position: super::warm_start::WarmStart,
    /// The contacts persistent at the end of the last step (three levels).
    persistent: SmoothContacts,
    /// The smooth normal contact forces' share of (a_n, ä_n), as [a^N, ä^N] (three levels).
    contact_acceleration: Option<[DVector<f64>; 2]>,
    /// The persistent contacts' smooth multipliers (λ_n, λ̄_n), λ̄ α-averaged like a.
    multipliers: BTreeMap<ContactKey, [ContactMultipliers; 2]>,
    /// The next step restarts from the consistent acceleration (a contact law changed).
    restart: bool,
    /// The friction, rolling and spinning percussions of the contacts loaded (closed,
    /// pushing, no impact) at the end of the last step: a large island's position level
    /// applies their displacement (see [`lagged_law_displacement`]). Sorted by key, the
    /// buffer reused from step to step.
    held: Vec<HeldPercussions>,
    /// The contacts the position level loaded in this step (kept as a field for its
    /// storage).
    position_active: Vec<ContactKey>,
    /// The step's vectors and lists, kept so that a step allocates none of them.
    work: StepWork,
}

/// The vectors and lists of one step, kept from step to step (taken by the step and put
/// back at its end). The lists of references keep only their storage between steps
/// ([`crate::linalg::buffers::recycled`]).
#[derive(Default)]
struct StepWork {
    /// q_n, v_n.
    q_n: DVector<f64>,
    v_n: DVector<f64>,
    /// The predictor's ä_{n+1} and its (a, Δq, q, v).
    acc: DVector<f64>,
    predicted: Predicted,
    /// f(q, v, t) and the predictor's residual M ä − f.
    forces: DVector<f64>,
    residual: DVector<f64>,
    /// The smooth normal forces, their M⁻¹ share of ä and a^N (three levels).
    force_normal: DVector<f64>,
    acc_normal: DVector<f64>,
    a_normal: DVector<f64>,
    /// [a^N_n, ä^N_n] when the last step kept none.
    contact_acceleration: [DVector<f64>; 2],
    /// The displacement of q̂ without the smooth normal forces'.
    normal_displacement: DVector<f64>,
    dq: DVector<f64>,
    /// The position level's q_{n+1}, its correction and the corrected positions.
    q_next: DVector<f64>,
    correction: DVector<f64>,
    corrected: DVector<f64>,
    /// The predictor's accelerated displacement h²[(½ − β) a_n + β a_{n+1}].
    accelerated: DVector<f64>,
    /// A large island's lagged friction displacement.
    lagged: DVector<f64>,
    /// The velocity level's M⁻¹ Gᵀ Λ, then v_{n+1}.
    dv: DVector<f64>,
    /// The contacts of a position pass, of one island, of the velocity level.
    refs: Vec<&'static Contact>,
    members: Vec<&'static Contact>,
    closed: Vec<&'static Contact>,
    /// The position level's free gaps and warm start, for every island and pass.
    u_free: DVector<f64>,
    guess: DVector<f64>,
    /// The contacts loaded at the end of the step (three levels).
    loaded: Vec<ContactKey>,
}

/// The smooth predictor's a_{n+1}, Δq, q_{n+1} and v_{n+1} for one ä_{n+1}.
#[derive(Default)]
struct Predicted {
    a: DVector<f64>,
    dq: DVector<f64>,
    q: DVector<f64>,
    v: DVector<f64>,
}

/// The percussions besides the normal one that held a contact in a step.
#[derive(Debug, Clone, Copy)]
struct HeldPercussions {
    key: ContactKey,
    /// Its block's rows after the normal: (tangents, rolling, spin).
    rows: (usize, usize, usize),
    /// Their multipliers, in that order.
    values: [f64; 5],
}

/// Rounds of the predictor's active set (a contact leaving, a law starting to slide) before
/// the step goes on with the last one.
const ACTIVE_SET_ROUNDS: usize = 6;

impl NsgaStepper {
    /// A stepper with the given settings.
    pub fn new(settings: NsgaSettings) -> Self {
        Self {
            settings,
            acceleration: None,
            warm: Default::default(),
            warm_position: Default::default(),
            next_position: Default::default(),
            persistent: SmoothContacts::default(),
            contact_acceleration: None,
            multipliers: BTreeMap::new(),
            restart: false,
            held: Vec::new(),
            position_active: Vec::new(),
            work: StepWork::default(),
        }
    }

    /// Keeps, sorted by key, the percussions besides the normal ones of every contact the
    /// velocity level `solved` ended loaded (as `report_contacts` classifies it: pushing, no
    /// impact), for the next step's large-island position level
    /// ([`lagged_law_displacement`]). A sleeping island is not solved: its contacts keep
    /// what held them when it fell asleep, for the step that wakes it.
    fn remember_held_percussions(&mut self, system: &System, solved: &[SolvedImpulses], h: f64) {
        let asleep = |body: usize| system.asleep.get(body).copied().unwrap_or(false);
        self.held
            .retain(|p| asleep(p.key.first) || asleep(p.key.second));
        for s in solved {
            for (k, (c, b)) in s.contacts.iter().zip(&s.problem.blocks).enumerate() {
                let p_n = s.solution.lambda[b.offset];
                let impact = p_n > 0.0 && s.approach[k] < -self.settings.impact_velocity;
                let loaded = !c.bilateral
                    && super::classify(impact, p_n / h, c.gap <= super::CLOSED_GAP)
                        == super::ContactState::Loaded;
                let len = b.tangents + b.rolling + b.spin;
                if loaded && len > 0 {
                    let mut values = [0.0; 5];
                    values[..len].copy_from_slice(
                        &s.solution.lambda.as_slice()[b.offset + 1..b.offset + 1 + len],
                    );
                    self.held.push(HeldPercussions {
                        key: c.key,
                        rows: (b.tangents, b.rolling, b.spin),
                        values,
                    });
                }
            }
        }
        self.held.sort_unstable_by_key(|p| p.key);
    }

    /// The acceleration ä = M⁻¹(f + Dᵀλ) at the system's state with the joints (when
    /// `joints`) and the persistent contacts (when `contacts`) held at acceleration level,
    /// the contacts' active set settled; with the normal contact forces' share of it and the
    /// contacts' multipliers.
    fn consistent_acceleration(
        &mut self,
        system: &System,
        (joints, contacts): (bool, bool),
        margin: f64,
    ) -> (
        DVector<f64>,
        DVector<f64>,
        BTreeMap<ContactKey, ContactMultipliers>,
    ) {
        let (q, v, t) = (&system.q, &system.v, system.t);
        let f = system.generalized_forces(q, v, t);
        let free = system.mass().apply_inverse(&f);
        let dofs = system.dofs();
        if !joints && !contacts {
            return (free, DVector::zeros(dofs), BTreeMap::new());
        }
        let solve = |x: &DVector<f64>| Some(system.mass().apply_inverse(x));
        let residual = DVector::zeros(dofs);
        for round in 0..=ACTIVE_SET_ROUNDS {
            let set = contacts.then_some((&self.persistent, margin));
            let held = JointConstraints::with_contacts(system, (q, v, t), joints, set);
            let Some((d, lambda)) = held.newton_step(&solve, &residual, &held.acceleration(&free))
            else {
                return (free, DVector::zeros(dofs), BTreeMap::new());
            };
            let multipliers = held.contact_multipliers(&lambda);
            if contacts
                && round < ACTIVE_SET_ROUNDS
                && self.persistent.update(&held.contacts, multipliers)
            {
                continue;
            }
            let normal = super::smooth_contacts::normal_forces(&held.contacts, multipliers, dofs);
            let by_contact = self.persistent.multipliers(&held.contacts, multipliers);
            return (free - d, system.mass().apply_inverse(&normal), by_contact);
        }
        (free, DVector::zeros(dofs), BTreeMap::new())
    }
}

/// The displacement (h/2) M⁻¹ J_Tᵀ P_T of the percussions P_T besides the normal ones
/// (friction, rolling and spinning resistance) that the last step found at those of
/// `members` it ended holding (`held`, sorted by key), into `out` (resized); false, and
/// `out` unspecified, when it held none.
///
/// A large island's position level corrects by the normal multipliers alone (position-level
/// friction there does not converge at a bearable cost, docs/benchmarks.md). Its predictor
/// moved every body as if nothing held it, by D = h²[(½ − β) a_n + β a_{n+1}] = (h²/2) M⁻¹f
/// under a constant force f, and normal multipliers put back only a displacement in the
/// range of M⁻¹J_Nᵀ: a sphere held by friction against a wall or in a wedge would creep
/// along it by the rest of D every step. At rest the last step's percussions balance the
/// forces, J_NᵀP_N + J_TᵀP_T = −h f, so D + (h/2) M⁻¹J_TᵀP_T = −(h/2) M⁻¹J_NᵀP_N, which the
/// normal correction undoes exactly: a settled pile stays where it is. While the pile moves
/// this is the displacement its friction forces make within the step, lagged by one step.
/// (Rolling and spinning resistance hold a sphere's turn the same way.)
fn lagged_law_displacement(
    system: &System,
    members: &[&Contact],
    held: &[HeldPercussions],
    h: f64,
    out: &mut DVector<f64>,
) -> bool {
    let mut any = false;
    for c in members {
        let Ok(i) = held.binary_search_by_key(&c.key, |p| p.key) else {
            continue;
        };
        let (tangents, rolling, spin) = held[i].rows;
        let rows = c.tangent_rows[..tangents]
            .iter()
            .chain(&c.rolling_rows[..rolling])
            .chain(c.spin_row.iter().take(spin));
        for (row, &p) in rows.zip(&held[i].values) {
            if p != 0.0 {
                if !any {
                    crate::linalg::buffers::zeroed_vector(out, system.dofs());
                    any = true;
                }
                system
                    .mass()
                    .inverse_times_row(row)
                    .add_transpose_to(0.5 * h * p, out);
            }
        }
    }
    any
}

/// Numerical ∂f/∂q·δ and ∂f/∂v·δ for the predictor's Newton tangent.
fn force_tangent(
    system: &System,
    q: &DVector<f64>,
    v: &DVector<f64>,
    t: f64,
    dq: f64,
    dv: f64,
) -> DMatrix<f64> {
    let n = system.dofs();
    let base = system.generalized_forces(q, v, t);
    let mut k = DMatrix::zeros(n, n);
    for j in 0..n {
        let mut e = DVector::zeros(n);
        e[j] = 1.0;
        let eps = 1e-7;
        let qp = system.displace(q, &(&e * (eps * dq)));
        let vp = v + &e * (eps * dv);
        let col = (system.generalized_forces(&qp, &vp, t) - &base) / eps;
        k.set_column(j, &col);
    }
    k
}

impl Stepper for NsgaStepper {
    fn name(&self) -> &'static str {
        "nsga"
    }

    fn solves_large_islands(&self) -> bool {
        true
    }

    fn freeze(&mut self, dofs: &[std::ops::Range<usize>]) {
        if let Some((a, acc)) = &mut self.acceleration {
            for range in dofs {
                a.as_mut_slice()[range.clone()].fill(0.0);
                acc.as_mut_slice()[range.clone()].fill(0.0);
            }
        }
        if let Some(parts) = &mut self.contact_acceleration {
            // (The frozen bodies' contacts leave the persistent set with them.)
            for part in parts.iter_mut() {
                for range in dofs {
                    part.as_mut_slice()[range.clone()].fill(0.0);
                }
            }
        }
    }

    /// The woken bodies' accelerations were zeroed when they fell asleep (they had no
    /// forces): the next step starts from the consistent acceleration, as after a change of
    /// a contact law, and their held percussions, kept while they slept, hold them as before.
    fn wake(&mut self) {
        self.restart = true;
    }

    fn reset(&mut self) {
        self.acceleration = None;
        self.warm.clear();
        self.warm_position.clear();
        self.persistent = SmoothContacts::default();
        self.contact_acceleration = None;
        self.multipliers.clear();
        self.restart = false;
        self.held.clear();
    }

    fn step(
        &mut self,
        system: &mut System,
        start: Vec<Contact>,
        settings: &ContactSettings,
        h: f64,
    ) -> Result<Stepped> {
        // (NSGA works at the predicted positions only; the start-of-step contacts go unused.)
        crate::contact::recycle_contacts(start);
        system.refresh_mass();
        let c = AlphaCoefficients::from_spectral_radius(self.settings.spectral_radius);
        let mut work = std::mem::take(&mut self.work);
        let (q_n, v_n, predicted) = (&mut work.q_n, &mut work.v_n, &mut work.predicted);
        let (forces, residual) = (&mut work.forces, &mut work.residual);
        crate::linalg::buffers::copy_vector(q_n, &system.q);
        crate::linalg::buffers::copy_vector(v_n, &system.v);
        let (q_n, v_n, t_next) = (&*q_n, &*v_n, system.t + h);
        // The joints' smooth reactions in the predictor (module smooth_joints), for a
        // mechanism small enough to solve them densely.
        let joint_equations = super::smooth_joints::joint_equations(system);
        let smooth_joints = super::smooth_joints::holds(joint_equations);
        // The persistent contacts' smooth forces too (three levels), unless their equations
        // (at most six a contact) would make the dense solve too large: a pile keeps two.
        // Beams keep two levels for now: a rod's tip against a wall carries its waves in the
        // contact force (the impact's pulse, 2L/c, lost 1.4 % with smooth forces), and a disk
        // on a beam changes chord within a step.
        let smooth_contacts = self.settings.three_levels
            && !system.has_beams()
            && !self.persistent.is_empty()
            && joint_equations + 6 * self.persistent.set.len()
                <= super::smooth_joints::MAX_SMOOTH_EQUATIONS;
        if !smooth_contacts {
            self.persistent.set.clear();
        }
        self.persistent.material = settings.material;
        let smooth_any = smooth_joints || smooth_contacts;
        // At the start the acceleration is M⁻¹f, held by the joints (g̈ = 0) when they are.
        // At the start, and after a contact law changed (module smooth_contacts), the step
        // starts from the acceleration the forces, joints and persistent contacts give now.
        if self.acceleration.is_none() || self.restart {
            self.restart = false;
            let (acc, normal, by_contact) = self.consistent_acceleration(
                system,
                (smooth_joints, smooth_contacts),
                settings.margin,
            );
            self.acceleration = Some((acc.clone(), acc));
            if self.settings.three_levels {
                self.contact_acceleration = Some([normal.clone(), normal]);
                self.multipliers = by_contact
                    .into_iter()
                    .map(|(key, m)| (key, [m.clone(), m]))
                    .collect();
            }
        }
        let (mut a_n, acc_n) = self.acceleration.take().expect("set above when missing");
        let mut report = StepReport::default();

        // 1. Smooth predictor: Newton on ä_{n+1}.
        let ratio = (1.0 - c.alpha_f) / (1.0 - c.alpha_m);
        // Entry by entry, each in the order the vector expressions would take it (one vector
        // each instead of a temporary per operation):
        //   a = ((1 − α_f) ä + α_f ä_n − α_m a_n) / (1 − α_m),
        //   Δq = h v_n + h²(½ − β) a_n + h² β a,   v = v_n + h(1 − γ) a_n + h γ a.
        // (Into the buffers of `out`.)
        let predict = |acc: &DVector<f64>, out: &mut Predicted| {
            let n = acc.len();
            crate::linalg::buffers::sized_vector(&mut out.a, n);
            for (i, a) in out.a.iter_mut().enumerate() {
                *a = (acc[i] * (1.0 - c.alpha_f) + acc_n[i] * c.alpha_f - a_n[i] * c.alpha_m)
                    / (1.0 - c.alpha_m);
            }
            let (k1, k2) = (h * h * (0.5 - c.beta), h * h * c.beta);
            crate::linalg::buffers::sized_vector(&mut out.dq, n);
            for (i, dq) in out.dq.iter_mut().enumerate() {
                *dq = v_n[i] * h + a_n[i] * k1 + out.a[i] * k2;
            }
            system.displace_into(q_n, &out.dq, &mut out.q);
            let (k3, k4) = (h * (1.0 - c.gamma), h * c.gamma);
            crate::linalg::buffers::sized_vector(&mut out.v, n);
            for (i, v) in out.v.iter_mut().enumerate() {
                *v = v_n[i] + a_n[i] * k3 + out.a[i] * k4;
            }
        };
        // First a fixed-point update with the block-diagonal M (exact when f does not depend
        // on the state); Newton with a finite-difference tangent only if f does. A flexible
        // body starts Newton from ä_n instead: its fixed-point update is an explicit step,
        // far off (h ω_max ≫ 1) for stiff elements.
        let mut acc = std::mem::take(&mut work.acc);
        if system.has_beams() {
            crate::linalg::buffers::copy_vector(&mut acc, &acc_n);
        } else {
            predict(&acc_n, predicted);
            system.generalized_forces_into(&predicted.q, &predicted.v, t_next, forces);
            system
                .mass_at(&predicted.q)
                .apply_inverse_into(forces, &mut acc);
        }
        report.iterations += 1;
        let mut predictor_converged = false;
        // The joints' smooth reactions λ (module smooth_joints): g̈ = 0 within the predictor;
        // and the persistent contacts' (module smooth_contacts), by rounds of an active set.
        let mut lambda = DVector::zeros(0);
        let mut held: Option<JointConstraints> = None;
        let margin = settings.margin;
        'rounds: for round in 0..=ACTIVE_SET_ROUNDS {
            for _ in 0..PREDICTOR_ITERATIONS {
                predict(&acc, predicted);
                let (q, v) = (&predicted.q, &predicted.v);
                // M(q_{n+1}) ä_{n+1} = f(q_{n+1}, v_{n+1}) (+ Gᵀλ): the mass matrix of a body
                // with unequal principal inertias turns with it.
                let mass = system.mass_at(q);
                system.generalized_forces_into(q, v, t_next, forces);
                let f = &*forces;
                // r = M ä − f, entry by entry as the vector expression would take it.
                mass.apply_into(&acc, residual);
                *residual -= f;
                let r = &mut *residual;
                let joints = smooth_any.then(|| {
                    JointConstraints::with_contacts(
                        system,
                        (q, v, t_next),
                        smooth_joints,
                        smooth_contacts.then_some((&self.persistent, margin)),
                    )
                });
                let mut g_acc = DVector::zeros(0);
                if let Some(joints) = &joints {
                    if lambda.len() != joints.len() {
                        lambda = DVector::zeros(joints.len());
                    }
                    *r -= joints.force(&lambda, system.dofs());
                    g_acc = joints.acceleration(&acc);
                }
                let joints_held = joints
                    .as_ref()
                    .is_none_or(|j| g_acc.amax() <= 1e-12 * (1.0 + j.scale() + acc.amax()));
                if r.amax() <= 1e-13 * (1.0 + f.amax()) && joints_held {
                    predictor_converged = true;
                    held = joints;
                    break;
                }
                let (kq, kv) = (h * h * c.beta * ratio, h * c.gamma * ratio);
                // The bodies' own tangents (a beam's exact stiffness, solved in its band) where
                // every body and load has one; a dense finite-difference tangent otherwise.
                let dense = std::cell::OnceCell::new();
                let solve = |x: &DVector<f64>| {
                    system.solve_force_tangent(q, v, (kq, kv), x).or_else(|| {
                        dense
                            .get_or_init(|| {
                                let k = force_tangent(system, q, v, t_next, kq, kv);
                                (mass.to_dense() - k).lu()
                            })
                            .solve(x)
                    })
                };
                let step = match &joints {
                    None => solve(r),
                    Some(joints) => joints.newton_step(&solve, r, &g_acc).map(|(d, delta)| {
                        lambda += delta;
                        d
                    }),
                };
                held = joints;
                match step {
                    Some(d) => {
                        acc -= &d;
                        // A stiff body's residual cannot fall below the rounding of its internal
                        // forces (EA ε ≫ 1e-13 of f): a correction that moves q̂ by no more than
                        // the rounding of q ends it.
                        if d.amax() * kq <= 4.0 * f64::EPSILON * (1.0 + q_n.amax()) {
                            predictor_converged = true;
                            report.iterations += 1;
                            break;
                        }
                    }
                    None => break,
                }
                report.iterations += 1;
            }
            // A persistent contact that pulls leaves the set, a sticking law over its bound
            // slides: solve again with the new set.
            let changed = smooth_contacts
                && round < ACTIVE_SET_ROUNDS
                && held.as_ref().is_some_and(|j| {
                    self.persistent
                        .update(&j.contacts, j.contact_multipliers(&lambda))
                });
            if changed {
                predictor_converged = false;
                continue 'rounds;
            }
            break;
        }
        if !predictor_converged {
            // The smooth predictor's residual did not reach 1e-13 of the forces in
            // PREDICTOR_ITERATIONS Newton steps: the step says so.
            predict(&acc, predicted);
            let (q, v) = (&predicted.q, &predicted.v);
            let f = system.generalized_forces(q, v, t_next);
            let mut r = system.mass_at(q).apply(&acc) - &f;
            if let Some(joints) = &held {
                r -= joints.force(&lambda, system.dofs());
            }
            predictor_converged = r.amax() <= 1e-9 * (1.0 + f.amax());
            report.converged &= predictor_converged;
        }
        predict(&acc, predicted);
        let (a_next, q_hat, v_hat) = (&predicted.a, &predicted.q, &mut predicted.v);
        // The smooth contact forces' share of the accelerations (α-averaged like a), split
        // into the normal forces and the rest; the levels below take them out again
        // (module smooth_contacts).
        let dofs = system.dofs();
        // (Whether the last step kept the smooth normal forces' share, read before it is
        // taken for its storage.)
        let uses_contact_forces = self.contact_acceleration.is_some() || smooth_contacts;
        let [a_normal_n, acc_normal_n] = self.contact_acceleration.take().unwrap_or_else(|| {
            std::mem::take(&mut work.contact_acceleration).map(|mut v| {
                crate::linalg::buffers::zeroed_vector(&mut v, dofs);
                v
            })
        });
        let mut force_normal = std::mem::take(&mut work.force_normal);
        let smooth_now = match &held {
            Some(j) if smooth_contacts => {
                let multipliers = j.contact_multipliers(&lambda);
                force_normal =
                    super::smooth_contacts::normal_forces(&j.contacts, multipliers, dofs);
                self.persistent.multipliers(&j.contacts, multipliers)
            }
            _ => {
                crate::linalg::buffers::zeroed_vector(&mut force_normal, dofs);
                BTreeMap::new()
            }
        };
        let mut acc_normal = std::mem::take(&mut work.acc_normal);
        system
            .mass()
            .apply_inverse_into(&force_normal, &mut acc_normal);
        work.force_normal = force_normal;
        // a^N_{n+1} = ((1 − α_f) ä^N_{n+1} + α_f ä^N_n − α_m a^N_n) / (1 − α_m).
        let mut a_normal = std::mem::take(&mut work.a_normal);
        crate::linalg::buffers::sized_vector(&mut a_normal, acc_normal.len());
        for (i, a) in a_normal.iter_mut().enumerate() {
            *a = (acc_normal[i] * (1.0 - c.alpha_f) + acc_normal_n[i] * c.alpha_f
                - a_normal_n[i] * c.alpha_m)
                / (1.0 - c.alpha_m);
        }
        // λ̄_{n+1} per contact: (1 − α_m) λ̄_{n+1} + α_m λ̄_n = (1 − α_f) λ_{n+1} + α_f λ_n.
        let zero = ContactMultipliers::default();
        let mut keys: Vec<ContactKey> = self.multipliers.keys().copied().collect();
        keys.extend(
            smooth_now
                .keys()
                .filter(|k| !self.multipliers.contains_key(k)),
        );
        let multipliers_next: BTreeMap<ContactKey, [ContactMultipliers; 2]> = keys
            .into_iter()
            .map(|key| {
                let [now, bar] = self
                    .multipliers
                    .get(&key)
                    .cloned()
                    .unwrap_or_else(|| [zero.clone(), zero.clone()]);
                let next = smooth_now.get(&key).cloned().unwrap_or_default();
                let rhs = ContactMultipliers::combine(1.0 - c.alpha_f, &next, c.alpha_f, &now);
                let bar_next = ContactMultipliers::combine(
                    1.0 / (1.0 - c.alpha_m),
                    &rhs,
                    -c.alpha_m / (1.0 - c.alpha_m),
                    &bar,
                );
                (key, [next, bar_next])
            })
            .collect();
        // The position level starts from q̂ without the smooth normal forces' displacement
        // δ = h²[(½ − β) a^N_n + β a^N_{n+1}]: q̂ = q_n ⊕ (h v_n + h²(½ − β) a_n + h² β a − δ).
        let (k1, k2) = (h * h * (0.5 - c.beta), h * h * c.beta);
        let normal_displacement = uses_contact_forces.then(|| {
            let delta = &mut work.normal_displacement;
            crate::linalg::buffers::sized_vector(delta, dofs);
            for (i, d) in delta.iter_mut().enumerate() {
                *d = a_normal_n[i] * k1 + a_normal[i] * k2;
            }
            &work.normal_displacement
        });
        // (q_n ⊕ the displacement without δ, into the storage of q_{n+1}.)
        let mut q_next = std::mem::take(&mut work.q_next);
        match normal_displacement {
            Some(delta) => {
                let dq = &mut work.dq;
                crate::linalg::buffers::sized_vector(dq, dofs);
                for (i, d) in dq.iter_mut().enumerate() {
                    *d = v_n[i] * h + a_n[i] * k1 + a_next[i] * k2 - delta[i];
                }
                system.displace_into(q_n, dq, &mut q_next);
            }
            None => crate::linalg::buffers::copy_vector(&mut q_next, q_hat),
        }
        let smooth_reactions = held.map(|j| j.by_key(&lambda)).unwrap_or_default();
        // The displacement the predictor's accelerations made, h²[(½ − β) a_n + β a_{n+1}]
        // (the smooth forces' share included). Where no smooth force held a contact (two
        // levels, or a contact not persistent at the start of the step) it moved the
        // bodies as if nothing held them: every body falls by h²g/2, and a sphere resting
        // against a wall sags along the wall. Position-level friction must see that
        // tangential motion and undo it where the contact sticks, or a body held by friction
        // creeps (by up to 85 µm a step at h = 1/240 s). Formed only when such a contact
        // needs a correction.
        let accelerated_cell = std::cell::OnceCell::new();
        let mut accelerated_storage = Some(std::mem::take(&mut work.accelerated));
        let mut accelerated = || {
            accelerated_cell.get_or_init(|| {
                let mut d = accelerated_storage.take().unwrap_or_default();
                crate::linalg::buffers::sized_vector(&mut d, dofs);
                for (i, x) in d.iter_mut().enumerate() {
                    *x = a_n[i] * (h * h * (0.5 - c.beta)) + a_next[i] * (h * h * c.beta);
                }
                d
            })
        };

        // 2. Position level: gaps of q_{n+1} exactly non-negative (re-linearised until exact).
        let material = settings.material;
        let gap_tolerance = self.settings.gap_tolerance;
        // Contacts the position level loaded (ν_N > 0): closed by the correction, so the
        // velocity level must hold them too, even if the nonlinear gap ends a hair open.
        // (Sorted and deduplicated before it is read; its storage kept from step to step.)
        let mut position_active = std::mem::take(&mut self.position_active);
        position_active.clear();
        let mut contacts = detect_contacts_at(system, &q_next, t_next, settings.margin);
        self.next_position.clear();
        // The free gaps and the warm start, one buffer each for every island and pass.
        let (mut u_free_buffer, mut guess_buffer) = (
            std::mem::take(&mut work.u_free),
            std::mem::take(&mut work.guess),
        );
        for pass in 0..POSITION_PASSES {
            if contacts.iter().all(|c| position_done(c, gap_tolerance)) {
                break;
            }
            let mut refs: Vec<&Contact> =
                crate::linalg::buffers::recycled(std::mem::take(&mut work.refs));
            refs.extend(contacts.iter());
            let mut members: Vec<&Contact> =
                crate::linalg::buffers::recycled(std::mem::take(&mut work.members));
            let mut correction = std::mem::take(&mut work.correction);
            crate::linalg::buffers::zeroed_vector(&mut correction, dofs);
            for group in islands(system.mass(), &refs).iter() {
                members.clear();
                members.extend(group.iter().map(|&k| refs[k]));
                if members.iter().all(|c| position_done(c, gap_tolerance)) {
                    continue;
                }
                // A large island (below) is corrected by the normal multipliers alone, from
                // q̂ moved by its held contacts' friction (and resistance) percussions as
                // the last step found them.
                let friction_fits = laws::assembly::stacked_rows(
                    &members,
                    &material,
                    Laws {
                        friction: true,
                        resistance: false,
                    },
                ) <= laws::assembly::DENSE_ROWS;
                let lagged = (pass == 0
                    && !friction_fits
                    && lagged_law_displacement(system, &members, &self.held, h, &mut work.lagged))
                .then_some(&work.lagged);
                let mut correct = |friction: bool| -> Option<_> {
                    let which = Laws {
                        friction,
                        resistance: false,
                    };
                    // Large islands (a pile) are corrected by the normal multipliers alone.
                    // With friction the problem rarely converged while a pile moved (the
                    // step fell back to the normal multipliers at five times the cost of the
                    // pile of 100's step), and a settled planar pile's could stall every
                    // step (docs/benchmarks.md, 2026-12-03). The friction forces'
                    // displacement, lagged by one step, keeps a settled pile from creeping
                    // instead (`lagged_law_displacement`).
                    if friction && !friction_fits {
                        return None;
                    }
                    let problem = assemble(system.mass(), &members, &material, which);
                    // u = (gap, tangential displacement) that the correction U = M⁻¹ G_pᵀ ν
                    // produces.
                    let (u_free, guess) = (&mut u_free_buffer, &mut guess_buffer);
                    crate::linalg::buffers::zeroed_vector(u_free, problem.rows());
                    // Large islands start from the last step's first correction; small
                    // ones from zero (dense Newton does not need it).
                    let large = problem.rows() > laws::assembly::DENSE_ROWS && pass == 0;
                    crate::linalg::buffers::zeroed_vector(guess, problem.rows());
                    for (c, b) in members.iter().zip(&problem.blocks) {
                        u_free[b.offset] = match lagged {
                            Some(u) => c.gap + c.normal_row.dot(u),
                            None => c.gap,
                        };
                        // Three levels: the correction starts from q̂ without the smooth normal
                        // forces' displacement δ; position-level friction must see the
                        // tangential motion relative to q̂, so it starts at −J_T δ.
                        // A contact no smooth force held starts from the tangential motion
                        // J_T D of the predictor's accelerated displacement D: sticking
                        // undoes it, sliding keeps h²/2 (a_T − μ a_N) of it, the
                        // displacement its friction force would have made inside the
                        // predictor.
                        let unheld = !smooth_now.contains_key(&c.key);
                        if pass == 0 {
                            for (k, row) in c.tangent_rows.iter().take(b.tangents).enumerate() {
                                u_free[b.offset + 1 + k] = match (&normal_displacement, unheld) {
                                    (Some(delta), false) => -row.dot(delta),
                                    (Some(delta), true) => row.dot(accelerated()) - row.dot(delta),
                                    (None, _) => row.dot(accelerated()),
                                };
                            }
                        }
                        if let Some(prev) = self.warm_position.get(&c.key).filter(|_| large) {
                            let len = 1 + b.tangents;
                            for (k, x) in prev.iter().take(len).enumerate() {
                                guess[b.offset + k] = *x;
                            }
                        }
                    }
                    let solution = problem.solve(
                        laws::LawSolver::Newton,
                        u_free,
                        large.then_some(guess),
                        &NewtonOptions {
                            resolution: position_resolution(gap_tolerance),
                            // A large island's gaps are solved to the resolution itself,
                            // not to a tolerance relative to its deepest contact's load
                            // ([`NewtonOptions::absolute`], `POSITION_ABSOLUTE`); so are a
                            // small island's after its first pass. The relative scale takes
                            // the largest free demand, which counts the open gaps up to the
                            // margin: in a pile of boxes at the presets' 1e-8 a re-linearised
                            // pass took gaps of −3.6e-11 m as solved (3 cm × 1e-8), and four
                            // passes in a row changed nothing (206 of 480 steps of the pile
                            // of 30 boxes unconverged by their gaps; 14 with this).
                            absolute: POSITION_ABSOLUTE
                                && (problem.rows() > laws::assembly::DENSE_ROWS || pass > 0),
                            // With friction, the normal multipliers alone are the way out
                            // (below), not Lemke's polygon.
                            polygon_fallback: !friction,
                            ..self.settings.newton
                        },
                    );
                    Some((problem, solution))
                };
                let (mut problem, mut solution, mut method) = match correct(true) {
                    Some((p, s)) => {
                        let method = super::StepSolver::of_laws(s.method);
                        (p, s, method)
                    }
                    None => {
                        let (p, s) =
                            correct(false).expect("the normal-only correction always runs");
                        (p, s, super::StepSolver::NormalOnlyCorrection)
                    }
                };
                if !solution.converged && method != super::StepSolver::NormalOnlyCorrection {
                    // Position-level Coulomb friction is degenerate here (redundant contacts
                    // such as a box's four corners, tilted): the gaps are corrected by the
                    // normal multipliers alone, a problem that always has its exact answer,
                    // and the step says so. The velocity level keeps its friction.
                    let (normal_problem, normal_solution) =
                        correct(false).expect("the normal-only correction always runs");
                    if normal_solution.converged {
                        report.iterations += solution.iterations;
                        (problem, solution) = (normal_problem, normal_solution);
                        method = super::StepSolver::NormalOnlyCorrection;
                    }
                }
                report.record_solve(
                    method,
                    solution.iterations,
                    solution.residual,
                    solution.converged,
                );
                // Loaded *and* closed by the linearised correction (u_N the gap it predicts):
                // a contact far open can carry a multiplier of rounding size (6e-22 for a
                // sphere 4.6 cm from a box), and must not be held at velocity level.
                if pass == 0 {
                    for (c, b) in members.iter().zip(&problem.blocks) {
                        let len = 1 + b.tangents;
                        let own = &solution.lambda.as_slice()[b.offset..b.offset + len];
                        self.next_position.insert(c.key, own);
                    }
                }
                for (c, b) in members.iter().zip(&problem.blocks) {
                    if c.bilateral
                        || (solution.lambda[b.offset] > 0.0
                            && solution.u[b.offset] <= CORRECTION_CLOSED_GAP)
                    {
                        position_active.push(c.key);
                    }
                }
                problem.add_velocity_change(&solution.lambda, &mut correction);
                if let Some(u) = lagged {
                    correction += u;
                }
            }
            work.members = crate::linalg::buffers::recycled(members);
            work.refs = crate::linalg::buffers::recycled(refs);
            system.displace_into(&q_next, &correction, &mut work.corrected);
            std::mem::swap(&mut q_next, &mut work.corrected);
            work.correction = correction;
            crate::contact::recycle_contacts(std::mem::replace(
                &mut contacts,
                detect_contacts_at(system, &q_next, t_next, settings.margin),
            ));
        }
        // Every gap non-negative (every joint equation zero) after the passes, to the gap
        // tolerance (1e-12 m at least: a small island's dense solve meets a relative
        // tolerance) and the gap's rounding, or the step says it did not converge.
        let violation = |c: &Contact| if c.bilateral { c.gap.abs() } else { -c.gap };
        let allowed = gap_tolerance.max(1e-12);
        if contacts
            .iter()
            .any(|c| violation(c) > allowed + rounding_of_gap(c))
        {
            report.converged = false;
        }

        // 3. Velocity level on the contacts closed at q_{n+1} (or loaded by the correction),
        // and every joint equation (ġ = 0).
        // Three levels: the velocity level finds the step's whole percussion
        // P = Λ + d, d = h[(1 − γ) λ̄_n + γ λ̄_{n+1}], from v̂ − M⁻¹ J_{n+1}ᵀ d (Capobianco et
        // al.): the part of the percussion the predictor's velocity already holds is taken
        // out along the rows at q_{n+1}, so the laws see it whole.
        if !multipliers_next.is_empty() {
            let mut held_out = DVector::zeros(dofs);
            for (key, [_, bar_next]) in &multipliers_next {
                let bar = self.multipliers.get(key).map_or(&zero, |m| &m[1]);
                let d =
                    ContactMultipliers::combine(h * (1.0 - c.gamma), bar, h * c.gamma, bar_next);
                if let Some(contact) = contacts.iter().find(|c| c.key == *key) {
                    d.add_force(contact, 1.0, &mut held_out);
                }
            }
            *v_hat -= system.mass().apply_inverse(&held_out);
        }
        let v_hat = &*v_hat;
        position_active.sort_unstable();
        position_active.dedup();
        let mut closed: Vec<&Contact> =
            crate::linalg::buffers::recycled(std::mem::take(&mut work.closed));
        closed.extend(contacts.iter().filter(|c| {
            c.bilateral
                || c.gap <= self.settings.closed_gap
                || position_active.binary_search(&c.key).is_ok()
        }));
        self.position_active = position_active;
        let laws = ImpulseSettings {
            material: &material,
            newton: &self.settings.newton,
            solver: crate::laws::LawSolver::Newton,
            warm: &self.warm,
            warm_small: true,
        };
        let solved = solve_impulses(
            system,
            &closed,
            (v_hat, v_n),
            &laws,
            &mut report,
            &mut work.dv,
        );
        // v_{n+1} = v̂ + M⁻¹ Gᵀ Λ, in the velocity change's storage.
        let v_next = &mut work.dv;
        for (next, v) in v_next.iter_mut().zip(v_hat) {
            *next += v;
        }

        // The new state goes in by swaps; the old one's storage stays for the next step.
        std::mem::swap(&mut system.q, &mut q_next);
        std::mem::swap(&mut system.v, v_next);
        system.t = t_next;
        work.q_next = q_next;
        // (a_{n+1}, ä_{n+1}) replace (a_n, ä_n); the old ones' storage holds the next
        // step's predictor.
        std::mem::swap(&mut a_n, &mut work.predicted.a);
        self.acceleration = Some((a_n, acc));
        work.acc = acc_n;
        if let Some(d) = accelerated_cell.into_inner().or(accelerated_storage) {
            work.accelerated = d;
        }
        if self.settings.three_levels {
            work.a_normal = a_normal_n;
            work.acc_normal = acc_normal_n;
            self.contact_acceleration = Some([a_normal, acc_normal]);
            // A contact gone for good fades from the α-average; forget it once it has.
            self.multipliers = multipliers_next
                .into_iter()
                .filter(|(_, [now, bar])| {
                    now.normal != 0.0
                        || bar.normal.abs() > 1e-300
                        || !bar.laws.iter().all(|l| l.iter().all(|x| x.abs() <= 1e-300))
                })
                .collect();
        } else {
            work.a_normal = a_normal;
            work.acc_normal = acc_normal;
            work.contact_acceleration = [a_normal_n, acc_normal_n];
        }
        self.next_position.finish();
        std::mem::swap(&mut self.warm_position, &mut self.next_position);
        self.warm.clear();
        for s in solved.iter() {
            for (k, c) in s.contacts.iter().enumerate() {
                self.warm.insert(c.key, s.multipliers(k));
            }
        }
        self.warm.finish();
        report.contacts = report_contacts(
            &contacts,
            &solved,
            &system.v,
            h,
            self.settings.impact_velocity,
        );
        report.joints = report_joints(&contacts, &solved, &system.v, h, &smooth_reactions);
        self.remember_held_percussions(system, &solved, h);
        // The contacts persistent now (closed, loaded, no impact) act smoothly next step.
        if self.settings.three_levels && !system.has_beams() {
            let loaded = &mut work.loaded;
            loaded.clear();
            loaded.extend(
                report
                    .contacts
                    .iter()
                    .filter(|r| r.state == super::ContactState::Loaded)
                    .map(|r| r.key),
            );
            // A set too large for the dense solve (a pile) is not kept: two levels there.
            let fits =
                joint_equations + 6 * loaded.len() <= super::smooth_joints::MAX_SMOOTH_EQUATIONS;
            let next: BTreeMap<ContactKey, Persistent> = loaded
                .iter()
                .filter(|_| fits)
                .filter_map(|key| contacts.iter().find(|c| c.key == *key))
                .map(|c| (c.key, Persistent::classify(c, &material, &system.v)))
                .collect();
            // A law that changed within the step (a sphere stopped, a block began to slide,
            // a contact opened) leaves a stale force in the α-averaged acceleration's memory,
            // which would move a body at rest: the next step restarts the generalized-α
            // recursion from the consistent acceleration (an O(h³) change of position, once
            // per event).
            self.restart = super::smooth_contacts::changed(&self.persistent.set, &next);
            self.persistent.set = next;
        }
        drop(solved);
        work.closed = crate::linalg::buffers::recycled(closed);
        (work.u_free, work.guess) = (u_free_buffer, guess_buffer);
        self.work = work;
        Ok(Stepped {
            report,
            end_contacts: contacts,
        })
    }
}
