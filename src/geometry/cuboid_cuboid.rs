//! Point features in space (a body's feet) against the faces of a cuboid, each against the face it is nearest to leaving through (two cuboids without feet meet across one pair of faces instead: `cuboid_pair.rs`).

use glam::{DQuat, DVec3};

use super::{ContactGeometry, FoundContacts, GapKinematics};

/// The face of a cuboid (half extents `h`) that a point `p` in its frame is nearest to leaving
/// through: (face number, outward normal in the cuboid's frame, signed distance). The face is
/// the one with the largest signed distance (the least penetration for a point inside); a
/// point beside the face by more than `margin` in either in-face coordinate gives None.
/// Faces are numbered +x, −x, +y, −y, +z, −z.
pub(crate) fn nearest_face(p: DVec3, h: DVec3, margin: f64) -> Option<(u32, DVec3, f64)> {
    let mut best: Option<(u32, DVec3, f64, usize)> = None;
    for axis in 0..3 {
        for (k, sign) in [(0u32, 1.0), (1, -1.0)] {
            let s = sign * p[axis] - h[axis];
            if best.is_none_or(|b| s > b.2) {
                let mut n = DVec3::ZERO;
                n[axis] = sign;
                best = Some((2 * axis as u32 + k, n, s, axis));
            }
        }
    }
    let (face, n, s, axis) = best?;
    let beside = (0..3)
        .filter(|&other| other != axis)
        .any(|other| p[other].abs() > h[other] + margin);
    (!beside).then_some((face, n, s))
}

/// Contacts of the body-fixed `points` of a body at (`position`, `orientation`) with the faces
/// of the cuboid B at (`b`, `b_orientation`) with half extents `h`. Feature = 6·point + face.
pub fn points_on_cuboid(
    (position, orientation): (DVec3, DQuat),
    points: &[DVec3],
    (b, b_orientation): (DVec3, DQuat),
    h: DVec3,
    margin: f64,
) -> FoundContacts {
    let to_local = b_orientation.inverse();
    points
        .iter()
        .enumerate()
        .filter_map(|(i, &r)| {
            let arm = orientation * r;
            let p = position + arm;
            let lever = p - b;
            let (face, n_local, gap) = nearest_face(to_local * lever, h, margin)?;
            (gap <= margin).then(|| {
                let n = b_orientation * n_local;
                let point_b = p - gap * n;
                ContactGeometry {
                    feature: i as u32 * 6 + face,
                    gap,
                    normal: n,
                    arm_a: arm,
                    arm_b: point_b - b,
                    point_b,
                    kinematics: GapKinematics::PointOnSurface { arm, lever },
                }
            })
        })
        .collect()
}
