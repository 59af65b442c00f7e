//! MPRGP (Dostál's modified proportioning with reduced gradient projections) for a contact problem with normal rows only: the convex quadratic program min ½λᵀWλ + u_freeᵀλ over λ ≥ 0.
//!
//! Its optimality conditions are the normal law u = u_free + Wλ ≥ 0 ⊥ λ ≥ 0, which is what
//! a large island's position level solves (NSGA corrects a pile's gaps by the normal
//! multipliers alone). Being convex and symmetric, the problem can be solved by conjugate
//! gradients on the free set, which converge at the rate of √κ where Gauss–Seidel converges
//! at the rate of κ. The algorithm (Dostál and Schöberl 2005) alternates:
//!
//! - conjugate-gradient steps on the free set while the free gradient φ dominates the
//!   chopped gradient β (the part of the gradient that would lift a multiplier off zero):
//!   ‖β‖² ≤ Γ² φ̃ᵀφ;
//! - an expansion step when a conjugate-gradient step would leave λ ≥ 0: to the bound, then
//!   a projected gradient step of fixed length ᾱ ≤ 2/‖W‖;
//! - a proportioning step along β otherwise.
//!
//! Everything runs in the Jacobi-scaled variables y = diag(W)^½ λ (the scaled matrix has a
//! unit diagonal), and W is applied through the rows, never formed.

use crate::linalg::buffers::zeroed;
use crate::linalg::slices::{dot, norm};

/// x where it is positive, else +0 (never −0, so that native and WebAssembly runs, whose
/// `f64::max` and `f64::min` may pick either zero, stay bit for bit the same).
fn positive(x: f64) -> f64 {
    if x > 0.0 { x } else { 0.0 }
}

/// The smaller of a and b, written out for the same reason.
fn smaller(a: f64, b: f64) -> f64 {
    if b < a { b } else { a }
}

/// Γ of the proportioning test.
const GAMMA: f64 = 1.0;

/// Power iterations for ‖Ŵ‖. The expansion steps' fixed length is ᾱ = 1/estimate: the
/// theory asks ᾱ ≤ 2/‖Ŵ‖, and power iteration approaches ‖Ŵ‖ from below, so the factor 2
/// covers an estimate down to half of it. (Were it ever lower, an expansion step could
/// overshoot; the answer is still judged on the true residual, and the sweeps take over.)
/// Four iterations or a step of 1.5/estimate or 1.8/estimate came within 6 % of the time on
/// the recorded problems (docs/benchmarks.md, twenty-third sitting).
const POWER_ITERATIONS: usize = 8;

/// MPRGP's vectors, kept between solves (the step loop allocates nothing once they have
/// grown).
#[derive(Default)]
pub(super) struct Workspace {
    s: Vec<f64>,
    scaled: Vec<f64>,
    out: Vec<f64>,
    v: Vec<f64>,
    wv: Vec<f64>,
    y: Vec<f64>,
    g: Vec<f64>,
    u: Vec<f64>,
    phi: Vec<f64>,
    beta: Vec<f64>,
    p: Vec<f64>,
    ap: Vec<f64>,
    z: Vec<f64>,
    free: Vec<bool>,
}

/// A preconditioner of the conjugate-gradient steps on the free set, in the scaled
/// variables: any symmetric positive definite P_F gives the same answer, in fewer steps the
/// closer P_F is to Ŵ_FF (`laws/incomplete_cholesky.rs`). Without one the steps are plain
/// conjugate gradients on the Jacobi-scaled problem.
pub(super) trait FacePreconditioner {
    /// Called once a solve, before [`Self::apply`], with S's diagonal (Ŵ = S W S).
    fn scaled_by(&mut self, scale: &[f64]);
    /// z = P_F⁻¹ r on the free set `free`, zero off it.
    fn apply(&mut self, free: &[bool], r: &[f64], z: &mut [f64]);
}

/// Solves the normal law from the feasible `lambda` (every entry ≥ 0), in place; `diagonal`
/// holds W's diagonal. `product(v, out)` writes W v; `done(λ, u)` says whether
/// (λ, u = u_free + Wλ, u as updated along the iteration) meets the caller's stopping rule.
/// `preconditioner` preconditions the conjugate-gradient steps (none: plain). Returns the
/// number of products of W spent.
#[allow(clippy::too_many_arguments)]
pub(super) fn solve(
    diagonal: &[f64],
    u_free: &[f64],
    lambda: &mut [f64],
    mut product: impl FnMut(&[f64], &mut [f64]),
    mut done: impl FnMut(&[f64], &[f64]) -> bool,
    max_products: usize,
    mut preconditioner: Option<&mut dyn FacePreconditioner>,
    work: &mut Workspace,
) -> usize {
    let n = lambda.len();
    let Workspace {
        s,
        scaled,
        out,
        v,
        wv,
        y,
        g,
        u,
        phi,
        beta,
        p,
        ap,
        z,
        free,
    } = work;
    for x in [&mut *s, scaled, out, v, wv, y, g, u, phi, beta, p, ap, z] {
        zeroed(x, n);
    }
    free.clear();
    free.resize(n, false);
    // s = diag(W)^-½; Ŵ = S W S, y = λ / s, ĝ = s ∘ u.
    for (si, &d) in s.iter_mut().zip(diagonal) {
        *si = if d > 0.0 { 1.0 / d.sqrt() } else { 1.0 };
    }
    let s = &*s;
    if let Some(pc) = preconditioner.as_deref_mut() {
        pc.scaled_by(s);
    }
    // z = P_F⁻¹ φ on the free set of y (φ itself without a preconditioner).
    let mut precondition =
        |y: &[f64], phi: &[f64], z: &mut [f64]| match preconditioner.as_deref_mut() {
            None => z.copy_from_slice(phi),
            Some(pc) => {
                for (f, &yi) in free.iter_mut().zip(y) {
                    *f = yi > 0.0;
                }
                pc.apply(free, phi, z);
            }
        };
    let mut apply = |v: &[f64], result: &mut [f64], products: &mut usize| {
        for i in 0..n {
            scaled[i] = s[i] * v[i];
        }
        product(scaled, out);
        for i in 0..n {
            result[i] = s[i] * out[i];
        }
        *products += 1;
    };
    let mut products = 0;
    // ‖Ŵ‖ by power iteration from the all-ones vector.
    v.fill(1.0);
    let mut estimate = 0.0;
    for _ in 0..POWER_ITERATIONS {
        apply(v, wv, &mut products);
        let length = norm(wv);
        if length.is_nan() || length <= 0.0 {
            break;
        }
        estimate = length / norm(v);
        for i in 0..n {
            v[i] = wv[i] / length;
        }
    }
    if !estimate.is_finite() || estimate <= 0.0 {
        return products;
    }
    let step = 1.0 / estimate;
    for i in 0..n {
        y[i] = positive(lambda[i]) / s[i];
    }
    let add_free = |g: &mut [f64]| {
        for i in 0..n {
            g[i] += s[i] * u_free[i];
        }
    };
    apply(y, g, &mut products);
    add_free(g);
    let free_gradient = |y: &[f64], g: &[f64], phi: &mut [f64]| {
        for i in 0..n {
            phi[i] = if y[i] > 0.0 { g[i] } else { 0.0 };
        }
    };
    let chopped = |y: &[f64], g: &[f64], beta: &mut [f64]| {
        for i in 0..n {
            beta[i] = if y[i] > 0.0 || g[i] >= 0.0 { 0.0 } else { g[i] };
        }
    };
    free_gradient(y, g, phi);
    precondition(y, phi, z);
    p.copy_from_slice(z);
    loop {
        for i in 0..n {
            lambda[i] = s[i] * y[i];
            u[i] = g[i] / s[i];
        }
        if done(lambda, u) || products >= max_products {
            return products;
        }
        free_gradient(y, g, phi);
        chopped(y, g, beta);
        // φ̃: the free gradient reduced so that a step of ᾱ along it stays feasible.
        let reduced: f64 = (0..n)
            .filter(|&i| y[i] > 0.0)
            .map(|i| smaller(y[i] / step, phi[i]) * phi[i])
            .sum();
        if dot(beta, beta) <= GAMMA * GAMMA * reduced {
            apply(p, ap, &mut products);
            let curvature = dot(p, ap);
            if curvature.is_nan() || curvature <= 0.0 {
                // p in W's null space: restart along the (preconditioned) free gradient.
                precondition(y, phi, z);
                p.copy_from_slice(z);
                continue;
            }
            let alpha_cg = dot(g, p) / curvature;
            let alpha_feasible = (0..n)
                .filter(|&i| p[i] > 0.0)
                .map(|i| y[i] / p[i])
                .fold(f64::INFINITY, smaller);
            if alpha_cg <= alpha_feasible {
                for i in 0..n {
                    y[i] -= alpha_cg * p[i];
                    g[i] -= alpha_cg * ap[i];
                }
                free_gradient(y, g, phi);
                precondition(y, phi, z);
                let gamma = dot(z, ap) / curvature;
                for i in 0..n {
                    p[i] = z[i] - gamma * p[i];
                }
            } else {
                // Expansion: to the bound, then a projected gradient step of length ᾱ.
                for i in 0..n {
                    y[i] = positive(y[i] - alpha_feasible * p[i]);
                    g[i] -= alpha_feasible * ap[i];
                }
                free_gradient(y, g, phi);
                for i in 0..n {
                    y[i] = positive(y[i] - step * phi[i]);
                }
                apply(y, g, &mut products);
                add_free(g);
                free_gradient(y, g, phi);
                precondition(y, phi, z);
                p.copy_from_slice(z);
            }
        } else {
            // Proportioning: lift the multipliers whose chopped gradient asks for it.
            apply(beta, ap, &mut products);
            let curvature = dot(beta, ap);
            if curvature.is_nan() || curvature <= 0.0 {
                return products;
            }
            let alpha = dot(g, beta) / curvature;
            for i in 0..n {
                y[i] -= alpha * beta[i];
                g[i] -= alpha * ap[i];
            }
            free_gradient(y, g, phi);
            precondition(y, phi, z);
            p.copy_from_slice(z);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lcp::{Lcp, LcpStatus, lemke::solve_lemke};
    use nalgebra::{DMatrix, DVector};

    /// A deterministic number in [−1, 1).
    fn noise(k: usize) -> f64 {
        let x = (k as f64 * 12.9898 + 78.233).sin() * 43_758.545_3;
        2.0 * (x - x.floor()) - 1.0
    }

    /// W = A Aᵀ with A of `rank` columns (singular below n) plus a small shift, and a free
    /// velocity that asks for a mix of pushing and open rows.
    fn problem(n: usize, rank: usize, seed: usize) -> (DMatrix<f64>, DVector<f64>) {
        let a = DMatrix::from_fn(n, rank, |i, j| noise(seed + 31 * i + 7 * j));
        let w = &a * a.transpose() + DMatrix::identity(n, n) * 1e-3;
        let q = DVector::from_fn(n, |i, _| noise(seed * 3 + 11 * i));
        (w, q)
    }

    fn solve_dense(w: &DMatrix<f64>, q: &DVector<f64>, tolerance: f64) -> (Vec<f64>, usize) {
        let n = q.len();
        let diagonal: Vec<f64> = (0..n).map(|i| w[(i, i)]).collect();
        let mut lambda = vec![0.0; n];
        let products = solve(
            &diagonal,
            q.as_slice(),
            &mut lambda,
            |v, out| out.copy_from_slice((w * DVector::from_column_slice(v)).as_slice()),
            |l, u| {
                (0..n)
                    .map(|i| (l[i] - (l[i] - u[i] / diagonal[i]).max(0.0)).abs())
                    .fold(0.0, f64::max)
                    <= tolerance
            },
            10_000,
            None,
            &mut Workspace::default(),
        );
        (lambda, products)
    }

    #[test]
    fn it_gives_lemkes_multipliers_on_positive_definite_problems() {
        for (seed, n) in [(1, 6), (2, 12), (3, 25), (4, 40)] {
            let (w, q) = problem(n, n, seed);
            let (lambda, products) = solve_dense(&w, &q, 1e-14);
            let reference = solve_lemke(&Lcp::new(w.clone(), q.clone()).unwrap());
            assert_eq!(reference.status, LcpStatus::Solved);
            let open = lambda.iter().filter(|&&l| l == 0.0).count();
            assert!(
                open > 0 && open < n,
                "seed {seed}: a mix of open and pushing rows"
            );
            for (i, (l, z)) in lambda.iter().zip(&reference.z).enumerate() {
                assert!(*l >= 0.0);
                assert!(
                    (l - z).abs() <= 1e-10 * (1.0 + z.abs()),
                    "seed {seed}, row {i}: {l} against Lemke's {z}"
                );
            }
            assert!(
                products < 10_000,
                "seed {seed}: converged ({products} products)"
            );
        }
    }

    #[test]
    fn a_singular_problem_meets_the_normal_law() {
        // Rank 4 of 20 plus 1e-3: redundant rows, as a pile's.
        let (w, q) = problem(20, 4, 9);
        let (lambda, _) = solve_dense(&w, &q, 1e-12);
        let u = &w * DVector::from_column_slice(&lambda) + &q;
        for i in 0..20 {
            assert!(lambda[i] >= 0.0, "λ ≥ 0");
            assert!(u[i] >= -1e-10, "u ≥ 0 to the tolerance: {}", u[i]);
            assert!(
                (lambda[i] * u[i]).abs() <= 1e-9,
                "λ ⊥ u: {}",
                lambda[i] * u[i]
            );
        }
    }
}
