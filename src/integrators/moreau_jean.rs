//! Velocity-level time stepping (Moreau–Jean): impulses, Newton's impact law and the friction-type laws of the material.
//!
//! One step from (q_k, v_k), after Moreau (1988) and Jean (1999), with θ = 1:
//!
//! ```text
//!     v_free = v_k + h M⁻¹ f(q_k, v_k, t_k)      (a rigid body's spin: backward Euler, below)
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
//! The gyroscopic torque −ω × I ω of a rigid body in space is taken at the step's end, as θ = 1
//! asks of a velocity-dependent force: I_w (ω_free − ω_k) = h τ − h ω_free × I_w ω_free, solved by
//! Newton on the 3 × 3 system ([`crate::model::spatial::backward_euler_spin`]). It never gains
//! energy or angular momentum; explicit Euler gains some at every step and diverged on a thin
//! box spinning at h ω ≈ 0.6 rad.
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
    /// A fixed budget of sweeps for the impulses of large islands
    /// ([`NewtonOptions::sweep_budget`]; None: solved to the tolerance).
    pub velocity_sweeps: Option<usize>,
}

impl Default for MoreauJeanSettings {
    fn default() -> Self {
        Self {
            solver: LcpSolverKind::Lemke,
            pgs: PgsOptions::default(),
            impact_velocity: super::IMPACT_VELOCITY,
            newton: NewtonOptions::default(),
            velocity_sweeps: None,
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
    /// The step's vectors, kept from step to step.
    work: StepWork,
}

/// The vectors of one step, kept so that a step allocates none of them.
#[derive(Default)]
struct StepWork {
    /// f(q, v, t), then M⁻¹ f.
    forces: DVector<f64>,
    accelerations: DVector<f64>,
    /// v_free = v + h M⁻¹ f.
    v_free: DVector<f64>,
    /// M⁻¹ Gᵀ Λ, then v_{k+1}.
    dv: DVector<f64>,
    /// h v_{k+1}, then the step's new positions (swapped with the old).
    displacement: DVector<f64>,
    q_next: DVector<f64>,
    /// The contacts in the problem (their storage, see [`crate::linalg::buffers::recycled`]).
    active: Vec<&'static Contact>,
}

/// Replaces the spin acceleration of every free rigid body in space whose inertia is not
/// isotropic by backward Euler's ([`crate::model::spatial::backward_euler_spin`]): with θ = 1
/// the velocity-dependent gyroscopic torque belongs to the step's end. Taken explicitly, as the
/// other forces are, a thin box thrown spinning at 145 rad/s with h = 4.4 ms gained energy step
/// after step and diverged within 0.1 s (`tests/properties.rs`). A sphere's or a cube's
/// gyroscopic torque is zero, and their steps are as before to the bit.
fn spin_implicitly(
    system: &System,
    forces: &DVector<f64>,
    h: f64,
    accelerations: &mut DVector<f64>,
) {
    for body in system
        .bodies
        .iter()
        .filter(|b| b.is_spatial() && b.dofs() == 6 && !b.is_fixed() && !b.is_isotropic())
    {
        let (_, omega) = body.twist3(&system.v);
        let at = body.v_offset + 3;
        let angular = glam::DVec3::new(forces[at], forces[at + 1], forces[at + 2]);
        let inertia = body.world_inertia(&system.q);
        let change = crate::model::spatial::backward_euler_spin(inertia, omega, angular, h) / h;
        for k in 0..3 {
            accelerations[at + k] = change[k];
        }
    }
}

impl MoreauJeanStepper {
    /// A stepper with the given settings.
    pub fn new(settings: MoreauJeanSettings) -> Self {
        Self {
            settings,
            warm: Default::default(),
            work: StepWork::default(),
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
        let work = &mut self.work;
        system.generalized_forces_into(&system.q, &system.v, system.t, &mut work.forces);
        system
            .mass()
            .apply_inverse_into(&work.forces, &mut work.accelerations);
        spin_implicitly(system, &work.forces, h, &mut work.accelerations);
        crate::linalg::buffers::sized_vector(&mut work.v_free, system.dofs());
        for ((free, v), a) in work
            .v_free
            .iter_mut()
            .zip(&system.v)
            .zip(&work.accelerations)
        {
            *free = v + a * h;
        }
        let v_free = &work.v_free;
        let mut active: Vec<&Contact> =
            crate::linalg::buffers::recycled(std::mem::take(&mut work.active));
        active.extend(
            contacts
                .iter()
                .filter(|c| c.bilateral || c.gap + h * c.normal_row.dot(v_free) <= 0.0),
        );
        let mut report = StepReport::default();
        let impulses = NewtonOptions {
            sweep_budget: self.settings.velocity_sweeps,
            ..self.settings.newton
        };
        let laws = ImpulseSettings {
            material: &settings.material,
            newton: &impulses,
            solver: match self.settings.solver {
                LcpSolverKind::Lemke => LawSolver::Lemke,
                LcpSolverKind::Pgs => LawSolver::Pgs(self.settings.pgs),
            },
            warm: &self.warm,
            warm_small: false,
        };
        let solved = solve_impulses(
            system,
            &active,
            (v_free, &system.v),
            &laws,
            &mut report,
            &mut work.dv,
        );
        // v_{k+1} = v_free + M⁻¹ Gᵀ Λ, in the velocity change's storage.
        let v_next = &mut work.dv;
        for (next, free) in v_next.iter_mut().zip(v_free) {
            *next += free;
        }
        self.warm.clear();
        for s in solved.iter() {
            for (k, c) in s.contacts.iter().enumerate() {
                self.warm.insert(c.key, s.multipliers(k));
            }
        }
        self.warm.finish();
        // q_{k+1} = q_k ⊕ h v_{k+1}.
        crate::linalg::buffers::sized_vector(&mut work.displacement, v_next.len());
        for (d, v) in work.displacement.iter_mut().zip(v_next.iter()) {
            *d = v * h;
        }
        system.displace_into(&system.q, &work.displacement, &mut work.q_next);
        std::mem::swap(&mut system.q, &mut work.q_next);
        std::mem::swap(&mut system.v, v_next);
        system.t += h;
        super::joint_projection::project_joints(system, &self.settings.newton, &mut report);
        let after = detect_contacts(system, &system.q, settings.margin);
        report.contacts =
            report_contacts(&after, &solved, &system.v, h, self.settings.impact_velocity);
        report.joints = report_joints(&after, &solved, &system.v, h, &[]);
        drop(solved);
        self.work.active = crate::linalg::buffers::recycled(active);
        crate::contact::recycle_contacts(contacts);
        Ok(Stepped {
            report,
            end_contacts: after,
        })
    }
}
