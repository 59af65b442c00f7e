//! Preconditioned conjugate gradients for a symmetric positive definite operator given by its products: the large systems of the implicit penalty step, M + Σ w JᵀJ, never formed.
//!
//! With A x = b, A and the preconditioner P symmetric positive definite, each iteration
//! takes one product A p and one solve P z = r, and minimises the A-norm of the error over
//! the Krylov space of P⁻¹A. The error falls at least like ((√κ − 1)/(√κ + 1))^k, κ the
//! condition number of P⁻¹A. The iteration stops when the preconditioned residual norm
//! √(rᵀ P⁻¹ r) has fallen to `tolerance` times that of b, or at the cap, and says which.

use nalgebra::DVector;

/// How a solve ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CgOutcome {
    /// Iterations taken.
    pub iterations: usize,
    /// √(rᵀ P⁻¹ r) / √(bᵀ P⁻¹ b) at the end (0 for b = 0).
    pub relative_residual: f64,
    /// The residual reached the tolerance.
    pub converged: bool,
}

/// Solves A x = b from the guess in `x` (overwritten by the answer): `apply(p, out)` sets
/// out = A p, `precondition(r, out)` sets out = P⁻¹ r.
pub fn solve(
    mut apply: impl FnMut(&DVector<f64>, &mut DVector<f64>),
    mut precondition: impl FnMut(&DVector<f64>, &mut DVector<f64>),
    b: &DVector<f64>,
    x: &mut DVector<f64>,
    tolerance: f64,
    max_iterations: usize,
) -> CgOutcome {
    let n = b.len();
    let mut z = DVector::zeros(n);
    precondition(b, &mut z);
    let scale = b.dot(&z).max(0.0).sqrt();
    let mut ap = DVector::zeros(n);
    apply(x, &mut ap);
    let mut r = b - &ap;
    if scale == 0.0 {
        // b = 0: the answer is x = 0.
        x.fill(0.0);
        return CgOutcome {
            iterations: 0,
            relative_residual: 0.0,
            converged: true,
        };
    }
    precondition(&r, &mut z);
    let mut rz = r.dot(&z);
    let mut p = z.clone();
    let mut iterations = 0;
    loop {
        let relative_residual = rz.max(0.0).sqrt() / scale;
        if relative_residual <= tolerance || iterations == max_iterations {
            return CgOutcome {
                iterations,
                relative_residual,
                converged: relative_residual <= tolerance,
            };
        }
        iterations += 1;
        apply(&p, &mut ap);
        let curvature = p.dot(&ap);
        if curvature <= 0.0 || !curvature.is_finite() {
            // Not positive definite along p (or overflow): stop where we are.
            return CgOutcome {
                iterations,
                relative_residual,
                converged: false,
            };
        }
        let alpha = rz / curvature;
        x.axpy(alpha, &p, 1.0);
        r.axpy(-alpha, &ap, 1.0);
        precondition(&r, &mut z);
        let next = r.dot(&z);
        let beta = next / rz;
        rz = next;
        // p = z + β p
        p.axpy(1.0, &z, beta);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DMatrix;

    /// The 1-D Laplacian with a unit mass on the diagonal, tridiagonal (m + 2, −1).
    fn laplacian(n: usize, m: f64) -> DMatrix<f64> {
        DMatrix::from_fn(n, n, |i, j| match i.abs_diff(j) {
            0 => m + 2.0,
            1 => -1.0,
            _ => 0.0,
        })
    }

    /// CG on a dense matrix without preconditioner.
    fn plain(
        a: &DMatrix<f64>,
        b: &DVector<f64>,
        x: &mut DVector<f64>,
        tolerance: f64,
        cap: usize,
    ) -> CgOutcome {
        solve(
            |p, out| out.copy_from(&(a * p)),
            |r, out| out.copy_from(r),
            b,
            x,
            tolerance,
            cap,
        )
    }

    #[test]
    fn solves_a_spd_system_to_its_tolerance_within_n_iterations() {
        let n = 40;
        let a = laplacian(n, 0.5);
        let b = DVector::from_fn(n, |i, _| ((i * 7) % 5) as f64 - 2.0);
        let exact = a.clone().cholesky().unwrap().solve(&b);
        let mut x = DVector::zeros(n);
        let outcome = plain(&a, &b, &mut x, 1e-13, 10 * n);
        assert!(outcome.converged);
        // In exact arithmetic CG ends in at most n steps.
        assert!(outcome.iterations <= n, "{} iterations", outcome.iterations);
        assert!((&x - &exact).norm() <= 1e-11 * exact.norm());
    }

    #[test]
    fn a_preconditioner_equal_to_the_matrix_converges_in_one_step() {
        let n = 12;
        let a = laplacian(n, 1.0);
        let chol = a.clone().cholesky().unwrap();
        let b = DVector::from_fn(n, |i, _| i as f64);
        let mut x = DVector::zeros(n);
        let outcome = solve(
            |p, out| out.copy_from(&(&a * p)),
            |r, out| out.copy_from(&chol.solve(r)),
            &b,
            &mut x,
            1e-12,
            100,
        );
        assert!(outcome.converged);
        assert_eq!(outcome.iterations, 1);
    }

    #[test]
    fn a_cap_too_low_is_reported_as_not_converged() {
        let n = 50;
        let a = laplacian(n, 0.0);
        let b = DVector::from_element(n, 1.0);
        let mut x = DVector::zeros(n);
        let outcome = plain(&a, &b, &mut x, 1e-12, 3);
        assert!(!outcome.converged);
        assert_eq!(outcome.iterations, 3);
        assert!(outcome.relative_residual > 1e-12);
    }

    #[test]
    fn a_zero_right_side_gives_zero() {
        let a = laplacian(5, 1.0);
        let mut x = DVector::from_element(5, 3.0);
        let outcome = plain(&a, &DVector::zeros(5), &mut x, 1e-12, 10);
        assert!(outcome.converged);
        assert_eq!(x, DVector::zeros(5));
    }
}
