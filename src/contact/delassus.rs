//! The Delassus matrix W = J M⁻¹ Jᵀ, dense or as a matrix-free operator for PGS.

use nalgebra::DMatrix;

use super::JacobianRow;
use crate::lcp::DelassusOperator;
use crate::model::BlockDiagonalMass;

/// Rows J and the matching M⁻¹ Jᵀ columns, ready for W products.
#[derive(Clone)]
pub struct Delassus {
    rows: Vec<JacobianRow>,
    inverse_mass_rows: Vec<JacobianRow>,
    diagonal: Vec<f64>,
    dofs: usize,
}

impl Delassus {
    /// Prepares W for the given rows; O(rows) work, W itself is not formed.
    pub fn new(mass: &BlockDiagonalMass, rows: Vec<JacobianRow>) -> Self {
        let inverse_mass_rows: Vec<JacobianRow> =
            rows.iter().map(|r| mass.inverse_times_row(r)).collect();
        let diagonal = rows
            .iter()
            .zip(&inverse_mass_rows)
            .map(|(r, m)| r.dot_sorted_row(m))
            .collect();
        Self {
            rows,
            inverse_mass_rows,
            diagonal,
            dofs: mass.dofs(),
        }
    }

    /// The rows J.
    pub fn rows(&self) -> &[JacobianRow] {
        &self.rows
    }

    /// M⁻¹ Jᵢᵀ for each row.
    pub fn inverse_mass_rows(&self) -> &[JacobianRow] {
        &self.inverse_mass_rows
    }

    /// The dense W (n×n, 1/kg for normal rows).
    pub fn dense(&self) -> DMatrix<f64> {
        let n = self.rows.len();
        DMatrix::from_fn(n, n, |i, j| {
            self.rows[i].dot_sorted_row(&self.inverse_mass_rows[j])
        })
    }
}

impl DelassusOperator for Delassus {
    fn rows(&self) -> usize {
        self.rows.len()
    }
    fn work_len(&self) -> usize {
        self.dofs
    }
    fn diagonal(&self, i: usize) -> f64 {
        self.diagonal[i]
    }
    fn row_dot(&self, i: usize, u: &[f64]) -> f64 {
        self.rows[i].dot_slice(u)
    }
    fn add_column(&self, i: usize, dz: f64, u: &mut [f64]) {
        self.inverse_mass_rows[i].add_transpose_to_slice(dz, u);
    }
}
