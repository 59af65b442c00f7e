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
//! solved exactly: in closed form for a round contact (a sphere or disk on a sphere, disk or
//! plane, `round_contact.rs`, as the block-sparse solver does), otherwise by semismooth
//! Newton (with the polyhedral LCP by Lemke as its fallback);
//! then u is updated by the columns W[:, c] (λ_c' − λ_c). The sweeps stop on the residual of
//! the *whole* problem (the same relative measure as Newton's), never on the size of the last
//! update. NSGS needs no factorization of W, so redundant contacts (the four corners of a box
//! on a floor, where W is singular and Newton's Jacobian with it) do not trouble it: it
//! converges in u while the split of the load among the corners is one of many.

use nalgebra::{DMatrix, DVector};

use super::round_contact::RoundContact;
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
    // Each contact's own block W_cc (row-major) and, for a round contact, its closed-form
    // solve (`round_contact.rs`); other blocks go to the small semismooth Newton.
    let own_blocks: Vec<([f64; 36], Option<RoundContact>)> = blocks
        .iter()
        .map(|b| {
            let len = super::sparse::block_len(b);
            let mut own = [0.0; 36];
            for i in 0..len {
                for j in 0..len {
                    own[i * len + j] = w[(b.offset + i, b.offset + j)];
                }
            }
            let round = RoundContact::of(&own[..len * len], b);
            (own, round)
        })
        .collect();
    for _ in 0..MAX_SWEEPS {
        for (b, (own, round)) in blocks.iter().zip(&own_blocks) {
            let len = super::sparse::block_len(b);
            let range = b.offset..b.offset + len;
            // Local free quantities f = u_c − W_cc λ_c, and the block's new λ_c.
            let mut free = [0.0; 6];
            for i in 0..len {
                free[i] = u[b.offset + i]
                    - (0..len)
                        .map(|j| own[i * len + j] * lambda[b.offset + j])
                        .sum::<f64>();
            }
            let mut next = [0.0; 6];
            match round {
                Some(round) => {
                    round.solve(b, &free[..len], &mut next[..len]);
                    iterations += 1;
                }
                None => {
                    let own = DMatrix::from_row_slice(len, len, &own[..len * len]);
                    let current = DVector::from_fn(len, |k, _| lambda[b.offset + k]);
                    let local_free = DVector::from_column_slice(&free[..len]);
                    let local_block = LawBlock { offset: 0, ..*b };
                    let local =
                        super::solve_local(&own, &local_free, &local_block, &current, options);
                    iterations += local.iterations;
                    next[..len].copy_from_slice(local.lambda.as_slice());
                }
            }
            for (k, row) in range.enumerate() {
                let change = next[k] - lambda[row];
                if change != 0.0 {
                    // u += W[:, row] · change, in place.
                    u.axpy(change, &w.column(row), 1.0);
                }
                lambda[row] = next[k];
            }
        }
        iterations += 1;
        let now = super::assess(w, u_free, blocks, &lambda, options);
        best = now;
        if best.converged {
            break;
        }
    }
    best.iterations = iterations;
    best.method = LawMethod::Nsgs;
    best
}
