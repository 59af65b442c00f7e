//! Recording the large islands' law problems of a run, so that solver settings can be compared on the very same problems (`contactlab solver-compare`).
//!
//! A trajectory of a pile is chaotic: a change to the solver changes every later step, and
//! the count of unconverged steps along two trajectories swings by a factor of three for
//! reasons that have nothing to do with the change (docs/benchmarks.md). So a solver is
//! judged on fixed problems: one run records every block-sparse problem it hands to the
//! solver (W's rows, u_free, the blocks, the warm start, the settings), and each candidate
//! setting then solves all of them. Recording is off unless [`record`] turns it on for the
//! current thread; off, it costs one thread-local check per large island.

use std::cell::RefCell;

use nalgebra::DVector;

use super::assembly::Assembled;
use super::sparse::SparseOptions;
use super::{LawSolution, NewtonOptions};

/// One block-sparse law problem as the solver received it.
#[derive(Clone)]
pub struct SparseProblem {
    /// W's rows and the contacts' blocks.
    pub problem: Assembled,
    /// The free relative velocities (or position-level demands).
    pub u_free: DVector<f64>,
    /// The warm start the solver was given.
    pub guess: Option<DVector<f64>>,
    /// Tolerance, sweep cap and augmentation.
    pub options: NewtonOptions,
}

impl SparseProblem {
    /// Solves the recorded problem with the given block-sparse settings.
    pub fn solve(&self, sparse: SparseOptions) -> LawSolution {
        self.problem
            .solve_sparse_with(&self.u_free, self.guess.as_ref(), &self.options, sparse)
    }

    /// The recorded problem solved densely (W formed, `solver` with its fallbacks), its
    /// answer judged by the block-sparse solver's own residual: a reference for the
    /// block-sparse settings on islands small enough to factor.
    pub fn solve_dense(&self, solver: super::LawSolver) -> LawSolution {
        let w = self.problem.delassus.dense();
        let dense = super::solve_with(
            solver,
            &w,
            &self.u_free,
            &self.problem.blocks,
            self.guess.as_ref(),
            &self.options,
            self.problem.rank(),
        );
        let judge = NewtonOptions {
            max_sweeps: 0,
            ..self.options
        };
        let mut judged = self.problem.solve_sparse_with(
            &self.u_free,
            Some(&dense.lambda),
            &judge,
            SparseOptions::standard(&judge),
        );
        judged.iterations = dense.iterations;
        judged.method = dense.method;
        judged
    }

    /// How many of the contacts (blocks) hold a residual above `tolerance` at `solution`, each
    /// block's largest |R| = |λ − P(λ − r u)| judged against the scale the solver judged the
    /// whole residual by (`solution.residual` is the largest block's). An unconverged answer
    /// whose residual sits in a few contacts (a local cycle) and one where it is spread over
    /// the pile (a slowly converging global mode) call for different remedies.
    pub fn blocks_above(&self, solution: &LawSolution, tolerance: f64) -> usize {
        let mut r = vec![0.0; solution.lambda.len()];
        let worst: Vec<f64> = self
            .problem
            .blocks
            .iter()
            .map(|b| {
                let local = super::sparse::LocalBlock::new(
                    &self.problem.delassus,
                    b,
                    self.options.augmentation,
                );
                let rows = b.offset..b.offset + super::sparse::block_len(b);
                super::sparse::block_residual(
                    b,
                    &local,
                    &solution.lambda.as_slice()[rows.clone()],
                    &solution.u.as_slice()[rows.clone()],
                    &mut r[rows],
                )
                .0
            })
            .collect();
        let largest = worst.iter().copied().fold(0.0, f64::max);
        if largest == 0.0 || solution.residual <= 0.0 {
            return 0;
        }
        let scale = largest / solution.residual;
        worst.iter().filter(|&&w| w > tolerance * scale).count()
    }

    /// The largest multiplier of `solution` as a multiple of the largest impulse the free
    /// motion asks of one row: a self-equilibrated set of forces grown along W's null space
    /// shows as a ratio of thousands (a settled pile's answers sit near 1 to 100).
    /// Answers no larger than the solver's own tiny-impulse threshold (rounding where nothing
    /// is asked) count as 0, as in the physical-answer check of `Assembled::solve`.
    pub fn growth(&self, solution: &LawSolution) -> f64 {
        let largest = solution.lambda.amax();
        if largest <= super::assembly::TINY_IMPULSE {
            return 0.0;
        }
        largest / self.problem.demand(&self.u_free).max(1e-300)
    }
}

thread_local! {
    static RECORDING: super::thread_log::Slot<SparseProblem> = const { RefCell::new(None) };
}

/// Runs `run` with recording on for this thread; returns its result and every block-sparse
/// problem solved meanwhile, in order.
pub fn record<R>(run: impl FnOnce() -> R) -> (R, Vec<SparseProblem>) {
    super::thread_log::collect(&RECORDING, run)
}

/// Keeps the problem `make` builds when recording is on (and never builds it otherwise).
pub(super) fn offer(make: impl FnOnce() -> SparseProblem) {
    super::thread_log::append(&RECORDING, make);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Off by default, on inside `record`, off again after it; nested runs keep their own.
    #[test]
    fn records_only_inside_record() {
        let problem = || SparseProblem {
            problem: Assembled {
                delassus: crate::contact::Delassus::new(
                    &crate::model::BlockDiagonalMass::new(
                        1,
                        vec![(0, nalgebra::DMatrix::identity(1, 1))],
                    ),
                    Vec::new(),
                ),
                blocks: Vec::new(),
            },
            u_free: DVector::zeros(0),
            guess: None,
            options: NewtonOptions::default(),
        };
        offer(problem);
        let ((), outer) = record(|| {
            offer(problem);
            let ((), inner) = record(|| offer(problem));
            assert_eq!(inner.len(), 1);
            offer(problem);
        });
        assert_eq!(outer.len(), 2);
        offer(problem);
        let ((), none) = record(|| ());
        assert!(none.is_empty());
    }
}
