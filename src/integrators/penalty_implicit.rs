//! The implicit penalty step with a flexible body: springs, dampers, the elements' forces and the regularised friction taken at the end of the step, by Newton over the loaded set and a fixed-point iteration on the friction, each solve by Woodbury's identity over the loaded rows.
//!
//! ```text
//!     M (v⁺ − v) = h f(q⁺, v⁺) + h Σᵢ (J_Niᵀ Nᵢ(v⁺) + J_Tiᵀ F_Ti(v⁺)),
//!     Nᵢ(v⁺) = max(0, −k dᵢ − (k h + c) J_Ni v⁺)     while dᵢ + h J_Ni v⁺ < 0,
//!     F_Ti(v⁺) = −ηᵢ Nᵢ J_Ti v⁺,   ηᵢ = μ / max(‖J_Ti v⁺‖, ‖J_Ti v‖, v_ε).
//! ```
//!
//! The normal law is piecewise linear: Newton on the set of loaded contacts finds the set
//! (each iteration one linear solve, without friction). On that set a fixed-point iteration
//! settles N and η together; at the answer ‖F_T‖ = η N ‖u_T⁺‖ ≤ μN and F_T · u_T⁺ ≤ 0. A beam's
//! structure has few contacts, so the fixed point's linear rate costs little here; rigid
//! bodies, in piles, take `penalty_rigid.rs`'s Newton on a convex potential.
//! This file also holds what both paths share: the law's force and the step's answer.

use nalgebra::{DMatrix, DVector};

use crate::contact::{Contact, ContactMaterial, JacobianRow};
use crate::error::{Error, Result};
use crate::model::System;

/// Newton iterations over the loaded set before the step says it did not converge.
const NEWTON_ITERATIONS: usize = 50;

/// The implicit law's force for end-of-step velocities `v`: k·(−d⁺) − c ḋ⁺ clamped at zero,
/// and zero while the end-of-step gap d⁺ = d + h ḋ⁺ is open.
pub(super) fn implicit_force(contact: &Contact, v: &DVector<f64>, k: f64, c: f64, h: f64) -> f64 {
    let rate = contact.normal_row.dot(v);
    if contact.gap + h * rate >= 0.0 {
        return 0.0;
    }
    (-k * contact.gap - (k * h + c) * rate).max(0.0)
}

/// What an implicit step found.
pub(super) struct ImplicitStep {
    /// v⁺.
    pub v: DVector<f64>,
    /// Each contact's normal force, N.
    pub normals: Vec<f64>,
    /// Each contact's friction force along its tangents, N.
    pub frictions: Vec<Vec<f64>>,
    /// Newton iterations and friction rounds.
    pub iterations: usize,
    /// How far the answer is from the step's equations, relative: ‖∇Φ‖ over the step's
    /// forces or N̂'s mismatch with N, whichever is larger (rigid bodies); the last friction
    /// round's largest relative change of N or η (with a beam); 0 without friction there.
    pub residual: f64,
    /// The loaded set held, the forces settled, and no loaded contact pulls.
    pub converged: bool,
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
/// (linearly implicit Euler: no step limit from the elements; an explicit drag on a beam's
/// light nodes would need h η N / m_node < 2). At rest (v = v⁺ = 0) the equations read
/// f + Σ J_iᵀ N_i = 0: a resting structure sits at its exact static equilibrium whatever h.
/// A is solved body by body and inside a beam's band (O(n)); the loaded contacts' rows are
/// a low-rank update, solved by Woodbury's identity in their own small block.
pub(super) fn flexible_step(
    system: &System,
    contacts: &[Contact],
    material: &ContactMaterial,
    h: f64,
) -> Result<ImplicitStep> {
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
    let dofs = system.dofs();
    // A⁻¹ J_iᵀ for each contact's rows, computed once: the loaded set only chooses
    // among them.
    let mut responses: Vec<(DVector<f64>, Vec<DVector<f64>>)> = Vec::with_capacity(contacts.len());
    for ct in contacts {
        let column = |row: &JacobianRow| -> Result<DVector<f64>> {
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
        let mut rows: Vec<(&JacobianRow, &DVector<f64>, f64)> = Vec::new();
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
            let small = DMatrix::from_fn(m, m, |i, j| {
                rows[i].0.dot(rows[j].1) + if i == j { 1.0 / rows[i].2 } else { 0.0 }
            });
            let projected = DVector::from_fn(m, |i, _| rows[i].0.dot(&y));
            let weights = small
                .lu()
                .solve(&projected)
                .ok_or_else(|| Error::Solver("penalty-implicit: singular contact block".into()))?;
            for (i, (_, z, _)) in rows.iter().enumerate() {
                v -= *z * weights[i];
            }
        }
        Ok(v)
    };
    settle_flexible(contacts, v0, material, h, solve_with)
}

/// The loaded set and the friction of an implicit step, whichever linear solver:
/// `solve_with(on, drag)` returns v⁺ with the contacts `on` loaded and drags ηN `drag`.
fn settle_flexible(
    contacts: &[Contact],
    v0: &DVector<f64>,
    material: &ContactMaterial,
    h: f64,
    mut solve_with: impl FnMut(&[bool], &[f64]) -> Result<DVector<f64>>,
) -> Result<ImplicitStep> {
    let (k, c) = (material.stiffness, material.damping);
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
    let loaded = |v: &DVector<f64>| -> Vec<bool> {
        contacts
            .iter()
            .map(|ct| implicit_force(ct, v, k, c, h) > 0.0)
            .collect()
    };
    // 1. The loaded set, without friction (Newton on the piecewise-linear normal law).
    let no_drag = vec![0.0; contacts.len()];
    let mut on = loaded(v0);
    let mut v = v0.clone();
    let mut set_found = false;
    let mut iterations = 0;
    while iterations < NEWTON_ITERATIONS && !set_found {
        iterations += 1;
        v = solve_with(&on, &no_drag)?;
        let next = loaded(&v);
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
    let mut eta = drag(v0);
    let mut settled = material.friction == 0.0;
    let mut rounds = 0;
    let mut residual: f64 = 0.0;
    while !settled && rounds < NEWTON_ITERATIONS {
        rounds += 1;
        let drag_force: Vec<f64> = n
            .iter()
            .zip(&eta)
            .map(|(&ni, &e)| e * ni.max(0.0))
            .collect();
        v = solve_with(&on, &drag_force)?;
        let (next_n, next_eta) = (spring(&v), drag(&v));
        let change = |a: &f64, b: &f64| (a - b).abs() / (1.0 + a.abs());
        residual = next_n
            .iter()
            .zip(&n)
            .map(|(a, b)| change(a, b))
            .chain(next_eta.iter().zip(&eta).map(|(a, b)| change(a, b)))
            .fold(0.0, f64::max);
        let close = |a: &f64, b: &f64| (a - b).abs() <= 1e-9 * (1.0 + a.abs());
        settled = next_n.iter().zip(&n).all(|(a, b)| close(a, b))
            && next_eta.iter().zip(&eta).all(|(a, b)| close(a, b));
        n = next_n;
        eta = next_eta;
    }
    // A loaded contact the friction turned to pulling means the set was not the answer.
    let converged = set_found && settled && n.iter().all(|&x| x >= 0.0);
    let normals: Vec<f64> = n.into_iter().map(|x| x.max(0.0)).collect();
    let frictions = contacts
        .iter()
        .zip(&normals)
        .zip(&eta)
        .map(|((ct, &ni), &e)| {
            ct.tangent_rows
                .iter()
                .map(|r| -e * ni * r.dot(&v))
                .collect()
        })
        .collect();
    Ok(ImplicitStep {
        v,
        normals,
        frictions,
        iterations: iterations + rounds,
        residual,
        converged,
    })
}
