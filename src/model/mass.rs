//! The block-diagonal mass matrix M and its inverse, applied to dense and sparse vectors.

use nalgebra::{DMatrix, DVector};

use crate::contact::JacobianRow;

/// M = diag(M₁, M₂, …), one symmetric positive-definite block per moving body.
#[derive(Debug, Clone)]
pub struct BlockDiagonalMass {
    dofs: usize,
    blocks: Vec<Block>,
}

#[derive(Debug, Clone)]
struct Block {
    offset: usize,
    m: DMatrix<f64>,
    m_inv: DMatrix<f64>,
}

impl BlockDiagonalMass {
    /// Builds M from `(offset, block)` pairs; blocks must be symmetric positive definite
    /// (validated scene input guarantees positive masses and inertias).
    pub fn new(dofs: usize, blocks: Vec<(usize, DMatrix<f64>)>) -> Self {
        let blocks = blocks
            .into_iter()
            .map(|(offset, m)| {
                let m_inv = m
                    .clone()
                    .cholesky()
                    .map(|c| c.inverse())
                    .unwrap_or_else(|| DMatrix::zeros(m.nrows(), m.ncols()));
                Block { offset, m, m_inv }
            })
            .collect();
        Self { dofs, blocks }
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

    fn apply_blocks(&self, x: &DVector<f64>, inverse: bool) -> DVector<f64> {
        let mut out = DVector::zeros(self.dofs);
        for b in &self.blocks {
            let m = if inverse { &b.m_inv } else { &b.m };
            let n = m.nrows();
            let seg = m * x.rows(b.offset, n);
            out.rows_mut(b.offset, n).copy_from(&seg);
        }
        out
    }

    /// The block holding generalized-velocity index `j` (blocks are in offset order).
    fn block_of(&self, j: usize) -> Option<usize> {
        let k = self
            .blocks
            .partition_point(|b| b.offset <= j)
            .checked_sub(1)?;
        (j < self.blocks[k].offset + self.blocks[k].m.nrows()).then_some(k)
    }

    /// M⁻¹ Jᵢᵀ as a sparse row over the same bodies as `row` (cost independent of the number
    /// of bodies in the system).
    pub fn inverse_times_row(&self, row: &JacobianRow) -> JacobianRow {
        let mut entries: Vec<(usize, f64)> = Vec::with_capacity(row.entries.len());
        let mut touched: Vec<usize> = row
            .entries
            .iter()
            .filter_map(|&(j, _)| self.block_of(j))
            .collect();
        touched.sort_unstable();
        touched.dedup();
        for b in touched.iter().map(|&k| &self.blocks[k]) {
            let n = b.m.nrows();
            let mut x = DVector::zeros(n);
            for &(j, a) in &row.entries {
                if j >= b.offset && j < b.offset + n {
                    x[j - b.offset] += a;
                }
            }
            let y = &b.m_inv * x;
            for k in 0..n {
                if y[k] != 0.0 {
                    entries.push((b.offset + k, y[k]));
                }
            }
        }
        JacobianRow { entries }
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
