//! Sparse Jacobian rows: the map from generalized velocities to one contact velocity.

use nalgebra::DVector;
use smallvec::SmallVec;

/// The non-zero entries of one row, (generalized-velocity index, coefficient). A contact
/// between two rigid bodies has at most 12 (6 per body), kept inline so that building and
/// copying rows in the step loop does not touch the heap; rows of flexible elements (a beam
/// node block per side) spill over to the heap.
pub type RowEntries = SmallVec<[(usize, f64); 12]>;

/// One row J_i of a contact Jacobian, stored as (generalized-velocity index, coefficient).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct JacobianRow {
    /// Non-zero entries; an index may appear once per body block.
    pub entries: RowEntries,
}

impl JacobianRow {
    /// A row of the given (index, coefficient) entries.
    pub fn from_entries(entries: &[(usize, f64)]) -> Self {
        Self {
            entries: entries.iter().copied().collect(),
        }
    }

    /// Jᵢ · v.
    pub fn dot(&self, v: &DVector<f64>) -> f64 {
        self.entries.iter().map(|&(j, a)| a * v[j]).sum()
    }

    /// Jᵢ · u for a plain slice.
    pub fn dot_slice(&self, u: &[f64]) -> f64 {
        self.entries.iter().map(|&(j, a)| a * u[j]).sum()
    }

    /// Jᵢ · Jⱼᵀ-style product with a row whose indices are strictly ascending (as
    /// [`crate::model::BlockDiagonalMass::inverse_times_row`] makes them): Σ over this row's
    /// entries, in order, of the product with the other's entry at the same index, found by
    /// binary search (an index of this row may repeat; each occurrence adds its product).
    pub fn dot_sorted_row(&self, sorted: &JacobianRow) -> f64 {
        debug_assert!(
            sorted.entries.windows(2).all(|p| p[0].0 < p[1].0),
            "the second row must have strictly ascending indices"
        );
        let mut s = 0.0;
        for &(i, a) in &self.entries {
            if let Ok(k) = sorted.entries.binary_search_by_key(&i, |&(j, _)| j) {
                s += a * sorted.entries[k].1;
            }
        }
        s
    }

    /// v += s · Jᵢᵀ.
    pub fn add_transpose_to(&self, s: f64, v: &mut DVector<f64>) {
        for &(j, a) in &self.entries {
            v[j] += s * a;
        }
    }

    /// u += s · Jᵢᵀ for a plain slice.
    pub fn add_transpose_to_slice(&self, s: f64, u: &mut [f64]) {
        for &(j, a) in &self.entries {
            u[j] += s * a;
        }
    }
}
