//! The exact local solve of a round contact (a sphere or disk on a sphere, disk or plane) in closed form, rolling and spinning resistance included.
//!
//! Block Gauss–Seidel solves each contact's laws with the others frozen: with its own
//! Delassus block W_cc and local free quantities f, find λ with u = f + W_cc λ in the laws.
//! For a round body the block has a structure that makes this problem small:
//!
//! - the normal row moves the centres along the normal only, so it is uncoupled from the
//!   tangent, rolling and spinning rows: λ_N = max(0, −f_N / w_N) on its own;
//! - the spinning row (the relative spin about the normal) is uncoupled from the rest too:
//!   λ_S = clamp(−f_S / w_S, ±γ λ_N);
//! - the tangent rows (T, velocity of the contact points) and the rolling rows (R, relative
//!   angular velocity in the tangent plane) are coupled through ω × r:
//!
//! ```text
//!     [u_T]   [f_T]   [ w_T I   C   ] [λ_T]
//!     [u_R] = [f_R] + [ Cᵀ    w_R I ] [λ_R],      C Cᵀ = c² I   (C is c times a rotation).
//! ```
//!
//! With λ_N known the bounds μλ_N and ρλ_N are fixed, and the friction and rolling laws are
//! the optimality conditions of the convex problem min ½ λᵀ W λ + fᵀ λ over the two discs.
//! Its solution is one of three cases, each closed-form and tried in turn:
//!
//! 1. rolling inside its disc: eliminate λ_R = −(f_R + Cᵀ λ_T)/w_R; λ_T minimises over its
//!    disc with the Schur complement (w_T − c²/w_R) I, so λ_T = P_μλ_N(−(f_T − C f_R/w_R) /
//!    (w_T − c²/w_R)) (sticking and sliding alike); kept if that λ_R is inside its disc;
//! 2. friction inside its disc, the same with the roles exchanged;
//! 3. both at their bounds: coordinate descent between the two discs, which converges
//!    (a convex problem, contraction c²/(w_T w_R) < 1 per pass) to the same minimiser.
//!
//! Blocks of another structure (boxes, whose tangent rows see different inertias) are left
//! to the small semismooth Newton of `solve_local`.

use super::LawBlock;
use super::projection::clamp_to_ball;
use crate::linalg::float::max;

/// Relative tolerance on the structure (zeros and isotropy) of W_cc.
const STRUCTURE_TOLERANCE: f64 = 1e-12;

/// Most passes of the coordinate descent of case 3.
const MAX_PASSES: usize = 200;

/// A round contact's block in the form the closed-form solve uses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct RoundContact {
    /// w_N, w_T, w_R, w_S: the diagonal entries (1 where the row is absent).
    w_n: f64,
    w_t: f64,
    w_r: f64,
    w_s: f64,
    /// C (tangent rows × rolling rows), row-major with stride 2.
    c: [f64; 4],
    /// c²: C Cᵀ = c² I.
    c2: f64,
}

impl RoundContact {
    /// The block's structure if W_cc (row-major, stride `len`) has it, else `None`.
    pub(super) fn of(w: &[f64], b: &LawBlock) -> Option<Self> {
        let len = 1 + b.tangents + b.rolling + b.spin;
        let (t, nr, s) = (b.tangents, b.rolling, b.spin);
        let at = |i: usize, j: usize| w[i * len + j];
        let diag = |i: usize| at(i, i);
        // The rows' ranges in the block.
        let (t0, r0, s0) = (1, 1 + t, 1 + t + nr);
        let w_n = diag(0);
        let w_t = if t > 0 { diag(t0) } else { 1.0 };
        let w_r = if nr > 0 { diag(r0) } else { 1.0 };
        let w_s = if s > 0 { diag(s0) } else { 1.0 };
        if !(w_n > 0.0 && w_t > 0.0 && w_r > 0.0 && w_s > 0.0) {
            return None;
        }
        let group = |i: usize| {
            if i == 0 {
                0
            } else if i < r0 {
                1
            } else if i < s0 {
                2
            } else {
                3
            }
        };
        // Each law's rows isotropic (one diagonal value), nothing coupled but T with R.
        let law_diagonal = [w_n, w_t, w_r, w_s];
        let scale = |i: usize, j: usize| (diag(i) * diag(j)).sqrt();
        for i in 0..len {
            for j in 0..len {
                let (gi, gj) = (group(i), group(j));
                let expected = if i == j {
                    law_diagonal[gi]
                } else if (gi, gj) == (1, 2) || (gi, gj) == (2, 1) {
                    continue; // the T–R coupling C, checked below
                } else {
                    0.0
                };
                if (at(i, j) - expected).abs() > STRUCTURE_TOLERANCE * scale(i, j) {
                    return None;
                }
            }
        }
        let mut c = [0.0; 4];
        for i in 0..t {
            for j in 0..nr {
                c[i * 2 + j] = at(t0 + i, r0 + j);
            }
        }
        // C Cᵀ = c² I (and so Cᵀ C = c² I when C is square, as it is whenever both are there).
        let mut c2 = 0.0;
        if t > 0 && nr > 0 {
            if t != nr {
                return None;
            }
            let cct =
                |i: usize, k: usize| (0..nr).map(|j| c[i * 2 + j] * c[k * 2 + j]).sum::<f64>();
            c2 = cct(0, 0);
            for i in 0..t {
                for k in 0..t {
                    let expected = if i == k { c2 } else { 0.0 };
                    if (cct(i, k) - expected).abs() > STRUCTURE_TOLERANCE * w_t * w_r {
                        return None;
                    }
                }
            }
            // The T–R block must be positive definite for the Schur complements.
            if c2 >= (1.0 - 1e-9) * w_t * w_r {
                return None;
            }
        }
        Some(Self {
            w_n,
            w_t,
            w_r,
            w_s,
            c,
            c2,
        })
    }

    /// Solves the block's laws for local free quantities `free`, writing λ into `out`.
    pub(super) fn solve(&self, b: &LawBlock, free: &[f64], out: &mut [f64]) {
        let (t, nr, s) = (b.tangents, b.rolling, b.spin);
        let (t0, r0, s0) = (1, 1 + t, 1 + t + nr);
        let (normal, _) = b.project_normal(-free[0] / self.w_n);
        out[0] = normal;
        if s > 0 {
            let bound = b.spinning_resistance * normal;
            out[s0] = (-free[s0] / self.w_s).clamp(-bound, bound);
        }
        let (mu_n, rho_n) = (b.friction * normal, b.rolling_resistance * normal);
        let (f_t, f_r) = (&free[t0..t0 + t], &free[r0..r0 + nr]);
        let (mut x_t, mut x_r) = ([0.0; 2], [0.0; 2]);
        if nr == 0 || t == 0 {
            // Uncoupled: each law alone.
            for k in 0..t {
                x_t[k] = -f_t[k] / self.w_t;
            }
            for k in 0..nr {
                x_r[k] = -f_r[k] / self.w_r;
            }
            clamp_to_ball(&mut x_t[..t], mu_n);
            clamp_to_ball(&mut x_r[..nr], rho_n);
        } else if !self.one_inside(f_t, f_r, (mu_n, rho_n), (&mut x_t, &mut x_r)) {
            self.both_at_bounds(f_t, f_r, (mu_n, rho_n), (&mut x_t, &mut x_r));
        }
        out[t0..t0 + t].copy_from_slice(&x_t[..t]);
        out[r0..r0 + nr].copy_from_slice(&x_r[..nr]);
    }

    /// C x (x rolling-sized) into a tangent-sized vector, or Cᵀ x the other way.
    fn apply(&self, x: &[f64], transpose: bool, n: usize) -> [f64; 2] {
        let mut y = [0.0; 2];
        for (i, yi) in y.iter_mut().enumerate().take(n) {
            for (j, xj) in x.iter().enumerate().take(n) {
                *yi += if transpose {
                    self.c[j * 2 + i]
                } else {
                    self.c[i * 2 + j]
                } * xj;
            }
        }
        y
    }

    /// Cases 1 and 2 of the module notes; true when one of them holds.
    fn one_inside(
        &self,
        f_t: &[f64],
        f_r: &[f64],
        (mu_n, rho_n): (f64, f64),
        (x_t, x_r): (&mut [f64; 2], &mut [f64; 2]),
    ) -> bool {
        // Case 1: friction on its disc, λ_R = −(f_R + Cᵀ λ_T)/w_R inside its own.
        self.eliminate(false, (f_t, f_r), (mu_n, rho_n), (&mut *x_t, &mut *x_r))
            // Case 2: the roles exchanged (C becomes Cᵀ).
            || self.eliminate(true, (f_r, f_t), (rho_n, mu_n), (x_r, x_t))
    }

    /// One law (a) on its disc with the other (b) eliminated, b = −(f_b + C_ba a)/w_b:
    /// a = P(−(f_a − C_ab f_b / w_b) / (w_a − c²/w_b)). True when b lands inside its disc.
    /// `a_is_rolling` says which is which (C_ab is C for a = friction, Cᵀ for a = rolling).
    fn eliminate(
        &self,
        a_is_rolling: bool,
        (f_a, f_b): (&[f64], &[f64]),
        (bound_a, bound_b): (f64, f64),
        (x_a, x_b): (&mut [f64; 2], &mut [f64; 2]),
    ) -> bool {
        let n = f_a.len();
        let (w_a, w_b) = if a_is_rolling {
            (self.w_r, self.w_t)
        } else {
            (self.w_t, self.w_r)
        };
        let coupled = self.apply(f_b, a_is_rolling, n);
        let schur = w_a - self.c2 / w_b;
        for k in 0..n {
            x_a[k] = -(f_a[k] - coupled[k] / w_b) / schur;
        }
        clamp_to_ball(&mut x_a[..n], bound_a);
        let back = self.apply(&x_a[..n], !a_is_rolling, n);
        for k in 0..n {
            x_b[k] = -(f_b[k] + back[k]) / w_b;
        }
        norm(&x_b[..n]) <= bound_b * (1.0 + 1e-12) + 1e-300
    }

    /// Case 3: both laws at their bounds, by coordinate descent from case 2's point.
    fn both_at_bounds(
        &self,
        f_t: &[f64],
        f_r: &[f64],
        (mu_n, rho_n): (f64, f64),
        (x_t, x_r): (&mut [f64; 2], &mut [f64; 2]),
    ) {
        let n = f_t.len();
        clamp_to_ball(&mut x_t[..n], mu_n);
        let scale = max(max(mu_n, rho_n), 1e-300);
        for _ in 0..MAX_PASSES {
            let (old_t, old_r) = (*x_t, *x_r);
            let c = self.apply(&x_r[..n], false, n);
            for k in 0..n {
                x_t[k] = -(f_t[k] + c[k]) / self.w_t;
            }
            clamp_to_ball(&mut x_t[..n], mu_n);
            let ct = self.apply(&x_t[..n], true, n);
            for k in 0..n {
                x_r[k] = -(f_r[k] + ct[k]) / self.w_r;
            }
            clamp_to_ball(&mut x_r[..n], rho_n);
            let change = (0..n)
                .map(|k| max((x_t[k] - old_t[k]).abs(), (x_r[k] - old_r[k]).abs()))
                .fold(0.0, max);
            if change <= 1e-15 * scale {
                break;
            }
        }
    }
}

fn norm(x: &[f64]) -> f64 {
    x.iter().map(|v| v * v).sum::<f64>().sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic numbers in [−1, 1).
    fn noise(i: usize) -> f64 {
        let x = (i as f64 * 12.9898 + 78.233).sin() * 43758.5453;
        2.0 * (x - x.floor()) - 1.0
    }

    /// The rows (N, T_x, T_y, R_x, R_y, S) of a contact at −a ẑ below a ball of radius `a`
    /// (velocity v, spin ω: the point moves at v + ω × (−a ẑ)), on the ball's six
    /// coordinates, scaled by `sign` (the second body of a pair sees the rows negated).
    fn ball_rows(a: f64, sign: f64) -> [[f64; 6]; 6] {
        let mut g = [[0.0; 6]; 6];
        g[0][2] = 1.0;
        (g[1][0], g[1][4]) = (1.0, -a);
        (g[2][1], g[2][3]) = (1.0, a);
        g[3][3] = 1.0;
        g[4][4] = 1.0;
        g[5][5] = 1.0;
        g.map(|row| row.map(|x| sign * x))
    }

    /// A body's mass, principal inertias and contact rows.
    type Body = (f64, [f64; 3], [[f64; 6]; 6]);

    /// W = Σ G M⁻¹ Gᵀ over the bodies.
    fn delassus(bodies: &[Body]) -> [f64; 36] {
        let mut w = [0.0; 36];
        for (m, inertia, g) in bodies {
            let inverse = [
                1.0 / m,
                1.0 / m,
                1.0 / m,
                1.0 / inertia[0],
                1.0 / inertia[1],
                1.0 / inertia[2],
            ];
            for i in 0..6 {
                for j in 0..6 {
                    w[i * 6 + j] += (0..6).map(|k| g[i][k] * inverse[k] * g[j][k]).sum::<f64>();
                }
            }
        }
        w
    }

    fn block(mu: f64, rho: f64, gamma: f64) -> LawBlock {
        LawBlock {
            offset: 0,
            tangents: 2,
            rolling: 2,
            spin: 1,
            friction: mu,
            rolling_resistance: rho,
            spinning_resistance: gamma,
            bilateral: false,
        }
    }

    /// Largest violation of the laws at (λ, u): the natural map λ − P(λ − u) of each law,
    /// with its bound from λ_N (at a solution P's argument has λ_N as its normal part).
    fn law_violation(b: &LawBlock, lambda: &[f64], u: &[f64]) -> f64 {
        let normal = max(lambda[0] - u[0], 0.0);
        let mut worst = (lambda[0] - normal).abs();
        for law in b.ball_laws() {
            let range = law.start..law.start + law.len;
            let mut x: Vec<f64> = range.clone().map(|k| lambda[k] - u[k]).collect();
            clamp_to_ball(&mut x, law.coefficient * normal);
            for (k, xk) in range.zip(&x) {
                worst = max(worst, (lambda[k] - xk).abs());
            }
        }
        worst
    }

    /// On a plane and on another ball, for free motions that stick, slide, roll and spin,
    /// the closed-form λ satisfies every law to rounding, and all three cases occur.
    #[test]
    fn closed_form_satisfies_the_laws_in_every_case() {
        let (m, a) = (0.5, 0.05);
        let i = 0.4 * m * a * a;
        let on_plane = delassus(&[(m, [i; 3], ball_rows(a, 1.0))]);
        let (m2, a2) = (2.0, 0.08);
        let i2 = 0.4 * m2 * a2 * a2;
        // The second ball touches at +a₂ ẑ from its centre: the point's velocity there is
        // v + ω × (a₂ ẑ), the rows of a ball of radius −a₂, and the relative rows negated.
        let on_ball = delassus(&[
            (m, [i; 3], ball_rows(a, 1.0)),
            (m2, [i2; 3], ball_rows(-a2, -1.0)),
        ]);
        let mut cases = [0usize; 3];
        for (which, w) in [on_plane, on_ball].iter().enumerate() {
            for trial in 0..400 {
                let n = 100 * trial + 7 * which;
                let b = block(
                    0.2 + noise(n).abs(),
                    0.02 * noise(n + 1).abs(),
                    0.02 * noise(n + 2).abs(),
                );
                let round = RoundContact::of(w, &b).expect("a ball's block is round");
                // Pressing down (f_N < 0) with a random tangential and angular drive.
                let mut free: Vec<f64> = (0..6).map(|k| noise(n + 10 + k)).collect();
                free[0] = -free[0].abs() - 0.1;
                let mut lambda = [0.0; 6];
                round.solve(&b, &free, &mut lambda);
                let u: Vec<f64> = (0..6)
                    .map(|r| free[r] + (0..6).map(|c| w[r * 6 + c] * lambda[c]).sum::<f64>())
                    .collect();
                let scale = lambda.iter().fold(1e-300f64, |s, x| s.max(x.abs()));
                let violation = law_violation(&b, &lambda, &u);
                assert!(
                    violation <= 1e-12 * scale.max(1.0),
                    "body {which} trial {trial}: laws violated by {violation:e} (λ = {lambda:?}, u = {u:?})"
                );
                let at = |start: usize, bound: f64| {
                    (lambda[start].hypot(lambda[start + 1]) - bound).abs() <= 1e-12 * scale
                };
                let (slides, rolls) = (
                    at(1, b.friction * lambda[0]),
                    at(3, b.rolling_resistance * lambda[0]),
                );
                cases[usize::from(slides) + usize::from(rolls)] += 1;
            }
        }
        assert!(
            cases.iter().all(|&c| c > 0),
            "cases (neither, one, both at bound): {cases:?}"
        );
    }

    /// A body whose tangent rows see different inertias (a box) is not round.
    #[test]
    fn anisotropic_inertia_is_not_round() {
        let (m, a) = (1.0, 0.05);
        let w = delassus(&[(m, [1e-3, 2e-3, 3e-3], ball_rows(a, 1.0))]);
        assert!(RoundContact::of(&w, &block(0.5, 0.01, 0.01)).is_none());
        let round = delassus(&[(m, [1e-3; 3], ball_rows(a, 1.0))]);
        assert!(RoundContact::of(&round, &block(0.5, 0.01, 0.01)).is_some());
        // Without friction rows nothing couples the rolling rows, but their two diagonal
        // entries (1/I_x, 1/I_y) differ: no single w_R, so not round either.
        let keep = [0, 3, 4, 5];
        let mut rolling_only = [0.0; 16];
        for (i, &a) in keep.iter().enumerate() {
            for (j, &b) in keep.iter().enumerate() {
                rolling_only[i * 4 + j] = w[a * 6 + b];
            }
        }
        let no_friction = LawBlock {
            tangents: 0,
            ..block(0.0, 0.01, 0.01)
        };
        assert!(RoundContact::of(&rolling_only, &no_friction).is_none());
    }
}
