//! Stacking contacts into one law problem: the rows G, W = G M⁻¹ Gᵀ and each contact's block.

use nalgebra::DVector;

use super::LawBlock;
use crate::contact::{Contact, ContactMaterial, Delassus, JacobianRow};
use crate::model::BlockDiagonalMass;

/// Which laws take part (the position level has no rolling or spinning).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Laws {
    /// Include the tangent (friction) rows.
    pub friction: bool,
    /// Include the rolling and spinning rows.
    pub resistance: bool,
}

/// Islands with more rows than this are solved without forming W, by block Gauss–Seidel on
/// the block-sparse problem ([`super::sparse`]); smaller ones densely, by semismooth Newton
/// (or Lemke) with its fallbacks, which is exact and faster there (see docs/benchmarks.md).
pub const DENSE_ROWS: usize = 60;

/// A multiplier this many times the largest impulse the free motion asks for is no physical
/// answer (see [`Assembled::solve`]).
const UNPHYSICAL_RATIO: f64 = 1e6;

/// A densely solved multiplier this many times the demand is checked against block
/// Gauss–Seidel (see [`Assembled::solve`]).
const SUSPECT_RATIO: f64 = 1e4;

/// Impulses below this are never called unphysical (rounding where nothing is asked), N·s.
pub(super) const TINY_IMPULSE: f64 = 1e-9;

/// Contacts stacked for [`super::solve`].
#[derive(Clone)]
pub struct Assembled {
    /// Rows and M⁻¹ Gᵀ.
    pub delassus: Delassus,
    /// One block per contact, in the order given.
    pub blocks: Vec<LawBlock>,
}

impl Assembled {
    /// Number of multipliers (rows).
    pub fn rows(&self) -> usize {
        self.delassus.rows().len()
    }

    /// What the rows say of W's rank: [`super::Rank::Deficient`] when there is more than one
    /// contact and more rows than the degrees of freedom they act on (one contact's rows are
    /// solved by Newton alone, so they are not counted).
    pub fn rank(&self) -> super::Rank {
        if self.blocks.len() > 1 && self.rows() > self.delassus.coupled_dofs() {
            super::Rank::Deficient
        } else {
            super::Rank::Unknown
        }
    }

    /// Solves the laws on u = u_free + W λ from `guess`: densely with `solver` on a small
    /// island, by block-sparse Gauss–Seidel with Newton–Krylov rounds on a large one
    /// (whatever `solver` says). The answer lies in the laws' admissible sets either way, and
    /// says whether it converged (not when its multipliers are unphysical, see
    /// `demand`).
    ///
    /// A guess that is itself unphysical (a warm start that carried a self-equilibrated
    /// set of forces over from an earlier step) is dropped, and a warm-started answer that
    /// ends unphysical is solved again from zero: the grown forces never propagate.
    pub fn solve(
        &self,
        solver: super::LawSolver,
        u_free: &DVector<f64>,
        guess: Option<&DVector<f64>>,
        options: &super::NewtonOptions,
    ) -> super::LawSolution {
        let demand = self.demand(u_free);
        let physical = |lambda: &DVector<f64>| {
            let largest = lambda.amax();
            largest <= UNPHYSICAL_RATIO * demand || largest <= TINY_IMPULSE
        };
        let guess = guess.filter(|g| physical(g));
        let mut solution = self.solve_from(solver, u_free, guess, options);
        if guess.is_some() && !physical(&solution.lambda) {
            let cold = self.solve_from(solver, u_free, None, options);
            let keep = physical(&cold.lambda) || cold.lambda.amax() < solution.lambda.amax();
            solution = either(solution, cold, keep);
        }
        // Dense Newton can follow a ray of solutions out (a sphere spinning into a 90°
        // corner at μ = 1: the friction at the wall and at the floor feed each other with
        // gain μ² = 1, and R falls as 1/s along λ = λ₀ + s·d while a finite answer
        // exists). A dense answer SUSPECT_RATIO times the demand is checked against block
        // Gauss–Seidel from zero, which stays bounded, and the smaller converged one kept.
        if self.rows() <= DENSE_ROWS
            && solution.lambda.amax() > SUSPECT_RATIO * demand.max(TINY_IMPULSE)
        {
            let bounded = self.solve_sparse(u_free, None, options);
            let keep = bounded.converged && bounded.lambda.amax() < solution.lambda.amax();
            solution = either(solution, bounded, keep);
        }
        if solution.converged && !physical(&solution.lambda) {
            solution.converged = false;
        }
        solution
    }

    /// One solve, dense or block-sparse by the island's size.
    fn solve_from(
        &self,
        solver: super::LawSolver,
        u_free: &DVector<f64>,
        guess: Option<&DVector<f64>>,
        options: &super::NewtonOptions,
    ) -> super::LawSolution {
        if self.rows() > DENSE_ROWS {
            self.solve_sparse(u_free, guess, options)
        } else {
            crate::linalg::buffers::with_scratch(&DENSE_W, |w| {
                self.delassus.dense_into(w);
                super::solve_with(solver, w, u_free, &self.blocks, guess, options, self.rank())
            })
        }
    }

    /// Block Gauss–Seidel in rounds with Newton–Krylov, W never formed.
    fn solve_sparse(
        &self,
        u_free: &DVector<f64>,
        guess: Option<&DVector<f64>>,
        options: &super::NewtonOptions,
    ) -> super::LawSolution {
        super::capture::offer(|| super::capture::SparseProblem {
            problem: self.clone(),
            u_free: u_free.clone(),
            guess: guess.cloned(),
            options: *options,
        });
        // Rounds of Newton–Krylov between rounds of sweeps, whatever the small islands'
        // solver: measured on the piles of 100, they cut Moreau–Jean's unconverged steps from
        // 86 % to 14 % (docs/benchmarks.md).
        let solution = self.solve_sparse_with(
            u_free,
            guess,
            options,
            super::sparse::SparseOptions::standard(options),
        );
        super::solve_log::note(|| super::solve_log::SolveRecord {
            rows: self.rows(),
            warm: guess.is_some(),
            iterations: solution.iterations,
            converged: solution.converged,
            residual: solution.residual,
        });
        solution
    }

    /// Block Gauss–Seidel with the given block-sparse settings (the steppers' are
    /// [`super::sparse::SparseOptions::standard`]; `contactlab solver-compare` tries others).
    pub(super) fn solve_sparse_with(
        &self,
        u_free: &DVector<f64>,
        guess: Option<&DVector<f64>>,
        options: &super::NewtonOptions,
        sparse: super::sparse::SparseOptions,
    ) -> super::LawSolution {
        super::sparse::solve(&self.delassus, u_free, &self.blocks, guess, options, sparse)
    }

    /// The largest impulse the free motion asks of one row: |u_free,i| / Wᵢᵢ (normal rows
    /// only when approaching).
    ///
    /// Redundant contacts (a pile between walls, with friction; a box on four corners) make
    /// the multipliers non-unique: a self-equilibrated set of forces can be added without
    /// changing any motion, and an iteration (warm-started sweeps, a least-squares Newton
    /// direction) can let it grow. The residual, relative to λ, then says nothing. A
    /// multiplier above a million times this demand is no physical answer.
    pub(super) fn demand(&self, u_free: &DVector<f64>) -> f64 {
        use crate::lcp::DelassusOperator;
        let mut demand = 0.0f64;
        for b in &self.blocks {
            let len = 1 + b.tangents + b.rolling + b.spin;
            for k in 0..len {
                let w = self.delassus.diagonal(b.offset + k);
                if w > 0.0 {
                    demand = demand.max(b.asked(u_free, k) / w);
                }
            }
        }
        demand
    }

    /// Adds the velocity change M⁻¹ Gᵀ λ to `dv` (touching only this problem's bodies, so
    /// many small islands cost in proportion to their size).
    pub fn add_velocity_change(&self, lambda: &DVector<f64>, dv: &mut DVector<f64>) {
        for (k, row) in self.delassus.inverse_mass_rows().iter().enumerate() {
            row.add_transpose_to(lambda[k], dv);
        }
    }

    /// G x for a generalized vector x (the relative quantities in stacked order).
    pub fn relative(&self, x: &DVector<f64>) -> DVector<f64> {
        let mut out = DVector::zeros(0);
        self.relative_into(x, &mut out);
        out
    }

    /// [`Self::relative`] into `out`, resized (its storage kept when large enough).
    pub fn relative_into(&self, x: &DVector<f64>, out: &mut DVector<f64>) {
        crate::linalg::buffers::sized_vector(out, self.rows());
        for (o, r) in out.iter_mut().zip(self.delassus.rows()) {
            *o = r.dot(x);
        }
    }
}

/// `second` if `keep_second`, else `first`, with the iterations of both.
fn either(
    first: super::LawSolution,
    second: super::LawSolution,
    keep_second: bool,
) -> super::LawSolution {
    let iterations = first.iterations + second.iterations;
    let mut kept = if keep_second { second } else { first };
    kept.iterations = iterations;
    kept
}

/// The rows one contact contributes beyond its normal row under `laws`: (tangents,
/// rolling, spin).
fn law_rows(c: &Contact, material: &ContactMaterial, laws: Laws) -> (usize, usize, usize) {
    let tangents = if laws.friction && material.friction > 0.0 {
        c.tangent_rows.len()
    } else {
        0
    };
    if !laws.resistance {
        return (tangents, 0, 0);
    }
    let rolling = if material.rolling_resistance > 0.0 {
        c.rolling_rows.len()
    } else {
        0
    };
    let spin = usize::from(c.spin_row.is_some() && material.spinning_resistance > 0.0);
    (tangents, rolling, spin)
}

/// The number of rows [`assemble`] would stack for `contacts`, without building them (to
/// choose a problem's form before paying for it).
pub fn stacked_rows(contacts: &[&Contact], material: &ContactMaterial, laws: Laws) -> usize {
    contacts
        .iter()
        .map(|c| {
            let (tangents, rolling, spin) = law_rows(c, material, laws);
            1 + tangents + rolling + spin
        })
        .sum()
}

/// Stacks `contacts` (normal, then the laws asked for) with the material's coefficients,
/// in the storage of a problem dropped earlier on this thread when there is one.
pub fn assemble(
    mass: &BlockDiagonalMass,
    contacts: &[&Contact],
    material: &ContactMaterial,
    laws: Laws,
) -> Assembled {
    let (mut delassus, mut blocks) = crate::linalg::buffers::take_spare(&SPARE_STORAGE);
    blocks.clear();
    delassus.reuse(mass, |rows| {
        rows.reserve(stacked_rows(contacts, material, laws));
        for c in contacts {
            let offset = rows.len();
            let (tangents, rolling, spin) = law_rows(c, material, laws);
            rows.push(without_zeros(&c.normal_row));
            rows.extend(c.tangent_rows[..tangents].iter().map(without_zeros));
            rows.extend(c.rolling_rows[..rolling].iter().map(without_zeros));
            if spin == 1 {
                rows.extend(c.spin_row.iter().map(without_zeros));
            }
            blocks.push(LawBlock {
                offset,
                tangents,
                rolling,
                spin,
                friction: material.friction,
                rolling_resistance: material.rolling_resistance,
                spinning_resistance: material.spinning_resistance,
                bilateral: c.bilateral,
            });
        }
    });
    Assembled { delassus, blocks }
}

/// The storage of problems dropped on this thread, for [`assemble`] to fill again: every
/// step assembles each island anew, and the rows, M⁻¹ Gᵀ, W's diagonal and the blocks were
/// four allocations per island and level. At most [`SPARE_LIMIT`] sets are kept.
type SpareStorage = crate::linalg::buffers::ScratchPool<(Delassus, Vec<LawBlock>)>;

thread_local! {
    /// The dense W of the small islands, one matrix reused by each.
    static DENSE_W: crate::linalg::buffers::ScratchPool<nalgebra::DMatrix<f64>> =
        const { std::cell::RefCell::new(Vec::new()) };
    static SPARE_STORAGE: SpareStorage = const { std::cell::RefCell::new(Vec::new()) };
}

/// Sets of storage kept for reuse: as many islands as a step holds at once (a step keeps
/// its velocity-level islands until it reports them).
const SPARE_LIMIT: usize = 1024;

impl Drop for Assembled {
    fn drop(&mut self) {
        let storage = (
            std::mem::take(&mut self.delassus),
            std::mem::take(&mut self.blocks),
        );
        crate::linalg::buffers::give_back(&SPARE_STORAGE, storage, SPARE_LIMIT);
    }
}

/// The row without its exact zeros. A body writes its whole block into every row (a
/// sphere's normal row has no angular part, its rolling and spinning rows no linear one),
/// and the solvers' products visit every entry: a third of a resisted sphere contact's
/// entries are zeros. Dropping them changes no sum (a product ±0 added to a sum changes
/// at most the sign of a zero result).
fn without_zeros(row: &JacobianRow) -> JacobianRow {
    JacobianRow {
        entries: row.entries.iter().filter(|e| e.1 != 0.0).copied().collect(),
    }
}

/// Groups contacts that share a moving body (islands): each group is an independent problem,
/// so the dense solves stay small when many bodies touch only the ground.
///
/// Two rows share a body when they touch the same block of M: a rigid body's rows touch all
/// its coordinates, but a beam's touch only the nodes at their point, and its consistent
/// mass couples those to every other node (M⁻¹ is dense in the block), so a pin at each
/// end of a rod is one problem.
pub fn islands(mass: &BlockDiagonalMass, contacts: &[&Contact]) -> Islands {
    crate::linalg::buffers::with_scratch(&ISLAND_SCRATCH, |work| islands_in(mass, contacts, work))
}

/// The union–find's work vectors of [`islands`], kept per thread between calls.
#[derive(Default)]
struct IslandWork {
    parent: Vec<usize>,
    owner: Vec<Option<usize>>,
    next: Vec<usize>,
}

thread_local! {
    static ISLAND_SCRATCH: crate::linalg::buffers::ScratchPool<IslandWork> =
        const { std::cell::RefCell::new(Vec::new()) };
    /// The storage of dropped [`Islands`] (members, starts), for the next call.
    static SPARE_ISLANDS: crate::linalg::buffers::ScratchPool<(Vec<usize>, Vec<usize>)> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Sets of [`Islands`] storage kept for reuse (a step holds two or three at once).
const SPARE_ISLAND_SETS: usize = 8;

/// [`islands`] in the work vectors of `work`.
fn islands_in(mass: &BlockDiagonalMass, contacts: &[&Contact], work: &mut IslandWork) -> Islands {
    let n = contacts.len();
    let IslandWork {
        parent,
        owner,
        next,
    } = work;
    parent.clear();
    parent.extend(0..n);
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    // The first contact seen for each generalized-velocity index (O(N + dofs), no map).
    let dofs = contacts
        .iter()
        .flat_map(|c| c.normal_row.entries.iter().map(|&(index, _)| index + 1))
        .max()
        .unwrap_or(0);
    owner.clear();
    owner.resize(dofs, None);
    for (k, c) in contacts.iter().enumerate() {
        for &(index, _) in &c.normal_row.entries {
            let index = mass.block_start(index);
            match owner[index] {
                Some(other) => {
                    let (a, b) = (root(parent, k), root(parent, other));
                    if a != b {
                        parent[a.max(b)] = a.min(b);
                    }
                }
                None => owner[index] = Some(k),
            }
        }
    }
    // Groups in the order of their smallest member (each root is its group's smallest
    // index, since unions keep the smaller root), members ascending: a counting sort of the
    // contacts by group, into one vector. `owner` is reused for each root's group number.
    let group_of_root = owner;
    group_of_root.clear();
    group_of_root.resize(n, None);
    let (mut members, mut starts) = crate::linalg::buffers::take_spare(&SPARE_ISLANDS);
    starts.clear();
    starts.push(0);
    for k in 0..n {
        let r = root(parent, k);
        parent[k] = r;
        if group_of_root[r].is_none() {
            group_of_root[r] = Some(starts.len() - 1);
            starts.push(0);
        }
        let g = group_of_root[r].expect("set above");
        starts[g + 1] += 1;
    }
    for g in 1..starts.len() {
        starts[g] += starts[g - 1];
    }
    members.clear();
    members.resize(n, 0);
    next.clone_from(&starts);
    for k in 0..n {
        let g = group_of_root[parent[k]].expect("every root has a group");
        members[next[g]] = k;
        next[g] += 1;
    }
    Islands { members, starts }
}

/// Contacts grouped into islands ([`islands`]): group g is `members[starts[g]..starts[g + 1]]`,
/// indices into the contacts ascending, groups in the order of their smallest member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Islands {
    members: Vec<usize>,
    starts: Vec<usize>,
}

impl Drop for Islands {
    fn drop(&mut self) {
        let storage = (
            std::mem::take(&mut self.members),
            std::mem::take(&mut self.starts),
        );
        crate::linalg::buffers::give_back(&SPARE_ISLANDS, storage, SPARE_ISLAND_SETS);
    }
}

impl Islands {
    /// Each island's contact indices, ascending.
    pub fn iter(&self) -> impl Iterator<Item = &[usize]> {
        self.starts.windows(2).map(|w| &self.members[w[0]..w[1]])
    }
}
