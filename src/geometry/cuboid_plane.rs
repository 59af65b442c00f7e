//! Point features in space (a cuboid's corners, or feet) against a plane: one contact per point.

use glam::{DQuat, DVec3};

use super::{ContactGeometry, FoundContacts, GapKinematics};

/// Contacts of the body-fixed `points` of a body at (`position`, `orientation`) with the plane
/// of a body at (`plane`, `plane_orientation`).
///
/// The plane is its body frame's z = 0 with outward normal n = R_B ẑ; the gap of a point
/// p = x_A + R_A r is d = n·(p − x_B), and the contact acts at the point itself.
pub fn points_on_plane(
    (position, orientation): (DVec3, DQuat),
    points: &[DVec3],
    (plane, plane_orientation): (DVec3, DQuat),
    margin: f64,
) -> FoundContacts {
    let n = plane_orientation * DVec3::Z;
    points
        .iter()
        .enumerate()
        .filter_map(|(i, &r)| {
            let arm = orientation * r;
            let p = position + arm;
            let lever = p - plane;
            let gap = n.dot(lever);
            (gap <= margin).then(|| {
                let point_b = p - gap * n;
                ContactGeometry {
                    feature: i as u32,
                    gap,
                    normal: n,
                    arm_a: arm,
                    arm_b: point_b - plane,
                    point_b,
                    kinematics: GapKinematics::PointOnSurface { arm, lever },
                }
            })
        })
        .collect()
}
