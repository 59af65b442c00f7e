//! The minimum-norm least-squares solution of a small, possibly singular square system by one-sided Jacobi SVD, on buffers that persist between solves: the small islands' Newton direction when its Jacobian is singular, without nalgebra's SVD and its allocations.
//!
//! One-sided Jacobi (Hestenes 1958; Demmel and Veselić 1992 for its accuracy) orthogonalises
//! the columns of U = A by plane rotations, applied to V = I alongside, so that A V = U
//! keeps holding. For each pair of columns (p, q), with α = ‖U_p‖², β = ‖U_q‖², γ = U_p·U_q,
//! the rotation
//!
//! ```text
//!     ζ = (β − α) / (2γ),   t = sign(ζ) / (|ζ| + √(1 + ζ²)),   c = 1/√(1 + t²),   s = c t,
//!     U_p ← c U_p − s U_q,   U_q ← s U_p + c U_q          (and the same for V)
//! ```
//!
//! makes the two columns orthogonal. Sweeps over every pair repeat until no pair is further
//! from orthogonal than rounding (|γ| ≤ ε √(αβ)); then U's columns are σ_j u_j, with σ_j =
//! ‖U_j‖ the singular values, and A = Σ σ_j u_j v_jᵀ. The solution of A x ≈ b of least norm
//! among those of least residual is
//!
//! ```text
//!     x = Σ_{σ_j > cutoff} v_j (u_j · b) / σ_j = Σ_{σ_j > cutoff} V_j (U_j · b) / σ_j²,
//! ```
//!
//! the directions of singular values at or below the cutoff left out (as nalgebra's
//! `SVD::solve(b, eps)` leaves them). Rotations are orthogonal, so the singular values are
//! found to within rounding relative to the largest, whatever the conditioning.

use nalgebra::{DMatrix, DVector};

/// Sweeps over every pair of columns before giving up. Jacobi converges quadratically once
/// the columns are nearly orthogonal: a 60 × 60 matrix takes about ten.
const MAX_SWEEPS: usize = 60;

/// The work of [`LeastSquares::solve`], kept from one call to the next.
#[derive(Debug, Default)]
pub(crate) struct LeastSquares {
    /// A V: its columns become σ_j u_j.
    u: DMatrix<f64>,
    /// The accumulated rotations: its columns become v_j.
    v: DMatrix<f64>,
}

impl LeastSquares {
    /// Room for an n × n solve, so that one up to that size allocates nothing.
    pub(crate) fn reserve(&mut self, n: usize) {
        super::buffers::reserve_matrix(&mut self.u, n * n);
        super::buffers::reserve_matrix(&mut self.v, n * n);
    }

    /// The minimum-norm least-squares solution of `a` x = `b` (a square), singular values at
    /// or below `cutoff` treated as zero, written into `x` (resized). False when the sweeps
    /// did not converge or an entry is not finite (then `x` holds no answer).
    pub(crate) fn solve(
        &mut self,
        a: &DMatrix<f64>,
        b: &DVector<f64>,
        cutoff: f64,
        x: &mut DVector<f64>,
    ) -> bool {
        let n = a.ncols();
        assert_eq!(a.nrows(), n, "a square matrix");
        assert_eq!(b.len(), n, "a right-hand side of its size");
        super::buffers::sized_matrix(&mut self.u, n, n);
        super::buffers::sized_matrix(&mut self.v, n, n);
        self.u.copy_from(a);
        self.v.fill_with_identity();
        if !self.u.iter().all(|e| e.is_finite()) || !b.iter().all(|e| e.is_finite()) {
            return false;
        }
        let mut converged = n < 2;
        for _ in 0..MAX_SWEEPS {
            if converged {
                break;
            }
            converged = true;
            for p in 0..n {
                for q in p + 1..n {
                    converged &= self.rotate(p, q);
                }
            }
        }
        if !converged {
            return false;
        }
        super::buffers::sized_vector(x, n);
        x.fill(0.0);
        for j in 0..n {
            let column = self.u.column(j);
            let sigma_squared = column.norm_squared();
            if sigma_squared.sqrt() <= cutoff {
                continue;
            }
            let coefficient = column.dot(b) / sigma_squared;
            x.axpy(coefficient, &self.v.column(j), 1.0);
        }
        x.iter().all(|e| e.is_finite())
    }

    /// Makes columns p and q of U orthogonal (and rotates V's alike); true when they already
    /// were to rounding, so that no rotation was needed.
    fn rotate(&mut self, p: usize, q: usize) -> bool {
        let (alpha, beta, gamma) = {
            let (up, uq) = (self.u.column(p), self.u.column(q));
            (up.norm_squared(), uq.norm_squared(), up.dot(&uq))
        };
        if gamma == 0.0 || gamma.abs() <= f64::EPSILON * (alpha * beta).sqrt() {
            return true;
        }
        let zeta = (beta - alpha) / (2.0 * gamma);
        let t = zeta.signum() / (zeta.abs() + (1.0 + zeta * zeta).sqrt());
        let c = 1.0 / (1.0 + t * t).sqrt();
        let s = c * t;
        for m in [&mut self.u, &mut self.v] {
            let (mut mp, mut mq) = m.columns_range_pair_mut(p, q);
            for (x, y) in mp.iter_mut().zip(mq.iter_mut()) {
                let (xp, xq) = (*x, *y);
                *x = c * xp - s * xq;
                *y = s * xp + c * xq;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::noise;

    /// A regular matrix: the least-squares solution is the solution, A x = b to rounding,
    /// for sizes that make one solver's buffers grow and shrink.
    #[test]
    fn solves_a_regular_system() {
        let mut solver = LeastSquares::default();
        let mut x = DVector::zeros(0);
        for (t, n) in [5usize, 12, 3, 40, 1, 12].into_iter().enumerate() {
            let a = DMatrix::from_fn(n, n, |i, j| noise(100 * t + n * i + j));
            let b = DVector::from_fn(n, |i, _| noise(7000 + 13 * t + i));
            assert!(solver.solve(&a, &b, 1e-12 * a.amax(), &mut x), "n = {n}");
            let scale = a.amax() * x.amax() + b.amax();
            assert!((&a * &x - &b).amax() < 1e-12 * scale, "n = {n}");
        }
    }

    /// A singular matrix of rank 2 built as B Cᵀ (B, C of two columns): the answer for a b
    /// in its range solves A x = b and has no part in A's null space (x ⟂ ker A, that is x
    /// in the span of C), which is what makes it the minimum-norm solution.
    #[test]
    fn gives_the_minimum_norm_solution_of_a_singular_system() {
        let n = 6;
        let b_cols = DMatrix::from_fn(n, 2, |i, j| noise(3 * i + 17 * j));
        let c_cols = DMatrix::from_fn(n, 2, |i, j| noise(200 + 5 * i + 11 * j));
        let a = &b_cols * c_cols.transpose();
        let rhs = &b_cols * DVector::from_column_slice(&[0.7, -1.3]);
        let mut x = DVector::zeros(0);
        assert!(LeastSquares::default().solve(&a, &rhs, 1e-12 * a.amax(), &mut x));
        assert!((&a * &x - &rhs).amax() < 1e-12 * rhs.amax());
        // x in span(C): its projection onto the orthogonal complement of C's columns is 0.
        let coefficients = (c_cols.transpose() * &c_cols)
            .lu()
            .solve(&(c_cols.transpose() * &x))
            .expect("C has full column rank");
        let outside = &x - &c_cols * coefficients;
        assert!(outside.amax() < 1e-12 * x.amax(), "{outside}");
    }

    /// A b outside the range: the residual A x − b is orthogonal to A's range (the normal
    /// equations Aᵀ(A x − b) = 0 hold), as for nalgebra's SVD solve.
    #[test]
    fn an_inconsistent_system_gets_its_least_squares_solution() {
        let n = 5;
        let mut a = DMatrix::from_fn(n, n, |i, j| noise(31 * i + j));
        let first = a.column(0).clone_owned();
        a.set_column(3, &(2.0 * &first));
        let b = DVector::from_fn(n, |i, _| noise(900 + i));
        let mut x = DVector::zeros(0);
        assert!(LeastSquares::default().solve(&a, &b, 1e-12 * a.amax(), &mut x));
        let normal = a.transpose() * (&a * &x - &b);
        assert!(normal.amax() < 1e-12 * a.amax() * b.amax());
        let expected = a
            .clone()
            .svd(true, true)
            .solve(&b, 1e-12 * a.amax())
            .unwrap();
        assert!((&x - &expected).amax() < 1e-10 * expected.amax());
    }

    /// A matrix with a NaN is refused, not solved.
    #[test]
    fn a_non_finite_entry_is_refused() {
        let mut a = DMatrix::identity(3, 3);
        a[(1, 2)] = f64::NAN;
        let mut x = DVector::zeros(0);
        assert!(!LeastSquares::default().solve(&a, &DVector::from_element(3, 1.0), 1e-12, &mut x));
    }
}
