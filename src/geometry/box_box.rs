//! Point features (a body's feet) or a disk against a box: each point against the face it is nearest to leaving through, a disk against the face or corner nearest its centre (two boxes without feet meet across one pair of faces instead: `box_pair.rs`).

use glam::DVec2;

use super::{ContactGeometry, FoundContacts, GapKinematics};
use crate::model::Pose;

/// The face of box B that a point in B's frame is nearest to leaving through: (outward
/// normal in B's frame, signed distance to that face, coordinate along the face, face half
/// length). The face is the one with the largest signed distance, i.e. the least
/// penetration for a point inside; a point outside that is not beside the face returns None.
fn nearest_face(p: DVec2, h: DVec2, margin: f64) -> Option<(u32, DVec2, f64)> {
    let faces = [
        (0u32, DVec2::Y, p.y - h.y, p.x, h.x),
        (1, -DVec2::Y, -p.y - h.y, p.x, h.x),
        (2, DVec2::X, p.x - h.x, p.y, h.y),
        (3, -DVec2::X, -p.x - h.x, p.y, h.y),
    ];
    let (face, n, s, along, half) = faces
        .into_iter()
        .max_by(|a, b| a.2.total_cmp(&b.2))
        .expect("four faces");
    (along.abs() <= half + margin).then_some((face, n, s))
}

/// Contacts of the body-fixed `points` of a body at `pose` with the faces of box B.
pub fn points_on_box(
    pose: Pose,
    points: &[DVec2],
    b: Pose,
    half_extents: DVec2,
    margin: f64,
) -> FoundContacts {
    points
        .iter()
        .enumerate()
        .filter_map(|(i, &r)| {
            let arm = pose.rotate(r);
            let c = pose.position + arm;
            let lever = c - b.position;
            let (face, n_local, gap) = nearest_face(b.inverse_rotate(lever), half_extents, margin)?;
            (gap <= margin).then(|| {
                let n = b.rotate(n_local);
                ContactGeometry::planar(
                    i as u32 * 4 + face,
                    gap,
                    n,
                    (c, c - gap * n),
                    (pose.position, b.position),
                    GapKinematics::planar_point(arm, lever),
                )
            })
        })
        .collect()
}

/// Contact of a disk (`radius`, `pose`) with box B: with the face nearest its centre, or,
/// where the centre lies beyond two of B's face lines (the corner's region), with that corner:
/// d = |c − p| − R for the corner p, a material point of B (feature 4 + the corner's number in
/// [`super::box_corners`]). The face's line taken beyond the face, as before, gave a disk
/// meeting a corner at 45° a gap 0.29 R too small.
pub fn disk_on_box(
    radius: f64,
    pose: Pose,
    b: Pose,
    half_extents: DVec2,
    margin: f64,
) -> Option<ContactGeometry> {
    let lever = pose.position - b.position;
    let local = b.inverse_rotate(lever);
    if local.x.abs() > half_extents.x && local.y.abs() > half_extents.y {
        let corner = DVec2::new(
            half_extents.x.copysign(local.x),
            half_extents.y.copysign(local.y),
        );
        let arm_b = b.rotate(corner);
        let separation = lever - arm_b;
        // (std's square root: see sphere_sphere.rs.)
        let distance = separation.length_squared().sqrt();
        let gap = distance - radius;
        if gap > margin {
            return None;
        }
        let n = separation / distance;
        // box_corners: (−,−), (+,−), (+,+), (−,+).
        let number = match (local.x > 0.0, local.y > 0.0) {
            (false, false) => 0,
            (true, false) => 1,
            (true, true) => 2,
            (false, true) => 3,
        };
        return Some(ContactGeometry::planar(
            4 + number,
            gap,
            n,
            (pose.position - radius * n, b.position + arm_b),
            (pose.position, b.position),
            GapKinematics::PointToPoint {
                arm_a: glam::DVec3::ZERO,
                arm_b: arm_b.extend(0.0),
                separation: separation.extend(0.0),
            },
        ));
    }
    let (face, n_local, s) = nearest_face(local, half_extents, 0.0)?;
    let gap = s - radius;
    (gap <= margin).then(|| {
        let n = b.rotate(n_local);
        let point_a = pose.position - radius * n;
        ContactGeometry::planar(
            face,
            gap,
            n,
            (point_a, point_a - gap * n),
            (pose.position, b.position),
            GapKinematics::planar_point(DVec2::ZERO, lever),
        )
    })
}
