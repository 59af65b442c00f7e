//! Linear complementarity problems: the problem, its solution report and the residual that checks it.
//!
//! An LCP(M, q) asks for z ∈ ℝⁿ with
//!
//! ```text
//!     z ≥ 0,   w = M z + q ≥ 0,   zᵀ w = 0        (written 0 ≤ z ⟂ M z + q ≥ 0)
//! ```
//!
//! For contact, z are the normal reactions (or impulses), M = W = J M⁻¹ Jᵀ is the Delassus
//! matrix and q = b the free normal acceleration (or velocity). Two solvers live here:
//! [`lemke`] (exact pivoting, for small problems) and [`pgs`] (projected Gauss–Seidel,
//! iterative, matrix-free when the problem is large). Every answer carries its
//! [`complementarity_residual`] and its scale-free [`relative_residual`], and a solver says
//! `solved` only when the relative residual is within its tolerance, so that nobody has to
//! trust a solver blindly.
//!
//! # The relative residual
//!
//! Row i of an LCP balances terms of very different sizes when masses, stiffnesses or loads
//! span many decades, so an absolute residual means nothing on its own. With
//! w = M z + q, the magnitude of the terms that make up wᵢ and a factor cᵢ that turns zᵢ into
//! the units of wᵢ,
//!
//! ```text
//!     magᵢ = |qᵢ| + Σⱼ |Mᵢⱼ| |zⱼ|,      cᵢ = Mᵢᵢ if Mᵢᵢ > 0, else maxⱼ |Mᵢⱼ| (or 1),
//!     rᵢ   = |min(cᵢ zᵢ, wᵢ)| / magᵢ,    relative residual = maxᵢ rᵢ,
//! ```
//!
//! which is zero exactly at a solution, does not change when a row of (M, q) is scaled, when
//! the problem is scaled symmetrically (z = D z′, M′ = D M D, q′ = D q) or when q is scaled,
//! and is of the order of the rounding error (n ε) for an answer computed stably. A
//! non-finite z or w has an infinite relative residual.

pub mod lemke;
pub mod pgs;

use nalgebra::{DMatrix, DVector};
use serde::Serialize;

pub use lemke::{solve_lemke, solve_lemke_capped_into, solve_lemke_into};
pub use pgs::{DelassusOperator, DenseOperator, PgsOptions, solve_pgs, solve_pgs_operator};

use crate::error::{Error, Result};

/// Outcome of an LCP solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LcpStatus {
    /// A solution was found; `residual` says how well it satisfies complementarity.
    Solved,
    /// Lemke ended on a secondary ray: the LCP has no solution the method can reach
    /// (for a copositive-plus M this proves there is none).
    NoSolution,
    /// An iterative solver stopped at its iteration cap before reaching its tolerance (or
    /// Lemke at its pivot cap); `z` is the last iterate and must not be taken as the answer.
    NotConverged,
    /// The solver finished, but the answer's [`relative_residual`] is above the tolerance or
    /// not finite (rounding overwhelmed the problem's scale): `z` must not be taken as the answer.
    Inaccurate,
}

impl LcpStatus {
    /// The label used in the CLI's JSON (`solved`, `no_solution`, `not_converged`, `inaccurate`).
    pub fn label(self) -> &'static str {
        match self {
            Self::Solved => "solved",
            Self::NoSolution => "no_solution",
            Self::NotConverged => "not_converged",
            Self::Inaccurate => "inaccurate",
        }
    }
}

/// Relative residual up to which Lemke's answer counts as `solved`.
pub const LEMKE_TOLERANCE: f64 = 1e-10;

/// Most unknowns a dense solve takes (Lemke is O(n³); PGS O(n²) a sweep).
pub const MAX_UNKNOWNS: usize = 1000;

/// Most PGS sweeps one solve may run.
pub const MAX_PGS_ITERATIONS: usize = 1_000_000;

/// Most matrix-entry operations (n² × sweeps) one PGS solve may do, about ten seconds.
pub const MAX_PGS_WORK: f64 = 1e10;

/// A dense LCP: find z with 0 ≤ z ⟂ M z + q ≥ 0.
#[derive(Debug, Clone, PartialEq)]
pub struct Lcp {
    /// The n×n matrix (for contact: the Delassus matrix W, in 1/kg).
    pub m: DMatrix<f64>,
    /// The n-vector (for contact: the free normal acceleration b, in m/s²).
    pub q: DVector<f64>,
}

impl Lcp {
    /// Builds an LCP, checking shapes and finiteness; the error names the field.
    pub fn new(m: DMatrix<f64>, q: DVector<f64>) -> Result<Self> {
        if m.nrows() != m.ncols() {
            return Err(Error::field(
                "W",
                format!("must be square, got {}×{}", m.nrows(), m.ncols()),
            ));
        }
        if m.nrows() != q.len() {
            return Err(Error::field(
                "b",
                format!(
                    "must have {} entries to match W, got {}",
                    m.nrows(),
                    q.len()
                ),
            ));
        }
        crate::error::check_finite("W", m.as_slice())?;
        crate::error::check_finite("b", q.as_slice())?;
        Ok(Self { m, q })
    }

    /// Builds a stepper's contact LCP; a non-finite entry (an overflowed state or load) is a
    /// solver error naming the problem, not a complaint about a field the user never wrote.
    pub fn for_contacts(m: DMatrix<f64>, q: DVector<f64>, what: &str) -> Result<Self> {
        Self::new(m, q).map_err(|_| {
            Error::Solver(format!(
                "the {what} problem has a non-finite entry (the state or a load overflowed); the step was not taken"
            ))
        })
    }

    /// Builds an LCP from row-major nested vectors (the CLI's JSON form).
    pub fn from_rows(rows: &[Vec<f64>], q: &[f64]) -> Result<Self> {
        let n = rows.len();
        for (i, r) in rows.iter().enumerate() {
            if r.len() != n {
                return Err(Error::field(
                    format!("W[{i}]"),
                    format!("must have {n} entries (W is square), got {}", r.len()),
                ));
            }
        }
        let m = DMatrix::from_fn(n, n, |i, j| rows[i][j]);
        Self::new(m, DVector::from_column_slice(q))
    }

    /// Number of unknowns.
    pub fn len(&self) -> usize {
        self.q.len()
    }

    /// True when there are no unknowns.
    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }

    /// w = M z + q.
    pub fn slack(&self, z: &DVector<f64>) -> DVector<f64> {
        let mut w = DVector::zeros(self.len());
        self.slack_into(z, &mut w);
        w
    }

    /// [`Lcp::slack`] written into `w` (the same product, `m * z`, formed in place).
    pub fn slack_into(&self, z: &DVector<f64>, w: &mut DVector<f64>) {
        self.m.mul_to(z, w);
        *w += &self.q;
    }
}

/// A solver's answer with the evidence needed to trust it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LcpSolution {
    /// Whether the solver reached an answer.
    pub status: LcpStatus,
    /// The unknowns (reactions); for `NotConverged` the last iterate.
    pub z: Vec<f64>,
    /// The slacks w = M z + q (for contact: normal accelerations).
    pub w: Vec<f64>,
    /// [`complementarity_residual`] of (z, w), in the units of w.
    pub residual: f64,
    /// [`relative_residual`] of z: scale-free, ≤ the solver's tolerance when `solved`.
    pub relative_residual: f64,
    /// Pivots (Lemke) or sweeps (PGS) used.
    pub iterations: usize,
}

impl LcpSolution {
    /// Packs z with its slack and residual.
    pub fn from_z(lcp: &Lcp, z: DVector<f64>, status: LcpStatus, iterations: usize) -> Self {
        let w = lcp.slack(&z);
        let residual = complementarity_residual(z.as_slice(), w.as_slice());
        let relative_residual = relative_residual(lcp, z.as_slice());
        Self {
            status,
            z: z.data.into(),
            w: w.data.into(),
            residual,
            relative_residual,
            iterations,
        }
    }

    /// No unknowns, not solved (storage for [`Self::refill`]).
    pub fn empty() -> Self {
        Self {
            status: LcpStatus::NotConverged,
            z: Vec::new(),
            w: Vec::new(),
            residual: f64::INFINITY,
            relative_residual: f64::INFINITY,
            iterations: 0,
        }
    }

    /// [`Self::from_z`] for the z already in `self.z`, in this solution's storage: w, the
    /// residuals, the status and the iterations are set (the same arithmetic).
    pub fn refill(&mut self, lcp: &Lcp, status: LcpStatus, iterations: usize) {
        let n = lcp.len();
        self.w.clear();
        self.w.resize(n, 0.0);
        {
            let z = nalgebra::DVectorView::from_slice(&self.z, n);
            let mut w = nalgebra::DVectorViewMut::from_slice(&mut self.w, n);
            lcp.m.mul_to(&z, &mut w);
            w += &lcp.q;
        }
        self.residual = complementarity_residual(&self.z, &self.w);
        self.relative_residual = relative_residual(lcp, &self.z);
        self.status = status;
        self.iterations = iterations;
    }

    /// Says [`LcpStatus::Inaccurate`] for a solved answer whose relative residual is not
    /// within `tolerance` (as [`Self::checked`]).
    pub fn check(&mut self, tolerance: f64) {
        // (A NaN residual fails this test too.)
        if self.relative_residual.is_nan() || self.relative_residual > tolerance {
            self.status = LcpStatus::Inaccurate;
        }
    }

    /// Packs z, and says `solved` only if the relative residual is within `tolerance`:
    /// a finished solve whose answer is not good enough is [`LcpStatus::Inaccurate`].
    pub fn checked(lcp: &Lcp, z: DVector<f64>, iterations: usize, tolerance: f64) -> Self {
        let mut out = Self::from_z(lcp, z, LcpStatus::Solved, iterations);
        // (A NaN residual fails this test too.)
        if out.relative_residual.is_nan() || out.relative_residual > tolerance {
            out.status = LcpStatus::Inaccurate;
        }
        out
    }
}

/// The scale-free residual of z for the LCP (see the module docs); ∞ when z or w is not finite.
pub fn relative_residual(lcp: &Lcp, z: &[f64]) -> f64 {
    let n = lcp.len();
    let mut worst = 0.0f64;
    for i in 0..n {
        let mut w = lcp.q[i];
        let mut magnitude = lcp.q[i].abs();
        let mut row_max = 0.0f64;
        for (j, &zj) in z.iter().enumerate() {
            let m = lcp.m[(i, j)];
            w += m * zj;
            magnitude += m.abs() * zj.abs();
            row_max = row_max.max(m.abs());
        }
        if !w.is_finite() || !magnitude.is_finite() || !z[i].is_finite() {
            return f64::INFINITY;
        }
        let diagonal = lcp.m[(i, i)];
        let c = if diagonal > 0.0 {
            diagonal
        } else if row_max > 0.0 {
            row_max
        } else {
            1.0
        };
        let violation = (c * z[i]).min(w).abs();
        if violation == 0.0 {
            continue;
        }
        let r = if magnitude > 0.0 {
            violation / magnitude
        } else {
            f64::INFINITY
        };
        worst = worst.max(r);
    }
    worst
}

/// Checks that a dense solve of `n` unknowns is within the documented limits: at most
/// [`MAX_UNKNOWNS`] unknowns, and for PGS at most [`MAX_PGS_ITERATIONS`] sweeps and
/// [`MAX_PGS_WORK`] entry operations (n² × sweeps). The error names the limit.
pub fn check_size(n: usize, kind: LcpSolverKind, pgs: &PgsOptions) -> Result<()> {
    if n > MAX_UNKNOWNS {
        return Err(Error::field(
            "W",
            format!("has {n} rows; dense LCPs are limited to {MAX_UNKNOWNS} unknowns (O(n³) work)"),
        ));
    }
    if kind == LcpSolverKind::Pgs {
        if pgs.max_iterations == 0 || pgs.max_iterations > MAX_PGS_ITERATIONS {
            return Err(Error::field(
                "max_iterations",
                format!(
                    "must be in [1, {MAX_PGS_ITERATIONS}], got {}",
                    pgs.max_iterations
                ),
            ));
        }
        let work = (n * n) as f64 * pgs.max_iterations as f64;
        if work > MAX_PGS_WORK {
            return Err(Error::field(
                "max_iterations",
                format!(
                    "{} sweeps of a {n}×{n} problem are {} entry operations, above the limit {} (about ten seconds); lower max_iterations",
                    pgs.max_iterations,
                    crate::error::fmt_number(work),
                    crate::error::fmt_number(MAX_PGS_WORK)
                ),
            ));
        }
    }
    Ok(())
}

/// The natural-map residual ‖min(z, w)‖∞ (units of w; zero exactly at a solution).
///
/// It vanishes iff z ≥ 0, w ≥ 0 and z_i w_i = 0 for every i, and it is positive for any
/// violation: a negative reaction, a negative slack (penetrating acceleration), or a
/// reaction and a slack that are both positive (the "decoupled guess" of seed 001 gives
/// min(1.5, 1.5) = 1.5 here).
pub fn complementarity_residual(z: &[f64], w: &[f64]) -> f64 {
    z.iter()
        .zip(w)
        .map(|(&zi, &wi)| zi.min(wi).abs())
        .fold(0.0, f64::max)
}

/// Which solver to use for contact LCPs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LcpSolverKind {
    /// Lexicographic Lemke: exact, O(n³) per solve.
    #[default]
    Lemke,
    /// Projected Gauss–Seidel with an iteration cap and a tolerance.
    Pgs,
}

impl LcpSolverKind {
    /// Parses `lemke` or `pgs`.
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "lemke" => Ok(Self::Lemke),
            "pgs" => Ok(Self::Pgs),
            _ => Err(Error::unknown("LCP solver", name, &["lemke", "pgs"])),
        }
    }
}

/// Solves a dense LCP with the chosen solver.
pub fn solve(lcp: &Lcp, kind: LcpSolverKind, pgs: &PgsOptions) -> LcpSolution {
    match kind {
        LcpSolverKind::Lemke => solve_lemke(lcp),
        LcpSolverKind::Pgs => solve_pgs(lcp, pgs),
    }
}
