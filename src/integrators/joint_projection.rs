//! Projection onto the joints after a Moreau–Jean step: positions so that every joint
//! equation g(q, t) = 0 holds to rounding, then velocities so that ġ = G v + ∂g/∂t = 0.
//!
//! Moreau–Jean holds the joints at velocity level only (q_{k+1} = q_k + h v⁺), so a pin on a
//! curved path drifts by O(h²) per step. After the step the positions are moved along the
//! joints' rows in the metric of M (the correction GGL makes, here after the fact):
//!
//! ```text
//!     q ← q ⊕ M⁻¹ Gᵀ ν,   G M⁻¹ Gᵀ ν = −g(q)        (re-linearised until |g| ≤ 1e-14)
//!     v ← v + M⁻¹ Gᵀ μ,   G M⁻¹ Gᵀ μ = −(G v + ∂g/∂t)
//! ```
//!
//! Both are the laws' bilateral solves ([`crate::laws`]), so a large mechanism goes to the
//! block-sparse solver like a pile does. Contacts are not projected: their gaps keep
//! Moreau–Jean's first-order accuracy.

use nalgebra::DVector;

use super::{StepReport, StepSolver};
use crate::contact::joint_rows::joint_contacts;
use crate::contact::{Contact, ContactMaterial};
use crate::laws::assembly::{Laws, assemble};
use crate::laws::{LawSolver, NewtonOptions};
use crate::model::System;

/// Re-linearisations of the position projection before the step reports non-convergence.
const PASSES: usize = 5;

/// The projection is done with a joint equation at this |g| (m or rad), or at its rounding
/// where larger (NSGA's standard for gaps).
const HELD: f64 = 1e-14;

/// A joint equation still off by more than this after the passes marks the step unconverged.
const UNCONVERGED: f64 = 1e-12;

/// The rounding of a joint equation's value far from the origin, m.
fn rounding(c: &Contact) -> f64 {
    16.0 * f64::EPSILON * c.point.abs().max_element()
}

/// Solves G M⁻¹ Gᵀ x = −`rhs` over `rows` and returns M⁻¹ Gᵀ x (a velocity-sized change).
fn correction(
    system: &System,
    rows: &[Contact],
    rhs: impl Fn(&Contact) -> f64,
    newton: &NewtonOptions,
    report: &mut StepReport,
) -> DVector<f64> {
    let refs: Vec<&Contact> = rows.iter().collect();
    let frictionless = ContactMaterial::default();
    let laws = Laws {
        friction: false,
        resistance: false,
    };
    let problem = assemble(system.mass(), &refs, &frictionless, laws);
    let mut u_free = DVector::zeros(problem.rows());
    for (c, b) in rows.iter().zip(&problem.blocks) {
        u_free[b.offset] = rhs(c);
    }
    let solution = problem.solve(LawSolver::Newton, &u_free, None, newton);
    report.record_solve(
        StepSolver::of_laws(solution.method),
        solution.iterations,
        solution.residual,
        solution.converged,
    );
    let mut change = DVector::zeros(system.dofs());
    problem.add_velocity_change(&solution.lambda, &mut change);
    change
}

/// Projects the system's positions and then velocities onto its joints (module docs); a
/// projection that leaves |g| > 1e-12 marks the step unconverged.
pub(crate) fn project_joints(system: &mut System, newton: &NewtonOptions, report: &mut StepReport) {
    if system.joints.is_empty() {
        return;
    }
    let held = |c: &Contact| c.gap.abs() <= HELD + rounding(c);
    let mut rows = joint_contacts(system, &system.q, system.t);
    for _ in 0..PASSES {
        if rows.iter().all(held) {
            break;
        }
        let dq = correction(system, &rows, |c| c.gap, newton, report);
        system.q = system.displace(&system.q, &dq);
        rows = joint_contacts(system, &system.q, system.t);
    }
    if rows.iter().any(|c| c.gap.abs() > UNCONVERGED + rounding(c)) {
        report.converged = false;
    }
    let v = system.v.clone();
    let dv = correction(
        system,
        &rows,
        |c| c.normal_row.dot(&v) + c.rate_bias,
        newton,
        report,
    );
    system.v += dv;
}
