//! Reshaping nalgebra vectors and matrices in place without giving up their allocations, for solvers that keep their work buffers from one problem to the next.

use nalgebra::{DMatrix, DVector};

/// Makes `v` of length `n` (contents unspecified), reusing its allocation when it can.
pub(crate) fn sized_vector(v: &mut DVector<f64>, n: usize) {
    if v.len() != n {
        let mut data: Vec<f64> = std::mem::replace(v, DVector::zeros(0)).data.into();
        data.resize(n, 0.0);
        *v = DVector::from_vec(data);
    }
}

/// Makes `m` of shape `rows × cols` (contents unspecified), reusing its allocation when it
/// can.
pub(crate) fn sized_matrix(m: &mut DMatrix<f64>, rows: usize, cols: usize) {
    if m.shape() != (rows, cols) {
        let mut data: Vec<f64> = std::mem::replace(m, DMatrix::zeros(0, 0)).data.into();
        data.resize(rows * cols, 0.0);
        *m = DMatrix::from_vec(rows, cols, data);
    }
}
