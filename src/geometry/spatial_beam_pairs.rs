//! A flexible beam's contacts in space: its nodes on a plane, and a sphere against its deformed (Hermite) centreline.
//!
//! The beam's centreline is its elements' cubic Hermite curves
//! ([`crate::model::hermite_spatial`]), its surface a tube of radius t about it. Arms are
//! measured from the beam's reference point, its tip (see [`crate::model::SpatialBeam`]),
//! whose point Jacobian finds the material point again from them.

use glam::{DQuat, DVec3};

use super::{ContactGeometry, GapKinematics};
use crate::model::hermite_spatial::SpatialSegment;

/// Contacts of the beam's nodes (positions `nodes`, tube radius `t`, reference point `tip`)
/// with the plane of a body at `plane` turned by `orientation` (its z = 0, normal R ẑ), each
/// with d = n·(x_k − x_B) − t ≤ `margin`.
///
/// Only the nodes, as in the plane: between two of them the curve can dip below the chord by
/// at most its sagitta κl²/8, which these contacts do not see.
pub fn nodes_on_plane(
    nodes: &[DVec3],
    t: f64,
    tip: DVec3,
    (plane, orientation): (DVec3, DQuat),
    margin: f64,
) -> Vec<ContactGeometry> {
    let n = orientation * DVec3::Z;
    nodes
        .iter()
        .enumerate()
        .filter_map(|(k, &x)| {
            let lever = x - plane;
            let gap = n.dot(lever) - t;
            (gap <= margin).then(|| {
                let point_a = x - t * n;
                let point_b = point_a - gap * n;
                ContactGeometry {
                    feature: k as u32,
                    gap,
                    normal: n,
                    arm_a: point_a - tip,
                    arm_b: point_b - plane,
                    point_b,
                    kinematics: GapKinematics::PointOnSurface {
                        arm: x - tip,
                        lever,
                    },
                }
            })
        })
        .collect()
}

/// Contacts of a sphere (radius `r`, centre `c`) with the beam's centreline `segments`: one at
/// each nearest point of the curve to c strictly inside an element, and one at each node
/// nearest for both its elements (an end, or a node met exactly), with d = |c − p| − r − t ≤
/// `margin` and n = (c − p)/|c − p| from the beam towards the sphere. Numbered in order along
/// the beam, before the reach is applied, so a sphere rolling along keeps its contact's number.
pub fn sphere_on_beam(
    r: f64,
    c: DVec3,
    (segments, t, tip): (&[SpatialSegment], f64, DVec3),
    margin: f64,
) -> Vec<ContactGeometry> {
    let reach = r + t + margin;
    let nearest: Vec<f64> = segments.iter().map(|s| s.nearest(c).0).collect();
    let feet: Vec<DVec3> = super::beam_pairs::feet(&nearest)
        .map(|(e, xi)| segments[e].point(xi))
        .collect();
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
                normal: n,
                arm_a: -r * n,
                arm_b: p + t * n - tip,
                point_b: p + t * n,
                kinematics: GapKinematics::PointToPoint {
                    arm_a: DVec3::ZERO,
                    arm_b: p - tip,
                    separation,
                },
            }
        })
        .collect()
}
