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

/// Impulses below this are never called unphysical (rounding where nothing is asked), N·s.
const TINY_IMPULSE: f64 = 1e-9;

/// Contacts stacked for [`super::solve`].
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

    /// Solves the laws on u = u_free + W λ from `guess`: densely with `solver` on a small
    /// island, by block-sparse Gauss–Seidel on a large one (polished by Newton–Krylov when
    /// `solver` is Newton). The answer lies in the laws' admissible sets either way, and says
    /// whether it converged (not when its multipliers are unphysical, see `physical`).
    pub fn solve(
        &self,
        solver: super::LawSolver,
        u_free: &DVector<f64>,
        guess: Option<&DVector<f64>>,
        options: &super::NewtonOptions,
    ) -> super::LawSolution {
        let mut solution = if self.rows() > DENSE_ROWS {
            super::sparse::solve(
                &self.delassus,
                u_free,
                &self.blocks,
                guess,
                options,
                super::sparse::SparseOptions {
                    max_sweeps: options.max_sweeps,
                    // Newton–Krylov finishes what the sweeps leave when Newton is the
                    // solver asked for (NSGA); Moreau–Jean's Lemke/PGS settings keep to the
                    // sweeps (measured: the polish costs it 10× and converges rarely).
                    polish: matches!(solver, super::LawSolver::Newton),
                },
            )
        } else {
            let w = self.delassus.dense();
            super::solve_with(solver, &w, u_free, &self.blocks, guess, options)
        };
        if solution.converged && !self.physical(&solution.lambda, u_free) {
            solution.converged = false;
        }
        solution
    }

    /// Redundant contacts (a pile between walls, with friction; a box on four corners) make
    /// the multipliers non-unique: a self-equilibrated set of forces can be added without
    /// changing any motion, and an iteration (warm-started sweeps, a least-squares Newton
    /// direction) can let it grow. The residual, relative to λ, then says nothing. False
    /// when some multiplier exceeds a million times the largest impulse the free motion asks
    /// of one row (|u_free,i| / Wᵢᵢ, normal rows only when approaching): no physical answer.
    fn physical(&self, lambda: &DVector<f64>, u_free: &DVector<f64>) -> bool {
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
        let largest = lambda.amax();
        largest <= UNPHYSICAL_RATIO * demand || largest <= TINY_IMPULSE
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
        DVector::from_iterator(
            self.delassus.rows().len(),
            self.delassus.rows().iter().map(|r| r.dot(x)),
        )
    }
}

/// Stacks `contacts` (normal, then the laws asked for) with the material's coefficients.
pub fn assemble(
    mass: &BlockDiagonalMass,
    contacts: &[&Contact],
    material: &ContactMaterial,
    laws: Laws,
) -> Assembled {
    let mut rows: Vec<JacobianRow> = Vec::new();
    let mut blocks = Vec::with_capacity(contacts.len());
    for c in contacts {
        let offset = rows.len();
        rows.push(c.normal_row.clone());
        let tangents = if laws.friction && material.friction > 0.0 {
            rows.extend(c.tangent_rows.iter().cloned());
            c.tangent_rows.len()
        } else {
            0
        };
        let (rolling, spin) = if laws.resistance {
            let rolling = if material.rolling_resistance > 0.0 {
                rows.extend(c.rolling_rows.iter().cloned());
                c.rolling_rows.len()
            } else {
                0
            };
            let spin = match &c.spin_row {
                Some(s) if material.spinning_resistance > 0.0 => {
                    rows.push(s.clone());
                    1
                }
                _ => 0,
            };
            (rolling, spin)
        } else {
            (0, 0)
        };
        blocks.push(LawBlock {
            offset,
            tangents,
            rolling,
            spin,
            friction: material.friction,
            rolling_resistance: material.rolling_resistance,
            spinning_resistance: material.spinning_resistance,
        });
    }
    Assembled {
        delassus: Delassus::new(mass, rows),
        blocks,
    }
}

/// Groups contacts that share a moving body (islands): each group is an independent problem,
/// so the dense solves stay small when many bodies touch only the ground.
pub fn islands(contacts: &[&Contact]) -> Vec<Vec<usize>> {
    let n = contacts.len();
    let mut parent: Vec<usize> = (0..n).collect();
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
    let mut owner: Vec<Option<usize>> = vec![None; dofs];
    for (k, c) in contacts.iter().enumerate() {
        for &(index, _) in &c.normal_row.entries {
            match owner[index] {
                Some(other) => {
                    let (a, b) = (root(&mut parent, k), root(&mut parent, other));
                    if a != b {
                        parent[a.max(b)] = a.min(b);
                    }
                }
                None => owner[index] = Some(k),
            }
        }
    }
    // Groups in the order of their smallest member (each root is its group's smallest
    // index, since unions keep the smaller root), members ascending.
    let mut group_of_root: Vec<Option<usize>> = vec![None; n];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for k in 0..n {
        let r = root(&mut parent, k);
        let g = *group_of_root[r].get_or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(k);
    }
    groups
}
