//! A sphere against a plane in space: one contact below the centre.

use glam::{DQuat, DVec3};

use super::{ContactGeometry, GapKinematics};

/// Contact of a sphere (`radius`, centre `centre`) with the plane of a body at `plane`
/// (`orientation`), if d ≤ `margin`.
///
/// The plane is the body frame's z = 0 with outward normal n = R ẑ; d = n·(c_A − x_B) − R.
/// The centre is the feature point (turning the sphere does not change d); friction acts at
/// c_A − R n.
pub fn sphere_on_plane(
    radius: f64,
    centre: DVec3,
    plane: DVec3,
    orientation: DQuat,
    margin: f64,
) -> Option<ContactGeometry> {
    let n = orientation * DVec3::Z;
    let lever = centre - plane;
    let gap = n.dot(lever) - radius;
    if gap > margin {
        return None;
    }
    let arm_a = -radius * n;
    let point_b = centre + arm_a - gap * n;
    Some(ContactGeometry {
        feature: 0,
        gap,
        normal: n,
        arm_a,
        arm_b: point_b - plane,
        point_b,
        kinematics: GapKinematics::PointOnSurface {
            arm: DVec3::ZERO,
            lever,
        },
    })
}
