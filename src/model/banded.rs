//! Linear solves with a banded matrix (a beam's tangent couples each node to its neighbours only): O(n w²) elimination inside the band.

use nalgebra::{DMatrix, DVector};

/// The half-bandwidth w of `a`: the largest |i − j| with a non-zero a_ij.
pub fn half_bandwidth(a: &DMatrix<f64>) -> usize {
    let n = a.nrows();
    let mut w = 0;
    for i in 0..n {
        for j in 0..n {
            if a[(i, j)] != 0.0 {
                w = w.max(i.abs_diff(j));
            }
        }
    }
    w
}

/// Solves A x = b by Gaussian elimination restricted to the band of half-width `w`, without
/// pivoting: for the predictor's M − K (diagonally weighted by M, symmetric). None when a
/// pivot falls below 1e-13 of the largest diagonal entry (the caller then pivots densely).
pub fn solve_banded(mut a: DMatrix<f64>, mut b: DVector<f64>, w: usize) -> Option<DVector<f64>> {
    let n = a.nrows();
    let scale = (0..n).map(|i| a[(i, i)].abs()).fold(0.0f64, f64::max);
    for k in 0..n {
        let pivot = a[(k, k)];
        if pivot.is_nan() || pivot.abs() <= 1e-13 * scale {
            return None;
        }
        let end = (k + w + 1).min(n);
        for i in k + 1..end {
            let factor = a[(i, k)] / pivot;
            if factor == 0.0 {
                continue;
            }
            for j in k..end {
                a[(i, j)] -= factor * a[(k, j)];
            }
            b[i] -= factor * b[k];
        }
    }
    for k in (0..n).rev() {
        let end = (k + w + 1).min(n);
        let mut s = b[k];
        for j in k + 1..end {
            s -= a[(k, j)] * b[j];
        }
        b[k] = s / a[(k, k)];
    }
    Some(b)
}
