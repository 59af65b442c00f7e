//! Static equilibrium of a held structure: f_int(q) + λ f_ext = 0 by Newton on the bodies' tangents, the load applied in increments.
//!
//! The external load f_ext (gravity and the scene's constant loads) does not depend on q
//! for the bodies here, so the equilibrium path is followed in λ = 1/n, 2/n, …, 1 with
//! Newton at each increment,
//!
//! ```text
//!     K_t(q) Δq = f_int(q) + λ f_ext,   q ← q + Δq,   K_t = −∂f_int/∂q,
//! ```
//!
//! halving the increment where Newton does not converge in 30 iterations (large
//! deflections: the elastica). Newton stops when the residual is within the tolerance of
//! the load or the correction is at the rounding of q. No contacts take part. The answer is reported with its
//! residual; a structure that is not held (a free motion makes K_t singular) is an error.

use nalgebra::DVector;

use crate::error::{Error, Result};
use crate::model::System;

/// A static equilibrium and how it was reached.
#[derive(Debug, Clone, PartialEq)]
pub struct Equilibrium {
    /// Generalized positions at equilibrium.
    pub q: DVector<f64>,
    /// max |f_int(q) + f_ext| at the end, N (or N·m).
    pub residual: f64,
    /// max |f_ext|, N: the scale the residual is judged against.
    pub load: f64,
    /// Load increments taken.
    pub increments: usize,
    /// Newton iterations over all increments.
    pub iterations: usize,
}

/// Newton iterations per increment before it is halved.
const ITERATIONS: usize = 30;

/// The equilibrium of `system` under its gravity and constant loads, from its current
/// positions, in at least `increments` load steps; residual ≤ `tolerance` × max |f_ext|.
pub fn static_equilibrium(
    system: &System,
    increments: usize,
    tolerance: f64,
) -> Result<Equilibrium> {
    if !system.forces.iter().all(|l| l.is_constant_in_state()) {
        return Err(Error::field(
            "forces",
            "static equilibrium takes constant loads only (no springs)",
        ));
    }
    let mut unloaded = system.clone();
    unloaded.gravity = glam::DVec3::ZERO;
    unloaded.forces.clear();
    unloaded.pushes.clear();
    let zero_v = DVector::zeros(system.dofs());
    let internal = |q: &DVector<f64>| unloaded.generalized_forces(q, &zero_v, system.t);
    let external = system.generalized_forces(&system.q, &zero_v, system.t) - internal(&system.q);
    let load = external.amax();
    let scale = load.max(1e-300);
    let mut q = system.q.clone();
    let mut lambda = 0.0;
    let mut step = 1.0 / increments.max(1) as f64;
    let (mut taken, mut iterations) = (0, 0);
    let residual_at = |q: &DVector<f64>, lambda: f64| internal(q) + &external * lambda;
    while lambda < 1.0 {
        let target = (lambda + step).min(1.0);
        let mut trial = q.clone();
        let mut converged = false;
        for _ in 0..ITERATIONS {
            let r = residual_at(&trial, target);
            if r.amax() <= tolerance * scale {
                converged = true;
                break;
            }
            let tangent = unloaded
                .force_tangent(&trial, &zero_v, -1.0, 0.0)
                .ok_or_else(|| {
                    Error::field(
                        "bodies",
                        "static equilibrium needs bodies with a stiffness (beams)",
                    )
                })?;
            iterations += 1;
            let Some(dq) = tangent.lu().solve(&r) else {
                return Err(Error::field(
                    "beams",
                    "the structure is not held (a free motion): give its supports (clamped, pinned, roller)",
                ));
            };
            if !dq.iter().all(|x| x.is_finite()) {
                break;
            }
            // q ⊕ Δq: a node's rotation turns by the exponential map.
            trial = system.displace(&trial, &dq);
            // The residual of a stiff structure cannot fall below the rounding of its
            // internal forces (EA ε ≫ a small load): a correction at the rounding of q ends
            // Newton too.
            if dq.amax() <= 4.0 * f64::EPSILON * (1.0 + trial.amax()) {
                converged = true;
                break;
            }
        }
        if converged {
            q = trial;
            lambda = target;
            taken += 1;
        } else {
            step *= 0.5;
            if step < 1e-6 {
                return Err(Error::field(
                    "beams",
                    format!(
                        "static equilibrium not reached: Newton stalled at load factor {lambda:.6}"
                    ),
                ));
            }
        }
    }
    let residual = residual_at(&q, 1.0).amax();
    Ok(Equilibrium {
        q,
        residual,
        load,
        increments: taken,
        iterations,
    })
}
