//! Acceleration-level contact LCP with impact events: the teaching stepper (seed 001).
//!
//! Smooth phase. On the *active* contacts (closed, ḋ = 0) the reactions solve
//!
//! ```text
//!     M v̇ = f + J_Nᵀ N,    d̈ = J_N v̇ + J̇_N v = W N + b,
//!     W = J_N M⁻¹ J_Nᵀ,    b = J_N M⁻¹ f + J̇_N v  (+ 2α ḋ + β² d with Baumgarte),
//!     0 ≤ N ⟂ W N + b ≥ 0.
//! ```
//!
//! A contact whose LCP answer is N = 0 with d̈ > 0 leaves the active set (lift-off). The
//! acceleration a = M⁻¹(f + J_Nᵀ N) is held over the step: v ← v + s a, q ← q ⊕ s(v + ½ s a),
//! which is exact for free flight under constant forces. Nothing here keeps d = 0 or ḋ = 0:
//! the path of a moving contact point is curved, so d and ḋ drift unless the optional
//! Baumgarte terms feed them back.
//!
//! Events. When an inactive contact's gap would become negative inside the step, the
//! crossing time is located by bisection and the step is split there.
//!
//! Impacts. At an event (a closed contact with ḋ⁻ < 0) the velocity jumps: with the impulse
//! P over the closed contacts,
//!
//! ```text
//!     v⁺ = v⁻ + M⁻¹ J_Nᵀ P,    0 ≤ P ⟂ J_N v⁺ + e ḋ⁻ ≥ 0   (Newton's law, ḋ⁻ < 0 only),
//! ```
//!
//! an LCP with the same W, solved for all simultaneous impacts at once. Impacts whose rebound
//! would be slower than `rest_velocity` are treated as plastic (e = 0): this ends the infinite sequence of ever
//! shorter bounces (the Zeno accumulation of a bouncing ball) at a time within
//! 2·rest_velocity/(g(1−e)) of the exact accumulation point.
//!
//! Joints. Every joint equation is held at acceleration level, g̈ = 0 (+ 2αġ + β²g with
//! Baumgarte), with a multiplier of either sign, beside the contacts' LCP: a mixed problem
//! solved through the Schur complement of the joints' block (`mixed_lcp`). An impact
//! includes them with ġ⁺ = 0. Like a contact's gap, a joint's g and ġ drift unless
//! Baumgarte feeds them back.

use std::collections::{BTreeMap, BTreeSet};

use nalgebra::DVector;

use super::mixed_lcp::solve_mixed;
use super::{
    ContactReport, ContactSettings, FORCE_TOLERANCE, StepReport, StepSolver, Stepped, Stepper,
    classify, lcp_converged,
};
use crate::contact::{Contact, ContactKey, Delassus, detect_contacts};
use crate::error::{Error, Result};
use crate::laws::assembly::islands;
use crate::lcp::{self, Lcp, LcpSolverKind, LcpStatus, PgsOptions};
use crate::model::System;

/// Settings of the acceleration-level stepper.
#[derive(Debug, Clone, PartialEq)]
pub struct AccelerationSettings {
    /// LCP solver for reactions and impulses.
    pub solver: LcpSolverKind,
    /// PGS cap and tolerance (when `solver` is PGS).
    pub pgs: PgsOptions,
    /// Baumgarte feedback (α, β) in 1/s: the LCP enforces d̈ + 2αḋ + β²d ≥ 0. None = off.
    pub baumgarte: Option<(f64, f64)>,
    /// Impacts slower than this are plastic, m/s.
    pub rest_velocity: f64,
    /// A contact with |d| ≤ this counts as closed, m.
    pub gap_tolerance: f64,
    /// Most events located in one step; later closures in the same step are not split.
    pub max_events: usize,
}

impl Default for AccelerationSettings {
    fn default() -> Self {
        Self {
            solver: LcpSolverKind::Lemke,
            pgs: PgsOptions::default(),
            baumgarte: None,
            rest_velocity: 1e-4,
            gap_tolerance: super::CLOSED_GAP,
            max_events: 200,
        }
    }
}

/// The acceleration-level stepper; it remembers which contacts are active.
pub struct AccelerationStepper {
    settings: AccelerationSettings,
    active: BTreeSet<ContactKey>,
}

/// Normal reactions of the active contacts, by key, N.
type Reactions = Vec<(ContactKey, f64)>;

/// Force and impulse accumulated per contact over one step.
#[derive(Default, Clone, Copy)]
struct Accumulated {
    force_time: f64,
    impulse: f64,
    impact: bool,
}

impl AccelerationStepper {
    /// A stepper with the given settings and no active contacts yet.
    pub fn new(settings: AccelerationSettings) -> Self {
        Self {
            settings,
            active: BTreeSet::new(),
        }
    }

    /// Solves an LCP with the chosen solver, refuses an answer that is not one (`what` names
    /// the problem in the error), and records the solve in the step's report.
    fn solve_recorded(
        &self,
        lcp: &Lcp,
        what: &str,
        report: &mut StepReport,
    ) -> Result<lcp::LcpSolution> {
        let sol = lcp::solve(lcp, self.settings.solver, &self.settings.pgs);
        check_solution(&sol, what)?;
        report.record_solve(
            StepSolver::of_lcp(self.settings.solver),
            sol.iterations,
            sol.relative_residual,
            lcp_converged(sol.status),
        );
        Ok(sol)
    }

    /// Activates closed contacts at rest; drops keys that are no longer detected.
    fn refresh_active(&mut self, contacts: &[Contact], v: &DVector<f64>) {
        let present: BTreeSet<ContactKey> = contacts.iter().map(|c| c.key).collect();
        self.active.retain(|k| present.contains(k));
        let tol = self.settings.gap_tolerance;
        let vtol = self.settings.rest_velocity;
        for c in contacts.iter().filter(|c| !c.bilateral) {
            // Closed (or overlapping, e.g. after drift) and not moving apart: active.
            if c.gap <= tol && c.gap_rate(v).abs() <= vtol {
                self.active.insert(c.key);
            }
        }
    }

    /// Newton impact over closed contacts if any of them approaches; returns the impulses.
    fn resolve_impacts(
        &mut self,
        system: &mut System,
        contacts: &[Contact],
        restitution: f64,
        report: &mut StepReport,
        acc: &mut BTreeMap<ContactKey, Accumulated>,
    ) -> Result<()> {
        let tol = self.settings.gap_tolerance;
        let closed: Vec<&Contact> = contacts
            .iter()
            .filter(|c| c.bilateral || c.gap <= tol || self.active.contains(&c.key))
            .collect();
        // An impact: a closed contact approaching faster than rest_velocity, or one that just
        // closed (not active yet) approaching at any speed; or a joint whose equation's rate
        // ġ = G v + ∂g/∂t is off by more than rest_velocity (an inconsistent start).
        let rest = self.settings.rest_velocity;
        let striking = |c: &Contact, v: &DVector<f64>| {
            let u = c.gap_rate(v);
            if c.bilateral {
                (u + c.rate_bias).abs() > rest
            } else {
                u < -rest || (!self.active.contains(&c.key) && u < -1e-12)
            }
        };
        let approaching = closed.iter().any(|c| striking(c, &system.v));
        if !approaching {
            return Ok(());
        }
        // Islands (contacts sharing no moving body) are independent impacts; only those with an
        // approaching contact jump.
        for group in islands(system.mass(), &closed).iter() {
            let members: Vec<&Contact> = group.iter().map(|&k| closed[k]).collect();
            if !members.iter().any(|c| striking(c, &system.v)) {
                continue;
            }
            let rows: Vec<_> = members.iter().map(|c| c.normal_row.clone()).collect();
            let delassus = Delassus::new(system.mass(), rows);
            let pre: Vec<f64> = members.iter().map(|c| c.gap_rate(&system.v)).collect();
            let q = DVector::from_iterator(
                pre.len(),
                pre.iter().zip(&members).map(|(&u, c)| {
                    if c.bilateral {
                        // A joint's rate after the jump is zero: no restitution.
                        return u + c.rate_bias;
                    }
                    // A rebound slower than rest_velocity is not resolved: the impact is plastic.
                    let rebound = -restitution * u;
                    let e = if rebound > self.settings.rest_velocity {
                        restitution
                    } else {
                        0.0
                    };
                    u + e * u.min(0.0)
                }),
            );
            let bilateral: Vec<bool> = members.iter().map(|c| c.bilateral).collect();
            let impulses: Vec<f64> = if bilateral.iter().any(|&b| b) {
                let mut solve = |lcp: &Lcp| self.solve_recorded(lcp, "impact", report);
                solve_mixed(&delassus.dense(), &q, &bilateral, "impact", &mut solve)?
                    .as_slice()
                    .to_vec()
            } else {
                self.solve_recorded(
                    &Lcp::for_contacts(delassus.dense(), q, "impact")?,
                    "impact",
                    report,
                )?
                .z
            };
            for (i, c) in members.iter().enumerate() {
                let p = impulses[i];
                if p > 0.0 || (c.bilateral && p != 0.0) {
                    delassus.inverse_mass_rows()[i].add_transpose_to(p, &mut system.v);
                    let a = acc.entry(c.key).or_default();
                    a.impulse += p;
                    a.impact = !c.bilateral;
                }
            }
        }
        // After the jump: contacts that now rest are active, those that rebound are not.
        for c in closed.iter().filter(|c| !c.bilateral) {
            let u = c.gap_rate(&system.v);
            if u.abs() <= self.settings.rest_velocity {
                self.active.insert(c.key);
            } else if u > 0.0 {
                self.active.remove(&c.key);
            }
        }
        Ok(())
    }

    /// Reactions on the active contacts and the resulting generalized acceleration.
    fn smooth_acceleration(
        &mut self,
        system: &System,
        contacts: &[Contact],
        report: &mut StepReport,
    ) -> Result<(DVector<f64>, Reactions)> {
        let f = system.generalized_forces(&system.q, &system.v, system.t);
        let free = system.mass().apply_inverse(&f);
        // The active contacts and every joint equation (held at g̈ = 0 always).
        let active: Vec<&Contact> = contacts
            .iter()
            .filter(|c| c.bilateral || self.active.contains(&c.key))
            .collect();
        if active.is_empty() {
            return Ok((free, vec![]));
        }
        // Islands (contacts sharing no moving body) are independent LCPs.
        let mut a = free.clone();
        let mut forces = Vec::with_capacity(active.len());
        for group in islands(system.mass(), &active).iter() {
            let members: Vec<&Contact> = group.iter().map(|&k| active[k]).collect();
            let (lcp, delassus) =
                acceleration_lcp(system, &members, &free, self.settings.baumgarte)?;
            let bilateral: Vec<bool> = members.iter().map(|c| c.bilateral).collect();
            let (z, w) = if bilateral.iter().any(|&b| b) {
                let mut solve = |lcp: &Lcp| self.solve_recorded(lcp, "acceleration", report);
                let z = solve_mixed(&lcp.m, &lcp.q, &bilateral, "acceleration", &mut solve)?;
                let w = &lcp.m * &z + &lcp.q;
                (z.as_slice().to_vec(), w.as_slice().to_vec())
            } else {
                let sol = self.solve_recorded(&lcp, "acceleration", report)?;
                (sol.z, sol.w)
            };
            for (i, c) in members.iter().enumerate() {
                let n = z[i];
                delassus.inverse_mass_rows()[i].add_transpose_to(n, &mut a);
                forces.push((c.key, n));
                if !c.bilateral && n <= FORCE_TOLERANCE && w[i] > 1e-12 * (1.0 + lcp.q.amax()) {
                    self.active.remove(&c.key); // lift-off: unloaded and accelerating apart
                }
            }
        }
        Ok((a, forces))
    }

    /// Earliest time in (0, s] at which an inactive contact's gap becomes negative, if any;
    /// when none, the contacts at the end of the interval, which the search had to detect.
    fn locate_event(
        &self,
        system: &System,
        a: &DVector<f64>,
        s: f64,
        margin: f64,
        overlapping: &BTreeSet<ContactKey>,
    ) -> std::result::Result<f64, Vec<Contact>> {
        let tol = self.settings.gap_tolerance;
        let new_overlap = |contacts: &[Contact]| {
            contacts.iter().any(|c| {
                !c.bilateral
                    && !self.active.contains(&c.key)
                    && !overlapping.contains(&c.key)
                    && c.gap < -tol
            })
        };
        let closes = |tau: f64| -> bool {
            let (q, _) = advance(system, a, tau);
            new_overlap(&detect_contacts(system, &q, margin))
        };
        let at_end = detect_contacts(system, &advance(system, a, s).0, margin);
        if !new_overlap(&at_end) {
            return Err(at_end);
        }
        let (mut lo, mut hi) = (0.0, s);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if closes(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
            if hi - lo <= 1e-15 * (1.0 + system.t.abs()) {
                break;
            }
        }
        Ok(lo)
    }
}

/// The acceleration-level contact LCP on `contacts`: W = J_N M⁻¹ J_Nᵀ and
/// b = J_N M⁻¹ f + J̇_N v (+ 2αḋ + β²d), with `free` = M⁻¹ f. Returns the LCP and the
/// prepared Delassus rows (for M⁻¹ J_Nᵀ N).
pub fn acceleration_lcp(
    system: &System,
    contacts: &[&Contact],
    free: &DVector<f64>,
    baumgarte: Option<(f64, f64)>,
) -> Result<(Lcp, Delassus)> {
    let rows: Vec<_> = contacts.iter().map(|c| c.normal_row.clone()).collect();
    let delassus = Delassus::new(system.mass(), rows);
    let b = DVector::from_iterator(
        contacts.len(),
        contacts.iter().map(|c| {
            // A drive's ∂²g/∂t² belongs to a joint's acceleration too.
            let mut bi = c.normal_row.dot(free)
                + c.normal_velocity_product(system, &system.v)
                + c.acceleration_bias;
            if let Some((alpha, beta)) = baumgarte {
                // A joint's rate includes its drive's ∂g/∂t.
                let rate = c.gap_rate(&system.v) + if c.bilateral { c.rate_bias } else { 0.0 };
                bi += 2.0 * alpha * rate + beta * beta * c.gap;
            }
            bi
        }),
    );
    Ok((
        Lcp::for_contacts(delassus.dense(), b, "acceleration")?,
        delassus,
    ))
}

/// (q, v) after holding acceleration `a` for `tau` seconds.
fn advance(system: &System, a: &DVector<f64>, tau: f64) -> (DVector<f64>, DVector<f64>) {
    let mid_velocity = &system.v + a * (0.5 * tau);
    let q = system.integrate_positions(&system.q, &mid_velocity, tau);
    let v = &system.v + a * tau;
    (q, v)
}

fn check_solution(sol: &lcp::LcpSolution, what: &str) -> Result<()> {
    if sol.status == LcpStatus::NoSolution {
        return Err(Error::Solver(format!(
            "the {what} LCP has no solution (Lemke ended on a ray); the step was not taken"
        )));
    }
    Ok(())
}

impl Stepper for AccelerationStepper {
    fn name(&self) -> &'static str {
        "acceleration"
    }

    fn reset(&mut self) {
        self.active.clear();
    }

    fn step(
        &mut self,
        system: &mut System,
        start: Vec<Contact>,
        settings: &ContactSettings,
        h: f64,
    ) -> Result<Stepped> {
        let saved = (
            system.q.clone(),
            system.v.clone(),
            system.t,
            self.active.clone(),
        );
        let result = self.step_inner(system, start, settings, h);
        if result.is_err() {
            system.q = saved.0;
            system.v = saved.1;
            system.t = saved.2;
            self.active = saved.3;
        }
        result
    }
}

impl AccelerationStepper {
    fn step_inner(
        &mut self,
        system: &mut System,
        start: Vec<Contact>,
        settings: &ContactSettings,
        h: f64,
    ) -> Result<Stepped> {
        let mut report = StepReport::default();
        let mut acc: BTreeMap<ContactKey, Accumulated> = BTreeMap::new();
        let t_end = system.t + h;
        let mut remaining = h;
        let mut at_start = Some(start);
        let mut at_end = None;
        loop {
            let contacts = match at_start.take() {
                Some(contacts) => contacts,
                None => detect_contacts(system, &system.q, settings.margin),
            };
            self.resolve_impacts(
                system,
                &contacts,
                settings.material.restitution,
                &mut report,
                &mut acc,
            )?;
            self.refresh_active(&contacts, &system.v);
            let (a, forces) = self.smooth_acceleration(system, &contacts, &mut report)?;
            // Contacts already overlapping at the start are not new events.
            let tol = self.settings.gap_tolerance;
            let overlapping: BTreeSet<ContactKey> = contacts
                .iter()
                .filter(|c| c.gap < -tol)
                .map(|c| c.key)
                .collect();
            let event = if report.events < self.settings.max_events {
                match self.locate_event(system, &a, remaining, settings.margin, &overlapping) {
                    Ok(time) => Some(time),
                    Err(contacts) => {
                        at_end = Some(contacts);
                        None
                    }
                }
            } else {
                None
            };
            let s = event.unwrap_or(remaining);
            for (key, n) in forces {
                acc.entry(key).or_default().force_time += n * s;
            }
            let (q, v) = advance(system, &a, s);
            system.q = q;
            system.v = v;
            if event.is_none() {
                break;
            }
            report.events += 1;
            remaining -= s;
            system.t = t_end - remaining;
            if remaining <= 1e-14 * h {
                break;
            }
        }
        system.t = t_end;
        // The event search detected at the end positions already (the same advance, bit for
        // bit); detect again only when it did not run.
        let contacts =
            at_end.unwrap_or_else(|| detect_contacts(system, &system.q, settings.margin));
        self.refresh_active(&contacts, &system.v);
        // Each joint's reaction: its force held over the step plus its impulses, per h.
        let reactions: Vec<(ContactKey, f64)> = contacts
            .iter()
            .filter(|c| c.bilateral)
            .map(|c| {
                let a = acc.get(&c.key).copied().unwrap_or_default();
                (c.key, (a.force_time + a.impulse) / h)
            })
            .collect();
        report.joints =
            super::law_contacts::report_joints(&contacts, &[], &system.v, h, &reactions);
        report.contacts = contacts
            .iter()
            .filter(|c| !c.bilateral)
            .map(|c| {
                let a = acc.get(&c.key).copied().unwrap_or_default();
                let normal = a.force_time / h;
                let state = classify(a.impact, normal, self.active.contains(&c.key));
                ContactReport::new(c, &system.v, (normal, a.impulse + a.force_time, 0.0), state)
            })
            .collect();
        Ok(Stepped {
            report,
            end_contacts: contacts,
        })
    }
}
