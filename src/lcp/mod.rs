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
//! [`complementarity_residual`] so that nobody has to trust a solver blindly.

pub mod lemke;
pub mod pgs;

use nalgebra::{DMatrix, DVector};
use serde::Serialize;

pub use lemke::solve_lemke;
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
    /// An iterative solver stopped at its iteration cap before reaching its tolerance; `z` is
    /// the last iterate and must not be taken as the answer.
    NotConverged,
}

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
        &self.m * z + &self.q
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
    /// [`complementarity_residual`] of (z, w).
    pub residual: f64,
    /// Pivots (Lemke) or sweeps (PGS) used.
    pub iterations: usize,
}

impl LcpSolution {
    /// Packs z with its slack and residual.
    pub fn from_z(lcp: &Lcp, z: DVector<f64>, status: LcpStatus, iterations: usize) -> Self {
        let w = lcp.slack(&z);
        let residual = complementarity_residual(z.as_slice(), w.as_slice());
        Self {
            status,
            z: z.as_slice().to_vec(),
            w: w.as_slice().to_vec(),
            residual,
            iterations,
        }
    }
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
