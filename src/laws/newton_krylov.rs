//! Jacobian-free Newton–Krylov for a piecewise-smooth residual R(x) = 0: restarted GMRES on directional differences, with a backtracking line search.
//!
//! Newton's step solves J δ = −R with J the (generalized) Jacobian of R at x. GMRES needs
//! only products J v, taken as one-sided differences
//!
//! ```text
//!     J v ≈ (R(x + ε v) − R(x)) / ε,     ε = √ε_mach · (1 + ‖x‖∞) / ‖v‖∞,
//! ```
//!
//! exact on the smooth piece that contains x (the contact laws' residual is piecewise smooth;
//! near a solution with a settled active set x and x + εv share a piece). The linear solve is
//! inexact (GMRES stops at a relative residual η), so Newton converges fast but not
//! quadratically; the caller's stopping rule is on R itself, never on the step.

/// Settings of [`solve`].
#[derive(Debug, Clone, Copy)]
pub struct KrylovOptions {
    /// Newton iteration cap.
    pub max_newton: usize,
    /// Krylov subspace size before a restart.
    pub restart: usize,
    /// Most GMRES iterations per Newton step.
    pub max_inner: usize,
    /// GMRES stops when ‖J δ + R‖ ≤ forcing · ‖R‖.
    pub forcing: f64,
}

impl Default for KrylovOptions {
    fn default() -> Self {
        // Measured on the pile of 100 spheres (docs/benchmarks.md): a long Krylov basis
        // before a restart matters most (restarting after 30 stalls on a deep pile).
        Self {
            max_newton: 20,
            restart: 100,
            max_inner: 1000,
            forcing: 1e-4,
        }
    }
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Restarted GMRES for J δ = b, J applied by `apply(v, out)`; returns δ and its inner
/// iterations.
fn gmres(
    n: usize,
    b: &[f64],
    mut apply: impl FnMut(&[f64], &mut [f64]),
    options: &KrylovOptions,
) -> (Vec<f64>, usize) {
    let mut x = vec![0.0; n];
    let target = options.forcing * norm(b);
    let m = options.restart.max(1);
    let mut iterations = 0;
    let mut r = b.to_vec();
    let mut av = vec![0.0; n];
    while iterations < options.max_inner {
        // r = b − J x.
        if iterations > 0 {
            apply(&x, &mut av);
            for i in 0..n {
                r[i] = b[i] - av[i];
            }
        }
        let beta = norm(&r);
        if beta <= target || beta == 0.0 {
            break;
        }
        let mut basis: Vec<Vec<f64>> = vec![r.iter().map(|v| v / beta).collect()];
        // Hessenberg columns, Givens rotations and the rotated right-hand side.
        let mut h: Vec<Vec<f64>> = Vec::new();
        let (mut cs, mut sn): (Vec<f64>, Vec<f64>) = (Vec::new(), Vec::new());
        let mut g = vec![beta];
        let mut k = 0;
        while k < m && iterations < options.max_inner {
            iterations += 1;
            let mut w = vec![0.0; n];
            apply(&basis[k], &mut w);
            let mut col = vec![0.0; k + 2];
            for (j, vj) in basis.iter().enumerate() {
                let hj = dot(&w, vj);
                col[j] = hj;
                for i in 0..n {
                    w[i] -= hj * vj[i];
                }
            }
            let wn = norm(&w);
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
            h.push(col);
            k += 1;
            if g[k].abs() <= target || wn == 0.0 {
                break;
            }
            basis.push(w.iter().map(|v| v / wn).collect());
        }
        // Back substitution for the subspace coefficients, then x += V y.
        let mut y = vec![0.0; k];
        for i in (0..k).rev() {
            let mut s = g[i];
            for j in i + 1..k {
                s -= h[j][i] * y[j];
            }
            y[i] = if h[i][i] != 0.0 { s / h[i][i] } else { 0.0 };
        }
        for (j, yj) in y.iter().enumerate() {
            for i in 0..n {
                x[i] += yj * basis[j][i];
            }
        }
        if g[k].abs() <= target {
            break;
        }
    }
    (x, iterations)
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

/// Newton–Krylov on R(x) = 0 from `x`: `residual(x, out)` evaluates R, `done(x, R)` is the
/// caller's stopping rule. `x` ends at the best point found (the line search never
/// increases ‖R‖).
pub fn solve(
    x: &mut [f64],
    mut residual: impl FnMut(&[f64], &mut [f64]),
    mut done: impl FnMut(&[f64], &[f64]) -> bool,
    options: &KrylovOptions,
) -> KrylovOutcome {
    let n = x.len();
    let mut r = vec![0.0; n];
    residual(x, &mut r);
    let mut outcome = KrylovOutcome {
        newton: 0,
        inner: 0,
        converged: done(x, &r),
    };
    let (mut trial, mut rt) = (vec![0.0; n], vec![0.0; n]);
    while !outcome.converged && outcome.newton < options.max_newton {
        outcome.newton += 1;
        let base = r.clone();
        let minus_r: Vec<f64> = r.iter().map(|v| -v).collect();
        let scale = 1.0 + x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let (step, inner) = gmres(
            n,
            &minus_r,
            |v, out| {
                let vmax = v.iter().fold(0.0f64, |m, a| m.max(a.abs()));
                if vmax == 0.0 {
                    out.fill(0.0);
                    return;
                }
                let eps = f64::EPSILON.sqrt() * scale / vmax;
                let shifted: Vec<f64> = x.iter().zip(v).map(|(a, b)| a + eps * b).collect();
                residual(&shifted, out);
                for i in 0..n {
                    out[i] = (out[i] - base[i]) / eps;
                }
            },
            options,
        );
        outcome.inner += inner;
        // Backtracking on ‖R‖.
        let current = norm(&r);
        let mut t = 1.0;
        let mut accepted = false;
        while t >= 1e-4 {
            for i in 0..n {
                trial[i] = x[i] + t * step[i];
            }
            residual(&trial, &mut rt);
            if norm(&rt) < (1.0 - 1e-4 * t) * current {
                accepted = true;
                break;
            }
            t *= 0.5;
        }
        if !accepted {
            break;
        }
        x.copy_from_slice(&trial);
        r.copy_from_slice(&rt);
        outcome.converged = done(x, &r);
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let outcome = solve(
            &mut x,
            f,
            |_, r| r.iter().all(|v| v.abs() < 1e-12),
            &KrylovOptions::default(),
        );
        assert!(outcome.converged, "{outcome:?}");
        for (a, b) in x.iter().zip(&target) {
            assert!((a - b).abs() < 1e-10, "{a} vs {b}");
        }
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
        let (x, _) = gmres(n, &b, apply, &options);
        let mut ax = vec![0.0; n];
        apply(&x, &mut ax);
        for i in 0..n {
            assert!((ax[i] - b[i]).abs() < 1e-10, "row {i}");
        }
    }
}
