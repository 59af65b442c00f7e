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
//! *Implicit* (backward Euler on the linearised gap d(q⁺) ≈ d + h J_N v⁺):
//!
//! ```text
//!     M (v⁺ − v) = h f + h Σᵢ J_iᵀ Nᵢ(v⁺),     Nᵢ(v⁺) = max(0, −k dᵢ − (k h + c) J_i v⁺)
//!                                                 while the end-of-step gap dᵢ + h J_i v⁺ < 0,
//! ```
//!
//! so a contact that closes during the step is loaded in that step (the law acts on the
//! end-of-step gap, not on the gap at its start: otherwise a fast body sinks up to v h into
//! the surface before any force acts, and leaves with the energy of that free overlap).
//!
//! a piecewise-linear system solved by Newton's method on the set of loaded contacts
//! (each iteration solves (M + h(kh + c) Σ_loaded J_iᵀJ_i) v⁺ = M v + h f − h k Σ_loaded J_iᵀ dᵢ
//! by Cholesky, then re-evaluates which contacts are loaded). It is stable for every h but
//! damps the contact oscillation numerically. A flexible body's elastic and damping forces are
//! taken at the end of the step as well, linearised with its tangent (linearly implicit
//! Euler), so a beam sets no step limit and rests at its exact static equilibrium.
//!
//! *Friction* (both schemes) is a regularised Coulomb law on the loaded contacts, taken
//! explicitly from the start-of-step slip u_T (in the tangent frame; with a beam the implicit
//! scheme takes its drag at the end of the step, see `implicit_velocity_with_tangent`):
//!
//! ```text
//!     F_T = −μ N u_T / max(‖u_T‖, v_ε)
//! ```
//!
//! Coulomb's law while sliding faster than v_ε (`slip_regularization`), a viscous drag below it:
//! a sticking contact creeps (at ‖u_T‖ = v_ε ‖F_T‖/(μN)), which is the approximation. Being
//! explicit, it is stable for h < 2 m_eff v_ε/(μN), m_eff the effective mass of the slip
//! ((2/7) m for a sphere rolling on a plane: h < (4/7) v_ε/(μg) under its weight). Rolling and
//! spinning resistance are not modelled by the penalty steppers.
//!
//! *Joints* are not compliant: as under Moreau–Jean, the step's velocities are held to
//! ġ(v⁺) = 0 by the laws' bilateral impulses (the joints' reactions), and after the step
//! positions and velocities are projected onto g = 0 and ġ = 0 (`joint_projection`).

use nalgebra::{DMatrix, DVector};

use super::law_contacts::{ImpulseSettings, report_joints, solve_impulses};
use super::{CLOSED_GAP, ContactReport, ContactSettings, StepReport, Stepped, Stepper, classify};
use crate::contact::{Contact, ContactKey, detect_contacts};
use crate::error::{Error, Result};
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
fn regularised_friction(
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

/// The implicit law's force for end-of-step velocities `v`: k·(−d⁺) − c ḋ⁺ clamped at zero,
/// and zero while the end-of-step gap d⁺ = d + h ḋ⁺ is open.
fn implicit_force(contact: &Contact, v: &DVector<f64>, k: f64, c: f64, h: f64) -> f64 {
    let rate = contact.normal_row.dot(v);
    if contact.gap + h * rate >= 0.0 {
        return 0.0;
    }
    (-k * contact.gap - (k * h + c) * rate).max(0.0)
}

impl PenaltyStepper {
    /// The implicit step's velocities: Newton over the loaded set, each iteration solving the
    /// linear system on the generalized velocities that loaded contacts touch (the other
    /// bodies move freely: v = M⁻¹(M v + h f)), so the cost follows the contacts, not the
    /// size of the system.
    fn implicit_velocity(
        system: &System,
        contacts: &[Contact],
        f: &DVector<f64>,
        settings: &ContactSettings,
        h: f64,
    ) -> Result<(DVector<f64>, usize, bool)> {
        let (k, c) = (settings.material.stiffness, settings.material.damping);
        let momentum = system.mass().apply(&system.v) + f * h;
        let free = system.mass().apply_inverse(&momentum);
        let mut v = system.v.clone();
        let mut set = loaded_set(contacts, &v, (k, c, h));
        for iteration in 1..=NEWTON_ITERATIONS {
            let on = loaded_contacts(contacts, &set);
            // Whole mass blocks: a beam's consistent mass couples the contact's nodes to the rest.
            let dofs: Vec<usize> = system.mass().whole_blocks(
                &on.iter()
                    .flat_map(|ct| ct.normal_row.entries.iter().map(|&(j, _)| j))
                    .collect::<Vec<usize>>(),
            );
            v = free.clone();
            if !dofs.is_empty() {
                let a: DMatrix<f64> = system.mass().dense_block(&dofs);
                let rhs = DVector::from_fn(dofs.len(), |i, _| momentum[dofs[i]]);
                let solved = solve_loaded(a, rhs, &on, &dofs, (k, c, h))?;
                for (i, &d) in dofs.iter().enumerate() {
                    v[d] = solved[i];
                }
            }
            let next = loaded_set(contacts, &v, (k, c, h));
            if next == set {
                return Ok((v, iteration, true));
            }
            set = next;
        }
        // The loaded set still changes: the velocities are not a solution of the step's
        // equations, and the report says so.
        Ok((v, NEWTON_ITERATIONS, false))
    }

    /// The implicit step with a flexible body: its elastic and damping forces are taken at
    /// the end of the step too, linearised (q⁺ = q + h v⁺),
    ///
    /// ```text
    ///     f(q⁺, v⁺) ≈ f + h ∂f/∂q v⁺ + ∂f/∂v (v⁺ − v),
    ///     (M − h² ∂f/∂q − h ∂f/∂v + h Σ [(kh + c) J_iᵀJ_i + η_i N_i J_Tiᵀ J_Ti]) v⁺
    ///         = M v + h f − h ∂f/∂v v − h k Σ J_iᵀ d_i,
    /// ```
    ///
    /// (linearly implicit Euler: no step limit from the elements). The friction is the
    /// regularised law's drag F_T = −η N u_T⁺ with η = μ / max(‖u_T⁺‖, ‖u_T⁰‖, v_ε), taken at
    /// the end of the step (an explicit drag on a beam's light nodes would need
    /// h η N / m_node < 2), so ‖F_T‖ ≤ μN. Newton first finds the loaded set without friction,
    /// then a fixed-point iteration on that set settles N and η together. At rest
    /// (v = v⁺ = 0) the equations read f + Σ J_iᵀ N_i = 0: a resting structure
    /// sits at its exact static equilibrium whatever h. A is solved body by body and inside a
    /// beam's band (O(n)); the loaded contacts' rows are a low-rank update, solved by
    /// Woodbury's identity in their own small block.
    fn implicit_velocity_with_tangent(
        system: &System,
        contacts: &[Contact],
        settings: &ContactSettings,
        h: f64,
    ) -> Result<ImplicitStep> {
        let material = &settings.material;
        let (k, c) = (material.stiffness, material.damping);
        let (q, v0) = (&system.q, &system.v);
        // A⁻¹ x with A = M − h² ∂f/∂q − h ∂f/∂v, body by body and inside a beam's band.
        let solve = |x: &DVector<f64>| {
            system
                .solve_force_tangent(q, v0, (h * h, h), x)
                .ok_or_else(|| {
                    Error::field(
                        "forces",
                        "penalty-implicit with a beam takes constant loads only (no springs)",
                    )
                })
        };
        // M v + h f − h ∂f/∂v v = M v + h f(q, 0): the bodies' forces are affine in v (a
        // beam's Rayleigh damping; planar rigid bodies have no velocity forces).
        let at_rest = system.generalized_forces(q, &DVector::zeros(v0.len()), system.t);
        let momentum = system.mass().apply(v0) + at_rest * h;
        let free = solve(&momentum)?;
        // η_i / N_i = μ / max(‖u_T‖, ‖u_T⁰‖, v_ε): from the start-of-step slip, and from the
        // iterate's, so that at convergence ‖F_T‖ = η N ‖u_T⁺‖ ≤ μN.
        let slip = |ct: &Contact, v: &DVector<f64>| {
            ct.tangent_rows
                .iter()
                .map(|r| r.dot(v).powi(2))
                .sum::<f64>()
                .sqrt()
        };
        let start_slip: Vec<f64> = contacts
            .iter()
            .map(|ct| slip(ct, v0).max(material.slip_regularization))
            .collect();
        let drag = |v: &DVector<f64>| -> Vec<f64> {
            contacts
                .iter()
                .zip(&start_slip)
                .map(|(ct, &s0)| material.friction / slip(ct, v).max(s0))
                .collect()
        };
        let mut drag_per_newton = drag(v0);
        let normals = |v: &DVector<f64>| -> Vec<f64> {
            contacts
                .iter()
                .map(|ct| implicit_force(ct, v, k, c, h))
                .collect()
        };
        let dofs = system.dofs();
        // A⁻¹ J_iᵀ for each contact's rows, computed once: the loaded set only chooses
        // among them.
        let mut responses: Vec<(DVector<f64>, Vec<DVector<f64>>)> =
            Vec::with_capacity(contacts.len());
        for ct in contacts {
            let column = |row: &crate::contact::JacobianRow| -> Result<DVector<f64>> {
                let mut j = DVector::zeros(dofs);
                row.add_transpose_to(1.0, &mut j);
                solve(&j)
            };
            let normal = column(&ct.normal_row)?;
            let tangents = if material.friction > 0.0 {
                ct.tangent_rows
                    .iter()
                    .map(column)
                    .collect::<Result<Vec<_>>>()?
            } else {
                Vec::new()
            };
            responses.push((normal, tangents));
        }
        // (A + U W Uᵀ) v = momentum − h k Σ J_iᵀ d_i by Woodbury over the loaded rows
        // (`on`), with each one's friction drag `drag_force` = η N:
        // v = y − Z (W⁻¹ + Uᵀ Z)⁻¹ Uᵀ y with Z = A⁻¹U, y = A⁻¹(right side).
        let solve_with = |on: &[bool], drag_force: &[f64]| -> Result<DVector<f64>> {
            let mut y = free.clone();
            let mut rows: Vec<(&crate::contact::JacobianRow, &DVector<f64>, f64)> = Vec::new();
            for (((ct, &loaded), &eta_n), (normal, tangents)) in
                contacts.iter().zip(on).zip(drag_force).zip(&responses)
            {
                if !loaded {
                    continue;
                }
                y -= normal * (h * k * ct.gap);
                rows.push((&ct.normal_row, normal, h * (k * h + c)));
                for (row, z) in ct.tangent_rows.iter().zip(tangents) {
                    if eta_n > 0.0 {
                        rows.push((row, z, h * eta_n));
                    }
                }
            }
            let mut v = y.clone();
            if !rows.is_empty() {
                let m = rows.len();
                let small = nalgebra::DMatrix::from_fn(m, m, |i, j| {
                    rows[i].0.dot(rows[j].1) + if i == j { 1.0 / rows[i].2 } else { 0.0 }
                });
                let projected = DVector::from_fn(m, |i, _| rows[i].0.dot(&y));
                let weights = small.lu().solve(&projected).ok_or_else(|| {
                    Error::Solver("penalty-implicit: singular contact block".into())
                })?;
                for (i, (_, z, _)) in rows.iter().enumerate() {
                    v -= *z * weights[i];
                }
            }
            Ok(v)
        };
        // 1. The loaded set, without friction (Newton on the piecewise-linear normal law).
        let no_drag = vec![0.0; contacts.len()];
        let mut on: Vec<bool> = normals(v0).iter().map(|&n| n > 0.0).collect();
        let mut v = v0.clone();
        let mut set_found = false;
        let mut iterations = 0;
        while iterations < NEWTON_ITERATIONS && !set_found {
            iterations += 1;
            v = solve_with(&on, &no_drag)?;
            let next: Vec<bool> = normals(&v).iter().map(|&n| n > 0.0).collect();
            set_found = next == on;
            on = next;
        }
        // 2. On that set, the friction: fixed-point iteration on the drag η N, N the loaded
        // contacts' spring force −k d − (kh + c) J v⁺ and η from the slips, until both settle.
        let spring = |v: &DVector<f64>| -> Vec<f64> {
            contacts
                .iter()
                .zip(&on)
                .map(|(ct, &loaded)| {
                    if loaded {
                        -k * ct.gap - (k * h + c) * ct.normal_row.dot(v)
                    } else {
                        0.0
                    }
                })
                .collect()
        };
        let mut n = spring(&v);
        let mut settled = material.friction == 0.0;
        let mut rounds = 0;
        while !settled && rounds < NEWTON_ITERATIONS {
            rounds += 1;
            let drag_force: Vec<f64> = n
                .iter()
                .zip(&drag_per_newton)
                .map(|(&ni, &eta)| eta * ni.max(0.0))
                .collect();
            v = solve_with(&on, &drag_force)?;
            let (next_n, next_drag) = (spring(&v), drag(&v));
            let close = |a: &f64, b: &f64| (a - b).abs() <= 1e-9 * (1.0 + a.abs());
            settled = next_n.iter().zip(&n).all(|(a, b)| close(a, b))
                && next_drag
                    .iter()
                    .zip(&drag_per_newton)
                    .all(|(a, b)| close(a, b));
            n = next_n;
            drag_per_newton = next_drag;
        }
        // A loaded contact the friction turned to pulling means the set was not the answer.
        let converged = set_found && settled && n.iter().all(|&x| x >= 0.0);
        let n: Vec<f64> = n.into_iter().map(|x| x.max(0.0)).collect();
        let iterations = iterations + rounds;
        let frictions = contacts
            .iter()
            .zip(&n)
            .zip(&drag_per_newton)
            .map(|((ct, &ni), &eta)| {
                ct.tangent_rows
                    .iter()
                    .map(|r| -eta * ni * r.dot(&v))
                    .collect()
            })
            .collect();
        Ok(ImplicitStep {
            v,
            normals: n,
            frictions,
            iterations,
            converged,
        })
    }
}

/// What the implicit step with a flexible body found.
struct ImplicitStep {
    /// v⁺.
    v: DVector<f64>,
    /// Each contact's normal force, N.
    normals: Vec<f64>,
    /// Each contact's friction force along its tangents, N.
    frictions: Vec<Vec<f64>>,
    /// Newton iterations.
    iterations: usize,
    /// The loaded set held and the normal forces settled.
    converged: bool,
}

/// Newton iterations over the implicit step's loaded set before it says it did not converge.
const NEWTON_ITERATIONS: usize = 50;

/// Which contacts the implicit law loads at end-of-step velocities `v`.
fn loaded_set(contacts: &[Contact], v: &DVector<f64>, (k, c, h): (f64, f64, f64)) -> Vec<bool> {
    contacts
        .iter()
        .map(|ct| implicit_force(ct, v, k, c, h) > 0.0)
        .collect()
}

fn loaded_contacts<'a>(contacts: &'a [Contact], set: &[bool]) -> Vec<&'a Contact> {
    contacts
        .iter()
        .zip(set)
        .filter(|(_, on)| **on)
        .map(|(ct, _)| ct)
        .collect()
}

/// Solves (A + h(kh + c) Σ J_iᵀJ_i) v⁺ = rhs − h k Σ J_iᵀ d_i over the generalized velocities
/// `dofs` (sorted) for the loaded contacts `on`: by Cholesky, or LU should rounding leave the
/// mass block short of positive definite.
fn solve_loaded(
    mut a: DMatrix<f64>,
    mut rhs: DVector<f64>,
    on: &[&Contact],
    dofs: &[usize],
    (k, c, h): (f64, f64, f64),
) -> Result<DVector<f64>> {
    let local = |j: usize| dofs.binary_search(&j).unwrap_or(0);
    for ct in on {
        let mut j = DVector::zeros(dofs.len());
        for &(index, x) in &ct.normal_row.entries {
            j[local(index)] += x;
        }
        a += (&j * j.transpose()) * (h * (k * h + c));
        rhs -= &j * (h * k * ct.gap);
    }
    let singular = || Error::Solver("penalty-implicit: singular iteration matrix".into());
    match a.clone().cholesky() {
        Some(chol) => Ok(chol.solve(&rhs)),
        None => a.lu().solve(&rhs).ok_or_else(singular),
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
            PenaltyScheme::Implicit if beams_implicit => {
                let solved = Self::implicit_velocity_with_tangent(system, &contacts, settings, h)?;
                report.record_solve(
                    super::StepSolver::Newton,
                    solved.iterations,
                    0.0,
                    solved.converged,
                );
                frictions = Some(solved.frictions);
                (solved.v, solved.normals)
            }
            PenaltyScheme::Implicit => {
                let (v, iterations, converged) =
                    Self::implicit_velocity(system, &contacts, &f(), settings, h)?;
                report.record_solve(super::StepSolver::Newton, iterations, 0.0, converged);
                let forces = contacts
                    .iter()
                    .map(|ct| implicit_force(ct, &v, k, c, h))
                    .collect();
                (v, forces)
            }
        };
        // Friction, explicit (from the start-of-step slip and the step's N) unless the step
        // took it already.
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
