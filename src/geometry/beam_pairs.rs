//! A flexible beam's contacts: its nodes on a half-plane, and a disk against its centreline.
//!
//! The beam's centreline is taken as the polyline through its nodes (the chords of its
//! elements), its surface a distance t (half the section's height) from it. Arms are measured
//! from the beam's reference point, its tip (see [`crate::model::PlanarBeam`]), whose point
//! Jacobian finds the material point again from them.

use glam::DVec2;

use super::{ContactGeometry, GapKinematics};
use crate::model::Pose;

/// Feature numbers of a disk touching a beam at a node start here (at an element's interior
/// the feature is the element's number).
pub const NODE_FEATURES: u32 = 400;

/// Contacts of the beam's nodes (centres `nodes`, section half height `t`, reference point
/// `tip`) with the half-plane of `plane`, each with d = n·(x_k − x_B) − t ≤ `margin`.
///
/// Between two nodes the chord is straight, so no point of it is lower than its ends: the
/// nodes are the polyline's only point features against a flat surface.
pub fn nodes_on_plane(
    nodes: &[DVec2],
    t: f64,
    tip: DVec2,
    plane: Pose,
    margin: f64,
) -> Vec<ContactGeometry> {
    let n = plane.rotate(DVec2::Y);
    nodes
        .iter()
        .enumerate()
        .filter_map(|(k, &x)| {
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

/// Contacts of a disk (radius `r`, centre `c`) with the beam's centreline: one at each
/// element whose nearest point to c lies strictly inside it, and one at each node that is
/// nearest for both its elements (the disk on a convex bend), with
/// d = |c − p| − r − t ≤ `margin`, n = (c − p)/|c − p| from the beam towards the disk.
pub fn disk_on_beam(
    r: f64,
    c: DVec2,
    (nodes, t, tip): (&[DVec2], f64, DVec2),
    margin: f64,
) -> Vec<ContactGeometry> {
    let mut out = Vec::new();
    let reach = r + t + margin;
    // The fraction along each element of c's projection (unclamped).
    let fraction = |e: usize| {
        let d = nodes[e + 1] - nodes[e];
        (c - nodes[e]).dot(d) / d.length_squared()
    };
    let mut push = |feature: u32, p: DVec2| {
        let separation = c - p;
        let distance = separation.length();
        if distance > reach || distance == 0.0 {
            return;
        }
        let n = separation / distance;
        let gap = distance - r - t;
        out.push(ContactGeometry {
            feature,
            gap,
            normal: n.extend(0.0),
            arm_a: (-r * n).extend(0.0),
            arm_b: (p + t * n - tip).extend(0.0),
            point_b: (p + t * n).extend(0.0),
            kinematics: GapKinematics::PointToPoint {
                arm_a: glam::DVec3::ZERO,
                arm_b: (p - tip).extend(0.0),
                separation: separation.extend(0.0),
            },
        });
    };
    let elements = nodes.len() - 1;
    for e in 0..elements {
        let s = fraction(e);
        if s > 0.0 && s < 1.0 {
            push(e as u32, nodes[e] + (nodes[e + 1] - nodes[e]) * s);
        }
    }
    for (k, &node) in nodes.iter().enumerate() {
        let before = k == 0 || fraction(k - 1) >= 1.0;
        let after = k == elements || fraction(k) <= 0.0;
        if before && after {
            push(NODE_FEATURES + k as u32, node);
        }
    }
    out
}
