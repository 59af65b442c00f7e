//! The block-diagonal mass matrix M and its inverse, applied to dense and sparse vectors.

use nalgebra::{DMatrix, DVector};
use smallvec::{SmallVec, smallvec};

use crate::contact::{JacobianRow, RowEntries};

/// The highest ω of K φ = ω² M φ (K symmetric, M symmetric positive definite), rad/s: the
/// square root of the largest eigenvalue of L⁻¹ K L⁻ᵀ, M = L Lᵀ; None when M is not positive
/// definite. Used for one element's bound on a beam's highest frequency (Irons).
pub fn highest_frequency(k: DMatrix<f64>, m: DMatrix<f64>) -> Option<f64> {
    let l_inv = m.cholesky()?.l().try_inverse()?;
    let s = &l_inv * k * l_inv.transpose();
    let s = (&s + s.transpose()) * 0.5;
    let top = s.symmetric_eigen().eigenvalues.max();
    Some(top.max(0.0).sqrt())
}

/// True when every off-diagonal entry of `m` is exactly 0.
fn is_diagonal(m: &DMatrix<f64>) -> bool {
    (0..m.ncols()).all(|c| (0..m.nrows()).all(|k| k == c || m[(k, c)] == 0.0))
}

/// M = diag(M₁, M₂, …), one symmetric positive-definite block per moving body.
#[derive(Debug, Clone)]
pub struct BlockDiagonalMass {
    dofs: usize,
    blocks: Vec<Block>,
    /// For each generalized-velocity index, its block (`None` between blocks): an O(1)
    /// lookup where a binary search over thousands of blocks missed the cache on every row.
    block_index: Vec<Option<u32>>,
    /// M's and M⁻¹'s diagonals when every block is diagonal and the blocks cover every
    /// index (spheres and disks: a pile): M x is then one elementwise product, without the
    /// per-block bookkeeping that was half of the implicit penalty step's conjugate gradients.
    diagonals: Option<(Vec<f64>, Vec<f64>)>,
}

#[derive(Debug, Clone)]
struct Block {
    offset: usize,
    m: DMatrix<f64>,
    m_inv: DMatrix<f64>,
    /// M_b⁻¹ has no off-diagonal entry other than exactly 0 (a sphere or disk: mass and an
    /// isotropic inertia), so M_b⁻¹ x needs only its diagonal, with the same result.
    diagonal: bool,
}

impl BlockDiagonalMass {
    /// Builds M from `(offset, block)` pairs; blocks must be symmetric positive definite
    /// (validated scene input guarantees positive masses and inertias).
    pub fn new(dofs: usize, blocks: Vec<(usize, DMatrix<f64>)>) -> Self {
        let blocks: Vec<Block> = blocks
            .into_iter()
            .map(|(offset, m)| {
                let m_inv = m
                    .clone()
                    .cholesky()
                    .map(|c| c.inverse())
                    .unwrap_or_else(|| DMatrix::zeros(m.nrows(), m.ncols()));
                let diagonal = is_diagonal(&m_inv);
                Block {
                    offset,
                    m,
                    m_inv,
                    diagonal,
                }
            })
            .collect();
        let mut block_index = vec![None; dofs];
        for (k, b) in blocks.iter().enumerate() {
            for slot in block_index.iter_mut().skip(b.offset).take(b.m.nrows()) {
                *slot = u32::try_from(k).ok();
            }
        }
        let diagonals = (blocks.iter().all(|b| b.diagonal && is_diagonal(&b.m))
            && block_index.iter().all(Option::is_some))
        .then(|| {
            let diagonal_of = |inverse: bool| {
                let mut d = vec![0.0; dofs];
                for b in &blocks {
                    let m = if inverse { &b.m_inv } else { &b.m };
                    for i in 0..m.nrows() {
                        d[b.offset + i] = m[(i, i)];
                    }
                }
                d
            };
            (diagonal_of(false), diagonal_of(true))
        });
        Self {
            dofs,
            blocks,
            block_index,
            diagonals,
        }
    }

    /// Number of generalized velocities.
    pub fn dofs(&self) -> usize {
        self.dofs
    }

    /// M v.
    pub fn apply(&self, v: &DVector<f64>) -> DVector<f64> {
        self.apply_blocks(v, false)
    }

    /// M⁻¹ f.
    pub fn apply_inverse(&self, f: &DVector<f64>) -> DVector<f64> {
        self.apply_blocks(f, true)
    }

    /// M v into `out` (resized; its storage kept when it fits).
    pub fn apply_into(&self, v: &DVector<f64>, out: &mut DVector<f64>) {
        self.apply_blocks_into(v, false, out);
    }

    /// M⁻¹ f into `out` (resized; its storage kept when it fits).
    pub fn apply_inverse_into(&self, f: &DVector<f64>, out: &mut DVector<f64>) {
        self.apply_blocks_into(f, true, out);
    }

    fn apply_blocks(&self, x: &DVector<f64>, inverse: bool) -> DVector<f64> {
        let mut out = DVector::zeros(0);
        self.apply_blocks_into(x, inverse, &mut out);
        out
    }

    fn apply_blocks_into(&self, x: &DVector<f64>, inverse: bool, out: &mut DVector<f64>) {
        if let Some((m, m_inv)) = &self.diagonals {
            // The product of a diagonal block with its off-diagonal zeros left out: the same
            // values (the pinned digests of the piles did not move).
            crate::linalg::buffers::sized_vector(out, self.dofs);
            let d = if inverse { m_inv } else { m };
            for ((o, &di), &xi) in out.iter_mut().zip(d).zip(x.iter()) {
                *o = di * xi;
            }
            return;
        }
        crate::linalg::buffers::zeroed_vector(out, self.dofs);
        for b in &self.blocks {
            let m = if inverse { &b.m_inv } else { &b.m };
            let n = m.nrows();
            // The same product as `m * x` (nalgebra's gemm with β = 0), written in place.
            m.mul_to(&x.rows(b.offset, n), &mut out.rows_mut(b.offset, n));
        }
    }

    /// The block holding generalized-velocity index `j` (blocks are in offset order).
    fn block_of(&self, j: usize) -> Option<usize> {
        self.block_index
            .get(j)
            .copied()
            .flatten()
            .map(|k| k as usize)
    }

    /// The first generalized-velocity index of the block holding `j` (`j` itself outside
    /// every block): the indices a body's mass couples share it.
    pub fn block_start(&self, j: usize) -> usize {
        self.block_of(j).map_or(j, |k| self.blocks[k].offset)
    }

    /// M⁻¹ Jᵢᵀ as a sparse row over the same bodies as `row` (cost independent of the number
    /// of bodies in the system). Its indices are strictly ascending (blocks in offset order,
    /// each block's rows in order), which [`JacobianRow::dot_sorted_row`] relies on.
    pub fn inverse_times_row(&self, row: &JacobianRow) -> JacobianRow {
        self.inverse_times_grouped_row(row)
            .unwrap_or_else(|| self.inverse_times_any_row(row))
    }

    /// [`Self::inverse_times_row`] for any row: entries in any order, an index repeated,
    /// entries outside every block (left out).
    fn inverse_times_any_row(&self, row: &JacobianRow) -> JacobianRow {
        let mut entries = RowEntries::new();
        let mut touched: SmallVec<[usize; 12]> = row
            .entries
            .iter()
            .filter_map(|&(j, _)| self.block_of(j))
            .collect();
        touched.sort_unstable();
        touched.dedup();
        for b in touched.iter().map(|&k| &self.blocks[k]) {
            let n = b.m.nrows();
            // x: the row's entries in this block, in the row's order (local index, value).
            let x: SmallVec<[(usize, f64); 12]> = row
                .entries
                .iter()
                .filter(|&&(j, _)| j >= b.offset && j < b.offset + n)
                .map(|&(j, a)| (j - b.offset, a))
                .collect();
            // y = M_b⁻¹ x, each entry summed in the row's order (as a dense product would),
            // column by column of M_b⁻¹ (contiguous, and the n sums proceed side by side),
            // without allocating for a rigid body: this runs for every contact row.
            // A diagonal M_b⁻¹ adds only its diagonal's products: the others are exact zeros,
            // and adding ±0 to a sum that starts at +0 changes nothing (zeros are dropped).
            let mut y: SmallVec<[f64; 6]> = smallvec![0.0; n];
            for &(c, a) in &x {
                if b.diagonal {
                    y[c] += b.m_inv[(c, c)] * a;
                } else {
                    for (yk, m) in y.iter_mut().zip(b.m_inv.column(c).iter()) {
                        *yk += m * a;
                    }
                }
            }
            for (k, &yk) in y.iter().enumerate() {
                if yk != 0.0 {
                    entries.push((b.offset + k, yk));
                }
            }
        }
        JacobianRow { entries }
    }

    /// [`Self::inverse_times_row`] for the usual contact row: each body's entries one run,
    /// strictly ascending, every index inside a block (two bodies' six entries each, or one
    /// body's against a fixed one). The runs are taken in block order and each is multiplied
    /// as the general path multiplies the same entries, so the result is the same bit for
    /// bit, without collecting, sorting and filtering the blocks; None for any other row.
    fn inverse_times_grouped_row(&self, row: &JacobianRow) -> Option<JacobianRow> {
        // (block, first entry, end) of each run; a contact row has at most two.
        let mut runs: SmallVec<[(usize, usize, usize); 2]> = SmallVec::new();
        let mut start = 0;
        let entries = &row.entries;
        while start < entries.len() {
            let k = self.block_of(entries[start].0)?;
            let b = &self.blocks[k];
            let inside = b.offset..b.offset + b.m.nrows();
            let mut end = start + 1;
            while end < entries.len() && inside.contains(&entries[end].0) {
                if entries[end].0 <= entries[end - 1].0 {
                    return None;
                }
                end += 1;
            }
            // A block met twice (its entries not one run) goes the general way.
            if runs.iter().any(|&(other, _, _)| other == k) {
                return None;
            }
            runs.push((k, start, end));
            start = end;
        }
        runs.sort_unstable_by_key(|&(k, _, _)| k);
        let mut out = RowEntries::new();
        for &(k, first, end) in &runs {
            let b = &self.blocks[k];
            let n = b.m.nrows();
            let run = &entries[first..end];
            if b.diagonal {
                // y_c = 0 + M⁻¹_cc a_c, one product per index, kept unless it is zero (±0
                // alike, as the general path drops them).
                for &(j, a) in run {
                    let c = j - b.offset;
                    let y = b.m_inv[(c, c)] * a;
                    if y != 0.0 {
                        out.push((j, y));
                    }
                }
            } else {
                let mut y: SmallVec<[f64; 6]> = smallvec![0.0; n];
                for &(j, a) in run {
                    for (yk, m) in y.iter_mut().zip(b.m_inv.column(j - b.offset).iter()) {
                        *yk += m * a;
                    }
                }
                for (k, &yk) in y.iter().enumerate() {
                    if yk != 0.0 {
                        out.push((b.offset + k, yk));
                    }
                }
            }
        }
        Some(JacobianRow { entries: out })
    }

    /// Every generalized-velocity index of the blocks holding some of `dofs`, sorted: the
    /// indices a solve over `dofs` must take together when a block couples its coordinates
    /// (a beam's consistent mass). For rigid bodies whose rows touch all their coordinates it
    /// is `dofs` itself.
    pub fn whole_blocks(&self, dofs: &[usize]) -> Vec<usize> {
        let mut touched: Vec<usize> = dofs.iter().filter_map(|&j| self.block_of(j)).collect();
        touched.sort_unstable();
        touched.dedup();
        let mut out: Vec<usize> = touched
            .iter()
            .flat_map(|&k| {
                let b = &self.blocks[k];
                b.offset..b.offset + b.m.nrows()
            })
            .collect();
        // Indices outside every block (none in a built system) are kept as they were.
        out.extend(dofs.iter().filter(|&&j| self.block_of(j).is_none()));
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The submatrix M[dofs, dofs] for sorted generalized-velocity indices `dofs` (those of a
    /// few bodies: O(len²), independent of the system's size).
    pub fn dense_block(&self, dofs: &[usize]) -> DMatrix<f64> {
        let n = dofs.len();
        let mut out = DMatrix::zeros(n, n);
        for b in &self.blocks {
            let size = b.m.nrows();
            let inside: Vec<(usize, usize)> = dofs
                .iter()
                .enumerate()
                .filter(|&(_, &d)| d >= b.offset && d < b.offset + size)
                .map(|(k, &d)| (k, d - b.offset))
                .collect();
            for &(i, bi) in &inside {
                for &(j, bj) in &inside {
                    out[(i, j)] = b.m[(bi, bj)];
                }
            }
        }
        out
    }

    /// The dense matrix M (for small systems and tests).
    pub fn to_dense(&self) -> DMatrix<f64> {
        let mut m = DMatrix::zeros(self.dofs, self.dofs);
        for b in &self.blocks {
            let n = b.m.nrows();
            m.view_mut((b.offset, b.offset), (n, n)).copy_from(&b.m);
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// M x and M⁻¹ x against the dense M and its inverse, for a mass of diagonal blocks (the
    /// elementwise path) and one with a full block (the per-block path).
    #[test]
    fn products_match_the_dense_matrix_on_both_paths() {
        let sphere = DMatrix::from_diagonal(&DVector::from_vec(vec![2.0, 2.0, 0.5]));
        let full = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.0, 1.0, 3.0, 0.5, 0.0, 0.5, 2.0]);
        let x = DVector::from_vec(vec![1.0, -2.0, 3.0, 0.5, -1.5, 2.5]);
        for (second, flat) in [(sphere.clone(), true), (full, false)] {
            let mass = BlockDiagonalMass::new(6, vec![(0, sphere.clone()), (3, second)]);
            assert_eq!(mass.diagonals.is_some(), flat);
            let dense = mass.to_dense();
            let inverse = dense.clone().try_inverse().unwrap();
            assert!((mass.apply(&x) - &dense * &x).amax() <= 1e-14);
            assert!((mass.apply_inverse(&x) - &inverse * &x).amax() <= 1e-14);
        }
    }

    /// M⁻¹ Jᵢᵀ of a contact row takes the grouped path, other rows the general one, and both
    /// give the same entries bit for bit, equal to the dense product.
    #[test]
    fn a_row_times_the_inverse_mass_is_the_same_on_both_paths() {
        let sphere = DMatrix::from_diagonal(&DVector::from_vec(vec![2.0, 2.0, 0.5]));
        let full = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, 0.0, 1.0, 3.0, 0.5, 0.0, 0.5, 2.0]);
        // Blocks at 0, 3 and 6; index 9 belongs to none (a fixed body's).
        let mass = BlockDiagonalMass::new(
            10,
            vec![(0, sphere.clone()), (3, full), (6, sphere.clone())],
        );
        let row = |e: &[(usize, f64)]| JacobianRow {
            entries: e.iter().copied().collect(),
        };
        let grouped = [
            // The second body's entries first, as a contact row of B against A has them.
            row(&[
                (6, 0.3),
                (7, -1.1),
                (8, 0.7),
                (0, 1.0),
                (1, -2.0),
                (2, 0.25),
            ]),
            row(&[(3, 1.5), (4, 0.0), (5, -0.5), (6, -0.3), (8, 2.0)]),
            row(&[(0, 0.0), (1, -0.0), (2, 1e-300)]),
            row(&[]),
        ];
        let general = [
            row(&[(0, 1.0), (6, 0.5), (1, 2.0)]),  // a block met twice
            row(&[(1, 1.0), (0, 2.0)]),            // descending within a block
            row(&[(3, 1.0), (3, -0.5), (4, 2.0)]), // an index repeated
            row(&[(0, 1.0), (9, 3.0)]),            // an index outside every block
        ];
        // (Index 9 has no mass: the inverse is of the blocks' 9 × 9.)
        let inverse = mass
            .to_dense()
            .view((0, 0), (9, 9))
            .clone_owned()
            .try_inverse()
            .unwrap();
        for (r, takes_grouped) in grouped
            .iter()
            .map(|r| (r, true))
            .chain(general.iter().map(|r| (r, false)))
        {
            assert_eq!(
                mass.inverse_times_grouped_row(r).is_some(),
                takes_grouped,
                "{r:?}"
            );
            let (fast, any) = (mass.inverse_times_row(r), mass.inverse_times_any_row(r));
            assert_eq!(fast, any, "{r:?}");
            for pair in fast.entries.windows(2) {
                assert!(pair[0].0 < pair[1].0, "{r:?}: indices strictly ascending");
            }
            // Against the dense M⁻¹ Jᵀ over the blocks' indices.
            let mut j = DVector::zeros(10);
            for &(i, a) in r.entries.iter().filter(|e| e.0 < 9) {
                j[i] += a;
            }
            let expected = &inverse * j.rows(0, 9);
            let mut got = DVector::zeros(9);
            for &(i, a) in &fast.entries {
                got[i] = a;
            }
            assert!((got - expected).amax() <= 1e-14, "{r:?}");
        }
    }
}
