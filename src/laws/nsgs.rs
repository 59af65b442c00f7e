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

/// The work vectors of one solve, kept on this thread from one solve to the next (the
/// dense Newton's fallback runs in a settled pile's steps, which allocate nothing).
#[derive(Default)]
struct Work {
    /// The iterate λ.
    lambda: DVector<f64>,
    /// u = u_free + W λ, kept up to date.
    u: DVector<f64>,
    /// Each contact's own block W_cc (row-major) and, for a round contact, its closed form.
    own_blocks: Vec<([f64; 36], Option<RoundContact>)>,
}

thread_local! {
    static WORK: crate::linalg::buffers::ScratchPool<Work> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Room for a solve of `n` rows in `blocks` contacts, so that one up to that size allocates
/// nothing: the dense solver calls this for every problem, and block Gauss–Seidel, its
/// fallback, runs in buffers that grew with the problems, not at its first call.
pub(crate) fn reserve(n: usize, blocks: usize) {
    crate::linalg::buffers::with_scratch(&WORK, |work| {
        crate::linalg::buffers::reserve_vector(&mut work.lambda, n);
        crate::linalg::buffers::reserve_vector(&mut work.u, n);
        let more = blocks.saturating_sub(work.own_blocks.len());
        if work.own_blocks.capacity() < blocks {
            work.own_blocks.reserve_exact(more);
        }
    });
}

/// Solves the laws by block Gauss–Seidel from `guess`; `converged` when the whole problem's
/// relative residual reaches `options.tolerance`.
pub fn solve(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    guess: Option<&DVector<f64>>,
    options: &NewtonOptions,
) -> LawSolution {
    solve_from(w, u_free, blocks, guess, false, options)
}

/// [`solve`] from `guess` projected onto the laws first (when `project` is true), as
/// [`super::project_onto_laws`] would project it, without a copy of it.
pub(crate) fn solve_from(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    guess: Option<&DVector<f64>>,
    project: bool,
    options: &NewtonOptions,
) -> LawSolution {
    crate::linalg::buffers::with_scratch(&WORK, |work| {
        let n = u_free.len();
        crate::linalg::buffers::zeroed_vector(&mut work.lambda, n);
        if let Some(g) = guess.filter(|g| g.len() == n) {
            work.lambda.copy_from(g);
            if project {
                super::project_in_place(work.lambda.as_mut_slice(), blocks);
            }
            if !work.lambda.iter().all(|x| x.is_finite()) {
                work.lambda.fill(0.0);
            }
        }
        solve_in(w, u_free, blocks, options, work)
    })
}

/// [`solve`] from `work.lambda`, in the buffers of `work`.
fn solve_in(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    options: &NewtonOptions,
    work: &mut Work,
) -> LawSolution {
    let n = u_free.len();
    let Work {
        lambda,
        u,
        own_blocks,
    } = work;
    // u = u_free + W λ (W λ, then the sum: the same bits as the expression u_free + W λ).
    crate::linalg::buffers::sized_vector(u, n);
    w.mul_to(lambda, u);
    *u += u_free;
    let mut iterations = 0;
    let mut best = super::assess(w, u_free, blocks, lambda, options);
    // Each contact's own block W_cc (row-major) and, for a round contact, its closed-form
    // solve (`round_contact.rs`); other blocks go to the small semismooth Newton.
    own_blocks.clear();
    own_blocks.extend(blocks.iter().map(|b| {
        let len = super::sparse::block_len(b);
        let mut own = [0.0; 36];
        for i in 0..len {
            for j in 0..len {
                own[i * len + j] = w[(b.offset + i, b.offset + j)];
            }
        }
        let round = RoundContact::of(&own[..len * len], b);
        (own, round)
    }));
    for _ in 0..MAX_SWEEPS {
        for (b, (own, round)) in blocks.iter().zip(own_blocks.iter()) {
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
                    iterations += super::solve_local_block(
                        b,
                        &own[..len * len],
                        &free[..len],
                        &lambda.as_slice()[range.clone()],
                        options,
                        &mut next[..len],
                    );
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
        let now = super::assess(w, u_free, blocks, lambda, options);
        best = now;
        if best.converged {
            break;
        }
    }
    best.iterations = iterations;
    best.method = LawMethod::Nsgs;
    best
}
