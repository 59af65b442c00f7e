//! Proximal-point rounds for a small island's laws: semismooth Newton on W + ηI, for the problems where Newton on W itself stalls (a box on its four corners).
//!
//! Redundant contacts make W singular: a box resting on four corners has twelve rows and six
//! degrees of freedom, and W's rank is at most the degrees of freedom. Beside its null space
//! W often has eigenvalues near zero too (3.7e-8 of its largest in a recorded problem of a
//! tower of cubes). Newton's Jacobian in the stick case is r W,
//! so its direction is huge or undefined, its line search fails, and block Gauss–Seidel,
//! the next fallback, converges linearly at a rate set by the same small eigenvalues (a pile
//! of 30 cubes under Moreau–Jean: thousands of sweeps a step, and a third of its steps not
//! converged; docs/benchmarks.md, fortieth sitting).
//!
//! The proximal point method solves, from λ₀ (the warm start), a sequence of problems
//!
//! ```text
//!     u' = (u_free − η λ_k) + (W + η I) λ,        laws on (λ, u'),        λ_{k+1} = λ,
//! ```
//!
//! each by semismooth Newton started from λ_k. W + ηI is positive definite, so each
//! problem's Jacobian is nonsingular however redundant the contacts. A fixed point λ_{k+1} =
//! λ_k makes u' = u_free + W λ: a fixed point solves the original problem, whatever η. For a
//! linear (sticking) problem a round multiplies the error along an eigenvector of W of
//! eigenvalue s by η / (η + s), and leaves the component in W's null space where the warm
//! start put it: the split of the load among redundant corners stays the warm start's, and
//! only what the velocities determine is solved for. Each round is judged on the original
//! problem; the rounds stop when it is solved to the tolerance, or after [`MAX_ROUNDS`].
//!
//! They run after a stalled Newton, or before Newton where the caller knows W is singular
//! (more rows than the degrees of freedom they act on, [`super::Rank::Deficient`]).
//!
//! η = [`ETA_RATIO`] · max Wᵢᵢ: measured on 199 recorded problems of that pile where Newton
//! stalled, 1e-3 solved 161 within 30 rounds (in 65 ms), 1e-2 154; 1e-4 solved fewer than
//! 1e-3 even with 200 rounds, and slower (its problems nearly as singular as W's). The
//! sweeps and Lemke's polygon, the fallbacks before the rounds, had solved 141 of them in
//! 1.1 s.

use nalgebra::{DMatrix, DVector};

use super::{LawBlock, LawMethod, LawSolution, NewtonOptions};

/// η as a fraction of W's largest diagonal entry.
pub const ETA_RATIO: f64 = 1e-3;

/// Most rounds one solve takes.
pub const MAX_ROUNDS: usize = 30;

/// Each round's Newton solves its shifted problem to this fraction of the original
/// problem's residual at the round's start (and at least to a tenth of the tolerance): an
/// inexact round is enough far from the answer.
const INNER_FRACTION: f64 = 1e-3;

/// The buffers of one solve, kept on this thread between solves.
#[derive(Default)]
struct Work {
    /// W + ηI.
    shifted_w: DMatrix<f64>,
    /// u_free − η λ_k.
    shifted_free: DVector<f64>,
    /// λ_k.
    lambda: DVector<f64>,
}

thread_local! {
    static WORK: crate::linalg::buffers::ScratchPool<Work> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Room for a solve of `n` rows, so that one up to that size allocates nothing: the dense
/// solver calls this for every problem, as for its other fallbacks, whose buffers grow with
/// the problems rather than at their first call (a settled pile's steps allocate nothing).
pub(super) fn reserve(n: usize) {
    crate::linalg::buffers::with_scratch(&WORK, |work| {
        crate::linalg::buffers::reserve_matrix(&mut work.shifted_w, n * n);
        crate::linalg::buffers::reserve_vector(&mut work.shifted_free, n);
        crate::linalg::buffers::reserve_vector(&mut work.lambda, n);
    });
}

/// Proximal-point rounds from `start` (zero when None). Returns the round of smallest
/// residual on the original problem (method [`LawMethod::Proximal`]), `converged` when it
/// met the tolerance. Its multipliers are a Newton iterate's, which can lie a rounding
/// outside their laws: the caller projects them, as it does every dense answer.
pub(super) fn solve(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    start: Option<&DVector<f64>>,
    options: &NewtonOptions,
) -> LawSolution {
    crate::linalg::buffers::with_scratch(&WORK, |work| {
        solve_in(w, u_free, blocks, start, options, work)
    })
}

/// [`solve`] in the buffers of `work`.
fn solve_in(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    start: Option<&DVector<f64>>,
    options: &NewtonOptions,
    work: &mut Work,
) -> LawSolution {
    let n = u_free.len();
    let largest_diagonal = (0..n).map(|i| w[(i, i)]).fold(0.0, f64::max);
    let eta = ETA_RATIO * largest_diagonal;
    crate::linalg::buffers::sized_matrix(&mut work.shifted_w, n, n);
    work.shifted_w.copy_from(w);
    for i in 0..n {
        work.shifted_w[(i, i)] += eta;
    }
    crate::linalg::buffers::zeroed_vector(&mut work.lambda, n);
    if let Some(g) = start.filter(|g| g.len() == n && g.iter().all(|x| x.is_finite())) {
        work.lambda.copy_from(g);
    }
    let mut best = super::assess(w, u_free, blocks, &work.lambda, options);
    let mut iterations = 0;
    let mut residual = best.residual;
    for _ in 0..MAX_ROUNDS {
        if best.converged || eta <= 0.0 {
            break;
        }
        // u_free − η λ_k (W + ηI applied to λ_k gives back u_free + W λ_k).
        crate::linalg::buffers::copy_vector(&mut work.shifted_free, u_free);
        work.shifted_free.axpy(-eta, &work.lambda, 1.0);
        let inner = NewtonOptions {
            tolerance: (0.1 * options.tolerance).max(INNER_FRACTION * residual),
            ..*options
        };
        let round = super::newton(
            &work.shifted_w,
            &work.shifted_free,
            blocks,
            Some(&work.lambda),
            &inner,
        );
        iterations += round.iterations.max(1);
        if !round.lambda.iter().all(|x| x.is_finite()) {
            break;
        }
        work.lambda.copy_from(&round.lambda);
        let judged = super::assess(w, u_free, blocks, &work.lambda, options);
        residual = judged.residual;
        if judged.residual < best.residual || judged.converged {
            best = judged;
        }
    }
    best.iterations = iterations;
    best.method = LawMethod::Proximal;
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit mass on a floor at four points that all push along z only (a box's corners
    /// with its rotation locked, say): W = 1 1ᵀ, of rank one. The velocity problem asks for
    /// a total impulse of 1 (u_free = −1 on every normal); any split of it is a solution,
    /// and the rounds, started from zero, find one with every u = 0.
    #[test]
    fn rounds_solve_four_redundant_normal_rows() {
        let w = DMatrix::from_element(4, 4, 1.0);
        let u_free = DVector::from_element(4, -1.0);
        let blocks: Vec<LawBlock> = (0..4)
            .map(|k| LawBlock {
                offset: k,
                tangents: 0,
                rolling: 0,
                spin: 0,
                friction: 0.0,
                rolling_resistance: 0.0,
                spinning_resistance: 0.0,
                bilateral: false,
            })
            .collect();
        let options = NewtonOptions {
            tolerance: 1e-10,
            ..Default::default()
        };
        let solution = solve(&w, &u_free, &blocks, None, &options);
        assert!(solution.converged, "residual {}", solution.residual);
        assert_eq!(solution.method, LawMethod::Proximal);
        let total: f64 = solution.lambda.iter().sum();
        assert!((total - 1.0).abs() < 1e-9, "total impulse {total}");
        assert!(solution.lambda.iter().all(|&l| l >= 0.0));
        assert!(
            solution.u.iter().all(|u| u.abs() < 1e-9),
            "u {:?}",
            solution.u
        );
    }
}
