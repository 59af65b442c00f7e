//! Nonsmooth block Gauss–Seidel (NSGS): each contact's laws solved exactly with the others frozen, sweep after sweep.
//!
//! For the stacked problem u = u_free + W λ, one sweep visits the contacts in order; for
//! contact c with the rest frozen its relative quantities are
//!
//! ```text
//!     u_c = (u_c − W_cc λ_c) + W_cc λ_c',        W_cc the contact's own Delassus block,
//! ```
//!
//! a problem of at most six multipliers (normal, two tangents, two rolling, spinning) that is
//! solved exactly by semismooth Newton (with the polyhedral LCP by Lemke as its fallback);
//! then u is updated by the columns W[:, c] (λ_c' − λ_c). The sweeps stop on the residual of
//! the *whole* problem (the same relative measure as Newton's), never on the size of the last
//! update. NSGS needs no factorization of W, so redundant contacts (the four corners of a box
//! on a floor, where W is singular and Newton's Jacobian with it) do not trouble it: it
//! converges in u while the split of the load among the corners is one of many.

use nalgebra::{DMatrix, DVector};

use super::{LawBlock, LawMethod, LawSolution, NewtonOptions};

/// Most sweeps one NSGS solve makes.
pub const MAX_SWEEPS: usize = 500;

/// Solves the laws by block Gauss–Seidel from `guess`; `converged` when the whole problem's
/// relative residual reaches `options.tolerance`.
pub fn solve(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    guess: Option<&DVector<f64>>,
    options: &NewtonOptions,
) -> LawSolution {
    let n = u_free.len();
    let mut lambda = match guess {
        Some(g) if g.len() == n && g.iter().all(|x| x.is_finite()) => g.clone(),
        _ => DVector::zeros(n),
    };
    let mut u = u_free + w * &lambda;
    let mut iterations = 0;
    let mut best = super::assess(w, u_free, blocks, &lambda, options);
    for _ in 0..MAX_SWEEPS {
        for b in blocks {
            let len = 1 + b.tangents + b.rolling + b.spin;
            let range = b.offset..b.offset + len;
            let own = w.view((b.offset, b.offset), (len, len)).into_owned();
            let current = DVector::from_fn(len, |k, _| lambda[b.offset + k]);
            let local_u = DVector::from_fn(len, |k, _| u[b.offset + k]);
            let local_free = &local_u - &own * &current;
            let local_block = LawBlock { offset: 0, ..*b };
            let local = super::solve_local(&own, &local_free, &local_block, &current, options);
            iterations += local.iterations;
            let change = &local.lambda - &current;
            if change.iter().all(|x| *x == 0.0) {
                continue;
            }
            for (k, row) in range.clone().enumerate() {
                if change[k] != 0.0 {
                    u += w.column(row) * change[k];
                }
                lambda[row] = local.lambda[k];
            }
        }
        iterations += 1;
        let now = super::assess(w, u_free, blocks, &lambda, options);
        best = now;
        if best.converged {
            break;
        }
    }
    LawSolution {
        iterations,
        method: LawMethod::Nsgs,
        ..best
    }
}
