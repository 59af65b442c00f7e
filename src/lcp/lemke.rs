//! Lemke's complementary pivoting with lexicographic degeneracy resolution: the exact LCP solver.
//!
//! Lemke augments the LCP with an artificial variable z₀ and the covering vector e = (1,…,1):
//!
//! ```text
//!     w − M z − e z₀ = q,     w, z, z₀ ≥ 0,     wᵢ zᵢ = 0.
//! ```
//!
//! Start with the basis {w}; if q ≥ 0, z = 0 is the answer. Otherwise z₀ enters at the level
//! that makes every w non-negative, the most negative row leaves, and from then on the
//! complement of the variable that just left enters (that keeps wᵢ zᵢ = 0 for all i but one).
//! A minimum-ratio test picks the row that leaves. The path ends when z₀ leaves (a solution)
//! or when the entering column has no positive entry (a secondary ray: no solution reached).
//!
//! Degenerate steps (ties in the ratio test) can make plain Lemke cycle. The lexicographic rule
//! breaks ties by comparing the rows of [B⁻¹q, B⁻¹] divided by the pivot column, which is the
//! same as solving the problem with q perturbed by (ε, ε², …, εⁿ) for an infinitesimal ε; the
//! perturbed problem is non-degenerate, so the path is finite (Cottle, Pang & Stone, *The
//! Linear Complementarity Problem*, §4.4). For a P-matrix (every contact LCP with a
//! positive-definite Delassus matrix) the path always ends in the unique solution.
//!
//! The basis inverse B⁻¹ is kept explicitly (n×n) and updated by one elimination per pivot,
//! O(n²) a pivot. The answer is then polished: with the active set S = {i : zᵢ > 0} fixed, the
//! equations M_SS z_S = −q_S are solved by LU (with one step of iterative refinement) so the
//! reported z is exact to rounding.
//!
//! Scale. Contact problems mix masses, stiffnesses and loads over many decades, and a pivot
//! tolerance in absolute units would refuse good pivots of a problem with large |q| (or accept
//! noise in one with small |q|). So the path runs on the equilibrated problem
//!
//! ```text
//!     z = s D z′,   M′ = D M D,   q′ = D q / s,    Dᵢᵢ ≈ 1/√Mᵢᵢ (or 1/√maxⱼ|Mᵢⱼ|),  s ≈ maxᵢ |(D q)ᵢ|,
//! ```
//!
//! with Dᵢᵢ and s rounded to powers of two so the scaling adds no rounding of its own. It has
//! the same complementarity pairs, a diagonal in [½, 2] and |q′| ≤ 2, and its pivot test is
//! relative to the entering column. The answer is `solved` only if its relative residual
//! (see [`super::relative_residual`]) is at most [`super::LEMKE_TOLERANCE`], otherwise
//! [`LcpStatus::Inaccurate`].

use nalgebra::{DMatrix, DVector};

use super::{LEMKE_TOLERANCE, Lcp, LcpSolution, LcpStatus};
use crate::linalg::buffers::{sized_matrix, sized_vector};
use crate::linalg::reusable_lu::ReusableLu;

/// Index of a variable in the augmented problem: w₀…wₙ₋₁, z₀…zₙ₋₁, then the artificial z₀.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Var {
    W(usize),
    Z(usize),
    Artificial,
}

/// A pivot-column entry counts as positive above this fraction of the column's largest entry.
const PIVOT_TOLERANCE: f64 = 1e-11;

/// How the complementary pivoting path ended.
enum PathEnd {
    /// z₀ left the basis: the basic z (left in the scratch) is a solution.
    Solution,
    /// The entering column had no positive entry.
    Ray,
    /// The pivot cap was reached (cycling through rounding).
    Cap,
}

/// The buffers of one Lemke solve, kept between solves (see [`solve_lemke`]).
#[derive(Debug)]
struct LemkeScratch {
    /// The equilibrated problem and its row factors D.
    scaled: Lcp,
    d: DVector<f64>,
    /// The tableau: basis, B⁻¹, x_B = B⁻¹ q.
    basis: Vec<Var>,
    binv: DMatrix<f64>,
    xb: DVector<f64>,
    /// The entering column and B⁻¹ times it.
    entering_column: DVector<f64>,
    direction: DVector<f64>,
    /// The basic z at the end of the path.
    z: DVector<f64>,
    /// The polish: active set, M_SS, −q_S, its solution and correction, the candidate z
    /// and a slack.
    active: Vec<usize>,
    mss: DMatrix<f64>,
    rhs: DVector<f64>,
    zs: DVector<f64>,
    correction: DVector<f64>,
    polished: DVector<f64>,
    slack: DVector<f64>,
    lu: ReusableLu,
}

impl Default for LemkeScratch {
    fn default() -> Self {
        let v = || DVector::zeros(0);
        Self {
            scaled: Lcp {
                m: DMatrix::zeros(0, 0),
                q: v(),
            },
            d: v(),
            basis: Vec::new(),
            binv: DMatrix::zeros(0, 0),
            xb: v(),
            entering_column: v(),
            direction: v(),
            z: v(),
            active: Vec::new(),
            mss: DMatrix::zeros(0, 0),
            rhs: v(),
            zs: v(),
            correction: v(),
            polished: v(),
            slack: v(),
            lu: ReusableLu::default(),
        }
    }
}

thread_local! {
    /// Scratch for [`solve_lemke`]: a solve takes one set and puts it back, so that the
    /// polyhedral problems of every step reuse the same tableau (a stack, so that a solve
    /// inside another would take its own).
    static LEMKE_SCRATCH: crate::linalg::buffers::ScratchPool<LemkeScratch> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Gives the buffers of the next [`solve_lemke_into`] room for a problem of `n` unknowns, so
/// that a client whose Lemke is a rare path (a fallback) grows them with its common path's
/// buffers, not at the fallback's first call.
pub(crate) fn reserve(n: usize) {
    use crate::linalg::buffers::{reserve_matrix, reserve_vector};
    crate::linalg::buffers::with_scratch(&LEMKE_SCRATCH, |s| {
        for m in [&mut s.scaled.m, &mut s.binv, &mut s.mss] {
            reserve_matrix(m, n * n);
        }
        for v in [
            &mut s.scaled.q,
            &mut s.d,
            &mut s.xb,
            &mut s.entering_column,
            &mut s.direction,
            &mut s.z,
            &mut s.rhs,
            &mut s.zs,
            &mut s.correction,
            &mut s.polished,
            &mut s.slack,
        ] {
            reserve_vector(v, n);
        }
        s.basis.reserve(n.saturating_sub(s.basis.len()));
        s.active.reserve(n.saturating_sub(s.active.len()));
        s.lu.reserve(n);
    });
}

/// Solves 0 ≤ z ⟂ M z + q ≥ 0 exactly (to rounding) or reports [`LcpStatus::NoSolution`]
/// (a secondary ray), [`LcpStatus::NotConverged`] (pivot cap) or [`LcpStatus::Inaccurate`].
pub fn solve_lemke(lcp: &Lcp) -> LcpSolution {
    let mut out = LcpSolution::empty();
    solve_lemke_into(lcp, &mut out);
    out
}

/// [`solve_lemke`] into `out`, its z and w written in `out`'s storage (a solver that
/// solves an LCP every step keeps one solution).
pub fn solve_lemke_into(lcp: &Lcp, out: &mut LcpSolution) {
    solve_lemke_capped_into(lcp, 50 * lcp.len() + 100, out);
}

/// [`solve_lemke_into`] with a cap of `max_pivots` pivots instead of 50 n + 100: a client
/// that has a cheaper way out when Lemke cycles (a degenerate problem, where rounding defeats
/// the lexicographic rule) need not pay for fifty pivots per unknown, each O(n²), to find
/// out.
pub fn solve_lemke_capped_into(lcp: &Lcp, max_pivots: usize, out: &mut LcpSolution) {
    let n = lcp.len();
    if n == 0 || lcp.q.iter().all(|&qi| qi >= 0.0) {
        out.z.clear();
        out.z.resize(n, 0.0);
        out.refill(lcp, LcpStatus::Solved, 0);
        out.check(LEMKE_TOLERANCE);
        return;
    }
    crate::linalg::buffers::with_scratch(&LEMKE_SCRATCH, |s| solve_in(lcp, max_pivots, s, out));
}

/// [`solve_lemke`] in the buffers of `s`, for a q with a negative entry.
fn solve_in(lcp: &Lcp, max_pivots: usize, s: &mut LemkeScratch, out: &mut LcpSolution) {
    let n = lcp.len();
    let scale = equilibrate(lcp, &mut s.scaled, &mut s.d);
    let (end, pivots) = complementary_path(s, max_pivots);
    out.z.clear();
    match end {
        PathEnd::Solution => {
            polish(s);
            // z = s D z′.
            out.z
                .extend(s.z.iter().zip(s.d.iter()).map(|(z, d)| z * d * scale));
            out.refill(lcp, LcpStatus::Solved, pivots);
            out.check(LEMKE_TOLERANCE);
        }
        PathEnd::Ray => {
            out.z.resize(n, 0.0);
            out.refill(lcp, LcpStatus::NoSolution, pivots);
        }
        PathEnd::Cap => {
            out.z.resize(n, 0.0);
            out.refill(lcp, LcpStatus::NotConverged, pivots);
        }
    }
}

/// The power of two nearest to `x` (> 0): scaling by it is exact in floating point.
fn power_of_two(x: f64) -> f64 {
    libm::exp2(libm::round(libm::log2(x)))
}

/// Writes the problem scaled to a unit diagonal and |q′| ≤ 1 into `scaled`, with its row
/// factors D into `d`; returns s (z = s D z′ undoes it).
fn equilibrate(lcp: &Lcp, scaled: &mut Lcp, d: &mut DVector<f64>) -> f64 {
    let n = lcp.len();
    // Powers of two, so the scaling itself adds no rounding (as LAPACK's equilibration).
    sized_vector(d, n);
    for i in 0..n {
        let diagonal = lcp.m[(i, i)];
        let row_max = lcp.m.row(i).amax();
        let size = if diagonal > 0.0 { diagonal } else { row_max };
        d[i] = if size > 0.0 && size.is_finite() {
            power_of_two(1.0 / size.sqrt())
        } else {
            1.0
        };
    }
    sized_matrix(&mut scaled.m, n, n);
    for j in 0..n {
        for i in 0..n {
            scaled.m[(i, j)] = d[i] * lcp.m[(i, j)] * d[j];
        }
    }
    sized_vector(&mut scaled.q, n);
    scaled.q.copy_from(&lcp.q);
    scaled.q.component_mul_assign(d);
    let s = scaled.q.amax();
    let s = if s > 0.0 && s.is_finite() {
        power_of_two(s)
    } else {
        1.0
    };
    scaled.q /= s;
    s
}

/// Lemke's path on `s.scaled` (already equilibrated), at most `max_pivots` pivots, with the
/// number of pivots; on a solution the basic z is left in `s.z`.
fn complementary_path(s: &mut LemkeScratch, max_pivots: usize) -> (PathEnd, usize) {
    let lcp = &s.scaled;
    let n = lcp.len();
    // Tableau state: basis, B⁻¹ and the basic solution x_B = B⁻¹ q.
    s.basis.clear();
    s.basis.extend((0..n).map(Var::W));
    let basis = &mut s.basis;
    sized_matrix(&mut s.binv, n, n);
    s.binv.fill_with_identity();
    let binv = &mut s.binv;
    sized_vector(&mut s.xb, n);
    s.xb.copy_from(&lcp.q);
    let xb = &mut s.xb;

    // Column of the constraint matrix A = [I, −M, −e] for a variable, written into `out`.
    let column = |v: Var, out: &mut DVector<f64>| match v {
        Var::W(i) => {
            out.fill(0.0);
            out[i] = 1.0;
        }
        Var::Z(j) => {
            for (o, &m) in out.iter_mut().zip(lcp.m.column(j).iter()) {
                *o = -m;
            }
        }
        Var::Artificial => out.fill(-1.0),
    };
    // The entering column and B⁻¹ times it, reused from pivot to pivot.
    sized_vector(&mut s.entering_column, n);
    sized_vector(&mut s.direction, n);
    let (entering_column, d) = (&mut s.entering_column, &mut s.direction);

    // First pivot: z₀ enters at θ = max(−qᵢ); among tied rows the lexicographic rule picks the
    // one whose perturbation εⁱ is smallest, i.e. the largest index.
    let qmin = lcp.q.min();
    let mut row = 0;
    for i in 0..n {
        if lcp.q[i] <= qmin {
            row = i;
        }
    }
    let mut entering = Var::Artificial;
    let mut pivots = 0;
    loop {
        column(entering, entering_column);
        // d = B⁻¹ A_j (the product `&binv * A_j` computes, written in place).
        binv.mul_to(entering_column, d);
        if pivots > 0 {
            let tol = PIVOT_TOLERANCE * d.amax();
            match lexicographic_ratio_row(d, xb, binv, tol) {
                Some(r) => row = r,
                None => return (PathEnd::Ray, pivots),
            }
        }
        pivot(binv, xb, d, row);
        pivots += 1;
        let leaving = std::mem::replace(&mut basis[row], entering);
        entering = match leaving {
            Var::Artificial => break,
            Var::W(i) => Var::Z(i),
            Var::Z(i) => Var::W(i),
        };
        if pivots >= max_pivots {
            return (PathEnd::Cap, pivots);
        }
    }

    sized_vector(&mut s.z, n);
    s.z.fill(0.0);
    for (i, v) in basis.iter().enumerate() {
        if let Var::Z(j) = *v {
            s.z[j] = xb[i].max(0.0);
        }
    }
    (PathEnd::Solution, pivots)
}

/// Minimum-ratio row for entering column `d`, ties broken lexicographically on [x_B, B⁻¹].
fn lexicographic_ratio_row(
    d: &DVector<f64>,
    xb: &DVector<f64>,
    binv: &DMatrix<f64>,
    tol: f64,
) -> Option<usize> {
    let n = d.len();
    let mut best: Option<usize> = None;
    for i in 0..n {
        if d[i] <= tol {
            continue;
        }
        best = Some(match best {
            None => i,
            Some(b) => {
                // Compare (x_B[i], B⁻¹[i,:]) / d[i] against the same for b.
                let mut pick = b;
                let ri = xb[i] / d[i];
                let rb = xb[b] / d[b];
                let rel = 1e-12 * (1.0 + ri.abs().max(rb.abs()));
                if ri < rb - rel {
                    pick = i;
                } else if (ri - rb).abs() <= rel {
                    for k in 0..n {
                        let a = binv[(i, k)] / d[i];
                        let c = binv[(b, k)] / d[b];
                        let relk = 1e-12 * (1.0 + a.abs().max(c.abs()));
                        if a < c - relk {
                            pick = i;
                            break;
                        }
                        if a > c + relk {
                            break;
                        }
                    }
                }
                pick
            }
        });
    }
    best
}

/// Gauss–Jordan pivot on `row` with entering column `d` (already expressed as B⁻¹ A_j).
fn pivot(binv: &mut DMatrix<f64>, xb: &mut DVector<f64>, d: &DVector<f64>, row: usize) {
    let n = d.len();
    let p = d[row];
    for k in 0..n {
        binv[(row, k)] /= p;
    }
    xb[row] /= p;
    for i in 0..n {
        if i == row || d[i] == 0.0 {
            continue;
        }
        let f = d[i];
        for k in 0..n {
            binv[(i, k)] -= f * binv[(row, k)];
        }
        xb[i] -= f * xb[row];
    }
}

/// Re-solves M_SS z_S = −q_S on the active set S of `s.z` (for `s.scaled`); keeps the
/// result in `s.z` only if it is feasible and no worse, so polishing can never turn a
/// solution into a non-solution.
fn polish(s: &mut LemkeScratch) {
    let (lcp, z) = (&s.scaled, &mut s.z);
    s.active.clear();
    s.active.extend((0..z.len()).filter(|&i| z[i] > 0.0));
    let active = &s.active;
    if active.is_empty() {
        return;
    }
    let k = active.len();
    sized_matrix(&mut s.mss, k, k);
    for b in 0..k {
        for a in 0..k {
            s.mss[(a, b)] = lcp.m[(active[a], active[b])];
        }
    }
    sized_vector(&mut s.rhs, k);
    for (r, &i) in s.rhs.iter_mut().zip(active) {
        *r = -lcp.q[i];
    }
    s.lu.factor(&s.mss);
    sized_vector(&mut s.zs, k);
    s.zs.copy_from(&s.rhs);
    if !s.lu.solve_in_place(&mut s.zs) {
        return;
    }
    // One step of iterative refinement: the residual of the first solve, solved again.
    sized_vector(&mut s.correction, k);
    s.mss.mul_to(&s.zs, &mut s.correction);
    s.correction.neg_mut();
    s.correction += &s.rhs;
    if s.lu.solve_in_place(&mut s.correction) {
        s.zs += &s.correction;
    }
    sized_vector(&mut s.polished, z.len());
    s.polished.fill(0.0);
    for (a, &i) in active.iter().enumerate() {
        if s.zs[a] < 0.0 {
            return;
        }
        s.polished[i] = s.zs[a];
    }
    sized_vector(&mut s.slack, z.len());
    lcp.slack_into(z, &mut s.slack);
    let before = super::complementarity_residual(z.as_slice(), s.slack.as_slice());
    lcp.slack_into(&s.polished, &mut s.slack);
    let after = super::complementarity_residual(s.polished.as_slice(), s.slack.as_slice());
    if after <= before {
        std::mem::swap(z, &mut s.polished);
    }
}
