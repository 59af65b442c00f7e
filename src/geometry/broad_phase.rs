//! The broad phase: which pairs of bodies can touch, by sort and sweep along one axis, in O(N log N).
//!
//! Every bounded body (box, disk, sphere, cuboid) is enclosed in the cube of half side
//! r + margin/2 about its centre, r its bounding radius. The cubes are sorted by their lower
//! end along the axis over which the centres spread most, then swept: a body is paired with
//! every earlier body whose interval it overlaps along that axis, and the pair is kept when the
//! cubes overlap along the other two axes as well. Unbounded bodies (planes, half-planes)
//! pair with every bounded body. Pairs of two fixed bodies are never candidates. The pairs
//! come out sorted (i < j, then by i and j), so the narrow phase runs in a fixed order.

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

/// The candidate pairs (i < j) of bodies whose bounding cubes, grown by `margin`, overlap.
pub fn candidate_pairs(bodies: &[Bounds], margin: f64) -> Vec<(usize, usize)> {
    let (bounded, unbounded): (Vec<usize>, Vec<usize>) =
        (0..bodies.len()).partition(|&i| bodies[i].radius.is_finite());
    let mut pairs = Vec::new();
    for &p in &unbounded {
        for &b in &bounded {
            if !(bodies[p].fixed && bodies[b].fixed) {
                pairs.push((p.min(b), p.max(b)));
            }
        }
        for &q in &unbounded {
            if p < q && !(bodies[p].fixed && bodies[q].fixed) {
                pairs.push((p, q));
            }
        }
    }
    // The axis over which the centres spread most.
    let spread = |axis: usize| {
        let (lo, hi) = bounded
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &i| {
                let x = bodies[i].centre[axis];
                (lo.min(x), hi.max(x))
            });
        hi - lo
    };
    let axis = (0..3)
        .max_by(|&a, &b| spread(a).total_cmp(&spread(b)))
        .unwrap_or(0);
    let half = |i: usize| bodies[i].radius + 0.5 * margin;
    let mut order = bounded.clone();
    order.sort_by(|&a, &b| {
        (bodies[a].centre[axis] - half(a))
            .total_cmp(&(bodies[b].centre[axis] - half(b)))
            .then(a.cmp(&b))
    });
    let mut active: Vec<usize> = Vec::new();
    for &i in &order {
        let low = bodies[i].centre[axis] - half(i);
        active.retain(|&j| bodies[j].centre[axis] + half(j) >= low);
        for &j in &active {
            if bodies[i].fixed && bodies[j].fixed {
                continue;
            }
            let reach = half(i) + half(j);
            let d = bodies[i].centre - bodies[j].centre;
            if (0..3).all(|k| d[k].abs() <= reach) {
                pairs.push((i.min(j), i.max(j)));
            }
        }
        active.push(i);
    }
    pairs.sort_unstable();
    pairs
}
