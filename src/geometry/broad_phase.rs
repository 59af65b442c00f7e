//! The broad phase: which pairs of bodies can touch, by a uniform grid of cells, in O(N).
//!
//! Every bounded body (box, disk, sphere, cuboid) is enclosed in the cube of half side
//! e = r + margin/2 about its centre, r its bounding radius. Two cubes overlap when their
//! centres differ by at most eᵢ + eⱼ along each of the three axes.
//!
//! The grid's cell side s is twice the largest e among the *ordinary* bodies, those whose e is
//! at most `LARGE_FACTOR` times the median. Each ordinary body sits in the one cell holding its
//! centre; since eᵢ + eⱼ ≤ s, a body whose cube overlaps another's has its centre in the same
//! cell or one of the 26 around it, so each body is tested only against the bodies of those
//! 27 cells: O(N) work when the bodies are of like size and do not pile into one cell more
//! densely than their size allows. The few *large* bodies (a floor slab among pebbles) would
//! blow the cells up for everyone; they are tested against every bounded body instead.
//! Unbounded bodies (planes, half-planes) pair with every bounded body. Pairs of two fixed
//! bodies are never candidates. The pairs come out sorted (i < j, then by i and j), so the
//! narrow phase runs in a fixed order whatever the hashing did.
//!
//! (A sort and sweep along one axis, which this replaced, is O(N·k) with k the bodies that
//! share a slab of that axis: √N for a square grid of spheres, 100 at N = 10⁴.)

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

/// A body whose half extent exceeds this many medians is tested against all, not binned.
const LARGE_FACTOR: f64 = 4.0;

/// The candidate pairs (i < j) of bodies whose bounding cubes, grown by `margin`, overlap.
pub fn candidate_pairs(bodies: &[Bounds], margin: f64) -> Vec<(usize, usize)> {
    let (bounded, unbounded): (Vec<usize>, Vec<usize>) =
        (0..bodies.len()).partition(|&i| bodies[i].radius.is_finite());
    let mut pairs = Vec::new();
    let mut keep = |i: usize, j: usize| {
        if !(bodies[i].fixed && bodies[j].fixed) {
            pairs.push((i.min(j), i.max(j)));
        }
    };
    for &p in &unbounded {
        for &b in &bounded {
            keep(p, b);
        }
        for &q in &unbounded {
            if p < q {
                keep(p, q);
            }
        }
    }
    let half = |i: usize| bodies[i].radius + 0.5 * margin;
    let cubes_overlap = |i: usize, j: usize| {
        let reach = half(i) + half(j);
        let d = bodies[i].centre - bodies[j].centre;
        d.x.abs() <= reach && d.y.abs() <= reach && d.z.abs() <= reach
    };
    let (ordinary, large) = split_by_size(&bounded, &half);
    // Large bodies: against every ordinary body, and each pair of large bodies once.
    for (n, &l) in large.iter().enumerate() {
        for &b in ordinary.iter().chain(&large[n + 1..]) {
            if cubes_overlap(l, b) {
                keep(l, b);
            }
        }
    }
    // Ordinary bodies: against the 27 cells about their own.
    let side = 2.0
        * ordinary
            .iter()
            .map(|&i| half(i))
            .fold(0.0_f64, f64::max)
            .max(f64::MIN_POSITIVE);
    let cell_of = |i: usize| {
        let c = bodies[i].centre / side;
        [c.x.floor() as i64, c.y.floor() as i64, c.z.floor() as i64]
    };
    let mut cells: FxHashMap<[i64; 3], Vec<usize>> =
        FxHashMap::with_capacity_and_hasher(ordinary.len(), Default::default());
    for &i in &ordinary {
        let [x, y, z] = cell_of(i);
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let key = [
                        x.saturating_add(dx),
                        y.saturating_add(dy),
                        z.saturating_add(dz),
                    ];
                    for &j in cells.get(&key).map(Vec::as_slice).unwrap_or(&[]) {
                        if cubes_overlap(i, j) {
                            keep(i, j);
                        }
                    }
                }
            }
        }
        cells.entry([x, y, z]).or_default().push(i);
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// Splits the bounded bodies into ordinary and large (half extent > LARGE_FACTOR × median).
fn split_by_size(bounded: &[usize], half: &impl Fn(usize) -> f64) -> (Vec<usize>, Vec<usize>) {
    if bounded.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let mut halves: Vec<f64> = bounded.iter().map(|&i| half(i)).collect();
    let middle = halves.len() / 2;
    let (_, median, _) = halves.select_nth_unstable_by(middle, f64::total_cmp);
    let limit = LARGE_FACTOR * *median;
    bounded.iter().partition(|&&i| half(i) <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pair by brute force, for comparison.
    fn all_pairs(bodies: &[Bounds], margin: f64) -> Vec<(usize, usize)> {
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
    fn scatter(seed: u64, count: usize, sizes: &[f64], extent: f64) -> Vec<Bounds> {
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

    #[test]
    fn the_grid_finds_exactly_the_overlapping_cubes() {
        for (seed, sizes, extent) in [
            (1, vec![0.1], 3.0),
            (2, vec![0.05, 0.1, 0.2], 2.0),
            (3, vec![0.02, 0.02, 0.02, 0.02, 1.5], 4.0), // a few large among small
            (4, vec![0.3, 0.3, 5.0, 7.0], 6.0),          // large pairs with each other
            (5, vec![0.0], 0.5),                         // points
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
            }
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
        assert!(candidate_pairs(&bodies, 0.0).is_empty());
    }
}
