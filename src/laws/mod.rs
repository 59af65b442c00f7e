//! Contact laws in augmented-Lagrangian (Alart–Curnier) form, solved by semismooth Newton.
//!
//! Each contact has multipliers λ = (λ_N, λ_T, λ_R, λ_S) — an impulse (velocity level) or a
//! position correction (position level) — and relative quantities u = (u_N, u_T, u_R, u_S)
//! that depend linearly on them through the Delassus matrix: u = u_free + W λ, W = G M⁻¹ Gᵀ.
//! With an augmentation r > 0 the laws are the fixed-point equations
//!
//! ```text
//!     σ_N = λ_N − r u_N,          λ_N = max(0, σ_N)                          (unilateral)
//!     σ_T = λ_T − r u_T,          λ_T = P_B(μ σ_N⁺)(σ_T)                     (Coulomb)
//!     σ_R = λ_R − r u_R,          λ_R = P_B(ρ σ_N⁺)(σ_R)                     (rolling, ρ a length)
//!     σ_S = λ_S − r u_S,          λ_S = P_[−γσ_N⁺, γσ_N⁺](σ_S)              (spinning, γ a length)
//! ```
//!
//! In the seed's notation the augmented multiplier is ξ = k·ν + p·g with the sign chosen so
//! that ξ_N < 0 means an open gap; here σ = λ − r u with u_N ≥ 0 admissible, i.e. k = 1,
//! p = r and g = −u. At a solution σ_N⁺ = λ_N, so the friction and resistance bounds are
//! μλ_N, ρλ_N and γλ_N. The solutions do not depend on r; r only changes Newton's path.
//!
//! The residual R(λ) = λ − P(σ(λ)) is piecewise smooth; Newton uses its generalized Jacobian
//! ∂R/∂λ = I − ∂P/∂σ (I − r W) − ∂P/∂r ∂r/∂λ, whose branches are the gap / stick / slip (and
//! rolling, spinning) cases of the seed's Eqs. 55–58, with a backtracking line search on ‖R‖.
//!
//! Newton is not globally convergent on frictional problems (they are not monotone). When it
//! stalls, [`solve`] falls back to the polyhedral LCP solved by Lemke ([`polyhedral`]), exact
//! for one-dimensional laws and inscribed in the discs otherwise, and restarts Newton from
//! there. Whatever happens, the multipliers returned satisfy their laws' admissible sets
//! (λ_N ≥ 0, ‖λ_T‖ ≤ μλ_N, ‖λ_R‖ ≤ ρλ_N, |λ_S| ≤ γλ_N): a step that did not converge says so
//! and still never pulls or pushes friction outside its cone.

pub mod anderson;
pub mod assembly;
pub mod capture;
mod incomplete_cholesky;
mod mprgp;
pub mod newton_krylov;
pub mod nsgs;
mod packed_rows;
pub mod polyhedral;
pub mod projection;
mod proximal;
mod round_contact;
pub mod solve_log;
pub mod sparse;
mod sparse_jacobian;
mod thread_log;
mod worklist;

use nalgebra::{DMatrix, DVector};

use crate::linalg::float::max;
use projection::{BallCase, MAX_BALL, project_ball};

/// Layout and coefficients of one contact's multipliers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LawBlock {
    /// Index of λ_N in the stacked vector.
    pub offset: usize,
    /// Tangent multipliers (0, 1 or 2).
    pub tangents: usize,
    /// Rolling multipliers (0 or 2).
    pub rolling: usize,
    /// Spinning multiplier (0 or 1).
    pub spin: usize,
    /// Coulomb coefficient μ.
    pub friction: f64,
    /// Rolling resistance length ρ, m.
    pub rolling_resistance: f64,
    /// Spinning resistance length γ, m.
    pub spinning_resistance: f64,
    /// An equality instead of the unilateral normal law (a joint's row): λ_N of either sign
    /// with u_N = 0. A bilateral block has no friction-type laws (tangents, rolling and spin
    /// are 0).
    pub bilateral: bool,
}

/// One ball law of a block: its first multiplier, its dimension and its bound coefficient
/// (the bound is coefficient × λ_N).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BallLaw {
    /// Index of the law's first multiplier.
    pub start: usize,
    /// Number of multipliers (0 when the law is absent, 1 for a segment, 2 for a disc).
    pub len: usize,
    /// μ, ρ or γ.
    pub coefficient: f64,
}

impl LawBlock {
    /// What the free motion asks of the block's row `k` (0 the normal): the approach speed
    /// (−u_free,N)⁺ of the normal row (an opening contact asks nothing), |u_free| of the
    /// others. Divided by the row's Delassus entry it is the impulse the row must supply.
    pub fn asked(&self, u_free: &DVector<f64>, k: usize) -> f64 {
        let u = u_free[self.offset + k];
        if k == 0 && !self.bilateral {
            max(-u, 0.0)
        } else {
            u.abs()
        }
    }

    /// The normal law's projection P_N(σ) and whether the row is active (its derivative is
    /// 1): max(0, σ) for a contact, σ itself for a bilateral row (always active).
    pub fn project_normal(&self, sigma: f64) -> (f64, bool) {
        if self.bilateral {
            (sigma, true)
        } else {
            (max(sigma, 0.0), sigma > 0.0)
        }
    }

    /// The block's friction, rolling and spinning laws, in multiplier order.
    pub fn ball_laws(&self) -> [BallLaw; 3] {
        let t0 = self.offset + 1;
        let r0 = t0 + self.tangents;
        let s0 = r0 + self.rolling;
        [
            BallLaw {
                start: t0,
                len: self.tangents,
                coefficient: self.friction,
            },
            BallLaw {
                start: r0,
                len: self.rolling,
                coefficient: self.rolling_resistance,
            },
            BallLaw {
                start: s0,
                len: self.spin,
                coefficient: self.spinning_resistance,
            },
        ]
    }
}

/// Which case each law of a contact is in at the solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LawCases {
    /// Unloaded (λ_N = 0).
    pub open: bool,
    /// Friction at its bound (sliding).
    pub slipping: bool,
    /// Rolling resistance at its bound (rolling).
    pub rolling: bool,
    /// Spinning resistance at its bound (spinning).
    pub spinning: bool,
}

/// Which method produced a law solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum LawMethod {
    /// The polyhedral LCP solved directly by Lemke (exact when every law is one-dimensional).
    Lemke,
    /// Projected Gauss–Seidel on the one-dimensional laws.
    Pgs,
    /// Semismooth Newton from the warm start converged.
    #[default]
    Newton,
    /// Newton stalled; proximal-point rounds (Newton on W + ηI) solved the laws.
    Proximal,
    /// Newton stalled; block Gauss–Seidel with exact contact-by-contact solves converged.
    Nsgs,
    /// A large island: block Gauss–Seidel on the block-sparse problem (W never formed).
    SparseNsgs,
    /// Newton and block Gauss–Seidel stalled; the polyhedral LCP (Lemke), polished by Newton,
    /// solved it exactly.
    LemkeFallback,
    /// Newton stalled and could not polish the polyhedral answer: the multipliers are the
    /// polygon's (inside every law, approximate for discs); the solve is not converged.
    PolyhedralOnly,
    /// No method reached the tolerance, and Newton's last iterate (projected onto the laws)
    /// had the smallest residual of their answers. (When the sweeps' or the polygon's was
    /// smaller, the method says so, with `converged` false.)
    Failed,
}

impl LawMethod {
    /// The label used in traces (`newton`, `proximal`, `lemke-fallback`, `polyhedral`,
    /// `failed`, …).
    pub fn label(self) -> &'static str {
        match self {
            Self::Lemke => "lemke",
            Self::Pgs => "pgs",
            Self::Newton => "newton",
            Self::Proximal => "proximal",
            Self::Nsgs => "nsgs",
            Self::SparseNsgs => "sparse-nsgs",
            Self::LemkeFallback => "lemke-fallback",
            Self::PolyhedralOnly => "polyhedral",
            Self::Failed => "failed",
        }
    }
}

/// Newton settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewtonOptions {
    /// Stop when ‖R‖∞ ≤ tolerance · scale (scale: the larger of max |u_free|/Wᵢᵢ and max |λ|,
    /// both impulses).
    pub tolerance: f64,
    /// Iteration cap.
    pub max_iterations: usize,
    /// Multiplies the augmentation r = 1/mean(Wᵢᵢ) of each law (any value > 0 gives the same
    /// solution).
    pub augmentation: f64,
    /// Sweep cap of block Gauss–Seidel on large islands ([`sparse`]).
    pub max_sweeps: usize,
    /// A fixed budget for large islands instead of a solve to the tolerance: this many
    /// sweeps of block Gauss–Seidel (at most `max_sweeps`), no Newton–Krylov rounds and no
    /// MPRGP, as an engine of fixed iterations does; the answer is still judged against the
    /// tolerance and reported unconverged above it. Moreau–Jean gives it to its impulses
    /// (`stepper.velocity_sweeps`); NSGA never uses it. None: solved to the tolerance.
    pub sweep_budget: Option<usize>,
    /// The least |u| the answer must resolve (m for gaps, m/s for velocities; 0: none). The
    /// impulse scale is at least resolution / (tolerance · max Wᵢᵢ), so a problem whose
    /// whole demand lies below it (a re-linearised correction of gaps already within
    /// rounding) converges once every u is within it, instead of to the tolerance of its
    /// own tiny scale.
    pub resolution: f64,
    /// Judge the residual against the floor from [`Self::resolution`] alone, not against the
    /// problem's own impulses: stop when every u is within the resolution (an absolute test;
    /// needs a resolution > 0). NSGA's position level of a large island asks for it: its
    /// purpose is exact gaps, and a pile's impulse scale (its deepest contact's load) would
    /// otherwise leave the top's gaps open by 1e-10 m at a relative tolerance of 1e-8, for a
    /// second pass to close from zero.
    pub absolute: bool,
    /// Let [`solve`] try the polyhedral LCP (Lemke) after Newton and the sweeps have stalled
    /// on a problem with friction or resistance. False when the caller has a way out of its
    /// own: NSGA's position level of a small island then corrects the gaps by the normal
    /// multipliers alone, and on the pile of 100 boxes the polygon never rescued its
    /// frictional correction (23 of 104 failed in the first second, and Lemke took 739 of
    /// their 1170 ms). Problems of normal rows alone take Lemke first either way.
    pub polygon_fallback: bool,
}

impl NewtonOptions {
    /// The impulse scale residuals are judged against: `floor` when the test is absolute
    /// (and a floor exists), else the larger of `relative` (the free motion's demand or the
    /// multipliers, which the caller takes) and the floor.
    pub fn judged_scale(&self, floor: f64, relative: f64) -> f64 {
        if self.absolute && floor > 0.0 {
            floor
        } else {
            max(floor, relative)
        }
    }

    /// The floor of the impulse scale from [`Self::resolution`], for a problem whose W has
    /// the diagonal `diagonal` (an impulse: |R| ≤ tolerance · floor means |u| ≤ resolution
    /// on every row, since Wᵢᵢ ≤ max Wᵢᵢ). The diagonal is read only when a resolution is
    /// asked for.
    pub fn scale_floor(&self, diagonal: impl Iterator<Item = f64>) -> f64 {
        if self.resolution <= 0.0 {
            return 0.0;
        }
        let largest = diagonal.fold(0.0, f64::max);
        if largest > 0.0 {
            self.resolution / (self.tolerance * largest)
        } else {
            0.0
        }
    }
}

impl Default for NewtonOptions {
    fn default() -> Self {
        Self {
            tolerance: 1e-12,
            max_iterations: 50,
            augmentation: 1.0,
            max_sweeps: 1000,
            sweep_budget: None,
            resolution: 0.0,
            absolute: false,
            polygon_fallback: true,
        }
    }
}

/// A solved (or abandoned) contact problem.
#[derive(Debug, Clone, PartialEq)]
pub struct LawSolution {
    /// The multipliers λ.
    pub lambda: DVector<f64>,
    /// The relative quantities u = u_free + W λ.
    pub u: DVector<f64>,
    /// Per contact, which case each law is in.
    pub cases: Vec<LawCases>,
    /// Newton iterations (and Lemke pivots, after a fallback) used.
    pub iterations: usize,
    /// ‖R‖∞ at the end relative to the problem's impulse scale (the quantity compared with
    /// the tolerance).
    pub residual: f64,
    /// True when the tolerance was met.
    pub converged: bool,
    /// Which method produced λ.
    pub method: LawMethod,
}

/// The storage of solutions dropped on this thread (λ, u, the cases), for the next
/// solutions to be copied into: the small islands' solver copies its answer out of its
/// kept buffers, three allocations per island and level otherwise. At most
/// [`SPARE_SOLUTIONS`] sets are kept.
type SpareSolutions = crate::linalg::buffers::ScratchPool<SolutionStorage>;

/// λ, u and the cases of a dropped solution.
struct SolutionStorage(DVector<f64>, DVector<f64>, Vec<LawCases>);

impl Default for SolutionStorage {
    fn default() -> Self {
        Self(DVector::zeros(0), DVector::zeros(0), Vec::new())
    }
}

thread_local! {
    static SPARE_SOLUTION_STORAGE: SpareSolutions = const { std::cell::RefCell::new(Vec::new()) };
}

/// Sets of solution storage kept for reuse (a step keeps its velocity-level islands'
/// solutions until it reports them).
const SPARE_SOLUTIONS: usize = 1024;

impl LawSolution {
    /// Empty storage for a solution: a dropped one's when there is one.
    fn spare_storage() -> (DVector<f64>, DVector<f64>, Vec<LawCases>) {
        let SolutionStorage(lambda, u, mut cases) =
            crate::linalg::buffers::take_spare(&SPARE_SOLUTION_STORAGE);
        cases.clear();
        (lambda, u, cases)
    }
}

impl Drop for LawSolution {
    fn drop(&mut self) {
        let storage = SolutionStorage(
            std::mem::replace(&mut self.lambda, DVector::zeros(0)),
            std::mem::replace(&mut self.u, DVector::zeros(0)),
            std::mem::take(&mut self.cases),
        );
        crate::linalg::buffers::give_back(&SPARE_SOLUTION_STORAGE, storage, SPARE_SOLUTIONS);
    }
}

/// The residual R(λ), its generalized Jacobian, the cases and u = u_free + W λ at one λ, in
/// buffers kept between Newton iterations.
#[derive(Debug)]
struct Linearization {
    /// W λ.
    w_lambda: DVector<f64>,
    /// u = u_free + W λ.
    u: DVector<f64>,
    /// R(λ).
    res: DVector<f64>,
    /// ∂R/∂λ, when `has_jacobian`.
    jac: DMatrix<f64>,
    /// Whether `jac` is R's Jacobian at this λ (a line search's trials and an assessment
    /// need R alone).
    has_jacobian: bool,
    /// Per contact, which case each law is in.
    cases: Vec<LawCases>,
}

impl Default for Linearization {
    fn default() -> Self {
        Self {
            w_lambda: DVector::zeros(0),
            u: DVector::zeros(0),
            res: DVector::zeros(0),
            jac: DMatrix::zeros(0, 0),
            has_jacobian: false,
            cases: Vec::new(),
        }
    }
}

/// Residual R(λ), the cases, and (when `jacobian`) R's generalized Jacobian, for
/// augmentation `r`, into `out`. R, u and the cases are the same bits either way: the
/// Jacobian's entries are written beside them, never read by them.
fn residual(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    r: &DVector<f64>,
    lambda: &DVector<f64>,
    jacobian: bool,
    out: &mut Linearization,
) {
    let n = lambda.len();
    crate::linalg::buffers::sized_vector(&mut out.w_lambda, n);
    w.mul_to(lambda, &mut out.w_lambda);
    crate::linalg::buffers::sized_vector(&mut out.u, n);
    out.u.copy_from(u_free);
    out.u += &out.w_lambda;
    crate::linalg::buffers::sized_vector(&mut out.res, n);
    out.res.fill(0.0);
    if jacobian {
        crate::linalg::buffers::sized_matrix(&mut out.jac, n, n);
        out.jac.fill_with_identity();
    }
    out.has_jacobian = jacobian;
    out.cases.clear();
    let Linearization {
        u, res, jac, cases, ..
    } = out;
    for b in blocks {
        let i = b.offset;

        // σ and ∂σ/∂λ = I − r W for the rows of this block (entry (k, c) of the latter).
        let sigma = |k: usize| lambda[k] - r[k] * u[k];
        let dsigma = |k: usize, c: usize| -> f64 {
            let d = -(w[(k, c)] * r[k]);
            if c == k { d + 1.0 } else { d }
        };
        let (pn, normal_closed) = b.project_normal(sigma(i));
        res[i] = lambda[i] - pn;
        // ∂σ_N⁺/∂λ (entry c): ∂σ_N/∂λ where the normal is closed, zero where it is open.
        let dpn = |c: usize| if normal_closed { dsigma(i, c) } else { 0.0 };
        // (An open normal subtracts +0 from its row: left as the identity's row, unvisited.)
        if normal_closed && jacobian {
            for c in 0..n {
                jac[(i, c)] -= dpn(c);
            }
        }
        let mut case = LawCases {
            open: !normal_closed,
            slipping: false,
            rolling: false,
            spinning: false,
        };
        let mut ball = |start: usize, len: usize, coefficient: f64| -> BallCase {
            if len == 0 {
                return BallCase::Open;
            }
            let mut x = [0.0; MAX_BALL];
            for (k, xk) in x[..len].iter_mut().enumerate() {
                *xk = sigma(start + k);
            }
            let radius = coefficient * pn;
            let ball = project_ball(&x[..len], radius);
            for k in 0..len {
                res[start + k] = lambda[start + k] - ball.p[k];
            }
            // ∂P/∂λ = ∂P/∂x ∂σ/∂λ + ∂P/∂r · coefficient · ∂σ_N⁺/∂λ. An open contact's
            // ball (radius 0: ∂P/∂x = 0, and ∂σ_N⁺/∂λ = 0) adds sums of zeros that start at
            // +0, i.e. +0, to its identity rows: they are left unvisited (most of a small
            // pile's contacts are open ones inside the margin).
            let zero = !normal_closed
                && ball.dp_dx[..len]
                    .iter()
                    .all(|r| r[..len].iter().all(|&v| v == 0.0));
            for k in (0..len).filter(|_| jacobian && !zero) {
                for c in 0..n {
                    let mut d = 0.0;
                    for m in 0..len {
                        d += ball.dp_dx[k][m] * dsigma(start + m, c);
                    }
                    d += ball.dp_dr[k] * coefficient * dpn(c);
                    jac[(start + k, c)] -= d;
                }
            }
            ball.case
        };
        let [friction, rolling, spinning] = b
            .ball_laws()
            .map(|l| ball(l.start, l.len, l.coefficient) == BallCase::Boundary);
        (case.slipping, case.rolling, case.spinning) = (friction, rolling, spinning);
        cases.push(case);
    }
}

/// Solves the laws for λ given u = u_free + W λ, starting from `guess`: semismooth Newton;
/// if it stalls, proximal-point rounds, Newton on W + ηI (`proximal.rs`); if they stall,
/// block Gauss–Seidel with exact contact-by-contact solves ([`nsgs`]); if that stalls too,
/// the polyhedral LCP by Lemke polished by Newton. With normal rows alone (a
/// position level's correction) the polyhedral LCP *is* the problem, and Lemke comes before
/// the sweeps: it finds in a few dozen pivots what block Gauss–Seidel approaches linearly
/// (a pile of boxes' redundant corners took it thousands of sweeps, where Lemke took about
/// twenty pivots; docs/benchmarks.md, thirty-seventh sitting). (Friction in the plane is
/// exact in the polygon too, but its problems keep the sweeps first: they converge there, and
/// the settled planar piles then never grow Lemke's buffers.) When none of them
/// converges, the answer is the one of smallest residual. It always satisfies every law's
/// admissible set, and `converged`/`method` say how it was found.
pub fn solve(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    guess: Option<&DVector<f64>>,
    options: &NewtonOptions,
) -> LawSolution {
    solve_knowing(w, u_free, blocks, guess, options, Rank::Unknown)
}

/// What the caller knows of W's rank before a dense solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rank {
    /// Nothing: W may be regular or singular.
    Unknown,
    /// More rows than the degrees of freedom they act on
    /// ([`crate::contact::Delassus::coupled_dofs`]): W is singular for certain, as for a
    /// box resting on four corners (twelve rows, six degrees of freedom).
    Deficient,
}

/// [`solve`], told what is known of W's rank. Where W is certainly singular
/// ([`Rank::Deficient`]) and there is more than one contact, the proximal-point rounds come
/// first, from the warm start, and Newton on W only when they stall: Newton's stick Jacobian
/// r W is as singular as W, and a tower of boxes stalled it on nearly every step before the
/// rounds solved it (226 of 240 steps of a standing tower under Moreau–Jean). The rounds
/// stall in turn where a singular problem wants Newton's least-squares direction (a sphere
/// held by joints whose rows are redundant with its contact), and Newton then solves it as
/// before. The rest of the chain is [`solve`]'s, without running the rounds twice.
pub fn solve_knowing(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    guess: Option<&DVector<f64>>,
    options: &NewtonOptions,
    rank: Rank,
) -> LawSolution {
    nsgs::reserve(u_free.len(), blocks.len());
    polyhedral::reserve(u_free.len(), blocks);
    proximal::reserve(u_free.len());
    let early_rounds = if rank == Rank::Deficient && blocks.len() > 1 {
        let rounds = proximal::solve(w, u_free, blocks, guess, options);
        if rounds.converged {
            return inside_laws(rounds, w, u_free, blocks);
        }
        Some(rounds)
    } else {
        None
    };
    let spent_on_rounds = early_rounds.as_ref().map_or(0, |r| r.iterations);
    let mut first = newton(w, u_free, blocks, guess, options);
    first.iterations += spent_on_rounds;
    if first.converged {
        return inside_laws(first, w, u_free, blocks);
    }
    count_fallback();
    let normal_rows_only = blocks
        .iter()
        .all(|b| b.tangents == 0 && b.rolling == 0 && b.spin == 0);
    let mut by_lemke = None;
    if normal_rows_only {
        match by_polyhedral(w, u_free, blocks, first.iterations, options) {
            Some(solution) if solution.converged => {
                return inside_laws(solution, w, u_free, blocks);
            }
            found => by_lemke = Some(found),
        }
    }
    // One contact is its own block: the rounds and the sweeps would repeat Newton's local
    // solve. Otherwise proximal-point rounds from the warm start (redundant contacts make W
    // singular, which stalls Newton but not Newton on W + ηI, `proximal.rs`), then block
    // Gauss–Seidel from Newton's answer, as before the rounds. (Started from the rounds'
    // answer where that had the smaller residual, the sweeps solved 3 more of 199 recorded
    // problems of a pile of cubes; docs/benchmarks.md, fortieth sitting.)
    let (rounds, sweeps) = if blocks.len() > 1 {
        let mut rounds = match early_rounds {
            Some(rounds) => rounds,
            None => proximal::solve(w, u_free, blocks, guess, options),
        };
        rounds.iterations = first.iterations + rounds.iterations - spent_on_rounds;
        if rounds.converged {
            return inside_laws(rounds, w, u_free, blocks);
        }
        let mut sweeps = nsgs::solve_from(w, u_free, blocks, Some(&first.lambda), true, options);
        sweeps.iterations += rounds.iterations;
        if sweeps.converged {
            return inside_laws(sweeps, w, u_free, blocks);
        }
        (Some(rounds), Some(sweeps))
    } else {
        (None, None)
    };
    let polygon = match by_lemke {
        Some(found) => found,
        None if options.polygon_fallback => {
            by_polyhedral(w, u_free, blocks, first.iterations, options)
        }
        None => None,
    };
    // Nothing converged: of Newton's last iterate, the sweeps' and the polygon's answer, the
    // one with the smallest residual (a stalled Newton can end far off where the sweeps came
    // within 1e-6; a pile of boxes under Moreau–Jean once took a stalled Newton's iterate,
    // of relative residual 1, and threw a box out at 10 km/s).
    let mut best = first;
    best.method = LawMethod::Failed;
    for candidate in rounds.into_iter().chain(sweeps).chain(polygon) {
        if candidate.residual < best.residual {
            best = candidate;
        }
    }
    inside_laws(best, w, u_free, blocks)
}

/// The polyhedral LCP by Lemke, polished by Newton ([`LawMethod::LemkeFallback`] when the
/// polish converges; else the polygon's own answer, [`LawMethod::PolyhedralOnly`], inside
/// every law and exact for one-dimensional laws); None when Lemke found no answer.
/// `spent` counts the iterations already taken.
fn by_polyhedral(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    spent: usize,
    options: &NewtonOptions,
) -> Option<LawSolution> {
    let poly = polyhedral::solve(w, u_free, blocks)?;
    let mut polished = newton(w, u_free, blocks, Some(&poly.lambda), options);
    polished.iterations += spent + poly.pivots;
    if polished.converged {
        polished.method = LawMethod::LemkeFallback;
        return Some(polished);
    }
    let mut own = assess(w, u_free, blocks, &poly.lambda, options);
    own.iterations = polished.iterations;
    own.method = LawMethod::PolyhedralOnly;
    Some(own)
}

/// Never hands out a multiplier outside its law, whatever the iteration left: a converged
/// answer can still be a rounding error outside (λ_N = −1e-18), an unconverged one anywhere.
/// The projection moves λ by at most its residual when converged.
fn inside_laws(
    mut solution: LawSolution,
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
) -> LawSolution {
    // (The whole vector is projected, or none of it: a zero keeps its sign unless something
    // moved.)
    if outside_laws(solution.lambda.as_slice(), blocks) {
        project_in_place(solution.lambda.as_mut_slice(), blocks);
        // u = u_free + W λ (W λ first, then the sum, as the vector expression takes it).
        w.mul_to(&solution.lambda, &mut solution.u);
        solution.u += u_free;
    }
    solution
}

/// Which solver a velocity-level law problem asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LawSolver {
    /// Semismooth Newton, falling back to the polyhedral LCP ([`solve`]).
    Newton,
    /// Lemke on the polyhedral LCP: exact when every law is one-dimensional (planar
    /// contacts); otherwise Newton with its fallback.
    Lemke,
    /// Projected Gauss–Seidel with these settings when every law is one-dimensional;
    /// otherwise Newton with its fallback.
    Pgs(crate::lcp::PgsOptions),
}

/// True when every law of every block is one-dimensional (a segment): planar contacts.
pub fn all_laws_one_dimensional(blocks: &[LawBlock]) -> bool {
    blocks
        .iter()
        .all(|b| b.ball_laws().iter().all(|l| l.len <= 1))
}

/// Solves the laws with the solver asked for (see [`LawSolver`]); the answer always lies in
/// the laws' admissible sets, and `converged` is the chosen solver's own verdict.
pub fn solve_with(
    solver: LawSolver,
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    guess: Option<&DVector<f64>>,
    options: &NewtonOptions,
    rank: Rank,
) -> LawSolution {
    if !all_laws_one_dimensional(blocks) {
        return solve_knowing(w, u_free, blocks, guess, options, rank);
    }
    let solution = match solver {
        LawSolver::Newton => solve_knowing(w, u_free, blocks, guess, options, rank),
        LawSolver::Lemke => match polyhedral::solve(w, u_free, blocks) {
            Some(poly) if poly.exact => {
                let mut out = assess(w, u_free, blocks, &poly.lambda, options);
                out.iterations = poly.pivots;
                out.converged = true;
                out.method = LawMethod::Lemke;
                out
            }
            // Rounding spoiled Lemke's answer (a degenerate problem): Newton from it decides.
            Some(poly) => solve_knowing(w, u_free, blocks, Some(&poly.lambda), options, rank),
            // Lemke found no answer: Newton with its own fallback.
            None => solve_knowing(w, u_free, blocks, guess, options, rank),
        },
        LawSolver::Pgs(pgs) => solve_pgs(w, u_free, blocks, &pgs, options),
    };
    inside_laws(solution, w, u_free, blocks)
}

/// The residual, cases and relative quantities of the laws at `lambda` (no iteration).
pub fn assess(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    lambda: &DVector<f64>,
    options: &NewtonOptions,
) -> LawSolution {
    newton(
        w,
        u_free,
        blocks,
        Some(lambda),
        &NewtonOptions {
            max_iterations: 0,
            ..*options
        },
    )
}

/// Projected Gauss–Seidel on one-dimensional laws: each row solved for its own multiplier,
/// then clamped to λ_N ≥ 0 or to [−cλ_N, cλ_N] (the segment of its law).
fn solve_pgs(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    pgs: &crate::lcp::PgsOptions,
    options: &NewtonOptions,
) -> LawSolution {
    use crate::lcp::pgs::RowBound;
    let mut bounds = vec![RowBound::NonNegative; u_free.len()];
    for b in blocks {
        if b.bilateral {
            bounds[b.offset] = RowBound::Free;
        }
        for law in b.ball_laws() {
            bounds[law.start..law.start + law.len].fill(RowBound::Friction {
                normal: b.offset,
                mu: law.coefficient,
            });
        }
    }
    let result = crate::lcp::solve_pgs_operator(
        &crate::lcp::DenseOperator(w),
        u_free.as_slice(),
        &bounds,
        None,
        pgs,
    );
    let lambda = DVector::from_vec(result.z);
    let mut out = assess(w, u_free, blocks, &lambda, options);
    out.iterations = result.iterations;
    out.converged = result.status == crate::lcp::LcpStatus::Solved;
    out.residual = result.residual;
    out.method = LawMethod::Pgs;
    out
}

/// λ projected onto the admissible sets: λ_N ≥ 0, then each law's ball of radius cλ_N.
pub fn project_onto_laws(lambda: &DVector<f64>, blocks: &[LawBlock]) -> DVector<f64> {
    let mut out = lambda.clone();
    project_in_place(out.as_mut_slice(), blocks);
    out
}

/// [`project_onto_laws`] on `lambda` itself.
pub(crate) fn project_in_place(lambda: &mut [f64], blocks: &[LawBlock]) {
    for b in blocks {
        let (normal, _) = b.project_normal(lambda[b.offset]);
        lambda[b.offset] = normal;
        for law in b.ball_laws().iter().filter(|l| l.len > 0) {
            let x = &mut lambda[law.start..law.start + law.len];
            let ball = project_ball(x, law.coefficient * normal);
            x.copy_from_slice(&ball.p[..law.len]);
        }
    }
}

/// True when [`project_onto_laws`] would change an entry of `lambda` (a NaN counts, as it
/// compares unequal to itself; a zero of the other sign does not).
fn outside_laws(lambda: &[f64], blocks: &[LawBlock]) -> bool {
    blocks.iter().any(|b| {
        let (normal, _) = b.project_normal(lambda[b.offset]);
        normal != lambda[b.offset]
            || b.ball_laws().iter().filter(|l| l.len > 0).any(|law| {
                let x = &lambda[law.start..law.start + law.len];
                let ball = project_ball(x, law.coefficient * normal);
                x.iter().zip(&ball.p[..law.len]).any(|(a, p)| a != p)
            })
    })
}

/// One contact's laws (a small problem): Newton from `guess`, then the polyhedral LCP polished
/// by Newton; the best answer found, inside the laws.
pub(crate) fn solve_local(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    block: &LawBlock,
    guess: &DVector<f64>,
    options: &NewtonOptions,
) -> LawSolution {
    let blocks = std::slice::from_ref(block);
    let first = newton(w, u_free, blocks, Some(guess), options);
    if first.converged {
        return first;
    }
    if let Some(poly) = polyhedral::solve(w, u_free, blocks) {
        let polished = newton(w, u_free, blocks, Some(&poly.lambda), options);
        if polished.converged || poly.exact {
            return if polished.converged {
                polished
            } else {
                assess(w, u_free, blocks, &poly.lambda, options)
            };
        }
    }
    let mut out = first;
    project_in_place(out.lambda.as_mut_slice(), blocks);
    // u = u_free + W λ (W λ, then the sum, as the vector expression takes it).
    w.mul_to(&out.lambda, &mut out.u);
    out.u += u_free;
    out
}

/// [`solve_local`] for a block given as slices: `own` its W_cc row-major (len × len),
/// `free` its local free quantities, `current` its λ_c; writes the new λ_c into `out` and
/// returns the iterations. Block Gauss–Seidel calls this for every contact that is not
/// round, every sweep (a pile of boxes, thousands of times a step), so the small matrices
/// are kept on this thread rather than allocated each time.
pub(crate) fn solve_local_block(
    block: &LawBlock,
    own: &[f64],
    free: &[f64],
    current: &[f64],
    options: &NewtonOptions,
    out: &mut [f64],
) -> usize {
    crate::linalg::buffers::with_scratch(&LOCAL_BLOCK, |work| {
        let len = free.len();
        let LocalBlockWork { w, free: f, guess } = work;
        crate::linalg::buffers::sized_matrix(w, len, len);
        crate::linalg::buffers::sized_vector(f, len);
        crate::linalg::buffers::sized_vector(guess, len);
        for i in 0..len {
            for j in 0..len {
                w[(i, j)] = own[i * len + j];
            }
            f[i] = free[i];
            guess[i] = current[i];
        }
        let local = LawBlock {
            offset: 0,
            ..*block
        };
        let solution = solve_local(w, f, &local, guess, options);
        out.copy_from_slice(solution.lambda.as_slice());
        solution.iterations
    })
}

/// The small matrices of [`solve_local_block`].
#[derive(Default)]
struct LocalBlockWork {
    w: DMatrix<f64>,
    free: DVector<f64>,
    guess: DVector<f64>,
}

thread_local! {
    static LOCAL_BLOCK: crate::linalg::buffers::ScratchPool<LocalBlockWork> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The buffers of one semismooth Newton solve, kept between solves (see [`newton`]).
#[derive(Debug)]
struct NewtonScratch {
    /// The augmentation of each row.
    r: DVector<f64>,
    /// The iterate λ and its linearization.
    lambda: DVector<f64>,
    current: Linearization,
    /// A line-search trial and its linearization.
    trial_lambda: DVector<f64>,
    trial: Linearization,
    /// The Newton direction.
    step: DVector<f64>,
    lu: crate::linalg::reusable_lu::ReusableLu,
    /// The least-squares direction's right-hand side −R, and its solver.
    rhs: DVector<f64>,
    least_squares: crate::linalg::least_squares::LeastSquares,
}

impl Default for NewtonScratch {
    fn default() -> Self {
        Self {
            r: DVector::zeros(0),
            lambda: DVector::zeros(0),
            current: Linearization::default(),
            trial_lambda: DVector::zeros(0),
            trial: Linearization::default(),
            step: DVector::zeros(0),
            lu: crate::linalg::reusable_lu::ReusableLu::default(),
            rhs: DVector::zeros(0),
            least_squares: crate::linalg::least_squares::LeastSquares::default(),
        }
    }
}

thread_local! {
    /// Scratch for [`newton`]: a solve takes one set out and puts it back, so that the small
    /// islands of a step (and of every later step) reuse the same buffers instead of
    /// allocating a residual, a Jacobian and an LU per iteration. A stack, not one set, so
    /// that a solve started inside another (block Gauss–Seidel's local solves) takes its own.
    static NEWTON_SCRATCH: crate::linalg::buffers::ScratchPool<NewtonScratch> =
        const { std::cell::RefCell::new(Vec::new()) };
}

thread_local! {
    /// Fallbacks of the dense solver on this thread (see [`dense_fallbacks`]).
    static DENSE_FALLBACKS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Least-squares directions of the dense Newton on this thread
    /// (see [`least_squares_directions`]).
    static LEAST_SQUARES_DIRECTIONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn count_fallback() {
    DENSE_FALLBACKS.with(|n| n.set(n.get() + 1));
}

/// How many least-squares directions the dense semismooth Newton on this thread has taken
/// (its Jacobian found singular by the LU, or the LU's direction not decreasing ‖R‖): a
/// test's evidence that it exercised that path.
pub fn least_squares_directions() -> u64 {
    LEAST_SQUARES_DIRECTIONS.with(std::cell::Cell::get)
}

/// How many times the dense semismooth Newton on this thread has not converged and fallen
/// back to block Gauss–Seidel and Lemke's polygon: a test's evidence that it exercised
/// that path. Its buffers are kept per thread and grow with every dense problem, so a
/// fallback of round contacts allocates nothing once they have grown (a contact that is not
/// round gets a small Newton of its own inside the sweeps, which still allocates).
pub fn dense_fallbacks() -> u64 {
    DENSE_FALLBACKS.with(std::cell::Cell::get)
}

/// Semismooth Newton with a backtracking line search from `guess`.
fn newton(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    guess: Option<&DVector<f64>>,
    options: &NewtonOptions,
) -> LawSolution {
    crate::linalg::buffers::with_scratch(&NEWTON_SCRATCH, |s| {
        newton_in(w, u_free, blocks, guess, options, s)
    })
}

/// [`newton`] in the buffers of `s`.
fn newton_in(
    w: &DMatrix<f64>,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    guess: Option<&DVector<f64>>,
    options: &NewtonOptions,
    s: &mut NewtonScratch,
) -> LawSolution {
    let n = u_free.len();
    // Augmentation per row: 1/Wᵢᵢ makes σ an impulse-sized quantity (any r > 0 would do).
    // Augmentation: one value per law (a disc must be augmented isotropically, or the fixed
    // point is not the maximal-dissipation law), 1/mean(Wᵢᵢ) over the law's rows.
    crate::linalg::buffers::sized_vector(&mut s.r, n);
    s.r.fill(options.augmentation);
    for b in blocks {
        let laws = b.ball_laws().map(|l| (l.start, l.len));
        for (start, len) in std::iter::once((b.offset, 1)).chain(laws) {
            if len == 0 {
                continue;
            }
            let mean = (start..start + len).map(|i| w[(i, i)]).sum::<f64>() / len as f64;
            let value = if mean > 0.0 {
                options.augmentation / mean
            } else {
                options.augmentation
            };
            for i in start..start + len {
                s.r[i] = value;
            }
        }
    }
    // The residual is measured against the impulse scale of the problem: the free relative
    // motion as an impulse (|u_free|/Wᵢᵢ) or the multipliers themselves, whichever is larger
    // (with redundant contacts the multipliers can exceed the free motion, and rounding in
    // R = λ − P(λ − r u) is relative to them).
    let floor = options.scale_floor((0..n).map(|i| w[(i, i)]));
    let free_scale = (0..n)
        .map(|i| (u_free[i] * s.r[i] / options.augmentation).abs())
        .fold(floor.max(1e-300), f64::max);
    let scale_of =
        |lambda: &DVector<f64>| options.judged_scale(floor, free_scale.max(lambda.amax()));
    crate::linalg::buffers::sized_vector(&mut s.lambda, n);
    match guess {
        Some(g) if g.len() == n => s.lambda.copy_from(g),
        _ => s.lambda.fill(0.0),
    }
    // R alone: an assessment (no iterations) or a warm start already within the tolerance
    // never needs the Jacobian, which costs n² per row where R costs n.
    residual(w, u_free, blocks, &s.r, &s.lambda, false, &mut s.current);
    let mut norm = s.current.res.amax();
    let mut scale = scale_of(&s.lambda);
    let mut iterations = 0;
    crate::linalg::buffers::sized_vector(&mut s.step, n);
    crate::linalg::buffers::sized_vector(&mut s.trial_lambda, n);
    // The least-squares direction's buffers grow with the rest (it is taken rarely, and a
    // first call at a new size would allocate in a step that otherwise does not).
    crate::linalg::buffers::reserve_vector(&mut s.rhs, n);
    s.least_squares.reserve(n);
    while norm > options.tolerance * scale && iterations < options.max_iterations {
        iterations += 1;
        if !s.current.has_jacobian {
            residual(w, u_free, blocks, &s.r, &s.lambda, true, &mut s.current);
        }
        // The Newton direction by LU; when LU fails or its direction does not decrease ‖R‖
        // (redundant contacts — four corners of a box on a floor — make the stick-case
        // Jacobian r W singular), the least-squares minimum-norm direction (QR with column
        // pivoting on kept buffers, `least_squares.rs`), which exists because R lies in the
        // range of W there.
        s.lu.factor(&s.current.jac);
        s.step.copy_from(&s.current.res);
        s.step.neg_mut();
        let lu_found = s.lu.solve_in_place(&mut s.step) && s.step.iter().all(|x| x.is_finite());
        let mut accepted = false;
        for k in 0..2 {
            if k == 0 && !lu_found {
                continue;
            }
            if k == 1 {
                LEAST_SQUARES_DIRECTIONS.with(|n| n.set(n.get() + 1));
                crate::linalg::buffers::copy_vector(&mut s.rhs, &s.current.res);
                s.rhs.neg_mut();
                let cutoff = 1e-12 * s.current.jac.amax();
                if !s
                    .least_squares
                    .solve(&s.current.jac, &s.rhs, cutoff, &mut s.step)
                {
                    break;
                }
            }
            // Backtracking on ‖R‖²: full Newton steps near the solution, damped far from it.
            let mut t = 1.0;
            while t >= 1e-6 {
                s.trial_lambda.copy_from(&s.lambda);
                s.trial_lambda.axpy(t, &s.step, 1.0);
                residual(
                    w,
                    u_free,
                    blocks,
                    &s.r,
                    &s.trial_lambda,
                    false,
                    &mut s.trial,
                );
                if s.trial.res.norm() < (1.0 - 1e-4 * t) * s.current.res.norm() {
                    accepted = true;
                    break;
                }
                t *= 0.5;
            }
            if accepted {
                break;
            }
        }
        // No direction decreases ‖R‖: Newton has stalled (the caller falls back).
        if !accepted {
            break;
        }
        std::mem::swap(&mut s.lambda, &mut s.trial_lambda);
        std::mem::swap(&mut s.current, &mut s.trial);
        norm = s.current.res.amax();
        scale = scale_of(&s.lambda);
    }
    let converged = norm <= options.tolerance * scale && s.lambda.iter().all(|x| x.is_finite());
    let (mut lambda, mut u, mut cases) = LawSolution::spare_storage();
    crate::linalg::buffers::copy_vector(&mut lambda, &s.lambda);
    crate::linalg::buffers::copy_vector(&mut u, &s.current.u);
    cases.extend_from_slice(&s.current.cases);
    LawSolution {
        lambda,
        u,
        cases,
        iterations,
        residual: norm / scale,
        converged,
        method: LawMethod::Newton,
    }
}
