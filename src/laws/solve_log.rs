//! A log of the block-sparse solves along a run (size, warm start, iterations, outcome), so that `contactlab bench-pile --trace` can say which solves a step's time went to.
//!
//! A step of a pile hands the block-sparse solver several problems (under NSGA a position
//! pass or two, then the velocity level), and the step's report folds them into one
//! iteration count and one residual. Where the time goes (a cold second position pass every
//! step of a settled pile; unconverged velocity solves in the landing) shows only solve by
//! solve. Logging is off unless [`log`] turns it on for the current thread; off, it costs
//! one thread-local check per block-sparse solve (a large island's, or the bounded re-check of
//! a suspect dense answer).

use std::cell::RefCell;

/// One block-sparse solve as it ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolveRecord {
    /// Rows of the problem (its multipliers).
    pub rows: usize,
    /// Whether it started from a warm start (the guess it was given, if any, survived the
    /// physical-answer check).
    pub warm: bool,
    /// Sweeps, Newton steps and GMRES iterations, summed.
    pub iterations: usize,
    /// Whether it met its tolerance.
    pub converged: bool,
    /// Its relative residual.
    pub residual: f64,
}

thread_local! {
    static LOG: super::thread_log::Slot<SolveRecord> = const { RefCell::new(None) };
}

/// Runs `run` with the log on for this thread; returns its result and every block-sparse
/// solve that ended meanwhile, in order.
pub fn log<R>(run: impl FnOnce() -> R) -> (R, Vec<SolveRecord>) {
    super::thread_log::collect(&LOG, run)
}

/// Notes the solve `make` describes when the log is on (and never builds it otherwise).
pub(super) fn note(make: impl FnOnce() -> SolveRecord) {
    super::thread_log::append(&LOG, make);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(rows: usize) -> SolveRecord {
        SolveRecord {
            rows,
            warm: false,
            iterations: 1,
            converged: true,
            residual: 0.0,
        }
    }

    /// Off by default, on inside `log`, off again after it; nested runs keep their own.
    #[test]
    fn logs_only_inside_log() {
        note(|| record(1));
        let ((), outer) = log(|| {
            note(|| record(2));
            let ((), inner) = log(|| note(|| record(3)));
            assert_eq!(inner, vec![record(3)]);
            note(|| record(4));
        });
        assert_eq!(outer, vec![record(2), record(4)]);
        note(|| record(5));
        let ((), none) = log(|| ());
        assert!(none.is_empty());
    }
}
