//! Newton–Krylov for a piecewise-smooth residual R(x) = 0: right-preconditioned restarted GMRES on the caller's Jacobian products, with a backtracking line search.
//!
//! Newton's step solves J δ = −R with J a (generalized) Jacobian of R at x. GMRES needs only
//! products J v and, to converge in few iterations, an approximate inverse P⁻¹ ≈ J⁻¹
//! (right preconditioning: GMRES solves J P⁻¹ y = −R, then δ = P⁻¹ y). The caller supplies
//! both through [`Linearized`], built at each Newton iterate: for the contact laws the exact
//! generalized Jacobian of the natural map and one symmetric block Gauss–Seidel sweep of it
//! (`sparse_jacobian.rs`). One-sided differences (R(x + εv) − R(x))/ε were tried there first
//! and failed: near a solution many contacts sit on a kink, and a difference straddles two
//! pieces of R (the tests below still use them, on a smooth residual). The linear solve is
//! inexact (GMRES stops at a relative residual η, tightened as Newton converges), so the
//! caller's stopping rule is on R itself, never on the step.

use crate::linalg::buffers::zeroed;
use crate::linalg::slices::{dot, norm};

/// The linear model of R at one Newton iterate.
pub trait Linearized {
    /// out = J v.
    fn apply(&mut self, v: &[f64], out: &mut [f64]);
    /// out ≈ J⁻¹ v (the preconditioner; the identity by default).
    fn precondition(&mut self, v: &[f64], out: &mut [f64]) {
        out.copy_from_slice(v);
    }
}

/// Settings of [`solve`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KrylovOptions {
    /// Newton iteration cap.
    pub max_newton: usize,
    /// Krylov subspace size before a restart.
    pub restart: usize,
    /// Most GMRES iterations per Newton step.
    pub max_inner: usize,
    /// GMRES stops when ‖J δ + R‖ ≤ forcing · ‖R‖ on the first Newton step; later steps
    /// tighten it as Newton converges (never looser than this).
    pub forcing: f64,
    /// Newton stops when two steps in a row each keep more than this fraction of ‖R‖ (1:
    /// never): the linear model no longer predicts R a step ahead, and further steps cost
    /// a Krylov solve for a few per cent each.
    pub stagnation: f64,
}

impl Default for KrylovOptions {
    fn default() -> Self {
        // A full solve from afar: a long Krylov basis before a restart (restarting after 30
        // stalled on a deep pile). The block-sparse solver's short rounds between sweeps use
        // their own, smaller settings (`sparse.rs`).
        Self {
            max_newton: 20,
            restart: 100,
            max_inner: 1000,
            forcing: 1e-4,
            stagnation: 1.0,
        }
    }
}

/// The buffers of [`solve`] and of its GMRES, kept by the caller between calls: once sized
/// to the problem, the Newton and Krylov iterations allocate nothing.
#[derive(Debug, Clone, Default)]
pub struct KrylovWorkspace {
    residual: Vec<f64>,
    trial: Vec<f64>,
    trial_residual: Vec<f64>,
    preconditioned: Vec<f64>,
    minus_residual: Vec<f64>,
    y: Vec<f64>,
    step: Vec<f64>,
    gmres: GmresWorkspace,
}

/// GMRES's vectors: the Krylov basis (restart + 1 vectors of n, end to end), the
/// Hessenberg columns, the Givens rotations and the rotated right-hand side.
#[derive(Debug, Clone, Default)]
struct GmresWorkspace {
    r: Vec<f64>,
    av: Vec<f64>,
    w: Vec<f64>,
    basis: Vec<f64>,
    /// Column k (length k + 2) at k·(restart + 1).
    hessenberg: Vec<f64>,
    cs: Vec<f64>,
    sn: Vec<f64>,
    g: Vec<f64>,
    coefficients: Vec<f64>,
}

/// Makes `v` at least n long, keeping what it holds.
fn grown(v: &mut Vec<f64>, n: usize) {
    if v.len() < n {
        v.resize(n, 0.0);
    }
}

/// Restarted GMRES for J δ = b, J applied by `apply(v, out)`; δ into `x`, returns its inner
/// iterations.
fn gmres(
    b: &[f64],
    mut apply: impl FnMut(&[f64], &mut [f64]),
    options: &KrylovOptions,
    x: &mut Vec<f64>,
    work: &mut GmresWorkspace,
) -> usize {
    let n = b.len();
    zeroed(x, n);
    let target = options.forcing * norm(b);
    let m = options.restart.max(1);
    let stride = m + 1;
    let mut iterations = 0;
    let GmresWorkspace {
        r,
        av,
        w,
        basis,
        hessenberg,
        cs,
        sn,
        g,
        coefficients,
    } = work;
    r.clear();
    r.extend_from_slice(b);
    zeroed(av, n);
    // Every basis vector and Hessenberg column is written before it is read, so these only
    // grow: no clearing of (restart + 1)·n entries per Newton step.
    grown(basis, (m + 1) * n);
    grown(hessenberg, m * stride);
    while iterations < options.max_inner {
        // r = b − J x.
        if iterations > 0 {
            apply(x, av);
            for i in 0..n {
                r[i] = b[i] - av[i];
            }
        }
        let beta = norm(r);
        if beta <= target || beta == 0.0 {
            break;
        }
        for (v, ri) in basis[..n].iter_mut().zip(r.iter()) {
            *v = ri / beta;
        }
        cs.clear();
        sn.clear();
        g.clear();
        g.push(beta);
        let mut k = 0;
        while k < m && iterations < options.max_inner {
            iterations += 1;
            zeroed(w, n);
            apply(&basis[k * n..(k + 1) * n], w);
            let col = &mut hessenberg[k * stride..k * stride + k + 2];
            col.fill(0.0);
            for j in 0..=k {
                let vj = &basis[j * n..(j + 1) * n];
                let hj = dot(w, vj);
                col[j] = hj;
                for i in 0..n {
                    w[i] -= hj * vj[i];
                }
            }
            let wn = norm(w);
            col[k + 1] = wn;
            for j in 0..k {
                let t = cs[j] * col[j] + sn[j] * col[j + 1];
                col[j + 1] = -sn[j] * col[j] + cs[j] * col[j + 1];
                col[j] = t;
            }
            let rho = (col[k] * col[k] + col[k + 1] * col[k + 1]).sqrt();
            let (c, s) = if rho > 0.0 {
                (col[k] / rho, col[k + 1] / rho)
            } else {
                (1.0, 0.0)
            };
            col[k] = rho;
            col[k + 1] = 0.0;
            cs.push(c);
            sn.push(s);
            g.push(-s * g[k]);
            g[k] *= c;
            k += 1;
            if g[k].abs() <= target || wn == 0.0 {
                break;
            }
            for (v, wi) in basis[k * n..(k + 1) * n].iter_mut().zip(w.iter()) {
                *v = wi / wn;
            }
        }
        // Back substitution for the subspace coefficients, then x += V y.
        zeroed(coefficients, k);
        for i in (0..k).rev() {
            let mut s = g[i];
            for j in i + 1..k {
                s -= hessenberg[j * stride + i] * coefficients[j];
            }
            let diagonal = hessenberg[i * stride + i];
            coefficients[i] = if diagonal != 0.0 { s / diagonal } else { 0.0 };
        }
        for (j, yj) in coefficients.iter().enumerate() {
            let vj = &basis[j * n..(j + 1) * n];
            for i in 0..n {
                x[i] += yj * vj[i];
            }
        }
        if g[k].abs() <= target {
            break;
        }
    }
    iterations
}

/// What [`solve`] did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KrylovOutcome {
    /// Newton steps taken.
    pub newton: usize,
    /// GMRES iterations (each one residual evaluation) over all steps.
    pub inner: usize,
    /// True when `done` accepted the final x.
    pub converged: bool,
}

/// Newton–Krylov on R(x) = 0 from `x`: `residual(x, out)` evaluates R, `linearize(model,
/// x, R)` makes `model` the linear model at x (R lets the caller shift it, as
/// Levenberg–Marquardt does), `done(x, R)` is the caller's stopping rule. `x` ends at the
/// best point found (the line search never increases ‖R‖). The model and `work` are the
/// caller's, reused from call to call.
pub fn solve<L: Linearized>(
    x: &mut [f64],
    mut residual: impl FnMut(&[f64], &mut [f64]),
    model: &mut L,
    mut linearize: impl FnMut(&mut L, &[f64], &[f64]),
    mut done: impl FnMut(&[f64], &[f64]) -> bool,
    options: &KrylovOptions,
    work: &mut KrylovWorkspace,
) -> KrylovOutcome {
    let n = x.len();
    let KrylovWorkspace {
        residual: r,
        trial,
        trial_residual: rt,
        preconditioned: z,
        minus_residual: minus_r,
        y,
        step,
        gmres: gmres_work,
    } = work;
    zeroed(r, n);
    residual(x, r);
    let mut outcome = KrylovOutcome {
        newton: 0,
        inner: 0,
        converged: done(x, r),
    };
    zeroed(trial, n);
    zeroed(rt, n);
    zeroed(z, n);
    zeroed(step, n);
    // Forcing term (Eisenstat & Walker's choice 2): the options' η on the first step, then
    // 0.9 (‖R_k‖/‖R_{k−1}‖)², no larger than η, so the linear solves tighten as Newton
    // converges and the convergence is superlinear rather than linear at rate η.
    let mut forcing = options.forcing;
    let mut previous = norm(r);
    // Steps in a row that kept more than `options.stagnation` of ‖R‖.
    let mut slow_steps = 0;
    while !outcome.converged && outcome.newton < options.max_newton {
        outcome.newton += 1;
        let inner_options = KrylovOptions {
            forcing,
            ..*options
        };
        minus_r.clear();
        minus_r.extend(r.iter().map(|v| -v));
        linearize(model, x, r);
        // Right preconditioning: GMRES on J P⁻¹, then δ = P⁻¹ y.
        let inner = gmres(
            minus_r,
            |v, out| {
                model.precondition(v, z);
                model.apply(z, out);
            },
            &inner_options,
            y,
            gmres_work,
        );
        step.fill(0.0);
        model.precondition(y, step);
        outcome.inner += inner;
        // Backtracking on ‖R‖.
        let current = norm(r);
        let mut t = 1.0;
        let mut accepted = false;
        while t >= 1e-4 {
            for i in 0..n {
                trial[i] = x[i] + t * step[i];
            }
            residual(trial, rt);
            if norm(rt) < (1.0 - 1e-4 * t) * current {
                accepted = true;
                break;
            }
            t *= 0.5;
        }
        if !accepted {
            break;
        }
        x.copy_from_slice(trial);
        r.copy_from_slice(rt);
        let now = norm(r);
        let ratio = if previous > 0.0 { now / previous } else { 0.0 };
        forcing = (0.9 * ratio * ratio).clamp(1e-14, options.forcing);
        previous = now;
        outcome.converged = done(x, r);
        slow_steps = if ratio > options.stagnation {
            slow_steps + 1
        } else {
            0
        };
        if slow_steps >= 2 {
            break;
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    /// J v by one-sided differences of a residual function around `x` (whose residual is
    /// `base`), no preconditioner.
    pub struct Differences<F: FnMut(&[f64], &mut [f64])> {
        residual: F,
        x: Vec<f64>,
        base: Vec<f64>,
        shifted: Vec<f64>,
    }

    impl<F: FnMut(&[f64], &mut [f64])> Differences<F> {
        /// A difference model of `residual` for n unknowns (linearised by `at`).
        pub fn new(residual: F, n: usize) -> Self {
            Self {
                residual,
                x: vec![0.0; n],
                base: vec![0.0; n],
                shifted: vec![0.0; n],
            }
        }

        /// Linearises at `x`.
        pub fn at(&mut self, x: &[f64]) {
            self.x.copy_from_slice(x);
            (self.residual)(x, &mut self.base);
        }
    }

    impl<F: FnMut(&[f64], &mut [f64])> Linearized for Differences<F> {
        fn apply(&mut self, v: &[f64], out: &mut [f64]) {
            let vmax = v.iter().fold(0.0f64, |m, a| m.max(a.abs()));
            if vmax == 0.0 {
                out.fill(0.0);
                return;
            }
            let scale = 1.0 + self.x.iter().fold(0.0f64, |m, a| m.max(a.abs()));
            let eps = f64::EPSILON.sqrt() * scale / vmax;
            for ((s, a), b) in self.shifted.iter_mut().zip(&self.x).zip(v) {
                *s = a + eps * b;
            }
            (self.residual)(&self.shifted, out);
            for (o, b) in out.iter_mut().zip(&self.base) {
                *o = (*o - b) / eps;
            }
        }
    }

    /// A smooth nonlinear system with a known root: x_i³ + x_i − c_i coupled by a tridiagonal
    /// term; the root is checked by substitution.
    #[test]
    fn finds_the_root_of_a_coupled_nonlinear_system() {
        let n = 50;
        let target: Vec<f64> = (0..n).map(|i| 0.3 + 0.01 * i as f64).collect();
        let f = |x: &[f64], out: &mut [f64]| {
            for i in 0..n {
                let left = if i > 0 { x[i - 1] } else { 0.0 };
                let right = if i + 1 < n { x[i + 1] } else { 0.0 };
                let t = target[i];
                let c = t * t * t + 3.0 * t
                    - (if i > 0 { target[i - 1] } else { 0.0 })
                    - (if i + 1 < n { target[i + 1] } else { 0.0 });
                out[i] = x[i] * x[i] * x[i] + 3.0 * x[i] - left - right - c;
            }
        };
        let mut x = vec![0.0; n];
        let mut work = KrylovWorkspace::default();
        let outcome = solve(
            &mut x,
            f,
            &mut Differences::new(f, n),
            |model, x, _| model.at(x),
            |_, r| r.iter().all(|v| v.abs() < 1e-12),
            &KrylovOptions::default(),
            &mut work,
        );
        // Again from the start with the same workspace: the same answer, bit for bit.
        let first = x.clone();
        x.fill(0.0);
        let again = solve(
            &mut x,
            f,
            &mut Differences::new(f, n),
            |model, x, _| model.at(x),
            |_, r| r.iter().all(|v| v.abs() < 1e-12),
            &KrylovOptions::default(),
            &mut work,
        );
        assert_eq!(again, outcome);
        assert!(
            x.iter()
                .zip(&first)
                .all(|(a, b)| a.to_bits() == b.to_bits())
        );
        assert!(outcome.converged, "{outcome:?}");
        for (a, b) in x.iter().zip(&target) {
            assert!((a - b).abs() < 1e-10, "{a} vs {b}");
        }
    }

    /// A model fifty times too steep: for R(x) = x − a it is J = 50 I, so each Newton step
    /// is δ = −R/50 and keeps exactly 1 − 1/50 = 0.98 of ‖R‖ (the line search accepts t = 1).
    /// Newton stops after two such steps when that exceeds its stagnation ratio, and runs to
    /// its cap otherwise.
    #[test]
    fn newton_stops_after_two_steps_that_keep_more_than_the_stagnation_ratio() {
        struct Steep;
        impl Linearized for Steep {
            fn apply(&mut self, v: &[f64], out: &mut [f64]) {
                for (o, x) in out.iter_mut().zip(v) {
                    *o = 50.0 * x;
                }
            }
        }
        let a = [1.0, -2.0, 0.5];
        let run = |stagnation: f64| {
            let mut x = vec![0.0; 3];
            let outcome = solve(
                &mut x,
                |x, out| {
                    for i in 0..3 {
                        out[i] = x[i] - a[i];
                    }
                },
                &mut Steep,
                |_, _, _| {},
                |_, r| norm(r) < 1e-12,
                &KrylovOptions {
                    max_newton: 8,
                    stagnation,
                    ..Default::default()
                },
                &mut KrylovWorkspace::default(),
            );
            // After k steps R = 0.98^k (x₀ − a), with x₀ = 0.
            let kept = 0.98f64.powi(outcome.newton as i32);
            for i in 0..3 {
                assert!(
                    (x[i] - a[i] * (1.0 - kept)).abs() < 1e-12,
                    "x[{i}] = {}",
                    x[i]
                );
            }
            outcome.newton
        };
        assert_eq!(run(0.97), 2);
        assert_eq!(run(0.99), 8);
        assert_eq!(run(1.0), 8);
    }

    /// GMRES solves a nonsymmetric linear system to its forcing tolerance.
    #[test]
    fn gmres_solves_a_nonsymmetric_system() {
        let n = 30;
        let apply = |v: &[f64], out: &mut [f64]| {
            for i in 0..n {
                out[i] = 4.0 * v[i]
                    + if i > 0 { -v[i - 1] } else { 0.0 }
                    + if i + 1 < n { -2.0 * v[i + 1] } else { 0.0 };
            }
        };
        let b: Vec<f64> = (0..n).map(|i| (i as f64).sin()).collect();
        let options = KrylovOptions {
            forcing: 1e-12,
            ..Default::default()
        };
        let mut x = Vec::new();
        gmres(&b, apply, &options, &mut x, &mut GmresWorkspace::default());
        let mut ax = vec![0.0; n];
        apply(&x, &mut ax);
        for i in 0..n {
            assert!((ax[i] - b[i]).abs() < 1e-10, "row {i}");
        }
    }
}
