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
//! (This is the joint part of the three-level scheme of Brüls, Acary & Cardona; contacts
//! still act by impulses only. A mechanism of more than [`MAX_SMOOTH_EQUATIONS`] joint
//! equations keeps the impulses-only scheme, first order: the complement here is dense.)
//!
//! Ġ v is the directional derivative of the rows along v: computed by central differences,
//! [G(q ⊕ εv) − G(q ⊕ −εv)] v / (2ε) with ε ‖v‖∞ = 1e-6 s·m/s, which is exact to about
//! 1e-12 of its size and needs no body-specific second derivative (a beam's node moves with
//! its shape functions, not with the beam's reference point). A driven joint turns at
//! constant speed, so ∂²g/∂t² = 0.

use nalgebra::{DMatrix, DVector};

use crate::contact::joint_rows::joint_contacts;
use crate::contact::{Contact, ContactKey};
use crate::model::System;

/// Most joint equations whose reactions the predictor solves ([`holds`]): the Schur complement
/// is dense (k solves of S and a k × k factorization per Newton iteration), the island size
/// up to which the laws too solve densely. A chain of 100 links (200 equations) cost 83 ms a
/// step with it, of 300 links 2.4 s; above this the joints act by impulses only, as before.
pub(super) const MAX_SMOOTH_EQUATIONS: usize = crate::laws::assembly::DENSE_ROWS;

/// True when the predictor solves the joints' smooth reactions for `system`: it has joints,
/// and at most [`MAX_SMOOTH_EQUATIONS`] equations.
pub(super) fn holds(system: &System) -> bool {
    !system.joints.is_empty()
        && joint_contacts(system, &system.q, system.t).len() <= MAX_SMOOTH_EQUATIONS
}

/// The joint equations at the predicted state: their rows G and velocity products Ġ v.
pub(super) struct JointConstraints {
    rows: Vec<Contact>,
    velocity_products: DVector<f64>,
}

impl JointConstraints {
    /// The rows of every joint of `system` at (q, t), with Ġ v along `v`.
    pub(super) fn at(system: &System, q: &DVector<f64>, v: &DVector<f64>, t: f64) -> Self {
        let rows = joint_contacts(system, q, t);
        let speed = v.amax();
        let velocity_products = if speed == 0.0 {
            DVector::zeros(rows.len())
        } else {
            let eps = 1e-6 / speed;
            let ahead = joint_contacts(system, &system.displace(q, &(v * eps)), t);
            let behind = joint_contacts(system, &system.displace(q, &(v * -eps)), t);
            DVector::from_iterator(
                rows.len(),
                ahead
                    .iter()
                    .zip(&behind)
                    .map(|(a, b)| (a.normal_row.dot(v) - b.normal_row.dot(v)) / (2.0 * eps)),
            )
        };
        Self {
            rows,
            velocity_products,
        }
    }

    /// The number of joint equations.
    pub(super) fn len(&self) -> usize {
        self.rows.len()
    }

    /// Gᵀ λ.
    pub(super) fn force(&self, lambda: &DVector<f64>, dofs: usize) -> DVector<f64> {
        let mut out = DVector::zeros(dofs);
        for (row, &l) in self.rows.iter().zip(lambda.iter()) {
            row.normal_row.add_transpose_to(l, &mut out);
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
                .map(|(row, &product)| row.normal_row.dot(acc) + product),
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
        let mut z = DMatrix::zeros(dofs, self.rows.len());
        for (k, row) in self.rows.iter().enumerate() {
            let mut column = DVector::zeros(dofs);
            row.normal_row.add_transpose_to(1.0, &mut column);
            z.set_column(k, &solve(&column)?);
        }
        let w = DMatrix::from_fn(self.rows.len(), self.rows.len(), |i, j| {
            self.rows[i].normal_row.dot(&z.column(j).into_owned())
        });
        let rhs = DVector::from_iterator(
            self.rows.len(),
            self.rows
                .iter()
                .zip(c.iter())
                .map(|(row, &ci)| row.normal_row.dot(&y) - ci),
        );
        // Redundant joint equations (a closed loop held twice) leave G Z singular: the
        // least-squares multipliers of smallest norm hold them all the same.
        let delta = w
            .clone()
            .lu()
            .solve(&rhs)
            .filter(|x| x.iter().all(|v| v.is_finite()))
            .or_else(|| w.svd(true, true).solve(&rhs, 1e-12).ok())?;
        let d = y - &z * &delta;
        Some((d, delta))
    }

    /// Each equation's multiplier by its row's key (for the joint reports).
    pub(super) fn by_key(&self, lambda: &DVector<f64>) -> Vec<(ContactKey, f64)> {
        self.rows
            .iter()
            .zip(lambda.iter())
            .map(|(row, &l)| (row.key, l))
            .collect()
    }
}
