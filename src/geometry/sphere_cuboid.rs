//! A sphere against a cuboid in space: the sphere on the cuboid's nearest face, and the cuboid's corners on the sphere.

use glam::{DQuat, DVec3};

use super::cuboid_cuboid::nearest_face;
use super::{ContactGeometry, GapKinematics};

/// Contact of a sphere (`radius`, centre `centre`) with the nearest face of the cuboid B at
/// (`b`, `b_orientation`) with half extents `h`: d = s − R with s the centre's signed distance
/// to the face's plane (n turning with B), while the centre lies within the face's extent
/// plus `margin`. Edges and corners of B are not rounded: near them the sphere meets the
/// face's plane (as a disk meets a box face in the plane). Feature = the face number.
pub fn sphere_on_cuboid(
    radius: f64,
    centre: DVec3,
    (b, b_orientation): (DVec3, DQuat),
    h: DVec3,
    margin: f64,
) -> Option<ContactGeometry> {
    let lever = centre - b;
    let (face, n_local, s) = nearest_face(b_orientation.inverse() * lever, h, margin)?;
    let gap = s - radius;
    if gap > margin {
        return None;
    }
    let n = b_orientation * n_local;
    let arm_a = -radius * n;
    let point_b = centre + arm_a - gap * n;
    Some(ContactGeometry {
        feature: face,
        gap,
        normal: n,
        arm_a,
        arm_b: point_b - b,
        point_b,
        kinematics: GapKinematics::PointOnSurface {
            arm: DVec3::ZERO,
            lever,
        },
    })
}

/// Contacts of the body-fixed `points` of a body at (`position`, `orientation`) with a sphere
/// (`radius`, centre `centre`): d = |p − c_B| − R_B, normal from the centre to the point.
pub fn points_on_sphere(
    (position, orientation): (DVec3, DQuat),
    points: &[DVec3],
    radius: f64,
    centre: DVec3,
    margin: f64,
) -> Vec<ContactGeometry> {
    points
        .iter()
        .enumerate()
        .filter_map(|(i, &r)| {
            let arm = orientation * r;
            let p = position + arm;
            let separation = p - centre;
            let distance = separation.length();
            let gap = distance - radius;
            (gap <= margin && distance > 1e-12 * radius).then(|| {
                let n = separation / distance;
                ContactGeometry {
                    feature: i as u32,
                    gap,
                    normal: n,
                    arm_a: arm,
                    arm_b: radius * n,
                    point_b: centre + radius * n,
                    kinematics: GapKinematics::PointToPoint {
                        arm_a: arm,
                        arm_b: DVec3::ZERO,
                        separation,
                    },
                }
            })
        })
        .collect()
}
