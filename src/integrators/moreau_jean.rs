//! Velocity-level time stepping (Moreau–Jean): impulses, Newton's impact law and the friction-type laws of the material.
//!
//! One step from (q_k, v_k), after Moreau (1988) and Jean (1999), with θ = 1:
//!
//! ```text
//!     v_free = v_k + h M⁻¹ f(q_k, v_k, t_k)
//!     active: contacts whose predicted gap d_k + h J_N v_free ≤ 0 (they close in the step)
//!     v⁺ = v_free + M⁻¹ Gᵀ Λ              (G: normal, tangent, rolling, spinning rows)
//!     0 ≤ Λ_N ⟂ J_N v⁺ + e ḋ⁻ ≥ 0,        ḋ⁻ = min(J_N v_k, 0)   (Newton's impact law)
//!     ‖Λ_T‖ ≤ μ Λ_N, ‖Λ_R‖ ≤ ρ Λ_N, |Λ_S| ≤ γ Λ_N, each opposing its relative motion
//!     q_{k+1} = q_k ⊕ h v⁺
//! ```
//!
//! Every contact that closes in the step takes part at once, so simultaneous impacts are one
//! problem (island by island). It is the same velocity-level problem as NSGA's, in the same
//! augmented-Lagrangian form ([`crate::laws`]), without NSGA's position-level correction. The
//! `solver` setting chooses how it is solved: for planar contacts, whose laws are segments,
//! `lemke` solves the polyhedral LCP exactly (Stewart–Trinkle: the friction impulse split into
//! two non-negative parts with a slip-speed slack) and `pgs` runs projected Gauss–Seidel with
//! the friction clamped to [−μΛ_N, μΛ_N]; friction discs in space are solved by semismooth
//! Newton with the polyhedral fallback whatever the setting; an island of more than 60 rows
//! (a pile) goes to block-sparse Gauss–Seidel with Newton–Krylov rounds
//! ([`crate::laws::sparse`]), warm-started from the last step. Positions are enforced only
//! through velocities, so gaps are first-order accurate: impacts are timed to within a step
//! and a curved contact path leaves a gap of O(h²) per step, which the active-set test
//! corrects.
//!
//! Joints take part in every step as bilateral rows (ġ = 0, no restitution); after the step
//! the positions and velocities are projected back onto them
//! ([`super::joint_projection`]), so a pin does not drift.

use nalgebra::DVector;

use super::law_contacts::{ImpulseSettings, report_contacts, report_joints, solve_impulses};
use super::{ContactSettings, StepReport, Stepped, Stepper};
use crate::contact::{Contact, detect_contacts};
use crate::error::Result;
use crate::laws::{LawSolver, NewtonOptions};
use crate::lcp::{LcpSolverKind, PgsOptions};
use crate::model::System;

/// Settings of the Moreau–Jean stepper.
#[derive(Debug, Clone, PartialEq)]
pub struct MoreauJeanSettings {
    /// Solver for planar contacts' impulses (space: Newton with the polyhedral fallback).
    pub solver: LcpSolverKind,
    /// PGS cap and tolerance.
    pub pgs: PgsOptions,
    /// Approach speeds below this report `loaded`/`touching` rather than `impact`, m/s.
    pub impact_velocity: f64,
    /// Semismooth Newton settings (friction discs, rolling and spinning).
    pub newton: NewtonOptions,
}

impl Default for MoreauJeanSettings {
    fn default() -> Self {
        Self {
            solver: LcpSolverKind::Lemke,
            pgs: PgsOptions::default(),
            impact_velocity: super::IMPACT_VELOCITY,
            newton: NewtonOptions::default(),
        }
    }
}

/// The Moreau–Jean stepper.
pub struct MoreauJeanStepper {
    settings: MoreauJeanSettings,
    /// Last step's impulses by contact: the warm start of large islands (a pile), whose
    /// block Gauss–Seidel would otherwise start every step from zero. Small islands are
    /// solved exactly from zero, as before.
    warm: super::warm_start::WarmStart,
}

impl MoreauJeanStepper {
    /// A stepper with the given settings.
    pub fn new(settings: MoreauJeanSettings) -> Self {
        Self {
            settings,
            warm: Default::default(),
        }
    }
}

impl Stepper for MoreauJeanStepper {
    fn name(&self) -> &'static str {
        "moreau-jean"
    }

    fn solves_large_islands(&self) -> bool {
        true
    }

    fn reset(&mut self) {
        self.warm.clear();
    }

    fn step(
        &mut self,
        system: &mut System,
        start: Vec<Contact>,
        settings: &ContactSettings,
        h: f64,
    ) -> Result<Stepped> {
        system.refresh_mass();
        // The applied and elastic forces enter at the start of the step (symplectic Euler
        // in them), stable for h < 2/ω_max only: a beam's stiff elements set that limit.
        system.check_explicit_step(h, "moreau-jean")?;
        let contacts = start;
        let f = system.generalized_forces(&system.q, &system.v, system.t);
        let v_free = &system.v + system.mass().apply_inverse(&f) * h;
        let active: Vec<&Contact> = contacts
            .iter()
            .filter(|c| c.bilateral || c.gap + h * c.normal_row.dot(&v_free) <= 0.0)
            .collect();
        let mut report = StepReport::default();
        let (dv, solved) = if active.is_empty() {
            (DVector::zeros(system.dofs()), Vec::new())
        } else {
            let laws = ImpulseSettings {
                material: &settings.material,
                newton: &self.settings.newton,
                solver: match self.settings.solver {
                    LcpSolverKind::Lemke => LawSolver::Lemke,
                    LcpSolverKind::Pgs => LawSolver::Pgs(self.settings.pgs),
                },
                warm: &self.warm,
                warm_small: false,
            };
            solve_impulses(system, active, (&v_free, &system.v), &laws, &mut report)
        };
        let v_next = &v_free + dv;
        self.warm.clear();
        for s in &solved {
            for (k, c) in s.contacts.iter().enumerate() {
                self.warm.insert(c.key, s.multipliers(k));
            }
        }
        self.warm.finish();
        system.q = system.integrate_positions(&system.q, &v_next, h);
        system.v = v_next;
        system.t += h;
        super::joint_projection::project_joints(system, &self.settings.newton, &mut report);
        let after = detect_contacts(system, &system.q, settings.margin);
        report.contacts = report_contacts(
            &after,
            solved.as_ref(),
            &system.v,
            h,
            self.settings.impact_velocity,
        );
        report.joints = report_joints(&after, &solved, &system.v, h, &[]);
        Ok(Stepped {
            report,
            end_contacts: after,
        })
    }
}
