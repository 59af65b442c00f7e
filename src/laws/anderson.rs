//! Anderson acceleration of a fixed-point iteration x ↦ G(x): the next point mixes the last few images so that the differences of the residuals f = G(x) − x cancel as far as they can.
//!
//! With the last m steps' differences ΔF_j = f_{j+1} − f_j and ΔG_j = G(x_{j+1}) − G(x_j),
//!
//! ```text
//!     γ = argmin ‖f_k − ΔF γ‖₂,        x_{k+1} = G(x_k) − ΔG γ
//! ```
//!
//! (Walker and Ni, 2011, "Anderson acceleration for fixed-point iterations", the
//! "type II" form). On a linear contraction G(x) = A x + b it is GMRES in disguise: with
//! m ≥ n it finds the fixed point of an n-dimensional map in at most n + 1 steps. The
//! block Gauss–Seidel sweeps of a deep pile converge linearly at 0.99 and more per sweep,
//! where it can help; on the nonsmooth laws the mixed point is only a candidate, which
//! the caller projects onto the laws and keeps only when its residual is lower.
//!
//! The least-squares problem is solved by its normal equations (m ≤ [`MAX_DEPTH`]), with
//! a relative Tikhonov term so that nearly parallel differences do not blow γ up.

/// The deepest history kept.
pub const MAX_DEPTH: usize = 8;

/// Relative regularisation of the normal equations ΔFᵀΔF.
const TIKHONOV: f64 = 1e-10;

/// The history of an Anderson-accelerated iteration on vectors of one length.
#[derive(Debug, Clone, Default)]
pub struct Anderson {
    depth: usize,
    n: usize,
    /// The last step's f and G(x), to difference against.
    last_f: Vec<f64>,
    last_g: Vec<f64>,
    has_last: bool,
    /// ΔF and ΔG, `depth` columns of n in a ring, `count` of them filled, the newest at
    /// `(head + count − 1) mod depth`.
    delta_f: Vec<f64>,
    delta_g: Vec<f64>,
    count: usize,
    head: usize,
    f: Vec<f64>,
}

impl Anderson {
    /// Starts (or restarts) a history of `depth` steps (at most [`MAX_DEPTH`]) for vectors
    /// of length `n`, keeping the storage.
    pub fn reset(&mut self, depth: usize, n: usize) {
        self.depth = depth.min(MAX_DEPTH);
        self.n = n;
        self.has_last = false;
        self.count = 0;
        self.head = 0;
        if self.depth == 0 {
            return;
        }
        for v in [&mut self.last_f, &mut self.last_g, &mut self.f] {
            v.clear();
            v.resize(n, 0.0);
        }
        for v in [&mut self.delta_f, &mut self.delta_g] {
            v.clear();
            v.resize(self.depth * n, 0.0);
        }
    }

    /// Forgets the history (after a step the caller did not take), keeping the storage.
    pub fn forget(&mut self) {
        self.has_last = false;
        self.count = 0;
        self.head = 0;
    }

    /// Records the step x → g = G(x) and writes the mixed next point into `out`; false
    /// (and `out` untouched) while there is no difference to mix with yet, or when the
    /// depth is zero. `x`, `g` and `out` have the length given to [`Self::reset`].
    pub fn mix(&mut self, x: &[f64], g: &[f64], out: &mut [f64]) -> bool {
        let n = self.n;
        if self.depth == 0 {
            return false;
        }
        for i in 0..n {
            self.f[i] = g[i] - x[i];
        }
        if self.has_last {
            let slot = (self.head + self.count) % self.depth;
            if self.count == self.depth {
                self.head = (self.head + 1) % self.depth;
            } else {
                self.count += 1;
            }
            let (df, dg) = (
                &mut self.delta_f[slot * n..(slot + 1) * n],
                &mut self.delta_g[slot * n..(slot + 1) * n],
            );
            for i in 0..n {
                df[i] = self.f[i] - self.last_f[i];
                dg[i] = g[i] - self.last_g[i];
            }
        }
        self.last_f.copy_from_slice(&self.f);
        self.last_g.copy_from_slice(g);
        self.has_last = true;
        let m = self.count;
        if m == 0 {
            return false;
        }
        // Normal equations (ΔFᵀΔF + τ I) γ = ΔFᵀ f, columns in ring order.
        let column = |k: usize| {
            let slot = (self.head + k) % self.depth;
            slot * n..(slot + 1) * n
        };
        let mut a = [[0.0; MAX_DEPTH]; MAX_DEPTH];
        let mut b = [0.0; MAX_DEPTH];
        for j in 0..m {
            let cj = &self.delta_f[column(j)];
            // (Both triangles at once: k indexes a[j] and a[k].)
            #[allow(clippy::needless_range_loop)]
            for k in 0..=j {
                let ck = &self.delta_f[column(k)];
                let s: f64 = cj.iter().zip(ck).map(|(p, q)| p * q).sum();
                (a[j][k], a[k][j]) = (s, s);
            }
            b[j] = cj.iter().zip(&self.f).map(|(p, q)| p * q).sum();
        }
        let trace: f64 = (0..m).map(|j| a[j][j]).sum();
        if trace <= 0.0 || !trace.is_finite() {
            return false;
        }
        for (j, row) in a.iter_mut().enumerate().take(m) {
            row[j] += TIKHONOV * trace;
        }
        let Some(gamma) = solve_symmetric(&mut a, &mut b, m) else {
            return false;
        };
        out.copy_from_slice(g);
        for (j, &gj) in gamma.iter().enumerate().take(m) {
            for (o, d) in out.iter_mut().zip(&self.delta_g[column(j)]) {
                *o -= gj * d;
            }
        }
        out.iter().all(|v| v.is_finite())
    }
}

/// Solves the m × m system a γ = b by Gaussian elimination with partial pivoting (a is
/// positive definite here, pivoting only guards rounding); None if a pivot vanishes.
fn solve_symmetric(
    a: &mut [[f64; MAX_DEPTH]; MAX_DEPTH],
    b: &mut [f64; MAX_DEPTH],
    m: usize,
) -> Option<[f64; MAX_DEPTH]> {
    for col in 0..m {
        let pivot = (col..m).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col] == 0.0 || !a[pivot][col].is_finite() {
            return None;
        }
        a.swap(pivot, col);
        b.swap(pivot, col);
        let pivot_row = a[col];
        for i in col + 1..m {
            let f = a[i][col] / pivot_row[col];
            for (x, p) in a[i][col..m].iter_mut().zip(&pivot_row[col..m]) {
                *x -= f * p;
            }
            b[i] -= f * b[col];
        }
    }
    let mut x = [0.0; MAX_DEPTH];
    for i in (0..m).rev() {
        let s: f64 = (i + 1..m).map(|k| a[i][k] * x[k]).sum();
        x[i] = (b[i] - s) / a[i][i];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// G(x) = A x + c on ℝ³ with A symmetric, eigenvalues 0.99, 0.5, −0.3: plain iteration
    /// gains a factor 0.99 a step, Anderson with a history of 3 is GMRES and finds the fixed
    /// point x* = (I − A)⁻¹ c in n + 1 = 4 steps (to rounding).
    #[test]
    fn a_linear_contraction_is_solved_in_n_plus_one_steps() {
        // A = Q diag(0.99, 0.5, −0.3) Qᵀ with Q a rotation about (1, 1, 1).
        let (c, s) = (0.6f64, 0.8f64);
        let k = 1.0 / 3.0f64.sqrt();
        let axis = [k, k, k];
        let mut q = [[0.0; 3]; 3];
        for (i, row) in q.iter_mut().enumerate() {
            for (j, qij) in row.iter_mut().enumerate() {
                let cross = match (i, j) {
                    (0, 1) => -axis[2],
                    (0, 2) => axis[1],
                    (1, 0) => axis[2],
                    (1, 2) => -axis[0],
                    (2, 0) => -axis[1],
                    (2, 1) => axis[0],
                    _ => 0.0,
                };
                let delta = if i == j { 1.0 } else { 0.0 };
                *qij = c * delta + s * cross + (1.0 - c) * axis[i] * axis[j];
            }
        }
        let eig = [0.99, 0.5, -0.3];
        let a = |i: usize, j: usize| (0..3).map(|m| q[i][m] * eig[m] * q[j][m]).sum::<f64>();
        let cvec = [1.0, -2.0, 0.5];
        let map = |x: &[f64]| -> [f64; 3] {
            std::array::from_fn(|i| (0..3).map(|j| a(i, j) * x[j]).sum::<f64>() + cvec[i])
        };
        // x* solves (I − A) x = c: in the eigenbasis, (Qᵀ c)_m / (1 − λ_m).
        let qc: Vec<f64> = (0..3)
            .map(|m| (0..3).map(|i| q[i][m] * cvec[i]).sum::<f64>() / (1.0 - eig[m]))
            .collect();
        let exact: Vec<f64> = (0..3)
            .map(|i| (0..3).map(|m| q[i][m] * qc[m]).sum())
            .collect();
        let error = |x: &[f64]| {
            x.iter()
                .zip(&exact)
                .map(|(p, e)| (p - e).abs())
                .fold(0.0, f64::max)
        };
        let mut anderson = Anderson::default();
        anderson.reset(3, 3);
        let (mut x, mut plain) = (vec![0.0; 3], vec![0.0; 3]);
        let mut next = vec![0.0; 3];
        for _ in 0..5 {
            let g = map(&x);
            if !anderson.mix(&x, &g, &mut next) {
                next.copy_from_slice(&g);
            }
            x.copy_from_slice(&next);
            plain = map(&plain).to_vec();
        }
        assert!(
            error(&x) < 1e-9 * error(&[0.0; 3]),
            "Anderson: {}",
            error(&x)
        );
        // Plain iteration after 5 steps still carries 0.99⁵ of the slow component.
        assert!(error(&plain) > 1e-2, "plain: {}", error(&plain));
    }

    /// A depth of zero never mixes; the first step has nothing to mix with.
    #[test]
    fn nothing_to_mix_without_history() {
        let mut anderson = Anderson::default();
        let mut out = [7.0; 2];
        anderson.reset(0, 2);
        assert!(!anderson.mix(&[0.0, 0.0], &[1.0, 1.0], &mut out));
        anderson.reset(2, 2);
        assert!(!anderson.mix(&[0.0, 0.0], &[1.0, 1.0], &mut out));
        assert_eq!(out, [7.0; 2]);
    }
}
