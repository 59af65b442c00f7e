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
}
