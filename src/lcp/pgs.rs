//! Projected Gauss–Seidel: the iterative LCP solver, dense or matrix-free, with honest stopping.
//!
//! One sweep visits every unknown in order and solves its own row exactly, then projects:
//!
//! ```text
//!     wᵢ = Σⱼ Wᵢⱼ zⱼ + qᵢ,        zᵢ ← proj(zᵢ − wᵢ / Wᵢᵢ)
//! ```
//!
//! with proj = max(0, ·) for a normal reaction, or the clamp onto [−μ z_n, μ z_n] for a
//! friction row tied to normal row n (the planar Coulomb segment). For a symmetric
//! positive-definite W the sweep converges, but at a rate set by W's conditioning: for a 1 kg
//! box under a 1000 kg box the error shrinks by m₂/(m₁+m₂) ≈ 0.999 a sweep (reference case
//! F4), so ~13,800 sweeps buy six digits. The solver therefore has an iteration cap and reports
//! [`LcpStatus::NotConverged`] when it hits it, never a silently wrong force.
//!
//! Matrix-free form: for contact, W = J M⁻¹ Jᵀ need not be formed. Keep u = M⁻¹ Jᵀ z (one
//! entry per generalized velocity); then wᵢ = Jᵢ u + qᵢ and a change Δzᵢ adds M⁻¹ Jᵢᵀ Δzᵢ
//! to u. The [`DelassusOperator`] trait is exactly those operations; [`DenseOperator`] is the
//! same thing for an explicit matrix (u = z).
//!
//! Stopping: after each sweep the row-scaled projection residual
//!
//! ```text
//!     rᵢ = |zᵢ − proj(zᵢ − wᵢ/Wᵢᵢ)|   (units of z),    stop when maxᵢ rᵢ ≤ tolerance · max(‖z‖∞, maxᵢ |qᵢ|/Wᵢᵢ)
//! ```
//!
//! is compared with the tolerance; it does not change when a row is scaled or when q is
//! scaled. A dense problem stops on the LCP's own [`super::relative_residual`] instead. Either
//! way the status is `solved` only when the test is met by a finite answer.

use nalgebra::DVector;
use serde::{Deserialize, Serialize};

use super::{Lcp, LcpSolution, LcpStatus};

/// Iteration cap and tolerance for PGS.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PgsOptions {
    /// Maximum number of sweeps (≥ 1).
    pub max_iterations: usize,
    /// Relative tolerance on the residual (module docs; 0 runs exactly `max_iterations`).
    pub tolerance: f64,
}

impl Default for PgsOptions {
    fn default() -> Self {
        Self {
            max_iterations: 1000,
            tolerance: 1e-10,
        }
    }
}

/// The operations PGS needs from W = J M⁻¹ Jᵀ without forming it.
pub trait DelassusOperator {
    /// Number of unknowns (rows of J).
    fn rows(&self) -> usize;
    /// Length of the work vector u (generalized velocities, or n for a dense matrix).
    fn work_len(&self) -> usize;
    /// The diagonal entry Wᵢᵢ (> 0 for a row that can carry force).
    fn diagonal(&self, i: usize) -> f64;
    /// (W z)ᵢ expressed through the work vector: Jᵢ · u.
    fn row_dot(&self, i: usize, u: &[f64]) -> f64;
    /// u += M⁻¹ Jᵢᵀ Δzᵢ.
    fn add_column(&self, i: usize, dz: f64, u: &mut [f64]);
}

/// A dense matrix seen as a [`DelassusOperator`] (the work vector is z itself).
pub struct DenseOperator<'a>(pub &'a nalgebra::DMatrix<f64>);

impl DelassusOperator for DenseOperator<'_> {
    fn rows(&self) -> usize {
        self.0.nrows()
    }
    fn work_len(&self) -> usize {
        self.0.nrows()
    }
    fn diagonal(&self, i: usize) -> f64 {
        self.0[(i, i)]
    }
    fn row_dot(&self, i: usize, u: &[f64]) -> f64 {
        self.0.row(i).iter().zip(u).map(|(a, b)| a * b).sum()
    }
    fn add_column(&self, i: usize, dz: f64, u: &mut [f64]) {
        u[i] += dz;
    }
}

/// How a row is projected after its Gauss–Seidel update.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RowBound {
    /// zᵢ ≥ 0 (normal reaction).
    NonNegative,
    /// zᵢ of either sign with wᵢ = 0 (a bilateral row).
    Free,
    /// |zᵢ| ≤ μ z_n, tied to the normal row n (planar Coulomb friction).
    Friction {
        /// Index of the normal row this friction row belongs to.
        normal: usize,
        /// Friction coefficient μ ≥ 0.
        mu: f64,
    },
}

/// Result of a matrix-free solve: z, the final w, the residual, sweeps and status.
#[derive(Debug, Clone, PartialEq)]
pub struct PgsResult {
    /// Converged or not.
    pub status: LcpStatus,
    /// Unknowns.
    pub z: Vec<f64>,
    /// Slacks w = W z + q.
    pub w: Vec<f64>,
    /// Residual of the projection (0 at a solution).
    pub residual: f64,
    /// Sweeps used.
    pub iterations: usize,
    /// The work vector u = M⁻¹ Jᵀ z at the end.
    pub work: Vec<f64>,
}

/// PGS on a dense LCP (all rows non-negative), stopping on the relative residual.
pub fn solve_pgs(lcp: &Lcp, options: &PgsOptions) -> LcpSolution {
    let bounds = vec![RowBound::NonNegative; lcp.len()];
    let measure = |z: &[f64], _: &[f64]| super::relative_residual(lcp, z);
    let r = sweep_until(
        &DenseOperator(&lcp.m),
        lcp.q.as_slice(),
        &bounds,
        None,
        options,
        &measure,
    );
    LcpSolution::from_z(lcp, DVector::from_vec(r.z), r.status, r.iterations)
}

/// PGS on an operator with per-row bounds, optionally warm-started from `z0`, stopping on
/// the row-scaled projection residual (module docs).
pub fn solve_pgs_operator(
    op: &dyn DelassusOperator,
    q: &[f64],
    bounds: &[RowBound],
    z0: Option<&[f64]>,
    options: &PgsOptions,
) -> PgsResult {
    let measure = |z: &[f64], u: &[f64]| projected_residual(op, q, bounds, z, u);
    sweep_until(op, q, bounds, z0, options, &measure)
}

/// Sweeps until `measure(z, u)` ≤ tolerance or the cap.
fn sweep_until(
    op: &dyn DelassusOperator,
    q: &[f64],
    bounds: &[RowBound],
    z0: Option<&[f64]>,
    options: &PgsOptions,
    measure: &dyn Fn(&[f64], &[f64]) -> f64,
) -> PgsResult {
    let n = op.rows();
    let mut z = match z0 {
        Some(z0) if z0.len() == n => z0.to_vec(),
        _ => vec![0.0; n],
    };
    let mut u = vec![0.0; op.work_len()];
    for (i, &zi) in z.iter().enumerate() {
        if zi != 0.0 {
            op.add_column(i, zi, &mut u);
        }
    }
    let target = options.tolerance;
    let max_iterations = options.max_iterations.max(1);
    let mut iterations = 0;
    let mut residual = f64::INFINITY;
    while iterations < max_iterations {
        for i in 0..n {
            let wii = op.diagonal(i);
            if wii <= 0.0 {
                continue;
            }
            let wi = op.row_dot(i, &u) + q[i];
            let trial = z[i] - wi / wii;
            let new = project(bounds[i], trial, &z);
            let dz = new - z[i];
            if dz != 0.0 {
                z[i] = new;
                op.add_column(i, dz, &mut u);
            }
        }
        iterations += 1;
        residual = measure(&z, &u);
        if residual <= target || !residual.is_finite() {
            break;
        }
    }
    let w: Vec<f64> = (0..n).map(|i| op.row_dot(i, &u) + q[i]).collect();
    let finite = z.iter().chain(&w).all(|x| x.is_finite()) && residual.is_finite();
    let status = if !finite {
        LcpStatus::Inaccurate
    } else if residual <= target {
        LcpStatus::Solved
    } else {
        LcpStatus::NotConverged
    };
    PgsResult {
        status,
        z,
        w,
        residual,
        iterations,
        work: u,
    }
}

fn project(bound: RowBound, value: f64, z: &[f64]) -> f64 {
    match bound {
        RowBound::NonNegative => value.max(0.0),
        RowBound::Free => value,
        RowBound::Friction { normal, mu } => {
            let limit = mu * z[normal].max(0.0);
            value.clamp(-limit, limit)
        }
    }
}

/// maxᵢ |zᵢ − proj(zᵢ − wᵢ/Wᵢᵢ)| / max(‖z‖∞, maxᵢ |qᵢ|/Wᵢᵢ): zero exactly when every row
/// satisfies its complementarity condition, and free of the problem's units.
fn projected_residual(
    op: &dyn DelassusOperator,
    q: &[f64],
    bounds: &[RowBound],
    z: &[f64],
    u: &[f64],
) -> f64 {
    let mut r = 0.0f64;
    let mut scale = 0.0f64;
    for i in 0..z.len() {
        let wii = op.diagonal(i);
        if wii <= 0.0 {
            continue;
        }
        let wi = op.row_dot(i, u) + q[i];
        let p = project(bounds[i], z[i] - wi / wii, z);
        r = r.max((z[i] - p).abs());
        scale = scale.max(z[i].abs()).max(q[i].abs() / wii);
    }
    if r == 0.0 {
        0.0
    } else if scale > 0.0 {
        r / scale
    } else {
        f64::INFINITY
    }
}
