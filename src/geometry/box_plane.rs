//! Point features (box corners, feet) against a half-plane: one contact per point.

use glam::DVec2;

use super::{ContactGeometry, FoundContacts, GapKinematics};
use crate::model::Pose;

/// Contacts of the body-fixed `points` of a body at `pose` with the half-plane of `plane`.
///
/// The plane's surface passes through its body origin with outward normal n = R(θ_B)·(0, 1);
/// the gap of a point c is d = n·(c − x_B).
pub fn points_on_plane(pose: Pose, points: &[DVec2], plane: Pose, margin: f64) -> FoundContacts {
    let n = plane.rotate(DVec2::Y);
    points
        .iter()
        .enumerate()
        .filter_map(|(i, &r)| {
            let arm = pose.rotate(r);
            let c = pose.position + arm;
            let lever = c - plane.position;
            let gap = n.dot(lever);
            (gap <= margin).then(|| {
                ContactGeometry::planar(
                    i as u32,
                    gap,
                    n,
                    (c, c - gap * n),
                    (pose.position, plane.position),
                    GapKinematics::planar_point(arm, lever),
                )
            })
        })
        .collect()
}
