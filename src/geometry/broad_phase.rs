//! The broad phase: which pairs of bodies can touch, by a hierarchical grid of cells, in O(N).
//!
//! Every bounded body (box, disk, sphere, cuboid) is enclosed in the cube of half side
//! e = r + margin/2 about its centre, r its bounding radius. Two cubes overlap when their
//! centres differ by at most eᵢ + eⱼ along each of the three axes.
//!
//! Cells come in levels: level L has side s₀·4^L, with s₀ twice the smallest e, and each body
//! sits in the lowest level whose side is at least 2e, in the one cell holding its centre. A
//! body then looks only in the 27 cells about its centre on its own level and on each
//! occupied level above: O(N) work for N bodies, whatever the mix of sizes (a floor slab
//! among pebbles, or a heap of grains beside boulders), with a factor for the number of
//! occupied levels (one for bodies of like size). Unbounded bodies (planes, half-planes) pair
//! with every bounded body. Pairs of two fixed bodies are never candidates. The pairs come out
//! sorted (i < j, then by i and j), so the narrow phase runs in a fixed order whatever the
//! hashing did. Up to a couple of dozen bounded bodies every pair is tested directly
//! instead: the same pairs, without building the grid.
//!
//! (A sort and sweep along one axis, which this replaced, is O(N·k) with k the bodies that
//! share a slab of that axis: √N for a square grid of spheres, 100 at N = 10⁴. A single grid
//! sized by the largest body is quadratic in a heap of small ones.)

use rustc_hash::FxHashMap;

use glam::DVec3;

/// One body as the broad phase sees it.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// Centre, m.
    pub centre: DVec3,
    /// Bounding radius, m (∞ for a plane).
    pub radius: f64,
    /// True for a body that never moves.
    pub fixed: bool,
}

/// Relative widening of every cell side (rounding in c/s is far below it for coordinates
/// within the scene limits).
const WIDEN: f64 = 1e-6;

/// Up to this many bounded bodies every pair is tested directly: 24·23/2 = 276 cube tests
/// cost less than hashing the bodies into the grid and probing 27 cells each.
pub(crate) const ALL_PAIRS_UP_TO: usize = 24;

/// Levels above the smallest bodies' (sides grow 4× a level: 4³⁰ ≈ 10¹⁸ covers any pair
/// of sizes within the scene limits).
const MAX_LEVEL: u32 = 30;

/// True when the bounding cubes of two bounded bodies, each grown by half the `margin`,
/// overlap: their centres differ by at most eᵢ + eⱼ along each axis, e = r + margin/2. (The
/// one test of the grid and of [`super::kept_pairs`], so that both keep the same pairs.)
pub fn cubes_overlap(a: &Bounds, b: &Bounds, margin: f64) -> bool {
    let reach = (a.radius + 0.5 * margin) + (b.radius + 0.5 * margin);
    let d = a.centre - b.centre;
    d.x.abs() <= reach && d.y.abs() <= reach && d.z.abs() <= reach
}

/// The candidate pairs (i < j) of bodies whose bounding cubes, grown by `margin`, overlap.
pub fn candidate_pairs(bodies: &[Bounds], margin: f64) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    candidate_pairs_into(bodies, margin, &mut pairs);
    pairs
}

/// [`candidate_pairs`] into `pairs` (cleared first), the grid's work lists kept on this
/// thread from call to call: a step detects two or three times, and once a pile has its
/// pairs the broad phase allocates nothing.
pub fn candidate_pairs_into(bodies: &[Bounds], margin: f64, pairs: &mut Vec<(usize, usize)>) {
    crate::linalg::buffers::with_scratch(&GRID_WORK, |work| {
        pairs_by(bodies, margin, ALL_PAIRS_UP_TO, work, pairs);
    });
}

/// The grid's work lists, reused between calls.
#[derive(Default)]
struct GridWork {
    bounded: Vec<usize>,
    unbounded: Vec<usize>,
    levels: Vec<u32>,
    sorted: Vec<((u32, [i64; 3]), usize)>,
    cells: FxHashMap<(u32, [i64; 3]), (usize, usize)>,
    occupied: Vec<u32>,
}

thread_local! {
    static GRID_WORK: crate::linalg::buffers::ScratchPool<GridWork> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// [`candidate_pairs`], testing every pair directly up to `all_pairs_up_to` bounded bodies
/// and by the grid above (the tests drive each path on the same bodies).
fn pairs_by(
    bodies: &[Bounds],
    margin: f64,
    all_pairs_up_to: usize,
    work: &mut GridWork,
    pairs: &mut Vec<(usize, usize)>,
) {
    let GridWork {
        bounded,
        unbounded,
        levels,
        sorted,
        cells,
        occupied,
    } = work;
    bounded.clear();
    unbounded.clear();
    // Sized once (a partition grows both lists as it goes).
    bounded.reserve(bodies.len());
    unbounded.reserve(bodies.len());
    for (i, b) in bodies.iter().enumerate() {
        if b.radius.is_finite() {
            bounded.push(i);
        } else {
            unbounded.push(i);
        }
    }
    // Room for a packed pile's pairs (a sphere touches up to twelve, each pair kept once)
    // and every plane against every body, so that the list is not regrown as it fills.
    pairs.clear();
    pairs.reserve(6 * bounded.len() + unbounded.len() * bodies.len());
    let mut keep = |i: usize, j: usize| {
        if !(bodies[i].fixed && bodies[j].fixed) {
            pairs.push((i.min(j), i.max(j)));
        }
    };
    for &p in unbounded.iter() {
        for &b in bounded.iter() {
            keep(p, b);
        }
        for &q in unbounded.iter() {
            if p < q {
                keep(p, q);
            }
        }
    }
    let half = |i: usize| bodies[i].radius + 0.5 * margin;
    let overlap = |i: usize, j: usize| cubes_overlap(&bodies[i], &bodies[j], margin);
    // A few bodies: every pair, without building the grid (same pairs, fewer instructions).
    if bounded.len() <= all_pairs_up_to {
        for (k, &i) in bounded.iter().enumerate() {
            for &j in &bounded[k + 1..] {
                if overlap(i, j) {
                    keep(i, j);
                }
            }
        }
        pairs.sort_unstable();
        return;
    }
    // Levels of cells: level L has side s₀·4^L, s₀ twice the smallest half extent; each body
    // sits in the lowest level whose side is at least twice its half extent, in the cell that
    // holds its centre. Sides are widened by WIDEN so that rounding in c/s cannot put two
    // bodies whose cubes touch two cells apart.
    let smallest = bounded
        .iter()
        .map(|&i| half(i))
        .fold(f64::INFINITY, f64::min)
        .max(f64::MIN_POSITIVE);
    let base = 2.0 * smallest;
    let level_of = |i: usize| {
        let mut level = 0u32;
        let mut side = base;
        while side < 2.0 * half(i) && level < MAX_LEVEL {
            side *= 4.0;
            level += 1;
        }
        level
    };
    let side_of = |level: u32| base * 4f64.powi(level as i32) * (1.0 + WIDEN);
    let cell_at = |centre: DVec3, level: u32| {
        let c = centre / side_of(level);
        [c.x.floor() as i64, c.y.floor() as i64, c.z.floor() as i64]
    };
    levels.clear();
    levels.extend(bounded.iter().map(|&i| level_of(i)));
    // The bodies sorted by (level, cell), so that each occupied cell is one run of them
    // (members ascending), and the map from a cell to its run: no allocation per cell.
    sorted.clear();
    sorted.extend(
        bounded
            .iter()
            .zip(levels.iter())
            .map(|(&i, &level)| ((level, cell_at(bodies[i].centre, level)), i)),
    );
    sorted.sort_unstable();
    cells.clear();
    cells.reserve(sorted.len());
    occupied.clear();
    let mut start = 0;
    while start < sorted.len() {
        let key = sorted[start].0;
        let end = start + sorted[start..].partition_point(|entry| entry.0 == key);
        cells.insert(key, (start, end));
        if occupied.last() != Some(&key.0) {
            occupied.push(key.0);
        }
        start = end;
    }
    // Each body looks in the 27 cells about its centre on its own level and every level
    // above: a body j on level b ≥ level(i) whose cube meets i's has |cᵢ − cⱼ| ≤ eᵢ + eⱼ ≤ s_b
    // per axis, so its cell is a neighbour of the one holding cᵢ. A pair on one level is taken
    // once (j < i), a pair across levels by the lower body only.
    for (&i, &level) in bounded.iter().zip(levels.iter()) {
        for &other in occupied.iter().filter(|&&l| l >= level) {
            let [x, y, z] = cell_at(bodies[i].centre, other);
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for dz in -1..=1 {
                        let key = [
                            x.saturating_add(dx),
                            y.saturating_add(dy),
                            z.saturating_add(dz),
                        ];
                        let Some(&(first, end)) = cells.get(&(other, key)) else {
                            continue;
                        };
                        for &(_, j) in &sorted[first..end] {
                            let once = other > level || j < i;
                            if once && overlap(i, j) {
                                keep(i, j);
                            }
                        }
                    }
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
}

/// Bodies and pairs for the tests of this module and of [`super::kept_pairs`].
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    /// Every pair by brute force, for comparison.
    pub(crate) fn all_pairs(bodies: &[Bounds], margin: f64) -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        for i in 0..bodies.len() {
            for j in i + 1..bodies.len() {
                let (a, b) = (&bodies[i], &bodies[j]);
                if a.fixed && b.fixed {
                    continue;
                }
                let reach = a.radius + b.radius + margin;
                let d = a.centre - b.centre;
                let overlap = !reach.is_finite()
                    || (d.x.abs() <= reach && d.y.abs() <= reach && d.z.abs() <= reach);
                if overlap {
                    pairs.push((i, j));
                }
            }
        }
        pairs
    }

    /// A small deterministic generator (splitmix64) for scattered bodies.
    pub(crate) fn scatter(seed: u64, count: usize, sizes: &[f64], extent: f64) -> Vec<Bounds> {
        let mut state = seed;
        let mut next = || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
        };
        (0..count)
            .map(|k| Bounds {
                centre: DVec3::new(next(), next(), next()) * extent - extent / 2.0,
                radius: sizes[k % sizes.len()],
                fixed: k % 7 == 3,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{all_pairs, scatter};
    use super::*;

    /// [`pairs_by`] in fresh work lists.
    fn pairs_by_fresh(bodies: &[Bounds], margin: f64, up_to: usize) -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        pairs_by(bodies, margin, up_to, &mut GridWork::default(), &mut pairs);
        pairs
    }

    #[test]
    fn the_grid_finds_exactly_the_overlapping_cubes() {
        for (seed, sizes, extent) in [
            (1, vec![0.1], 3.0),
            (2, vec![0.05, 0.1, 0.2], 2.0),
            (3, vec![0.02, 0.02, 0.02, 0.02, 1.5], 4.0), // a few large among small
            (4, vec![0.3, 0.3, 5.0, 7.0], 6.0),          // large pairs with each other
            (5, vec![0.0], 0.5),                         // points
            (6, vec![0.5, 2.1], 8.0),                    // two sizes, half and half
            (7, vec![1e-6, 1e-6, 1e-6, 0.3, 3e-4], 0.2), // grains beside boulders
        ] {
            let mut bodies = scatter(seed, 400, &sizes, extent);
            bodies.push(Bounds {
                centre: DVec3::ZERO,
                radius: f64::INFINITY,
                fixed: true,
            });
            for margin in [0.0, 0.05] {
                assert_eq!(
                    candidate_pairs(&bodies, margin),
                    all_pairs(&bodies, margin),
                    "seed {seed}, margin {margin}"
                );
                // The direct path on a few of them, and the grid on a few.
                let few = &bodies[bodies.len() - ALL_PAIRS_UP_TO..];
                for up_to in [0, usize::MAX] {
                    assert_eq!(
                        pairs_by_fresh(few, margin, up_to),
                        all_pairs(few, margin),
                        "seed {seed}, margin {margin}, {up_to}"
                    );
                }
            }
        }
    }

    #[test]
    fn cubes_touching_to_the_last_bit_are_found() {
        // Centres exactly e₁ + e₂ apart after rounding (2.0 − 0.9999999999999999 rounds to 1):
        // a grid cell of side exactly 1 would put them two cells apart.
        let bodies = [
            Bounds {
                centre: DVec3::new(2.0, 0.0, 0.0),
                radius: 0.5,
                fixed: false,
            },
            Bounds {
                centre: DVec3::new(0.999_999_999_999_999_9, 0.0, 0.0),
                radius: 0.5,
                fixed: false,
            },
        ];
        for up_to in [0, usize::MAX] {
            assert_eq!(pairs_by_fresh(&bodies, 0.0, up_to), all_pairs(&bodies, 0.0));
            assert_eq!(pairs_by_fresh(&bodies, 0.0, up_to), vec![(0, 1)]);
        }
    }

    #[test]
    fn bodies_far_apart_in_coordinates_do_not_overflow_the_cells() {
        let bodies = [
            Bounds {
                centre: DVec3::splat(-1e12),
                radius: 0.1,
                fixed: false,
            },
            Bounds {
                centre: DVec3::splat(1e12),
                radius: 0.1,
                fixed: false,
            },
        ];
        for up_to in [0, usize::MAX] {
            assert!(pairs_by_fresh(&bodies, 0.0, up_to).is_empty());
        }
    }
}
