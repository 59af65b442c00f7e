//! Penalty (compliant) contact: a stiff one-sided spring-damper per contact, explicit or implicit.
//!
//! The contact law replaces d ≥ 0 by a modelled overlap:
//!
//! ```text
//!     N = max(0, −k d − c ḋ)   for d < 0,     N = 0 for d ≥ 0,
//! ```
//!
//! clamped at zero so the damper never pulls. At rest under a load F the overlap is d = −F/k
//! (seed 001: 14.62 N at k = 10⁵ N/m gives −0.1462 mm): a small negative gap that models
//! compliance, not a solution of d ≥ 0.
//!
//! *Explicit* (symplectic Euler, which for position-dependent forces is the central-difference
//! scheme): v⁺ = v + h M⁻¹ (f + J_Nᵀ N(q, v)), q⁺ = q ⊕ h v⁺. Stable for h ω_max < 2 where
//! ω_max² is the largest eigenvalue of K^½ J M⁻¹ Jᵀ K^½ (seed 003).
//!
//! *Implicit* (backward Euler on the linearised gap d(q⁺) ≈ d + h J_N v⁺, the friction's drag
//! at the end of the step as well; rigid bodies in `penalty_rigid.rs`, a flexible body in
//! `penalty_implicit.rs`):
//!
//! ```text
//!     M (v⁺ − v) = h f + h Σᵢ J_iᵀ Nᵢ(v⁺),     Nᵢ(v⁺) = max(0, −k dᵢ − (k h + c) J_i v⁺)
//!                                                 while the end-of-step gap dᵢ + h J_i v⁺ < 0,
//! ```
//!
//! so a contact that closes during the step is loaded in that step (the law acts on the
//! end-of-step gap, not on the gap at its start: otherwise a fast body sinks up to v h into
//! the surface before any force acts, and leaves with the energy of that free overlap).
//! Without friction it is a piecewise-linear system in v⁺ on the set of loaded contacts,
//! (M + h(kh + c) Σ_loaded J_iᵀJ_i) v⁺ = M v + h f − h k Σ_loaded J_iᵀ dᵢ. For rigid bodies
//! the step, friction included, is the minimiser of a convex potential, found by Newton with
//! a line search and conjugate gradients (there a contact open at the start of the step
//! pushes once −k d⁺ − c ḋ⁺ > 0, which without damping is d⁺ < 0); with a beam, Newton over
//! the loaded set and Woodbury solves. It is stable for every h but damps the contact
//! oscillation numerically. A flexible body's elastic and damping forces are taken
//! at the end of the step as well, linearised with its tangent (linearly implicit Euler), so
//! a beam sets no step limit and rests at its exact static equilibrium.
//!
//! *Friction* is a regularised Coulomb law on the loaded contacts (in the tangent frame):
//!
//! ```text
//!     F_T = −μ N u_T / max(‖u_T‖, v_ε)
//! ```
//!
//! Coulomb's law while sliding faster than v_ε (`slip_regularization`), a viscous drag below it:
//! a sticking contact creeps (at ‖u_T‖ = v_ε ‖F_T‖/(μN)), which is the approximation. The
//! explicit scheme takes it from the start-of-step slip u_T, stable for h < 2 m_eff v_ε/(μN),
//! m_eff the effective mass of the slip ((2/7) m for a sphere rolling on a plane:
//! h < (4/7) v_ε/(μg) under its weight). The implicit scheme takes the drag at the end of the
//! step, F_T = −μN u_T⁺ / max(‖u_T⁺‖, v_ε) for rigid bodies (with a beam, the start-of-step
//! slip also in the max), which only dissipates, whatever h and N. Rolling and spinning resistance are not modelled by the penalty steppers.
//!
//! *Joints* are not compliant: as under Moreau–Jean, the step's velocities are held to
//! ġ(v⁺) = 0 by the laws' bilateral impulses (the joints' reactions), and after the step
//! positions and velocities are projected onto g = 0 and ġ = 0 (`joint_projection`).

use nalgebra::DVector;

use super::law_contacts::{ImpulseSettings, report_joints, solve_impulses};
use super::{CLOSED_GAP, ContactReport, ContactSettings, StepReport, Stepped, Stepper, classify};
use super::{penalty_implicit, penalty_rigid};
use crate::contact::{Contact, ContactKey, detect_contacts};
use crate::error::Result;
use crate::laws::{LawSolver, NewtonOptions};
use crate::model::System;

/// Time discretisation of the penalty law.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PenaltyScheme {
    /// Symplectic Euler / central difference.
    Explicit,
    /// Linearised backward Euler with a Newton loop over the loaded set.
    Implicit,
}

/// The penalty stepper.
pub struct PenaltyStepper {
    scheme: PenaltyScheme,
}

impl PenaltyStepper {
    /// A penalty stepper with the given scheme.
    pub fn new(scheme: PenaltyScheme) -> Self {
        Self { scheme }
    }
}

/// The regularised Coulomb friction of a contact carrying `normal` at velocities `v`: the
/// force along each of its tangents, N (zero when μ or N is zero).
pub(super) fn regularised_friction(
    contact: &Contact,
    v: &DVector<f64>,
    normal: f64,
    mu: f64,
    slip_regularization: f64,
) -> Vec<f64> {
    if mu == 0.0 || normal <= 0.0 {
        return vec![0.0; contact.tangent_rows.len()];
    }
    let slip: Vec<f64> = contact.tangent_rows.iter().map(|r| r.dot(v)).collect();
    let speed = slip.iter().map(|u| u * u).sum::<f64>().sqrt();
    let scale = -mu * normal / speed.max(slip_regularization);
    slip.iter().map(|u| scale * u).collect()
}

/// Adds the friction forces' generalized force Σ J_Tᵀ F_T to `total`.
fn add_friction(contact: &Contact, friction: &[f64], total: &mut DVector<f64>) {
    for (row, f) in contact.tangent_rows.iter().zip(friction) {
        row.add_transpose_to(*f, total);
    }
}

/// The reported friction: signed along the tangent in the plane, its magnitude in space.
fn reported_friction(friction: &[f64]) -> f64 {
    match friction {
        [single] => *single,
        many => many.iter().map(|x| x * x).sum::<f64>().sqrt(),
    }
}

/// The penalty law N = max(0, −k d − c ḋ) for d < 0.
pub fn penalty_force(gap: f64, gap_rate: f64, stiffness: f64, damping: f64) -> f64 {
    if gap < 0.0 {
        (-stiffness * gap - damping * gap_rate).max(0.0)
    } else {
        0.0
    }
}

impl Stepper for PenaltyStepper {
    fn name(&self) -> &'static str {
        match self.scheme {
            PenaltyScheme::Explicit => "penalty-explicit",
            PenaltyScheme::Implicit => "penalty-implicit",
        }
    }

    fn step(
        &mut self,
        system: &mut System,
        start: Vec<Contact>,
        settings: &ContactSettings,
        h: f64,
    ) -> Result<Stepped> {
        // The explicit scheme takes the elastic forces explicitly: a beam's elements bound its
        // step. The implicit one takes them at the end of the step, unless the beam has joints
        // or springs (System::beams_implicit_under_penalty).
        let beams_implicit =
            self.scheme == PenaltyScheme::Implicit && system.beams_implicit_under_penalty();
        if !beams_implicit {
            system.check_explicit_step(h, self.name())?;
        }
        let material = &settings.material;
        let (k, c) = (material.stiffness, material.damping);
        let (mu, v_eps) = (material.friction, material.slip_regularization);
        // Joints are not compliant: their rows are held by impulses and projection below.
        let (joints, contacts): (Vec<Contact>, Vec<Contact>) =
            start.into_iter().partition(|c| c.bilateral);
        // The forces at the start of the step (the beams' implicit path takes its own).
        let f = || system.generalized_forces(&system.q, &system.v, system.t);
        let mut report = StepReport::default();
        let mut frictions: Option<Vec<Vec<f64>>> = None;
        let (mut v_next, forces): (DVector<f64>, Vec<f64>) = match self.scheme {
            PenaltyScheme::Explicit => {
                let mut total = f();
                let forces: Vec<f64> = contacts
                    .iter()
                    .map(|ct| {
                        let n = penalty_force(ct.gap, ct.gap_rate(&system.v), k, c);
                        ct.normal_row.add_transpose_to(n, &mut total);
                        n
                    })
                    .collect();
                (&system.v + system.mass().apply_inverse(&total) * h, forces)
            }
            PenaltyScheme::Implicit => {
                let solved = if beams_implicit {
                    penalty_implicit::flexible_step(system, &contacts, material, h)?
                } else {
                    penalty_rigid::rigid_step(system, &contacts, &f(), material, h)?
                };
                report.record_solve(
                    super::StepSolver::Newton,
                    solved.iterations,
                    solved.residual,
                    solved.converged,
                );
                frictions = Some(solved.frictions);
                (solved.v, solved.normals)
            }
        };
        // Friction, explicit (from the start-of-step slip and the step's N) unless the step
        // took it already (the implicit scheme).
        let frictions = frictions.unwrap_or_else(|| {
            let frictions: Vec<Vec<f64>> = contacts
                .iter()
                .zip(&forces)
                .map(|(ct, &n)| regularised_friction(ct, &system.v, n, mu, v_eps))
                .collect();
            if mu > 0.0 {
                let mut drag = DVector::zeros(system.dofs());
                for (ct, fr) in contacts.iter().zip(&frictions) {
                    add_friction(ct, fr, &mut drag);
                }
                v_next += system.mass().apply_inverse(&drag) * h;
            }
            frictions
        });
        // Joints as under Moreau–Jean: ġ(v⁺) = 0 by the laws' bilateral impulses (the
        // reactions), and after the step the projection onto g = 0 and ġ = 0.
        let newton = NewtonOptions::default();
        let no_warm = super::warm_start::WarmStart::default();
        let solved_joints = if joints.is_empty() {
            super::law_contacts::SolvedIslands::empty()
        } else {
            let laws = ImpulseSettings {
                material,
                newton: &newton,
                solver: LawSolver::Newton,
                warm: &no_warm,
                warm_small: false,
            };
            let before = system.v.clone();
            let mut dv = DVector::zeros(0);
            let joints: Vec<&Contact> = joints.iter().collect();
            let solved = solve_impulses(
                system,
                &joints,
                (&v_next, &before),
                &laws,
                &mut report,
                &mut dv,
            );
            v_next += dv;
            solved
        };
        system.q = system.integrate_positions(&system.q, &v_next, h);
        system.v = v_next;
        system.t += h;
        super::joint_projection::project_joints(system, &newton, &mut report);
        let after = detect_contacts(system, &system.q, settings.margin);
        let start_index: std::collections::BTreeMap<ContactKey, usize> = contacts
            .iter()
            .enumerate()
            .map(|(i, c)| (c.key, i))
            .collect();
        report.joints = report_joints(&after, &solved_joints, &system.v, h, &[]);
        drop(solved_joints);
        report.contacts = after
            .iter()
            .filter(|ct| !ct.bilateral)
            .map(|ct| {
                let (n, friction) = start_index
                    .get(&ct.key)
                    .map(|&i| (forces[i], reported_friction(&frictions[i])))
                    .unwrap_or((0.0, 0.0));
                let state = classify(false, n, ct.gap <= CLOSED_GAP);
                ContactReport::new(ct, &system.v, (n, n * h, friction), state)
            })
            .collect();
        Ok(Stepped {
            report,
            end_contacts: after,
        })
    }

    fn contact_energy(&self, contacts: &[Contact], settings: &ContactSettings) -> f64 {
        contacts
            .iter()
            .filter(|c| !c.bilateral && c.gap < 0.0)
            .map(|c| 0.5 * settings.material.stiffness * c.gap * c.gap)
            .sum()
    }
}
