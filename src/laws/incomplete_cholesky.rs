//! An incomplete Cholesky factor of a normal-only problem's Jacobi-scaled Delassus matrix on a free set: MPRGP's preconditioner in face.
//!
//! MPRGP ([`super::mprgp`]) runs conjugate gradients on the free set F (the rows with
//! λ > 0), in the variables y = diag(W)^½ λ, so its rate is set by the condition number of
//! Ŵ_FF = S W_FF S (S = diag(W)^-½). A pile's Ŵ_FF couples each contact to the contacts that
//! share a body with it, about a dozen, and its condition number grows with the pile's
//! height. Conjugate gradients preconditioned by P = L Lᵀ ≈ Ŵ_FF converge at the rate of
//! κ(P⁻¹ Ŵ_FF) instead; any symmetric positive definite P gives the same answer.
//!
//! Ŵ's lower triangle is formed once a solve from the rows (W_ij = G_i · M⁻¹G_jᵀ, for the
//! rows i, j that touch a common velocity coordinate), and L is its IC(0) factor on F: the
//! entries of L are those of Ŵ_FF's lower triangle, computed row by row,
//!
//! ```text
//!     L_ik = (Ŵ_ik − Σ_{j<k} L_ij L_kj) / L_kk,      L_ii = √(Ŵ_ii − Σ_{j<i} L_ij²),
//! ```
//!
//! the sums over the pattern only. A pile's W is singular (redundant contacts), so a pivot
//! can vanish or turn negative: such a pivot is replaced by Ŵ_ii = 1, which keeps P
//! positive definite (a worse preconditioner for that row, never a wrong answer).
//! Rows off F get L_ii = 1 and no neighbours: P⁻¹ maps them to zero, as MPRGP needs.

use crate::contact::JacobianRow;

/// A pivot below this fraction of its row's diagonal counts as broken down.
const PIVOT_FLOOR: f64 = 1e-6;

/// Ŵ's lower triangle and its incomplete factor on the free set, with the work lists that
/// form them (kept between solves).
#[derive(Default)]
pub(super) struct IncompleteCholesky {
    /// Row i's entries are `starts[i]..starts[i + 1]` of `columns` and `values`, columns
    /// ascending, the diagonal last.
    starts: Vec<usize>,
    /// (32-bit: the apply walks 12 bytes an entry instead of 16, though the time of the
    /// recorded problems moved within the machine's noise; the contact limits keep a problem
    /// far below 2³² rows.)
    columns: Vec<u32>,
    values: Vec<f64>,
    /// L on the same pattern (entries off the free set are zero).
    factor: Vec<f64>,
    /// The free set the factor was formed for.
    free: Vec<bool>,
    /// The rows touching each velocity coordinate: `dof_rows[dof_starts[d]..dof_starts[d + 1]]`.
    dof_starts: Vec<usize>,
    dof_rows: Vec<usize>,
    /// The next free place of each coordinate's list while it is filled.
    cursor: Vec<usize>,
    /// Row i's lower neighbours while its entries are formed.
    neighbours: Vec<usize>,
    /// The last row that listed each row as a neighbour (usize::MAX: none yet).
    seen: Vec<usize>,
    /// Row i of G spread over the velocity coordinates (zero elsewhere).
    scattered: Vec<f64>,
    /// Forward substitution's result.
    x: Vec<f64>,
}

impl IncompleteCholesky {
    /// Forms Ŵ = S W S's lower triangle from the rows G_i and the rows of M⁻¹Gᵀ (strictly
    /// ascending indices), S = diag(`scale`), over `dofs` velocity coordinates; forgets any
    /// factor.
    #[inline(never)]
    pub(super) fn assemble(
        &mut self,
        rows: &[JacobianRow],
        inverse_mass_rows: &[JacobianRow],
        scale: &[f64],
        dofs: usize,
    ) {
        let n = rows.len();
        debug_assert!(u32::try_from(n).is_ok(), "{n} rows");
        // The rows touching each coordinate, by counting sort.
        self.dof_starts.clear();
        self.dof_starts.resize(dofs + 1, 0);
        for row in rows {
            for &(d, _) in &row.entries {
                self.dof_starts[d + 1] += 1;
            }
        }
        for d in 0..dofs {
            self.dof_starts[d + 1] += self.dof_starts[d];
        }
        self.dof_rows.clear();
        self.dof_rows.resize(self.dof_starts[dofs], 0);
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.dof_starts[..dofs]);
        for (i, row) in rows.iter().enumerate() {
            for &(d, _) in &row.entries {
                self.dof_rows[self.cursor[d]] = i;
                self.cursor[d] += 1;
            }
        }
        self.seen.clear();
        self.seen.resize(n, usize::MAX);
        self.scattered.clear();
        self.scattered.resize(dofs, 0.0);
        self.starts.clear();
        self.columns.clear();
        self.values.clear();
        for (i, row) in rows.iter().enumerate() {
            self.starts.push(self.columns.len());
            self.neighbours.clear();
            for &(d, _) in &row.entries {
                for &j in &self.dof_rows[self.dof_starts[d]..self.dof_starts[d + 1]] {
                    if j <= i && self.seen[j] != i {
                        self.seen[j] = i;
                        self.neighbours.push(j);
                    }
                }
            }
            self.neighbours.sort_unstable();
            // G_i scattered over the coordinates, so that each W_ij = Σ_d G_i[d] (M⁻¹G_jᵀ)[d]
            // is one pass over M⁻¹G_jᵀ's entries.
            for &(d, a) in &row.entries {
                self.scattered[d] += a;
            }
            for &j in &self.neighbours {
                let w: f64 = inverse_mass_rows[j]
                    .entries
                    .iter()
                    .map(|&(d, b)| self.scattered[d] * b)
                    .sum();
                self.columns.push(j as u32);
                self.values.push(scale[i] * w * scale[j]);
            }
            for &(d, _) in &row.entries {
                self.scattered[d] = 0.0;
            }
        }
        self.starts.push(self.columns.len());
        self.free.clear();
    }

    /// The rows whose membership in `free` differs from the free set the factor was formed
    /// for (usize::MAX before any factor of this problem, so that one is formed whatever the
    /// threshold).
    pub(super) fn mismatch(&self, free: &[bool]) -> usize {
        if self.free.len() != free.len() {
            return usize::MAX;
        }
        self.free.iter().zip(free).filter(|(a, b)| a != b).count()
    }

    /// The IC(0) factor of Ŵ_FF for the free set `free` (module docs).
    #[inline(never)]
    pub(super) fn factor(&mut self, free: &[bool]) {
        // Row i of L depends on rows ≤ i alone, so the rows before the first one that changed
        // sides keep what the last factor gave them (the same numbers, formed again).
        let first = if self.free.len() == free.len() {
            self.free
                .iter()
                .zip(free)
                .position(|(a, b)| a != b)
                .unwrap_or(free.len())
        } else {
            0
        };
        self.free.clear();
        self.free.extend_from_slice(free);
        self.factor.resize(self.values.len(), 0.0);
        let n = free.len();
        for i in first..n {
            let (start, end) = (self.starts[i], self.starts[i + 1]);
            let diagonal = end - 1;
            self.factor[start..end].fill(0.0);
            if !free[i] {
                self.factor[diagonal] = 1.0;
                continue;
            }
            for e in start..diagonal {
                let k = self.columns[e] as usize;
                if !free[k] {
                    continue;
                }
                // Σ_{j<k} L_ij L_kj over the two rows' common columns (both ascending).
                let (k_start, k_diagonal) = (self.starts[k], self.starts[k + 1] - 1);
                let (mut a, mut b, mut sum) = (start, k_start, 0.0);
                while a < e && b < k_diagonal {
                    let (ca, cb) = (self.columns[a], self.columns[b]);
                    if ca == cb {
                        sum += self.factor[a] * self.factor[b];
                        a += 1;
                        b += 1;
                    } else if ca < cb {
                        a += 1;
                    } else {
                        b += 1;
                    }
                }
                self.factor[e] = (self.values[e] - sum) / self.factor[k_diagonal];
            }
            let squares: f64 = self.factor[start..diagonal].iter().map(|l| l * l).sum();
            let pivot = self.values[diagonal] - squares;
            self.factor[diagonal] = if pivot > PIVOT_FLOOR * self.values[diagonal] {
                pivot.sqrt()
            } else {
                // Broken down (W singular along this row): keep P positive definite.
                self.values[diagonal].max(f64::MIN_POSITIVE).sqrt()
            };
        }
    }

    /// z = P⁻¹ r on the free set `free`, zero off it. With F′ the set the factor was formed
    /// for: on F ∩ F′, the rows of (L Lᵀ)⁻¹ applied to r cut to F ∩ F′ (a principal
    /// submatrix of a positive definite inverse); on F without F′, r itself (Ŵ's unit
    /// diagonal). So P is positive definite for any F, and exactly IC(0) of Ŵ_FF when F = F′.
    #[inline(never)]
    pub(super) fn apply(&mut self, free: &[bool], r: &[f64], z: &mut [f64]) {
        let n = r.len();
        let x = &mut self.x;
        x.clear();
        x.resize(n, 0.0);
        // L x = r (cut to F ∩ F′).
        for i in 0..n {
            if !self.free[i] {
                continue;
            }
            let (start, diagonal) = (self.starts[i], self.starts[i + 1] - 1);
            let mut s = if free[i] { r[i] } else { 0.0 };
            for e in start..diagonal {
                s -= self.factor[e] * x[self.columns[e] as usize];
            }
            x[i] = s / self.factor[diagonal];
        }
        // Lᵀ z = x, by columns of Lᵀ (rows of L) from the last.
        for i in (0..n).rev() {
            if !self.free[i] {
                z[i] = if free[i] { r[i] } else { 0.0 };
                continue;
            }
            let (start, diagonal) = (self.starts[i], self.starts[i + 1] - 1);
            let zi = x[i] / self.factor[diagonal];
            z[i] = if free[i] { zi } else { 0.0 };
            for e in start..diagonal {
                x[self.columns[e] as usize] -= self.factor[e] * zi;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::DMatrix;

    /// A chain of four unit masses on a line, each row the gap between neighbours (and the
    /// floor under the first): W tridiagonal, and IC(0) of a tridiagonal matrix is exact.
    #[test]
    fn on_a_chain_the_factor_is_exact() {
        let rows = vec![
            JacobianRow::from_entries(&[(0, 1.0)]),
            JacobianRow::from_entries(&[(0, -1.0), (1, 1.0)]),
            JacobianRow::from_entries(&[(1, -1.0), (2, 1.0)]),
            JacobianRow::from_entries(&[(2, -1.0), (3, 1.0)]),
        ];
        let masses = [1.0, 2.0, 0.5, 4.0];
        let inverse: Vec<JacobianRow> = rows
            .iter()
            .map(|r| {
                JacobianRow::from_entries(
                    &r.entries
                        .iter()
                        .map(|&(d, a)| (d, a / masses[d]))
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        let w = DMatrix::from_fn(4, 4, |i, j| rows[i].dot_sorted_row(&inverse[j]));
        let scale: Vec<f64> = (0..4).map(|i| 1.0 / w[(i, i)].sqrt()).collect();
        let mut ic = IncompleteCholesky::default();
        ic.assemble(&rows, &inverse, &scale, 4);
        for free in [vec![true; 4], vec![true, false, true, true]] {
            ic.factor(&free);
            let r = [0.3, -1.0, 2.0, 0.7];
            let mut z = [0.0; 4];
            ic.apply(&free, &r, &mut z);
            // Ŵ_FF z_F = r_F, z zero off F.
            let hat = DMatrix::from_fn(4, 4, |i, j| scale[i] * w[(i, j)] * scale[j]);
            for i in 0..4 {
                if !free[i] {
                    assert_eq!(z[i], 0.0);
                    continue;
                }
                let back: f64 = (0..4)
                    .filter(|&j| free[j])
                    .map(|j| hat[(i, j)] * z[j])
                    .sum();
                assert!(
                    (back - r[i]).abs() <= 1e-14,
                    "row {i}: {back} against {}",
                    r[i]
                );
            }
        }
    }

    /// Rows of a lattice of 12 point masses on a ring, each row two masses' relative
    /// motion along a direction (neighbours and next neighbours): a pattern with fill.
    fn ring() -> (Vec<JacobianRow>, Vec<JacobianRow>, Vec<f64>) {
        let n = 12;
        let mut rows = Vec::new();
        for a in 0..n {
            for step in [1, 2] {
                let b = (a + step) % n;
                let (lo, hi) = (a.min(b), a.max(b));
                let c = 0.3 + 0.1 * ((a * 7 + step) % 5) as f64;
                rows.push(JacobianRow::from_entries(&[
                    (2 * lo, c),
                    (2 * lo + 1, 1.0 - c),
                    (2 * hi, -c),
                    (2 * hi + 1, c - 1.0),
                ]));
            }
        }
        let inverse: Vec<JacobianRow> = rows
            .iter()
            .map(|r| {
                let scaled: Vec<(usize, f64)> = r
                    .entries
                    .iter()
                    .map(|&(d, a)| (d, a / (1.0 + (d / 2) as f64)))
                    .collect();
                JacobianRow::from_entries(&scaled)
            })
            .collect();
        let scale = rows
            .iter()
            .zip(&inverse)
            .map(|(r, m)| 1.0 / r.dot_sorted_row(m).sqrt())
            .collect();
        (rows, inverse, scale)
    }

    /// Forming the factor again after some rows changed sides keeps the rows before the
    /// first change: the result is the fresh factor's, bit for bit.
    #[test]
    fn a_factor_formed_again_is_the_fresh_one() {
        let (rows, inverse, scale) = ring();
        let n = rows.len();
        let sets: Vec<Vec<bool>> = (0..4)
            .map(|k| (0..n).map(|i| (i * 5 + k * 3) % 7 != 0).collect())
            .collect();
        let mut kept = IncompleteCholesky::default();
        kept.assemble(&rows, &inverse, &scale, 24);
        for free in &sets {
            kept.factor(free);
            let mut fresh = IncompleteCholesky::default();
            fresh.assemble(&rows, &inverse, &scale, 24);
            fresh.factor(free);
            assert_eq!(kept.factor, fresh.factor);
            let r: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
            let (mut a, mut b) = (vec![0.0; n], vec![0.0; n]);
            kept.apply(free, &r, &mut a);
            fresh.apply(free, &r, &mut b);
            assert_eq!(a, b);
            assert!(
                a.iter().zip(free).all(|(z, f)| *f || *z == 0.0),
                "zero off F"
            );
        }
    }
}
