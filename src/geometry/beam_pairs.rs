//! A flexible beam's contacts: its nodes on a half-plane, and a disk against its deformed (Hermite) centreline.
//!
//! The beam's centreline is its elements' cubic Hermite curves ([`crate::model::hermite`]),
//! its surface a distance t (half the section's height) from it. Arms are measured
//! from the beam's reference point, its tip (see [`crate::model::PlanarBeam`]), whose point
//! Jacobian finds the material point again from them.

use glam::DVec2;

use super::{ContactGeometry, GapKinematics};
use crate::model::Pose;
use crate::model::hermite::Segment;

/// Contacts of the beam's nodes (nodes `nodes` (x, y, θ), section half height `t`, reference
/// point `tip`) with the half-plane of `plane`, each with d = n·(x_k − x_B) − t ≤ `margin`.
///
/// Only the nodes: between two of them the Hermite curve can dip below the chord by at most
/// its sagitta κl²/8, which these contacts do not see. (Each element's low point as a contact
/// of its own was tried: beside a node that touches it doubled the contact, and a penalty
/// contact's force with it.)
pub fn nodes_on_plane(
    nodes: &[[f64; 3]],
    t: f64,
    tip: DVec2,
    plane: Pose,
    margin: f64,
) -> Vec<ContactGeometry> {
    let n = plane.rotate(DVec2::Y);
    nodes
        .iter()
        .enumerate()
        .filter_map(|(k, node)| {
            let x = DVec2::new(node[0], node[1]);
            let lever = x - plane.position;
            let gap = n.dot(lever) - t;
            (gap <= margin).then(|| {
                let point_a = x - t * n;
                ContactGeometry::planar(
                    k as u32,
                    gap,
                    n,
                    (point_a, point_a - gap * n),
                    (tip, plane.position),
                    GapKinematics::planar_point(x - tip, lever),
                )
            })
        })
        .collect()
}

/// The feet of a point on a curve of elements, from each element's nearest ξ: the nearest
/// points strictly inside an element, and a node's own (once) where the elements on both its
/// sides have their nearest point at it (an end of the beam, or a node met exactly), in order
/// along the curve as (element, ξ). Shared by the plane's disk and the space's sphere.
pub(crate) fn feet(nearest: &[f64]) -> impl Iterator<Item = (usize, f64)> + '_ {
    let last = nearest.len().saturating_sub(1);
    nearest.iter().enumerate().filter_map(move |(e, &xi)| {
        let at_start = xi == 0.0 && (e == 0 || nearest[e - 1] == 1.0);
        let at_last_end = xi == 1.0 && e == last;
        ((xi > 0.0 && xi < 1.0) || at_start || at_last_end).then_some((e, xi))
    })
}

/// Contacts of a disk (radius `r`, centre `c`) with the beam's centreline, the elements'
/// cubic Hermite curves ([`crate::model::hermite`]): one at each nearest point of the curve to
/// c strictly inside an element, and one at each node nearest for both its elements (an end
/// of the beam, or a node met exactly), with d = |c − p| − r − t ≤ `margin` and
/// n = (c − p)/|c − p| from the beam towards the disk. The curve is C¹, so a disk rolling
/// along the beam keeps one contact whose foot moves smoothly from element to element; the
/// contacts are numbered in order along the beam, so it keeps its number too.
pub fn disk_on_beam(
    r: f64,
    c: DVec2,
    (nodes, t, tip): (&[[f64; 3]], f64, DVec2),
    margin: f64,
) -> Vec<ContactGeometry> {
    let reach = r + t + margin;
    let segments: Vec<Segment> = nodes.windows(2).map(|w| Segment::new(w[0], w[1])).collect();
    let nearest: Vec<f64> = segments.iter().map(|s| s.nearest(c).0).collect();
    let feet: Vec<DVec2> = feet(&nearest)
        .map(|(e, xi)| segments[e].point(xi))
        .collect();
    // Numbered among all the curve's nearest points before the reach is applied, so a foot
    // far along the beam entering or leaving the margin renumbers none of the others.
    feet.into_iter()
        .enumerate()
        .filter_map(|(feature, p)| {
            let separation = c - p;
            let distance = separation.length();
            (distance <= reach && distance > 0.0).then_some((feature, p, separation, distance))
        })
        .map(|(feature, p, separation, distance)| {
            let n = separation / distance;
            ContactGeometry {
                feature: feature as u32,
                gap: distance - r - t,
                normal: n.extend(0.0),
                arm_a: (-r * n).extend(0.0),
                arm_b: (p + t * n - tip).extend(0.0),
                point_b: (p + t * n).extend(0.0),
                kinematics: GapKinematics::PointToPoint {
                    arm_a: glam::DVec3::ZERO,
                    arm_b: (p - tip).extend(0.0),
                    separation: separation.extend(0.0),
                },
            }
        })
        .collect()
}
