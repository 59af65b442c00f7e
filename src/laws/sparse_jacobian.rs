//! The generalized Jacobian of the contact laws' natural map, applied through the rows (W never formed), with its one-contact block inverse as preconditioner.
//!
//! The residual is R(λ) = λ − P(σ), σ = λ − r∘u, u = u_free + G M⁻¹ Gᵀ λ, P the projection
//! of each contact's laws: the normal onto ℝ₊, each ball law (Coulomb disc, rolling disc,
//! spinning segment) onto the ball of radius c·p_N, p_N = max(0, σ_N). One element of its
//! generalized (Clarke) Jacobian, at λ:
//!
//! ```text
//!     dσ   = dλ − r∘(G M⁻¹ Gᵀ dλ)
//!     dP_N = a_N dσ_N,                                   a_N = [σ_N > 0]
//!     dP_B = dσ_B                                        inside the ball (‖x‖ ≤ c p_N)
//!     dP_B = (c p_N/‖x‖)(I − x̂ x̂ᵀ) dσ_B + x̂ c a_N dσ_N    on its bound (x = σ_B, x̂ = x/‖x‖)
//!     dR   = dλ − dP.
//! ```
//!
//! Exact products matter: near a solution many contacts sit on a kink (a normal multiplier
//! at zero, a friction force on the cone), where one-sided differences straddle two pieces
//! and GMRES chases a Jacobian that is not there. The preconditioner is the same Jacobian
//! with W replaced by each contact's own block W_cc, inverted per contact (at most 6 × 6):
//! what one Gauss–Seidel sweep solves, so that GMRES only resolves the coupling between
//! contacts.
//!
//! The Newton rounds use the shifted model J + θ I (Levenberg–Marquardt, θ proportional to
//! the residual, see `sparse.rs`); the preconditioner then inverts each J_cc + θ I.

use super::LawBlock;
use super::newton_krylov::Linearized;
use super::packed_rows::Rows;
use super::sparse::{LocalBlock, block_len};
use crate::linalg::buffers::zeroed;
use crate::linalg::float::max;

/// One ball law's derivative at the linearisation point.
#[derive(Debug, Clone, Copy)]
enum BallDerivative {
    /// Absent (no rows) or inside its ball: dP = dσ.
    Inside,
    /// On its bound: dP = s (I − x̂ x̂ᵀ) dσ_B + x̂ n dσ_N.
    Bound { s: f64, dir: [f64; 2], n: f64 },
}

/// One contact's derivative data.
#[derive(Debug, Clone, Copy)]
struct BlockDerivative {
    /// a_N = [σ_N > 0].
    normal_active: bool,
    balls: [BallDerivative; 3],
}

/// dR = dλ − dP(dσ) for one block, from its own dλ and dσ.
fn block_product(
    b: &LawBlock,
    d: &BlockDerivative,
    dlambda: &[f64],
    dsigma: &[f64],
    out: &mut [f64],
) {
    let dn = if d.normal_active { dsigma[0] } else { 0.0 };
    out[0] = dlambda[0] - dn;
    for (law, ball) in b.ball_laws().iter().zip(&d.balls) {
        if law.len == 0 {
            continue;
        }
        let start = law.start - b.offset;
        let range = start..start + law.len;
        match *ball {
            BallDerivative::Inside => {
                for k in range {
                    out[k] = dlambda[k] - dsigma[k];
                }
            }
            BallDerivative::Bound { s, dir, n } => {
                let along: f64 = (0..law.len).map(|k| dir[k] * dsigma[start + k]).sum();
                for (k, i) in range.enumerate() {
                    let dp = s * (dsigma[i] - dir[k] * along) + dir[k] * n * dsigma[0];
                    out[i] = dlambda[i] - dp;
                }
            }
        }
    }
}

/// Inverts the `len × len` row-major matrix `a` in place by Gauss–Jordan with partial
/// pivoting; false (and `a` unusable) when a pivot vanishes relative to the matrix.
fn invert_small(a: &mut [f64; 36], len: usize) -> bool {
    let mut inv = [0.0; 36];
    for i in 0..len {
        inv[i * len + i] = 1.0;
    }
    let size = a[..len * len].iter().fold(0.0f64, |m, x| max(m, x.abs()));
    for col in 0..len {
        let pivot = (col..len)
            .max_by(|&i, &j| a[i * len + col].abs().total_cmp(&a[j * len + col].abs()))
            .unwrap_or(col);
        if a[pivot * len + col].abs() <= 1e-12 * size {
            return false;
        }
        if pivot != col {
            for k in 0..len {
                a.swap(pivot * len + k, col * len + k);
                inv.swap(pivot * len + k, col * len + k);
            }
        }
        let p = a[col * len + col];
        for k in 0..len {
            a[col * len + k] /= p;
            inv[col * len + k] /= p;
        }
        for i in 0..len {
            if i != col {
                let f = a[i * len + col];
                if f != 0.0 {
                    for k in 0..len {
                        a[i * len + k] -= f * a[col * len + k];
                        inv[i * len + k] -= f * inv[col * len + k];
                    }
                }
            }
        }
    }
    a[..len * len].copy_from_slice(&inv[..len * len]);
    true
}

/// A [`LawJacobian`]'s buffers, kept by the caller between solves.
#[derive(Default)]
pub(super) struct JacobianStorage {
    derivatives: Vec<BlockDerivative>,
    block_inverses: Vec<Option<[f64; 36]>>,
    dw: Vec<f64>,
    dsigma: Vec<f64>,
}

/// The Jacobian of R at one λ, with its block-diagonal preconditioner.
pub(super) struct LawJacobian<'a> {
    blocks: &'a [LawBlock],
    locals: &'a [LocalBlock],
    rows: Rows<'a>,
    derivatives: Vec<BlockDerivative>,
    /// Per block, the inverse of its own Jacobian J_cc (None: singular, identity used).
    block_inverses: Vec<Option<[f64; 36]>>,
    dw: Vec<f64>,
    dsigma: Vec<f64>,
    /// The Levenberg–Marquardt shift θ: the model is J + θ I.
    shift: f64,
}

impl<'a> LawJacobian<'a> {
    /// The model for these blocks and rows, in `storage` (linearised by
    /// [`Self::linearize`]; [`Self::into_storage`] gives the buffers back).
    pub(super) fn new(
        blocks: &'a [LawBlock],
        locals: &'a [LocalBlock],
        rows: Rows<'a>,
        dofs: usize,
        storage: JacobianStorage,
    ) -> Self {
        let JacobianStorage {
            mut derivatives,
            mut block_inverses,
            mut dw,
            mut dsigma,
        } = storage;
        derivatives.clear();
        derivatives.reserve(blocks.len());
        block_inverses.clear();
        block_inverses.reserve(blocks.len());
        zeroed(&mut dw, dofs);
        zeroed(&mut dsigma, rows.len());
        Self {
            blocks,
            locals,
            rows,
            derivatives,
            block_inverses,
            dw,
            dsigma,
            shift: 0.0,
        }
    }

    /// The model's buffers, for the next solve.
    pub(super) fn into_storage(self) -> JacobianStorage {
        JacobianStorage {
            derivatives: self.derivatives,
            block_inverses: self.block_inverses,
            dw: self.dw,
            dsigma: self.dsigma,
        }
    }

    /// Linearises at λ, whose relative velocities are `u`, with the Levenberg–Marquardt
    /// shift θ (the model J + θ I), reusing the storage.
    pub(super) fn linearize(&mut self, lambda: &[f64], u: &[f64], shift: f64) {
        self.derivatives.clear();
        self.block_inverses.clear();
        self.shift = shift;
        for (b, local) in self.blocks.iter().zip(self.locals) {
            let o = b.offset;
            let sigma = |k: usize| lambda[o + k] - local.r[k] * u[o + k];
            let (p_n, normal_active) = b.project_normal(sigma(0));
            let mut balls = [BallDerivative::Inside; 3];
            for (which, law) in b.ball_laws().iter().enumerate() {
                if law.len == 0 {
                    continue;
                }
                let start = law.start - o;
                let mut x = [0.0; 2];
                for (k, xk) in x.iter_mut().enumerate().take(law.len) {
                    *xk = sigma(start + k);
                }
                let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
                let radius = law.coefficient * p_n;
                if norm > radius {
                    balls[which] = BallDerivative::Bound {
                        s: radius / norm,
                        dir: [x[0] / norm, x[1] / norm],
                        n: if normal_active { law.coefficient } else { 0.0 },
                    };
                }
            }
            let d = BlockDerivative {
                normal_active,
                balls,
            };
            // J_cc column by column: dσ = e_j − r∘(W_cc e_j).
            let len = block_len(b);
            let mut jcc = [0.0; 36];
            let (mut e, mut ds, mut col) = ([0.0; 6], [0.0; 6], [0.0; 6]);
            for j in 0..len {
                e[..len].fill(0.0);
                e[j] = 1.0;
                for i in 0..len {
                    ds[i] = e[i] - local.r[i] * local.w[i * len + j];
                }
                let shifted = LawBlock { offset: 0, ..*b };
                block_product(&shifted, &d, &e[..len], &ds[..len], &mut col[..len]);
                for i in 0..len {
                    jcc[i * len + j] = col[i];
                }
                jcc[j * len + j] += shift;
            }
            self.block_inverses
                .push(invert_small(&mut jcc, len).then_some(jcc));
            self.derivatives.push(d);
        }
    }
}

impl Linearized for LawJacobian<'_> {
    fn apply(&mut self, v: &[f64], out: &mut [f64]) {
        self.rows.velocity_change(v, &mut self.dw);
        for (b, local) in self.blocks.iter().zip(self.locals) {
            for k in 0..block_len(b) {
                let i = b.offset + k;
                self.dsigma[i] = v[i] - local.r[k] * self.rows.dot(i, &self.dw);
            }
        }
        for (b, d) in self.blocks.iter().zip(&self.derivatives) {
            let range = b.offset..b.offset + block_len(b);
            let shifted = LawBlock { offset: 0, ..*b };
            block_product(
                &shifted,
                d,
                &v[range.clone()],
                &self.dsigma[range.clone()],
                &mut out[range],
            );
        }
        if self.shift != 0.0 {
            for (o, x) in out.iter_mut().zip(v) {
                *o += self.shift * x;
            }
        }
    }

    /// One symmetric block Gauss–Seidel sweep (forward, then backward) on J z = v from
    /// z = 0, each contact solved with its own block J_cc⁻¹ and the others frozen: a fixed
    /// linear operator of v, as GMRES needs. (J z)_c = z_c − dP_c(z_c − r∘G_c M⁻¹Gᵀ z),
    /// with M⁻¹ Gᵀ z kept up to date as z changes, so a sweep costs what one of the
    /// nonlinear Gauss–Seidel costs.
    fn precondition(&mut self, v: &[f64], out: &mut [f64]) {
        out.fill(0.0);
        self.dw.fill(0.0);
        let count = self.blocks.len();
        for pass in 0..2 {
            for step in 0..count {
                let c = if pass == 0 { step } else { count - 1 - step };
                let (b, local) = (&self.blocks[c], &self.locals[c]);
                let (o, len) = (b.offset, block_len(b));
                let (mut ds, mut jz, mut residual) = ([0.0; 6], [0.0; 6], [0.0; 6]);
                for k in 0..len {
                    ds[k] = out[o + k] - local.r[k] * self.rows.dot(o + k, &self.dw);
                }
                let shifted = LawBlock { offset: 0, ..*b };
                block_product(
                    &shifted,
                    &self.derivatives[c],
                    &out[o..o + len],
                    &ds[..len],
                    &mut jz[..len],
                );
                for k in 0..len {
                    residual[k] = v[o + k] - jz[k] - self.shift * out[o + k];
                }
                for i in 0..len {
                    let change = match &self.block_inverses[c] {
                        Some(m) => (0..len).map(|j| m[i * len + j] * residual[j]).sum(),
                        None => residual[i],
                    };
                    if change != 0.0 {
                        out[o + i] += change;
                        self.rows.add(o + i, change, &mut self.dw);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::{Delassus, JacobianRow};
    use crate::laws::packed_rows::PackedRows;
    use crate::laws::sparse::block_residual;
    use crate::model::BlockDiagonalMass;
    use nalgebra::DMatrix;

    /// Deterministic numbers in [−1, 1).
    fn noise(k: usize) -> f64 {
        let x = ((k as f64 + 1.0) * 12.9898).sin() * 43758.5453;
        2.0 * (x - x.floor()) - 1.0
    }

    /// Three contacts between two free bodies (6 dofs each, diagonal mass), rows normal and
    /// two tangents, random rows; friction 0.5.
    fn problem() -> (Delassus, Vec<LawBlock>, Vec<f64>) {
        let mass = BlockDiagonalMass::new(
            12,
            vec![
                (
                    0,
                    DMatrix::from_diagonal(&nalgebra::DVector::from_vec(vec![
                        2.0, 2.0, 2.0, 0.1, 0.2, 0.3,
                    ])),
                ),
                (
                    6,
                    DMatrix::from_diagonal(&nalgebra::DVector::from_vec(vec![
                        1.0, 1.0, 1.0, 0.05, 0.05, 0.08,
                    ])),
                ),
            ],
        );
        let rows: Vec<JacobianRow> = (0..9)
            .map(|i| JacobianRow {
                entries: (0..12).map(|j| (j, noise(100 * i + j))).collect(),
            })
            .collect();
        let blocks: Vec<LawBlock> = (0..3)
            .map(|c| LawBlock {
                offset: 3 * c,
                tangents: 2,
                rolling: 0,
                spin: 0,
                friction: 0.5,
                rolling_resistance: 0.0,
                spinning_resistance: 0.0,
                bilateral: false,
            })
            .collect();
        let u_free = (0..9).map(|i| noise(7000 + i)).collect();
        (Delassus::new(&mass, rows), blocks, u_free)
    }

    /// R(λ) of the whole problem, as the sparse solver evaluates it.
    fn residual(
        delassus: &Delassus,
        blocks: &[LawBlock],
        locals: &[LocalBlock],
        u_free: &[f64],
        lambda: &[f64],
    ) -> (Vec<f64>, Vec<f64>) {
        let mut w = vec![0.0; 12];
        for (row, &l) in delassus.inverse_mass_rows().iter().zip(lambda) {
            row.add_transpose_to_slice(l, &mut w);
        }
        let u: Vec<f64> = (0..9)
            .map(|i| u_free[i] + delassus.rows()[i].dot_slice(&w))
            .collect();
        let mut r = vec![0.0; 9];
        for (b, local) in blocks.iter().zip(locals) {
            let range = b.offset..b.offset + block_len(b);
            block_residual(
                b,
                local,
                &lambda[range.clone()],
                &u[range.clone()],
                &mut r[range],
            );
        }
        (r, u)
    }

    /// The exact product J v equals central differences of R at points where the contacts
    /// are open, sticking and sliding (away from the kinks, where R is smooth).
    #[test]
    fn the_jacobian_product_is_the_derivative_of_the_residual() {
        let (delassus, blocks, u_free) = problem();
        let locals: Vec<LocalBlock> = blocks
            .iter()
            .map(|b| LocalBlock::new(&delassus, b, 1.0))
            .collect();
        let mut seen = [false; 3];
        for trial in 0..40 {
            let lambda: Vec<f64> = (0..9).map(|i| 2.0 * noise(300 * trial + i)).collect();
            let (_, u) = residual(&delassus, &blocks, &locals, &u_free, &lambda);
            // Which case each contact is in: open (σ_N ≤ 0), stick or slide.
            for (b, local) in blocks.iter().zip(&locals) {
                let o = b.offset;
                let sigma: Vec<f64> = (0..3)
                    .map(|k| lambda[o + k] - local.r[k] * u[o + k])
                    .collect();
                let slip = sigma[1].hypot(sigma[2]);
                let case = if sigma[0] <= 0.0 {
                    0
                } else if slip <= 0.5 * sigma[0] {
                    1
                } else {
                    2
                };
                seen[case] = true;
            }
            let v: Vec<f64> = (0..9).map(|i| noise(9000 + 31 * trial + i)).collect();
            let mut packed = PackedRows::default();
            packed.pack(delassus.rows(), delassus.inverse_mass_rows(), 12, true);
            let mut jacobian = LawJacobian::new(
                &blocks,
                &locals,
                Rows::new(&packed, delassus.rows(), delassus.inverse_mass_rows()),
                12,
                JacobianStorage::default(),
            );
            jacobian.linearize(&lambda, &u, 0.0);
            let mut jv = vec![0.0; 9];
            jacobian.apply(&v, &mut jv);
            let eps = 1e-7;
            let shifted =
                |s: f64| -> Vec<f64> { lambda.iter().zip(&v).map(|(l, d)| l + s * d).collect() };
            let (plus, _) = residual(&delassus, &blocks, &locals, &u_free, &shifted(eps));
            let (minus, _) = residual(&delassus, &blocks, &locals, &u_free, &shifted(-eps));
            for i in 0..9 {
                let difference = (plus[i] - minus[i]) / (2.0 * eps);
                assert!(
                    (jv[i] - difference).abs() <= 1e-6 * (1.0 + difference.abs()),
                    "trial {trial} row {i}: J v = {} against {difference}",
                    jv[i]
                );
            }
        }
        assert!(
            seen.iter().all(|&s| s),
            "cases seen (open, stick, slide): {seen:?}"
        );
    }

    /// With one contact the preconditioner is that contact's exact inverse: J P⁻¹ v = v,
    /// for Newton's model J and for the Levenberg–Marquardt model J + θ I alike.
    #[test]
    fn one_contact_is_preconditioned_exactly() {
        for shift in [0.0, 0.3] {
            one_contact_with_shift(shift);
        }
    }

    fn one_contact_with_shift(shift: f64) {
        let (delassus, blocks, u_free) = problem();
        let one = &blocks[..1];
        let locals = vec![LocalBlock::new(&delassus, &one[0], 1.0)];
        let lambda = [0.8, 0.1, -0.2];
        let (_, u) = residual(
            &delassus,
            one,
            &locals,
            &u_free,
            &[
                lambda[0], lambda[1], lambda[2], 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
            ],
        );
        let (rows, inverse_mass_rows) = (&delassus.rows()[..3], &delassus.inverse_mass_rows()[..3]);
        let mut packed = PackedRows::default();
        packed.pack(rows, inverse_mass_rows, 12, true);
        let model = |shift| {
            let mut model = LawJacobian::new(
                one,
                &locals,
                Rows::new(&packed, rows, inverse_mass_rows),
                12,
                JacobianStorage::default(),
            );
            model.linearize(&lambda, &u[..3], shift);
            model
        };
        let v = [0.3, -0.7, 0.2];
        let (mut p, mut jp, mut plain) = ([0.0; 3], [0.0; 3], [0.0; 3]);
        let mut shifted = model(shift);
        shifted.precondition(&v, &mut p);
        shifted.apply(&p, &mut jp);
        // The unshifted model's J p, plus θ p, independently.
        model(0.0).apply(&p, &mut plain);
        for i in 0..3 {
            let expected = plain[i] + shift * p[i];
            assert!(
                (jp[i] - v[i]).abs() <= 1e-12 && (expected - v[i]).abs() <= 1e-12,
                "θ = {shift}, row {i}: {} and {expected} against {}",
                jp[i],
                v[i]
            );
        }
    }

    /// Gauss–Jordan inverse of a 3 × 3 matrix times the matrix is the identity.
    #[test]
    fn small_inverse_is_an_inverse() {
        let a = [4.0, 1.0, 0.5, 1.0, 3.0, -1.0, 0.5, -1.0, 2.0];
        let mut m = [0.0; 36];
        m[..9].copy_from_slice(&a);
        assert!(invert_small(&mut m, 3));
        for i in 0..3 {
            for j in 0..3 {
                let p: f64 = (0..3).map(|k| a[i * 3 + k] * m[k * 3 + j]).sum();
                assert!(
                    (p - f64::from(u8::from(i == j))).abs() < 1e-14,
                    "({i},{j}) {p}"
                );
            }
        }
        let mut singular = [0.0; 36];
        singular[..4].copy_from_slice(&[1.0, 2.0, 2.0, 4.0]);
        assert!(!invert_small(&mut singular, 2));
    }
}
