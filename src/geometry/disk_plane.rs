//! A disk against a half-plane: one contact at the disk's lowest point.

use glam::DVec2;

use super::{ContactGeometry, GapKinematics};
use crate::model::Pose;

/// Contact of a disk of `radius` at `pose` with the half-plane of `plane`, if d ≤ `margin`.
///
/// d = n·(x_A − x_B) − R; the feature point is the centre, so rotation of the disk does not
/// change the gap (its arm is zero), while the contact point x_A − R n is where friction acts.
pub fn disk_on_plane(radius: f64, pose: Pose, plane: Pose, margin: f64) -> Option<ContactGeometry> {
    let n = plane.rotate(DVec2::Y);
    let lever = pose.position - plane.position;
    let gap = n.dot(lever) - radius;
    (gap <= margin).then(|| {
        let point_a = pose.position - radius * n;
        ContactGeometry::planar(
            0,
            gap,
            n,
            (point_a, point_a - gap * n),
            (pose.position, plane.position),
            GapKinematics::planar_point(DVec2::ZERO, lever),
        )
    })
}
