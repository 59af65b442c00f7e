//! Dot products and Euclidean norms of plain slices, for the iterative solvers that keep their vectors as `Vec<f64>` (GMRES, MPRGP).

/// aᵀb, summed in index order.
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// ‖v‖₂, its squares summed in index order.
pub(crate) fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}
