//! An LU factorization with partial pivoting that keeps its storage between factorizations: nalgebra's own elimination steps on a buffer we own, so the arithmetic is nalgebra's `LU` to the bit, without its three allocations per solve.
//!
//! `DMatrix::lu()` consumes its matrix, and its `solve` returns a fresh vector, so the
//! small islands' semismooth Newton allocated a copy of its Jacobian, a permutation and a
//! solution at every iteration. Here the same column-by-column elimination
//! (`nalgebra::linalg::gauss_step`, `gauss_step_swap`: pivot = largest |entry| of the
//! column, L's multipliers scaled by 1/pivot, rank-one update of the rest) runs on a
//! buffer that only grows, and the solve works in place: P b, then L y = P b (unit
//! diagonal), then U x = y.

use nalgebra::{DMatrix, DVector};

/// The factors of the last matrix given to [`ReusableLu::factor`].
#[derive(Debug, Default)]
pub(crate) struct ReusableLu {
    /// L below the diagonal (unit diagonal implied) and U on and above it.
    lu: DMatrix<f64>,
    /// The row swaps, in the order they were made.
    swaps: Vec<(usize, usize)>,
}

impl ReusableLu {
    /// Room for an n × n factorization, so that one up to that size allocates nothing.
    pub(crate) fn reserve(&mut self, n: usize) {
        super::buffers::reserve_matrix(&mut self.lu, n * n);
        self.swaps.reserve(n.saturating_sub(self.swaps.len()));
    }

    /// Factors `a` (square), reusing the storage of the previous factorization.
    pub(crate) fn factor(&mut self, a: &DMatrix<f64>) {
        let n = a.nrows();
        super::buffers::sized_matrix(&mut self.lu, n, a.ncols());
        self.lu.copy_from(a);
        self.swaps.clear();
        // At most one swap a column: room for them all, so that the list grows with the
        // size only, not with how many swaps a matrix happens to need (a settled pile's
        // velocity level met a new record of swaps, and allocated, at its 672nd step).
        self.swaps.reserve(n);
        let m = &mut self.lu;
        for i in 0..n.min(a.ncols()) {
            let piv = m.view_range(i.., i).icamax() + i;
            let diag = m[(piv, i)];
            if diag == 0.0 {
                // No nonzero entry left in this column: U is singular, the solve says so.
                continue;
            }
            if piv != i {
                self.swaps.push((i, piv));
                m.columns_range_mut(..i).swap_rows(i, piv);
                nalgebra::linalg::gauss_step_swap(m, diag, i, piv);
            } else {
                nalgebra::linalg::gauss_step(m, diag, i);
            }
        }
    }

    /// Solves A x = b in place (b becomes x); false when U has a zero on its diagonal (then b
    /// holds no answer).
    pub(crate) fn solve_in_place(&self, b: &mut DVector<f64>) -> bool {
        for &(i, j) in &self.swaps {
            b.swap_rows(i, j);
        }
        let _ = self.lu.solve_lower_triangular_with_diag_mut(b, 1.0);
        self.lu.solve_upper_triangular_mut(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::noise;

    /// Same answers as nalgebra's LU to the bit, on matrices of several sizes factored one
    /// after the other with one `ReusableLu` (so its buffers grow and shrink), and a true
    /// solution: ‖A x − b‖ at rounding level.
    #[test]
    fn matches_nalgebra_bit_for_bit_and_solves() {
        let mut lu = ReusableLu::default();
        for (t, n) in [5usize, 12, 3, 30, 1, 12].into_iter().enumerate() {
            let a = DMatrix::from_fn(n, n, |i, j| noise(100 * t + n * i + j));
            let b = DVector::from_fn(n, |i, _| noise(7000 + 13 * t + i));
            let expected = a
                .clone()
                .lu()
                .solve(&b)
                .expect("a random matrix is regular");
            lu.factor(&a);
            let mut x = b.clone();
            assert!(lu.solve_in_place(&mut x));
            assert_eq!(x, expected, "n = {n}");
            assert!((&a * &x - &b).amax() < 1e-12 * (1.0 + x.amax()), "n = {n}");
        }
    }

    /// A singular matrix (a zero column) is reported, as nalgebra reports it.
    #[test]
    fn a_singular_matrix_is_reported() {
        let mut a = DMatrix::from_fn(4, 4, |i, j| noise(4 * i + j));
        a.column_mut(2).fill(0.0);
        let mut lu = ReusableLu::default();
        lu.factor(&a);
        let mut x = DVector::from_element(4, 1.0);
        assert!(!lu.solve_in_place(&mut x));
        assert!(a.lu().solve(&DVector::from_element(4, 1.0)).is_none());
    }
}
