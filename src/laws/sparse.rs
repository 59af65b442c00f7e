//! Block Gauss–Seidel on the block-sparse contact problem: W = G M⁻¹ Gᵀ is never formed, so a pile's island of thousands of contacts costs O(nnz) per sweep.
//!
//! The problem is the one of [`super::solve`]: u = u_free + W λ with each contact's laws
//! (normal, Coulomb disc, rolling disc, spinning segment). Instead of W the solver keeps the
//! generalized velocity change
//!
//! ```text
//!     w = M⁻¹ Gᵀ λ   (one entry per degree of freedom),   so   u_i = u_free,i + G_i · w,
//! ```
//!
//! and each contact's own Delassus block W_cc = G_c M⁻¹ G_cᵀ (at most 6 × 6, from its rows).
//! One sweep visits the contacts in order and solves each one's laws exactly with the others
//! frozen: its local problem is u_c = (u_c − W_cc λ_c) + W_cc λ_c'. For a round body (a
//! sphere or disk on a plane or on another sphere or disk) that problem is solved in closed
//! form, rolling and spinning resistance included (`round_contact.rs`: the normal and the
//! spin are uncoupled, friction and rolling coupled through ω × r, each law's block
//! isotropic). Other blocks (boxes) are solved by the small semismooth Newton with its
//! polyhedral fallback (`solve_local`).
//! After each sweep ([`RESIDUAL_EVERY`]) the residual of the *whole* problem — the natural
//! map R = λ − P(λ − r u), u recomputed from w, with the same per-law augmentation and
//! relative scale as Newton's — is compared with the tolerance; the solve stops there or at
//! the sweep cap and says which (never a silent non-convergence).
//!
//! Gauss–Seidel converges linearly, at 0.993 per sweep in a settled pile of 100 spheres
//! (a thousand sweeps for 1e-8 to 1e-3 less). So the sweeps run in rounds of
//! fifty; after each round that has not converged, a few steps of semismooth
//! Newton on R(λ) = 0 with GMRES inner solves ([`super::newton_krylov`]: the exact
//! generalized Jacobian and a symmetric Gauss–Seidel preconditioner, from
//! `sparse_jacobian.rs`) start from where the sweeps are, and their answer, projected
//! onto the laws, is kept if it is better. The sweeps settle which contacts are open, stick
//! or slide; Newton converges superlinearly once they hold. Its model is shifted by a
//! multiple of the residual (Levenberg–Marquardt, [`LEVENBERG`]) so that W's null space
//! stays still; Newton stops when two steps in a row each take less than 2 % off the
//! residual ([`ROUND_NEWTON`]). A round that takes less than a tenth off the residual ends
//! the solve as stalled.
//!
//! Before any of that, a warm start that meets the laws at all but a few contacts (a
//! settled pile's, step after step) is relaxed on a worklist ([`WORKLIST`],
//! `worklist.rs`): only those contacts and the neighbours their changes reach get the block
//! update, and the whole problem's residual is then evaluated as after a sweep. The sweeps
//! and rounds go on from there when it is still above the tolerance.

use nalgebra::DVector;

use super::newton_krylov::{KrylovOptions, KrylovWorkspace};
use super::packed_rows::{PackedRows, Rows};
use super::projection::clamp_to_ball;
use super::round_contact::RoundContact;
use super::sparse_jacobian::{JacobianStorage, LawJacobian};
use super::{LawBlock, LawCases, LawMethod, LawSolution, NewtonOptions};
use crate::contact::{Delassus, JacobianRow};
use crate::linalg::buffers::zeroed;
use crate::linalg::float::max;

/// Sweeps in a round, between two Newton–Krylov attempts. A round that takes less than a
/// tenth off the residual ends the solve as stalled; longer rounds call fewer slow but
/// converging solves stalled, and cost more on those that are stalled for good. On the
/// recorded problems of the piles of 100 (`solver-compare --round-sweeps 50,100,200`), over
/// 1000 steps: 488, 496, 497 of 528 converged (3-D NSGA) and 293, 296, 296 of 327 (planar
/// Moreau–Jean), in 1, 1.1–1.4 and 1.2–1.25 times the time; along the runs themselves
/// 100 sweeps cost 1.3–1.6 times as much. Fifty stays: 1–2 % more converged solves do not
/// pay for a third more time.
pub const ROUND_SWEEPS: usize = 50;

/// A round that ends above this fraction of the residual it started from is a stall.
const STALL_RATIO: f64 = 0.9;

/// Newton–Krylov in one round: up to 10 Newton steps, each with at most 10 GMRES
/// iterations (one Krylov basis, no restart). A Newton step of a round only has to find
/// which contacts stick, slide or open, and the sweeps that follow converge once it has;
/// so many cheap, inexact steps beat few exact ones.
///
/// Twice as many steps and GMRES iterations (20 and 20, the setting until the fourteenth
/// sitting) converged a few more recorded problems of the piles of 100 but cost their
/// price where Newton does not find the cases, which is where the time goes: the landing's
/// problems that end unconverged anyway took 92 % of the solve time of the 3-D pile of
/// 1000. On the recorded problems of 200 steps of each pile of 1000 (`contactlab
/// solver-compare --n 1000 --steps 200 --every 7 --rounds 20/20/20,10/10/10`), 10/10/10
/// converged as many or one more (3-D NSGA 48 of 65 against 47, Moreau–Jean 13 and 13,
/// planar 46 against 45, 7 and 7) in 0.41–0.48 times the time; on those of the piles of
/// 100 it converged 0.2–2 % fewer in 0.47–0.72 times the time (4 % fewer with rolling and
/// spinning resistance under planar Moreau–Jean). Along whole runs the two settings'
/// trajectories part, so the comparison was over ten runs each (3-D piles of 80, 90, 100,
/// 110 and 120 spheres under NSGA and Moreau–Jean, 1000 steps): 65 against 115 ms/step in
/// all and 1525 unconverged steps against 1819; the planar piles' ten runs cost about the
/// same and had more unconverged steps (366 against 178, one run that stalled for good
/// under both set aside). Settings with fewer still (5/5/5, 10/5/5) were as fast and
/// converged less.
///
/// A round also ends after two Newton steps in a row that each keep more than 98 % of ‖R‖.
/// Where a round does not converge, its Newton steps are cut by the line search, often to
/// t = 1/8 … 1/8192, and take 0.1–2 % off ‖R‖ each, because many contacts sit on a kink
/// within the step; an exact inner solve does not change that (GMRES to its tolerance, up
/// to 200 or 1000 iterations a step, converged as many recorded problems of the piles of
/// 1000, 54–55 of 70, in 2.5 to 8.5 times the time). On the recorded problems
/// (`solver-compare --rounds 10/10/10/1,10/10/10/0.98`; piles of 100 over 1000 steps,
/// every third problem; of 1000 over 200 steps, every seventh) the rule converged 837
/// problems against 837 without it (3-D NSGA), 278 against 281 (3-D Moreau–Jean), 916
/// against 919 and 299 against 300 (planar), 55 against 55 and 53 against 55 (3-D and
/// planar piles of 1000), in 0.68, 0.75, 1.0, 0.88, 0.75 and 0.83 times the time; over a
/// whole 3-D pile of 1000 (every 13th problem of 1000 steps, settled steps included) the
/// same 186 of 223 in 0.72 times the time. Over the ten whole runs of the 3-D piles of 80
/// to 120 (NSGA and Moreau–Jean, 1000 steps): 69.1 ms/step in all and 1518 unconverged
/// steps against 85.4 and 1525; the planar piles' 22.6 and 575 against 22.5 and 1149
/// (docs/benchmarks.md, nineteenth sitting).
pub const ROUND_NEWTON: KrylovOptions = KrylovOptions {
    max_newton: 10,
    restart: 10,
    max_inner: 10,
    forcing: 1e-3,
    stagnation: 0.98,
};

/// Newton's model in a round is J + θ I with θ = this factor times the relative residual
/// (Levenberg–Marquardt). W is singular in a pile (redundant contacts) and nearly so along
/// its near-mechanisms, so plain Newton's step, through an inexact Krylov solve, has large
/// components along those directions: GMRES runs to its cap, the line search cuts the step
/// to a few thousandths, and a self-equilibrated set of forces can grow (a velocity-level
/// answer of 1e13 times the free motion's demand was recorded). The shift leaves the
/// directions W sees almost untouched, holds the null space still, and vanishes as R → 0,
/// so the convergence near a solution stays fast (Yamashita and Fukushima's choice
/// θ ∝ ‖R‖). On the same recorded problems (`contactlab solver-compare`,
/// docs/benchmarks.md) factors 3 to 30 converged as often as plain Newton in 1.2 to 2.7
/// times less time, with the growth of the multipliers bounded; 10 is the middle. (The
/// planar pile's rounds were cheap already and cost the same; with rolling and spinning
/// resistance on, the shift saves time only with the GMRES cap of [`ROUND_NEWTON`].)
pub const LEVENBERG: f64 = 10.0;

/// Sweeps between two evaluations of the whole problem's residual (it is also evaluated at
/// the end of every round): after every sweep. The residual recomputes u for every row and
/// each block's natural map; skipping it saves time on fixed problems, but not along whole
/// runs. On the recorded problems of the piles of 100 (`contactlab solver-compare
/// --residual-every 1,2,4`, 1000 steps, every third problem) every second or fourth sweep
/// converged as many problems in 0.93–0.96 and 0.90–0.95 times the time; over ten whole runs
/// of the 3-D piles (80 to 120 spheres, NSGA and Moreau–Jean, 1000 steps), where a solve
/// that stops a sweep later sends the trajectory elsewhere, they cost 67.7 and 64.4 ms/step
/// in all with 1715 and 1816 unconverged steps, against 64.2 and 1525 (docs/benchmarks.md).
pub const RESIDUAL_EVERY: usize = 1;

/// Problems of normal rows only (NSGA's position level of a large island) go to MPRGP
/// (`laws/mprgp.rs`) before any sweep: conjugate gradients on the free set converge at the
/// rate of √κ where Gauss–Seidel converges at the rate of κ. On the recorded position-level
/// problems of the piles (`contactlab solver-compare`, docs/benchmarks.md, twenty-third
/// sitting) MPRGP converged every problem the sweeps and rounds converged, and 3 more of 166
/// in the planar pile of 100, in 0.51 (planar pile of 100), 0.45 (3-D pile of 100), 0.64
/// (planar pile of 1000) and 0.72 (3-D pile of 1000) times their time.
pub const MPRGP: bool = true;

/// MPRGP's conjugate gradients preconditioned in face by IC(0) of Ŵ_FF
/// (`laws/incomplete_cholesky.rs`), the factor formed again when more than this fraction of
/// the rows have changed sides (free to bound or back) since it was formed; in between, the
/// rows that joined F are scaled by Jacobi alone. On the recorded position-level problems
/// (`contactlab solver-compare --mprgp jacobi,ic:0,ic:0.01,ic:0.05,ic:0.2`, seconds; the
/// products of W fell to a third or a half), Jacobi scaling against IC refactored on every
/// change and past 1 %:
///
/// | problems | Jacobi | IC, every change | IC, past 1 % |
/// |---|---|---|---|
/// | 3-D pile of 1000, settled (34, steps 850–950) | 0.725 | 0.400 | (not run) |
/// | 3-D pile of 1000, landing (29, steps 100–300) | 1.030 | 1.197 | 0.909 |
/// | planar pile of 1000, settled (66, steps 500–700) | 0.628 | 0.305 | 0.303 |
/// | planar pile of 1000, landing (60, steps 100–400) | 1.139 | 0.826 | 0.706 |
///
/// A landing pile's free set changes every few products, and forming the factor on every
/// change cost more than it saved (docs/benchmarks.md, twenty-ninth sitting).
pub const INCOMPLETE_CHOLESKY: Option<f64> = Some(0.01);

/// A round's sweeps hand over to Newton–Krylov once a pair of them keeps more than this
/// fraction of the residual: off, every round runs its fifty sweeps. Tried (thirtieth
/// sitting, docs/benchmarks.md) because a settled pile's warm start has its cases right and
/// its sweeps crawl from the first pair on. On the recorded problems (`contactlab
/// solver-compare --handover none,0.9,0.97,0.99`) a handover past 0.97 took 10 to 40 % off
/// the time of the piles of 1000, settled and landing, and converged as many; but the
/// problems that do not converge stall sooner (the stall rule judges a round that is now
/// short), so their residual ended twice as high, and on the piles of 100 it converged 14
/// of 506 (3-D) and 10 of 643 (planar) fewer. Along whole runs (four ensembles, 32 runs of
/// 1000 steps) it was 26 % faster with 7.6 % more unconverged steps: a trade of exactness
/// for time, like a looser tolerance, not a better solver. Handing over in the first round
/// only, with full rounds resumed when that round stalls, converged one or two problems
/// fewer and saved iterations only on the settled ones (19 % on the planar pile of 1000's,
/// 8 % more on the 3-D landing's).
pub const HANDOVER: Option<f64> = None;

/// A warm start is relaxed on a worklist first (`worklist.rs`): the contacts whose residual
/// is above this fraction of the tolerance, and the neighbours their changes reach. In a
/// settled pile the last step's answer is right at all but a few contacts: the settled 3-D
/// pile of 300's velocity problems (660 contacts) started at 5e-6 to 1.2e-5 with 17 to 52
/// contacts above the tolerance, and took 105 iterations each (50 sweeps and a Newton–Krylov
/// round); relaxed on the worklist first, 3 to 5. On the recorded problems of the settled
/// 3-D pile of 1000 (`contactlab solver-compare --worklist none,0.1,0.25,1`, docs/benchmarks.md,
/// thirty-first sitting) a threshold of 0.25 took 28 % off the iterations and 25 % off the
/// time, 0.1 nothing (too many contacts start above it) and 1 less (the sweeps must finish
/// more). Along whole runs (ensembles of 1000 steps, native) NSGA's 3-D piles of 80 to 125
/// took 9 % less time with 36 % fewer unconverged steps, its planar piles of 200 to 550 2 %
/// less with 28 % fewer; Moreau–Jean's 3-D piles came out even (2 % more time, 6 % more
/// unconverged steps over fifteen runs).
pub const WORKLIST: Option<f64> = Some(0.25);

/// The block-sparse products read each row as coefficients over at most two windows of
/// consecutive coordinates (`packed_rows.rs`), not as (coordinate, coefficient) entries.
/// A pile's answers are the same to the bit (its rows' entries ascend, and a gather sums in
/// coordinate order). On recorded problems of the piles of 1000
/// (`contactlab solver-compare --packed on,off`, each set solved three times each way,
/// alternating, in one process; seconds): the 3-D landing under NSGA 1.31–1.42 against
/// 1.58–1.72, under Moreau–Jean 3.39–4.07 against 3.95–5.40, the planar pile 1.55–1.60
/// against 1.60–1.71. The first 250 steps of the 3-D pile of 1000 under NSGA, as whole
/// runs: 154–176 ms/step against 163–199 natively, 238–257 against 258–283 in wasm (Node).
/// Over whole runs of 1000 steps (`make bench-pile`, one run each) the gain did not show
/// through the machine's spread: 3-D NSGA 120.2 against 127.8 ms/step natively, 221.9
/// against 202.2 in wasm (docs/benchmarks.md, thirty-second sitting).
pub const PACKED: bool = true;

/// The worklist is not tried when more than this fraction of the contacts (and more than
/// one) start above its threshold: that is the sweeps' work.
const WORKLIST_MOST: f64 = 0.25;

/// The worklist is given up after this many updates per contact of the problem.
const WORKLIST_UPDATES: usize = 5;

/// The incomplete Cholesky factor of a normal-only problem's rows as MPRGP's preconditioner.
struct RowsPreconditioner<'a> {
    factor: &'a mut super::incomplete_cholesky::IncompleteCholesky,
    /// Form the factor again when more than this fraction of the rows changed sides.
    refactor: f64,
    rows: &'a [JacobianRow],
    inverse_mass_rows: &'a [JacobianRow],
    dofs: usize,
}

impl super::mprgp::FacePreconditioner for RowsPreconditioner<'_> {
    fn scaled_by(&mut self, scale: &[f64]) {
        self.factor
            .assemble(self.rows, self.inverse_mass_rows, scale, self.dofs);
    }

    fn apply(&mut self, free: &[bool], r: &[f64], z: &mut [f64]) {
        if self.factor.mismatch(free) as f64 > self.refactor * free.len() as f64 {
            self.factor.factor(free);
        }
        self.factor.apply(free, r, z);
    }
}

/// History depth of the Anderson acceleration of the sweeps: off. Tried on the recorded
/// problems of the piles (`contactlab solver-compare --anderson 3,8`, docs/benchmarks.md):
/// beside the Newton–Krylov rounds it converged fewer problems (3-D pile of 100 under
/// NSGA, 163 and 152 of 207 against 172 at depths 3 and 5) and let self-equilibrated
/// forces grow (the residual does not see W's null space); instead of the rounds it was
/// faster but converged fewer under Moreau–Jean.
pub const ANDERSON: usize = 0;

/// Rows of one contact's block (normal, tangents, rolling, spinning).
pub(super) fn block_len(b: &LawBlock) -> usize {
    1 + b.tangents + b.rolling + b.spin
}

/// One contact's local data: its Delassus block (row-major) and per-row augmentation.
pub(super) struct LocalBlock {
    /// W_cc, row-major with the block's length as stride.
    pub(super) w: [f64; 36],
    /// Per-row augmentation r.
    pub(super) r: [f64; 6],
    /// The closed-form solve when the block is a round contact's (see `round_contact.rs`).
    round: Option<RoundContact>,
}

impl LocalBlock {
    pub(super) fn new(delassus: &Delassus, b: &LawBlock, augmentation: f64) -> Self {
        let len = block_len(b);
        let (rows, inv) = (delassus.rows(), delassus.inverse_mass_rows());
        let mut w = [0.0; 36];
        for i in 0..len {
            for j in 0..len {
                w[i * len + j] = rows[b.offset + i].dot_sorted_row(&inv[b.offset + j]);
            }
        }
        // Newton's augmentation: 1/mean(Wᵢᵢ) over each law's rows.
        let mut r = [augmentation; 6];
        let laws = b.ball_laws().map(|l| (l.start - b.offset, l.len));
        for (start, n) in std::iter::once((0, 1)).chain(laws) {
            if n == 0 {
                continue;
            }
            let mean = (start..start + n).map(|i| w[i * len + i]).sum::<f64>() / n as f64;
            let value = if mean > 0.0 {
                augmentation / mean
            } else {
                augmentation
            };
            r[start..start + n].fill(value);
        }
        let round = RoundContact::of(&w[..len * len], b);
        Self { w, r, round }
    }
}

/// The law residual of one block at (λ, u): R = λ − P(λ − r u) written into `out`, its
/// largest entry and the block's cases.
pub(super) fn block_residual(
    b: &LawBlock,
    local: &LocalBlock,
    lambda: &[f64],
    u: &[f64],
    out: &mut [f64],
) -> (f64, LawCases) {
    let sigma = |k: usize| lambda[k] - local.r[k] * u[k];
    let (pn, active) = b.project_normal(sigma(0));
    out[0] = lambda[0] - pn;
    let mut worst = out[0].abs();
    let mut cases = LawCases {
        open: !active,
        slipping: false,
        rolling: false,
        spinning: false,
    };
    let mut at_bound = [false; 3];
    for (which, law) in b.ball_laws().iter().enumerate() {
        if law.len == 0 {
            continue;
        }
        let start = law.start - b.offset;
        let mut x = [0.0; 2];
        for (k, xk) in x.iter_mut().enumerate().take(law.len) {
            *xk = sigma(start + k);
        }
        at_bound[which] = clamp_to_ball(&mut x[..law.len], law.coefficient * pn);
        for k in 0..law.len {
            out[start + k] = lambda[start + k] - x[k];
            worst = max(worst, out[start + k].abs());
        }
    }
    (cases.slipping, cases.rolling, cases.spinning) = (at_bound[0], at_bound[1], at_bound[2]);
    (worst, cases)
}

/// Exact solution of one block's laws with the others frozen; `free` the local free
/// quantities (u with this block's own contribution removed). Writes the new λ into `out`.
fn solve_block(
    b: &LawBlock,
    local: &LocalBlock,
    free: &[f64],
    current: &[f64],
    options: &NewtonOptions,
    out: &mut [f64],
) -> usize {
    let len = block_len(b);
    if let Some(round) = &local.round {
        round.solve(b, free, out);
        return 1;
    }
    super::solve_local_block(b, &local.w[..len * len], free, current, options, out)
}

/// One block update of Gauss–Seidel: what it reads (the problem and each contact's local
/// data); the sweeps and the worklist (`worklist.rs`) both make their updates here.
struct Relaxation<'a> {
    blocks: &'a [LawBlock],
    locals: &'a [LocalBlock],
    rows: Rows<'a>,
    u_free: &'a [f64],
    options: &'a NewtonOptions,
}

impl Relaxation<'_> {
    /// Solves contact c's laws exactly with the others frozen: its local free quantities
    /// u_c − W_cc λ_c (u_c = u_free,c + G_c w), the new λ_c, and w updated by M⁻¹G_cᵀ Δλ_c.
    /// Returns the largest |Δλ_c|.
    #[inline]
    fn update(&self, c: usize, lambda: &mut [f64], w: &mut [f64]) -> f64 {
        let (b, local) = (&self.blocks[c], &self.locals[c]);
        let rows = self.rows;
        let len = block_len(b);
        let o = b.offset;
        let (mut free, mut next) = ([0.0; 6], [0.0; 6]);
        for (i, f) in free.iter_mut().enumerate().take(len) {
            *f = self.u_free[o + i] + rows.dot(o + i, w);
            for j in 0..len {
                *f -= local.w[i * len + j] * lambda[o + j];
            }
        }
        let current = &lambda[o..o + len];
        solve_block(
            b,
            local,
            &free[..len],
            current,
            self.options,
            &mut next[..len],
        );
        let mut largest = 0.0f64;
        for k in 0..len {
            let change = next[k] - lambda[o + k];
            if change != 0.0 {
                rows.add(o + k, change, w);
                lambda[o + k] = next[k];
                largest = max(largest, change.abs());
            }
        }
        largest
    }
}

/// How far the block-sparse solver goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SparseOptions {
    /// Sweep cap of block Gauss–Seidel.
    pub max_sweeps: usize,
    /// Sweeps in a round before a Newton–Krylov attempt ([`ROUND_SWEEPS`]).
    pub round_sweeps: usize,
    /// Alternate rounds of sweeps with rounds of Newton–Krylov.
    pub polish: bool,
    /// Newton's model is J + θ I with θ = this factor times the relative residual
    /// (Levenberg–Marquardt, [`LEVENBERG`]; 0: plain Newton).
    pub levenberg: f64,
    /// Newton steps and Krylov effort of one round ([`ROUND_NEWTON`]).
    pub round: KrylovOptions,
    /// History depth of Anderson acceleration over pairs of sweeps (0: off;
    /// [`super::anderson`]).
    pub anderson: usize,
    /// Sweeps between two evaluations of the residual ([`RESIDUAL_EVERY`]; 1: after every
    /// sweep).
    pub residual_every: usize,
    /// Problems of normal rows only (a large island's position level) by MPRGP
    /// (`laws/mprgp.rs`) before any sweep.
    pub mprgp: bool,
    /// A round's sweeps hand over to Newton–Krylov early, once the residual keeps more than
    /// this fraction of its value two evaluations before (a pair of sweeps when it is
    /// evaluated after each), from the round's fourth sweep on ([`HANDOVER`]); None: every
    /// round runs its `round_sweeps`.
    pub handover: Option<f64>,
    /// MPRGP's conjugate-gradient steps preconditioned by an incomplete Cholesky factor of
    /// Ŵ on the free set (`laws/incomplete_cholesky.rs`; [`INCOMPLETE_CHOLESKY`]), formed
    /// again when more than this fraction of the rows have changed sides; None: Jacobi
    /// scaling alone.
    pub incomplete_cholesky: Option<f64>,
    /// A warm start is first relaxed on a worklist (`worklist.rs`): the contacts whose
    /// residual is above this fraction of the tolerance, and the neighbours their changes
    /// reach ([`WORKLIST`]); None: straight to the sweeps.
    pub worklist: Option<f64>,
    /// The products read the rows packed in windows of consecutive coordinates
    /// (`packed_rows.rs`, [`PACKED`]); false: through their entries.
    pub packed: bool,
}

impl SparseOptions {
    /// The settings the steppers use, with `options`' sweep cap, or its sweep budget: that
    /// many sweeps alone ([`NewtonOptions::sweep_budget`]).
    pub fn standard(options: &NewtonOptions) -> Self {
        let budget = options.sweep_budget.map(|b| b.min(options.max_sweeps));
        Self {
            max_sweeps: budget.unwrap_or(options.max_sweeps),
            round_sweeps: ROUND_SWEEPS,
            polish: budget.is_none(),
            levenberg: LEVENBERG,
            round: ROUND_NEWTON,
            anderson: ANDERSON,
            residual_every: RESIDUAL_EVERY,
            mprgp: MPRGP && budget.is_none(),
            incomplete_cholesky: INCOMPLETE_CHOLESKY,
            handover: HANDOVER,
            worklist: WORKLIST,
            packed: PACKED,
        }
    }
}

/// Solves the laws by block Gauss–Seidel without forming W, from `guess` (projected onto
/// the laws first), in rounds with Newton–Krylov when `sparse.polish`; `converged` when the
/// whole problem's relative residual reaches `options.tolerance`.
pub fn solve(
    delassus: &Delassus,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    guess: Option<&DVector<f64>>,
    options: &NewtonOptions,
    sparse: SparseOptions,
) -> LawSolution {
    crate::linalg::buffers::with_scratch(&SPARSE_SCRATCH, |scratch| {
        solve_in(delassus, u_free, blocks, guess, options, sparse, scratch)
    })
}

/// The block-sparse solver's work buffers, kept per thread between solves (the pile's
/// islands of every step reuse them).
#[derive(Default)]
struct SparseScratch {
    locals: Vec<LocalBlock>,
    w: Vec<f64>,
    wx: Vec<f64>,
    wl: Vec<f64>,
    ux: DVector<f64>,
    ul: Vec<f64>,
    x: Vec<f64>,
    r_vec: Vec<f64>,
    scratch_cases: Vec<LawCases>,
    jacobian: JacobianStorage,
    krylov: KrylovWorkspace,
    mprgp: super::mprgp::Workspace,
    incomplete_cholesky: super::incomplete_cholesky::IncompleteCholesky,
    diagonal: Vec<f64>,
    augmentation: Vec<f64>,
    worklist: super::worklist::Worklist,
    ranges: Vec<std::ops::Range<usize>>,
    packed: PackedRows,
}

thread_local! {
    static SPARSE_SCRATCH: crate::linalg::buffers::ScratchPool<SparseScratch> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// [`solve`] in the buffers of `scratch`.
fn solve_in(
    delassus: &Delassus,
    u_free: &DVector<f64>,
    blocks: &[LawBlock],
    guess: Option<&DVector<f64>>,
    options: &NewtonOptions,
    sparse: SparseOptions,
    scratch: &mut SparseScratch,
) -> LawSolution {
    let max_sweeps = sparse.max_sweeps;
    let n = u_free.len();
    let (rows, inv) = (delassus.rows(), delassus.inverse_mass_rows());
    let mut locals = std::mem::take(&mut scratch.locals);
    locals.clear();
    locals.extend(
        blocks
            .iter()
            .map(|b| LocalBlock::new(delassus, b, options.augmentation)),
    );
    // λ, u and the cases in a dropped solution's storage.
    let (mut lambda, mut u, mut cases) = LawSolution::spare_storage();
    crate::linalg::buffers::zeroed_vector(&mut lambda, n);
    if let Some(g) = guess.filter(|g| g.len() == n && g.iter().all(|x| x.is_finite())) {
        lambda.copy_from_slice(g.as_slice());
        super::project_in_place(lambda.as_mut_slice(), blocks);
    }
    let dofs = crate::lcp::DelassusOperator::work_len(delassus);
    let mut packed = std::mem::take(&mut scratch.packed);
    packed.pack(rows, inv, dofs, sparse.packed);
    let view = Rows::new(&packed, rows, inv);
    let mut w = std::mem::take(&mut scratch.w);
    zeroed(&mut w, dofs);
    view.velocity_change(lambda.as_slice(), &mut w);
    // The impulse scale of the problem: the free relative motion that the multipliers must
    // stop, as an impulse (|u_free|/Wᵢᵢ). Unlike dense Newton's, a normal row counts only
    // when it approaches (u_free,N < 0): a large island holds many contacts open by up to
    // the margin, and their gaps must not set the scale against which a millimicron
    // penetration is judged.
    let diagonal = (0..n).map(|i| crate::lcp::DelassusOperator::diagonal(delassus, i));
    let floor = options.scale_floor(diagonal);
    let mut free_scale = floor.max(1e-300);
    for (b, local) in blocks.iter().zip(&locals) {
        for k in 0..block_len(b) {
            free_scale = max(
                free_scale,
                b.asked(u_free, k) * local.r[k] / options.augmentation,
            );
        }
    }
    crate::linalg::buffers::zeroed_vector(&mut u, n);
    cases.clear();
    cases.resize(
        blocks.len(),
        LawCases {
            open: true,
            slipping: false,
            rolling: false,
            spinning: false,
        },
    );
    // The scale R is measured against: the free motion's demand or λ itself, whichever is
    // larger (as Newton's).
    let scale_of = |lambda: &[f64]| {
        options.judged_scale(
            floor,
            lambda.iter().fold(free_scale, |m, x| max(m, x.abs())),
        )
    };
    // The residual of the whole problem at λ (u recomputed from w = M⁻¹ Gᵀ λ): R into
    // `r_out`, the cases, and max |R| relative to the impulse scale.
    let evaluate = |lambda: &[f64],
                    w: &[f64],
                    u: &mut DVector<f64>,
                    r_out: &mut [f64],
                    cases: &mut [LawCases]|
     -> f64 {
        for i in 0..n {
            u[i] = u_free[i] + view.dot(i, w);
        }
        let mut worst = 0.0f64;
        for (k, (b, local)) in blocks.iter().zip(&locals).enumerate() {
            let range = b.offset..b.offset + block_len(b);
            let (res, c) = block_residual(
                b,
                local,
                &lambda[range.clone()],
                &u.as_slice()[range.clone()],
                &mut r_out[range],
            );
            worst = max(worst, res);
            cases[k] = c;
        }
        worst / scale_of(lambda)
    };
    let mut r_vec = std::mem::take(&mut scratch.r_vec);
    zeroed(&mut r_vec, n);
    let mut residual = evaluate(lambda.as_slice(), &w, &mut u, &mut r_vec, &mut cases);
    let mut iterations = 0;
    let relaxation = Relaxation {
        blocks,
        locals: &locals,
        rows: view,
        u_free: u_free.as_slice(),
        options,
    };
    // A warm start wrong at a few contacts only: those and the neighbours their changes
    // reach are relaxed first (`worklist.rs`); the whole residual then decides.
    if let Some(factor) = sparse.worklist
        && residual > options.tolerance
    {
        let threshold = factor * options.tolerance * scale_of(lambda.as_slice());
        let ranges = &mut scratch.ranges;
        ranges.clear();
        ranges.extend(blocks.iter().map(|b| b.offset..b.offset + block_len(b)));
        let relaxed = scratch.worklist.relax(
            ranges,
            rows,
            dofs,
            |c| {
                r_vec[ranges[c].clone()]
                    .iter()
                    .fold(0.0f64, |m, x| max(m, x.abs()))
            },
            threshold,
            ((WORKLIST_MOST * blocks.len() as f64) as usize).max(1),
            WORKLIST_UPDATES * blocks.len(),
            |c| relaxation.update(c, lambda.as_mut_slice(), &mut w),
        );
        if let Some(relaxed) = relaxed.filter(|r| r.updates > 0) {
            // Counted in sweeps: the queue's updates over the contacts, rounded up.
            iterations += relaxed.updates.div_ceil(blocks.len());
            residual = evaluate(lambda.as_slice(), &w, &mut u, &mut r_vec, &mut cases);
        }
    }
    let mut sweeps = 0;
    // Scratch for the Newton rounds.
    let (mut wx, mut wl, mut ul, mut x, mut ux) = (
        std::mem::take(&mut scratch.wx),
        std::mem::take(&mut scratch.wl),
        std::mem::take(&mut scratch.ul),
        std::mem::take(&mut scratch.x),
        std::mem::take(&mut scratch.ux),
    );
    zeroed(&mut wx, dofs);
    zeroed(&mut wl, dofs);
    zeroed(&mut ul, n);
    zeroed(&mut x, n);
    crate::linalg::buffers::zeroed_vector(&mut ux, n);
    let mut scratch_cases = std::mem::take(&mut scratch.scratch_cases);
    scratch_cases.clone_from(&cases);
    let jacobian_storage = std::mem::take(&mut scratch.jacobian);
    let mut model = LawJacobian::new(blocks, &locals, view, dofs, jacobian_storage);
    let mut krylov = std::mem::take(&mut scratch.krylov);
    // Anderson acceleration over pairs of sweeps (forward then backward: one fixed map G).
    let mut anderson = super::anderson::Anderson::default();
    anderson.reset(sparse.anderson, n);
    let history = if sparse.anderson > 0 { n } else { 0 };
    let (mut pair_start, mut mixed) = (vec![0.0; history], vec![0.0; history]);
    // A pair is whole only if its forward sweep ran since the last Newton–Krylov round.
    let mut pair_open = false;
    // Normal rows only (a large island's position level): the problem is a convex quadratic
    // program, solved by MPRGP; the sweeps and rounds below take over only if it stops short.
    if sparse.mprgp
        && residual > options.tolerance
        && blocks.iter().all(|b| block_len(b) == 1 && !b.bilateral)
    {
        let (diagonal, augmentation) = (&mut scratch.diagonal, &mut scratch.augmentation);
        let mut preconditioner = RowsPreconditioner {
            factor: &mut scratch.incomplete_cholesky,
            refactor: sparse.incomplete_cholesky.unwrap_or(0.0),
            rows,
            inverse_mass_rows: inv,
            dofs,
        };
        diagonal.clear();
        diagonal.extend(locals.iter().map(|l| l.w[0]));
        augmentation.clear();
        augmentation.extend(locals.iter().map(|l| l.r[0]));
        let products = super::mprgp::solve(
            diagonal,
            u_free.as_slice(),
            lambda.as_mut_slice(),
            |v, out| {
                view.velocity_change(v, &mut wx);
                for (i, o) in out.iter_mut().enumerate() {
                    *o = view.dot(i, &wx);
                }
            },
            |lam, u| {
                let worst = (0..n)
                    .map(|i| (lam[i] - max(lam[i] - augmentation[i] * u[i], 0.0)).abs())
                    .fold(0.0, max);
                worst <= options.tolerance * scale_of(lam)
            },
            max_sweeps,
            sparse
                .incomplete_cholesky
                .map(|_| &mut preconditioner as &mut dyn super::mprgp::FacePreconditioner),
            &mut scratch.mprgp,
        );
        iterations += products;
        view.velocity_change(lambda.as_slice(), &mut w);
        residual = evaluate(lambda.as_slice(), &w, &mut u, &mut r_vec, &mut cases);
    }
    while residual > options.tolerance && sweeps < max_sweeps {
        // A round of sweeps: until the tolerance, the round's length, or the cap.
        let round_end = (sweeps + sparse.round_sweeps.max(1)).min(max_sweeps);
        let round_start = residual;
        let first_sweep = sweeps;
        // The residuals at the last two evaluations in this round (for the handover).
        let mut earlier = [f64::INFINITY; 2];
        while residual > options.tolerance && sweeps < round_end {
            sweeps += 1;
            // Symmetric Gauss–Seidel: forward on odd sweeps, backward on even ones.
            let forward = sweeps % 2 == 1;
            if forward && sparse.anderson > 0 {
                pair_start.copy_from_slice(lambda.as_slice());
                pair_open = true;
            }
            for step in 0..blocks.len() {
                let c = if forward {
                    step
                } else {
                    blocks.len() - 1 - step
                };
                relaxation.update(c, lambda.as_mut_slice(), &mut w);
            }
            // The residual after every `residual_every`-th sweep and at the round's end (a
            // pair's end when Anderson mixes); between, the last one stands.
            let due = sweeps.is_multiple_of(sparse.residual_every.max(1))
                || sweeps == round_end
                || (sparse.anderson > 0 && !forward);
            if !due {
                continue;
            }
            residual = evaluate(lambda.as_slice(), &w, &mut u, &mut r_vec, &mut cases);
            // Gauss–Seidel's early sweeps settle the cases fast, then it converges linearly,
            // slowly in a deep pile: once a pair of sweeps takes little off, Newton's turn.
            if let Some(ratio) = sparse.handover.filter(|_| sparse.polish)
                && sweeps - first_sweep >= 4
                && residual > ratio * earlier[0]
            {
                break;
            }
            earlier = [earlier[1], residual];
            // After a pair: Anderson's mixed point, onto the laws, kept if its residual is
            // lower than the sweeps' own.
            if !forward
                && std::mem::take(&mut pair_open)
                && residual > options.tolerance
                && anderson.mix(&pair_start, lambda.as_slice(), &mut mixed)
            {
                super::project_in_place(&mut mixed, blocks);
                view.velocity_change(&mixed, &mut wx);
                let candidate = evaluate(&mixed, &wx, &mut ux, &mut r_vec, &mut scratch_cases);
                if candidate < residual {
                    lambda.copy_from_slice(&mixed);
                    std::mem::swap(&mut w, &mut wx);
                    std::mem::swap(&mut u, &mut ux);
                    cases.copy_from_slice(&scratch_cases);
                    residual = candidate;
                }
            }
        }
        if residual <= options.tolerance {
            break;
        }
        if sparse.polish {
            pair_open = false;
            // Gauss–Seidel settles which contacts are open, stick or slide, then converges
            // linearly, and slowly in a deep pile; semismooth Newton on R(λ) converges fast
            // once those cases hold. A short Newton–Krylov from here (W applied through the
            // rows, the exact Jacobian, a Gauss–Seidel preconditioner), kept only if it lowers
            // the residual; the sweeps resume from the better point.
            x.copy_from_slice(lambda.as_slice());
            let outcome = super::newton_krylov::solve(
                &mut x,
                |x, out| {
                    view.velocity_change(x, &mut wx);
                    evaluate(x, &wx, &mut ux, out, &mut scratch_cases);
                },
                &mut model,
                |model, x, r| {
                    view.velocity_change(x, &mut wl);
                    for i in 0..n {
                        ul[i] = u_free[i] + view.dot(i, &wl);
                    }
                    let relative = r.iter().fold(0.0f64, |m, v| max(m, v.abs())) / scale_of(x);
                    model.linearize(x, &ul, sparse.levenberg * relative);
                },
                // A tenth of the tolerance: the answer is projected onto the laws after.
                |x, r| {
                    r.iter().fold(0.0f64, |m, v| max(m, v.abs()))
                        <= 0.1 * options.tolerance * scale_of(x)
                },
                &sparse.round,
                &mut krylov,
            );
            iterations += outcome.inner + outcome.newton;
            // Newton's iterate leaves the laws' sets by rounding only; back onto them, and
            // kept if better.
            super::project_in_place(&mut x, blocks);
            view.velocity_change(&x, &mut wx);
            let polished = evaluate(&x, &wx, &mut ux, &mut r_vec, &mut scratch_cases);
            if polished < residual {
                anderson.forget();
                lambda.copy_from_slice(&x);
                std::mem::swap(&mut w, &mut wx);
                std::mem::swap(&mut u, &mut ux);
                cases.copy_from_slice(&scratch_cases);
                residual = polished;
            }
        }
        // A round that took less than a tenth off the residual, sweeps and Newton together,
        // is a stall: degenerate problems (redundant sticking contacts, a sphere wedged in a
        // corner at μ = 1) can stall for good, and the caller says so.
        if residual > STALL_RATIO * round_start {
            break;
        }
    }
    iterations += sweeps;
    let converged = residual <= options.tolerance && lambda.iter().all(|x| x.is_finite());
    let jacobian = model.into_storage();
    *scratch = SparseScratch {
        locals,
        w,
        wx,
        wl,
        ux,
        ul,
        x,
        r_vec,
        scratch_cases,
        jacobian,
        krylov,
        packed,
        // MPRGP's buffers were used in place and stay.
        ..std::mem::take(scratch)
    };
    LawSolution {
        lambda,
        u,
        cases,
        iterations,
        residual,
        converged,
        method: LawMethod::SparseNsgs,
    }
}
