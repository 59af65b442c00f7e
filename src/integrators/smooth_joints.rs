//! The smooth joint forces of NSGA's predictor: the joints' reactions λ inside the generalized-α step, so that it holds a mechanism at second order.
//!
//! Without them the predictor moves every body under the applied forces alone and the joints
//! act only through the step's impulse and position correction: a pendulum falls freely for a
//! step and is pulled back onto its circle, at first order in h, and a flexible rod is hit at
//! its pins every step. With them the predictor solves, at the predicted state
//! (q̂, v̂) = (q̂(ä), v̂(ä)),
//!
//! ```text
//!     M ä − f(q̂, v̂) − Gᵀ λ = 0,       G ä + Ġ v̂ = 0         (g̈ = 0 for every joint equation)
//! ```
//!
//! by Newton's method on (ä, λ): with S = M − ∂f/∂(ä) the iteration matrix of the
//! predictor, each step solves the saddle point
//!
//! ```text
//!     S d − Gᵀ δλ = r,   G d = c     (r, c the two residuals; ä ← ä − d, λ ← λ + δλ)
//! ```
//!
//! through its Schur complement: y = S⁻¹ r, Z = S⁻¹ Gᵀ, (G Z) δλ = G y − c, d = y − Z δλ.
//! The position and velocity levels then hold g = 0 and ġ = 0 exactly as before; their
//! corrections are now the small residue of a second-order step, not the whole reaction.
//! (This is the joint part of the three-level scheme of Brüls, Acary & Cardona; the
//! persistent contacts' equations, module smooth_contacts, join the same saddle point. A
//! mechanism of more than [`MAX_SMOOTH_EQUATIONS`] joint equations keeps the impulses-only
//! scheme, first order: the complement here is dense.)
//!
//! Ġ v is the directional derivative of the rows along v: computed by central differences,
//! [G(q ⊕ εv) − G(q ⊕ −εv)] v / (2ε) with ε ‖v‖∞ = 1e-6 s·m/s, which is exact to about
//! 1e-12 of its size and needs no body-specific second derivative (a beam's node moves with
//! its shape functions, not with the beam's reference point). A driven joint turns at
//! constant speed, so ∂²g/∂t² = 0.

use nalgebra::{DMatrix, DVector};

use super::smooth_contacts::{Equation, SmoothContacts};
use crate::contact::joint_rows::joint_contacts;
use crate::contact::{Contact, ContactKey, JacobianRow, detect_contacts_at};
use crate::model::System;

/// Most joint equations whose reactions the predictor solves ([`holds`]): the Schur complement
/// is dense (k solves of S and a k × k factorization per Newton iteration), the island size
/// up to which the laws too solve densely. A chain of 100 links (200 equations) cost 83 ms a
/// step with it, of 300 links 2.4 s; above this the joints act by impulses only, as before.
pub(super) const MAX_SMOOTH_EQUATIONS: usize = crate::laws::assembly::DENSE_ROWS;

/// The number of joint equations of `system` (their rows at its state).
pub(super) fn joint_equations(system: &System) -> usize {
    if system.joints.is_empty() {
        0
    } else {
        joint_contacts(system, &system.q, system.t).len()
    }
}

/// True when the predictor solves the smooth reactions of `joint_equations` joint equations:
/// some, and at most [`MAX_SMOOTH_EQUATIONS`].
pub(super) fn holds(joint_equations: usize) -> bool {
    (1..=MAX_SMOOTH_EQUATIONS).contains(&joint_equations)
}

/// The joint equations at the predicted state, and the persistent contacts' (module
/// smooth_contacts): rows E, force directions D (E = D but for a contact's sliding laws) and
/// velocity products Ė v.
pub(super) struct JointConstraints {
    keys: Vec<ContactKey>,
    rows: Vec<JacobianRow>,
    forces: Vec<JacobianRow>,
    velocity_products: DVector<f64>,
    /// The first this many equations are the joints'.
    joint_count: usize,
    /// The persistent contacts' equations (after the joints').
    pub(super) contacts: Vec<Equation>,
}

/// The joint rows (when `joints`) and the persistent contacts' equations (when `smooth`) of
/// `system` at (q, t): the joints' as (key, row), the contacts' as equations.
fn equations_at(
    system: &System,
    q: &DVector<f64>,
    t: f64,
    joints: bool,
    smooth: Option<(&SmoothContacts, f64)>,
) -> (Vec<Contact>, Vec<Equation>) {
    match smooth {
        None => (joint_contacts(system, q, t), Vec::new()),
        Some((set, margin)) => {
            let all = detect_contacts_at(system, q, t, margin);
            let equations = set.equations(&all);
            let joint_rows = if joints {
                all.into_iter().filter(|c| c.bilateral).collect()
            } else {
                Vec::new()
            };
            (joint_rows, equations)
        }
    }
}

impl JointConstraints {
    /// The joints' equations (when `joints`) and those of the persistent contacts of
    /// `smooth` (with the detection margin), at the state (q, v, t).
    pub(super) fn with_contacts(
        system: &System,
        (q, v, t): (&DVector<f64>, &DVector<f64>, f64),
        joints: bool,
        smooth: Option<(&SmoothContacts, f64)>,
    ) -> Self {
        let (joint_rows, contacts) = equations_at(system, q, t, joints, smooth);
        let rows_of =
            |joint_rows: &[Contact], contacts: &[Equation]| -> Vec<(ContactKey, JacobianRow)> {
                joint_rows
                    .iter()
                    .map(|c| (c.key, c.normal_row.clone()))
                    .chain(contacts.iter().map(|e| (e.key, e.row.clone())))
                    .collect()
            };
        let now = rows_of(&joint_rows, &contacts);
        let speed = v.amax();
        let mut velocity_products = if speed == 0.0 {
            DVector::zeros(now.len())
        } else {
            let eps = 1e-6 / speed;
            let shifted = |sign: f64| {
                let (j, c) = equations_at(
                    system,
                    &system.displace(q, &(v * (sign * eps))),
                    t,
                    joints,
                    smooth,
                );
                rows_of(&j, &c)
            };
            let (ahead, behind) = (shifted(1.0), shifted(-1.0));
            DVector::from_iterator(
                now.len(),
                now.iter().enumerate().map(|(k, (key, _))| {
                    match (ahead.get(k), behind.get(k)) {
                        (Some(a), Some(b)) if a.0 == *key && b.0 == *key => {
                            (a.1.dot(v) - b.1.dot(v)) / (2.0 * eps)
                        }
                        // A contact not found a hair away (at the margin): no product.
                        _ => 0.0,
                    }
                }),
            )
        };
        // A drive's ∂²g/∂t² (the rows above move with q only).
        for (k, c) in joint_rows.iter().enumerate() {
            velocity_products[k] += c.acceleration_bias;
        }
        let forces = joint_rows
            .iter()
            .map(|c| c.normal_row.clone())
            .chain(contacts.iter().map(|e| e.force.clone()))
            .collect();
        let (keys, rows) = now.into_iter().unzip();
        Self {
            keys,
            rows,
            forces,
            velocity_products,
            joint_count: joint_rows.len(),
            contacts,
        }
    }

    /// The persistent contacts' multipliers (after the joints').
    pub(super) fn contact_multipliers<'a>(&self, lambda: &'a DVector<f64>) -> &'a [f64] {
        &lambda.as_slice()[self.joint_count.min(lambda.len())..]
    }

    /// The number of joint equations.
    pub(super) fn len(&self) -> usize {
        self.rows.len()
    }

    /// Dᵀ λ (Gᵀ λ for the joints).
    pub(super) fn force(&self, lambda: &DVector<f64>, dofs: usize) -> DVector<f64> {
        let mut out = DVector::zeros(dofs);
        for (row, &l) in self.forces.iter().zip(lambda.iter()) {
            row.add_transpose_to(l, &mut out);
        }
        out
    }

    /// g̈ = G ä + Ġ v for every equation.
    pub(super) fn acceleration(&self, acc: &DVector<f64>) -> DVector<f64> {
        DVector::from_iterator(
            self.rows.len(),
            self.rows
                .iter()
                .zip(self.velocity_products.iter())
                .map(|(row, &product)| row.dot(acc) + product),
        )
    }

    /// The largest |Ġ v|, m/s² (the scale the equations' residual is measured against).
    pub(super) fn scale(&self) -> f64 {
        self.velocity_products.amax()
    }

    /// One Newton step on the saddle point (module docs): (d, δλ) from the residuals `r`
    /// (dynamics) and `c` (g̈), with `solve` applying S⁻¹. None when S cannot be solved.
    pub(super) fn newton_step(
        &self,
        solve: &dyn Fn(&DVector<f64>) -> Option<DVector<f64>>,
        r: &DVector<f64>,
        c: &DVector<f64>,
    ) -> Option<(DVector<f64>, DVector<f64>)> {
        let dofs = r.len();
        let y = solve(r)?;
        if self.rows.is_empty() {
            return Some((y, DVector::zeros(0)));
        }
        // Z = S⁻¹ Dᵀ and E Z (not symmetric where a contact slides: its force leans
        // against the motion).
        let mut z = DMatrix::zeros(dofs, self.rows.len());
        for (k, force) in self.forces.iter().enumerate() {
            let mut column = DVector::zeros(dofs);
            force.add_transpose_to(1.0, &mut column);
            z.set_column(k, &solve(&column)?);
        }
        let n = self.rows.len();
        let mut w = DMatrix::zeros(n, n);
        for j in 0..n {
            let column = z.column(j);
            let column = column.as_slice();
            for (i, row) in self.rows.iter().enumerate() {
                w[(i, j)] = row.dot_slice(column);
            }
        }
        let rhs = DVector::from_iterator(
            self.rows.len(),
            self.rows
                .iter()
                .zip(c.iter())
                .map(|(row, &ci)| row.dot(&y) - ci),
        );
        // Redundant joint equations (a closed loop held twice) leave G Z singular: the
        // least-squares multipliers of smallest norm hold them all the same. Contacts are
        // redundant as a rule (two feet of a box both sticking hold the same slip), and a
        // nearly singular LU splits their forces into huge opposite ones (tried: an LU kept
        // when its answer stayed within a condition estimate made a sliding box 12 times
        // slower, its active set churning), so with contacts the solve is always the
        // pseudo-inverse, singular values below 1e-12 of the largest left out.
        let pseudo_inverse = |w: DMatrix<f64>| {
            let svd = w.svd(true, true);
            let cut = 1e-12 * svd.singular_values.max();
            svd.solve(&rhs, cut).ok()
        };
        let delta = if self.contacts.is_empty() {
            w.clone()
                .lu()
                .solve(&rhs)
                .filter(|x| x.iter().all(|v| v.is_finite()))
                .or_else(|| pseudo_inverse(w))?
        } else {
            pseudo_inverse(w)?
        };
        let d = y - &z * &delta;
        Some((d, delta))
    }

    /// Each joint equation's multiplier by its row's key (for the joint reports).
    pub(super) fn by_key(&self, lambda: &DVector<f64>) -> Vec<(ContactKey, f64)> {
        self.keys
            .iter()
            .take(self.joint_count)
            .zip(lambda.iter())
            .map(|(key, &l)| (*key, l))
            .collect()
    }
}
