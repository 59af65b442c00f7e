//! The globally convergent fallback of the contact laws: the polyhedral LCP solved by Lemke.
//!
//! Semismooth Newton is fast near a solution, but frictional problems are not monotone and
//! Newton can stall far from one (Painlevé-type configurations, where friction makes the
//! normal problem ill-posed at the acceleration level, are the classic case). The impulse
//! problem itself always has a solution when W = G M⁻¹ Gᵀ is positive definite, and
//! replacing each disc law by a polygon turns it into an LCP that Lemke's method solves
//! (Stewart & Trinkle 1996; Anitescu & Potra 1997, "Formulating dynamic multi-rigid-body
//! contact problems with friction as solvable linear complementarity problems"):
//!
//! ```text
//!     λ_L = D_L β_L                           (β_L ≥ 0: one weight per polygon direction)
//!     0 ≤ λ_N ⟂ u_N ≥ 0
//!     0 ≤ β_L ⟂ D_Lᵀ u_L + e s_L ≥ 0         (s_L: the largest speed against a direction)
//!     0 ≤ s_L ⟂ c_L λ_N − eᵀ β_L ≥ 0          (c_L = μ, ρ or γ: the law's bound)
//!     u = u_free + W λ
//! ```
//!
//! For a one-dimensional law (a planar tangent, spinning) D_L = [1, −1] and the polygon *is*
//! the segment, so the answer is exact. For a disc (Coulomb in space, rolling resistance)
//! D_L holds [`DISC_DIRECTIONS`] unit vectors and the polygon is inscribed in the disc, so the
//! answer lies inside the law's admissible set but only approximates maximal dissipation;
//! the caller then restarts Newton from it, which converges from there in the cases seen.

use nalgebra::{DMatrix, DVector};

use super::{BallLaw, LawBlock};
use crate::lcp::{Lcp, LcpSolution, LcpStatus, solve_lemke_capped_into};
use crate::linalg::buffers::{sized_matrix, sized_vector};

/// Directions of the polygon inscribed in a friction or rolling disc.
pub const DISC_DIRECTIONS: usize = 16;

/// Lemke's pivot cap on the polygon, per unknown (the LCP's own default is 50). On the
/// pile of 100 boxes (`shape` = 1, NSGA, 0.45 s: 226 polygons of 60 to 360 unknowns) every
/// polygon Lemke solved took at most 1.21 n pivots (median 0.53 n), the inaccurate answers
/// at most 6.4 n, and the ten that reached fifty per unknown cycled to the cap, which cost up
/// to 3.2 s a step; past ten per unknown the fallback's other answers are the better bet.
const PIVOTS_PER_UNKNOWN: usize = 10;

/// A solved polyhedral problem: the multipliers and whether the polygon was exact.
pub struct PolyhedralSolution {
    /// The multipliers λ (inside every law's admissible set).
    pub lambda: DVector<f64>,
    /// True when every law is one-dimensional and Lemke said `solved` (then λ solves the laws
    /// exactly).
    pub exact: bool,
    /// Lemke pivots.
    pub pivots: usize,
}

thread_local! {
    /// The λ of dropped solutions, for the next ones (a planar pile solves an island's
    /// polygon every step).
    static SPARE_LAMBDAS: crate::linalg::buffers::ScratchPool<DVector<f64>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

impl Drop for PolyhedralSolution {
    fn drop(&mut self) {
        let lambda = std::mem::replace(&mut self.lambda, DVector::zeros(0));
        crate::linalg::buffers::give_back(&SPARE_LAMBDAS, lambda, 4);
    }
}

/// The number of directions of the polygon of a law of `dimension` 1 or 2.
fn direction_count(dimension: usize) -> usize {
    if dimension == 1 { 2 } else { DISC_DIRECTIONS }
}

/// Direction `k` of the polygon of a law of `dimension` 1 or 2 (a unit vector; only the
/// first `dimension` components are used): ±1 on a segment, the disc's inscribed polygon.
fn direction(dimension: usize, k: usize) -> [f64; 2] {
    if dimension == 1 {
        return [if k == 0 { 1.0 } else { -1.0 }, 0.0];
    }
    let angle = 2.0 * std::f64::consts::PI * k as f64 / DISC_DIRECTIONS as f64;
    [libm::cos(angle), libm::sin(angle)]
}

/// The buffers of one polyhedral problem, kept between problems (see [`solve`]).
#[derive(Debug)]
struct PolyhedralScratch {
    /// Every present ball law, with the index of its block's normal multiplier.
    laws: Vec<(usize, BallLaw)>,
    /// The columns of E: `entries[starts[j]..starts[j + 1]]` for unknown j.
    entries: Vec<(usize, f64)>,
    starts: Vec<usize>,
    /// Each law's β unknowns.
    beta_ranges: Vec<std::ops::Range<usize>>,
    /// W E.
    we: DMatrix<f64>,
    /// The LCP and Lemke's answer.
    lcp: Lcp,
    solution: LcpSolution,
}

impl Default for PolyhedralScratch {
    fn default() -> Self {
        Self {
            laws: Vec::new(),
            entries: Vec::new(),
            starts: Vec::new(),
            beta_ranges: Vec::new(),
            we: DMatrix::zeros(0, 0),
            lcp: Lcp {
                m: DMatrix::zeros(0, 0),
                q: DVector::zeros(0),
            },
            solution: LcpSolution::empty(),
        }
    }
}

thread_local! {
    /// Scratch for [`solve`] (a stack: a solve takes one set and puts it back).
    static POLYHEDRAL_SCRATCH: crate::linalg::buffers::ScratchPool<PolyhedralScratch> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Gives the buffers of the next [`solve`] (its own and Lemke's) room for the polygon of a
/// problem of `n` rows and `blocks`, so that a small island whose solves rarely fall back
/// to the polygon grows them with its common path's buffers: a settled planar pile that
/// needed the polygon for the first time at step 673 allocated 48 times in that step.
pub(crate) fn reserve(n: usize, blocks: &[LawBlock]) {
    use crate::linalg::buffers::{reserve_matrix, reserve_vector};
    let (mut laws, mut directions, mut entries) = (0, 0, blocks.len());
    for law in blocks
        .iter()
        .flat_map(|b| b.ball_laws())
        .filter(|l| l.len > 0)
    {
        laws += 1;
        directions += direction_count(law.len);
        entries += direction_count(law.len) * law.len;
    }
    let bilateral = blocks.iter().filter(|b| b.bilateral).count();
    let slack_start = blocks.len() + bilateral + directions;
    let size = slack_start + laws;
    crate::linalg::buffers::with_scratch(&POLYHEDRAL_SCRATCH, |s| {
        s.laws.reserve(laws.saturating_sub(s.laws.len()));
        s.entries
            .reserve((entries + bilateral).saturating_sub(s.entries.len()));
        s.starts
            .reserve((slack_start + 1).saturating_sub(s.starts.len()));
        s.beta_ranges
            .reserve(laws.saturating_sub(s.beta_ranges.len()));
        reserve_matrix(&mut s.we, n * slack_start);
        reserve_matrix(&mut s.lcp.m, size * size);
        reserve_vector(&mut s.lcp.q, size);
        s.solution
            .z
            .reserve(size.saturating_sub(s.solution.z.len()));
        s.solution
            .w
            .reserve(size.saturating_sub(s.solution.w.len()));
    });
    let mut lambda = crate::linalg::buffers::take_spare(&SPARE_LAMBDAS);
    reserve_vector(&mut lambda, n);
    crate::linalg::buffers::give_back(&SPARE_LAMBDAS, lambda, 4);
    crate::lcp::lemke::reserve(size);
}

/// Solves the polyhedral problem for u = u_free + W λ; None when Lemke does not reach an
/// accurate answer.
pub fn solve(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
) -> Option<PolyhedralSolution> {
    crate::linalg::buffers::with_scratch(&POLYHEDRAL_SCRATCH, |s| solve_in(w, u_free, blocks, s))
}

/// [`solve`] in the buffers of `s`.
fn solve_in(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    s: &mut PolyhedralScratch,
) -> Option<PolyhedralSolution> {
    let n = u_free.len();
    s.laws.clear();
    s.laws.extend(
        blocks
            .iter()
            .flat_map(|b| b.ball_laws().map(|law| (b.offset, law)))
            .filter(|(_, law)| law.len > 0),
    );
    let PolyhedralScratch {
        laws,
        entries,
        starts,
        beta_ranges,
        we,
        lcp,
        solution,
    } = s;
    // Unknown x = (λ_N of every block, β of every law, s of every law); E maps x to λ. The
    // column of E for unknown j, entries[starts[j]..starts[j + 1]] as (row of λ, factor), is
    // also the row of P that measures u for it (each unknown is complementary to the
    // relative quantity along its own column).
    entries.clear();
    starts.clear();
    starts.push(0);
    for b in blocks {
        entries.push((b.offset, 1.0));
        starts.push(entries.len());
    }
    // A bilateral row's λ_N = x⁺ − x⁻ with 0 ≤ x⁺ ⟂ u_N ≥ 0 and 0 ≤ x⁻ ⟂ −u_N ≥ 0: together
    // u_N = 0 with λ_N of either sign (the equality as a pair of complementarity rows).
    for b in blocks.iter().filter(|b| b.bilateral) {
        entries.push((b.offset, -1.0));
        starts.push(entries.len());
    }
    beta_ranges.clear();
    for (_, law) in laws.iter() {
        let first = starts.len() - 1;
        for k in 0..direction_count(law.len) {
            let d = direction(law.len, k);
            entries.extend((0..law.len).map(|c| (law.start + c, d[c])));
            starts.push(entries.len());
        }
        beta_ranges.push(first..starts.len() - 1);
    }
    let column = |j: usize| &entries[starts[j]..starts[j + 1]];
    let slack_start = starts.len() - 1;
    let size = slack_start + laws.len();
    sized_matrix(&mut lcp.m, size, size);
    lcp.m.fill(0.0);
    sized_vector(&mut lcp.q, size);
    lcp.q.fill(0.0);
    let (m, q) = (&mut lcp.m, &mut lcp.q);
    // Rows of λ_N and β: (P W E) x + P u_free; column j of W E first.
    sized_matrix(we, n, slack_start);
    we.fill(0.0);
    for j in 0..slack_start {
        for &(row, x) in column(j) {
            for i in 0..n {
                we[(i, j)] += w[(i, row)] * x;
            }
        }
    }
    for i in 0..slack_start {
        let measure = column(i);
        for j in 0..slack_start {
            m[(i, j)] = measure.iter().map(|&(row, x)| x * we[(row, j)]).sum();
        }
        q[i] = measure.iter().map(|&(row, x)| x * u_free[row]).sum();
    }
    // Couplings: + s_L in every β row of law L; c_L λ_N − Σ β in the slack row.
    let normal_unknown = |row: usize| blocks.iter().position(|b| b.offset == row);
    for (l, (normal, law)) in laws.iter().enumerate() {
        let slack = slack_start + l;
        for j in beta_ranges[l].clone() {
            m[(j, slack)] = 1.0;
            m[(slack, j)] = -1.0;
        }
        if let Some(k) = normal_unknown(*normal) {
            m[(slack, k)] = law.coefficient;
        }
    }
    // (What `Lcp::new` checks: W or u_free not finite is no problem Lemke can take.)
    if !m.iter().chain(q.iter()).all(|x| x.is_finite()) {
        return None;
    }
    solve_lemke_capped_into(lcp, PIVOTS_PER_UNKNOWN * size + 100, solution);
    // An `inaccurate` answer (rounding in a degenerate problem: redundant contacts) is still a
    // good start for Newton, which then decides; a ray or a pivot cap is no answer at all.
    if !matches!(solution.status, LcpStatus::Solved | LcpStatus::Inaccurate) {
        return None;
    }
    let mut lambda = crate::linalg::buffers::take_spare(&SPARE_LAMBDAS);
    crate::linalg::buffers::zeroed_vector(&mut lambda, n);
    for j in 0..slack_start {
        let x = solution.z[j];
        if x != 0.0 {
            for &(row, d) in column(j) {
                lambda[row] += d * x;
            }
        }
    }
    Some(PolyhedralSolution {
        lambda,
        exact: laws.iter().all(|(_, l)| l.len == 1) && solution.status == LcpStatus::Solved,
        pivots: solution.iterations,
    })
}
