//! A sphere against a cuboid in space: the sphere against the face, edge or corner of the cuboid nearest its centre; a body's feet on a sphere.
//!
//! The cuboid's surface point nearest the sphere's centre c lies on a face, an edge or a
//! corner, as c's coordinates in the cuboid's frame lie beyond the half extents along one,
//! two or three axes (the feature's Voronoi region, as collision libraries find it): the gap
//! is the distance from c to that feature less the radius, and the normal runs from the
//! feature to c. Each is an exact gap with exact derivatives: c against the face's plane,
//! against the edge's line ([`GapKinematics::PointToLine`]), against the corner (two
//! points). A centre inside the cuboid takes the face it is nearest to leaving through.
//! Taking the face's plane beyond the face's extent, as this did before, gave a sphere
//! meeting an edge at 45° a gap 0.29 R too small, and a sphere rolling off a box's edge a
//! floor that went on for the margin.

use glam::{DQuat, DVec3};

use super::cuboid_cuboid::nearest_face;
use super::{ContactGeometry, FoundContacts, GapKinematics};

/// Feature numbers of a sphere against a cuboid: the faces 0–5 (+x, −x, +y, −y, +z, −z), the
/// edges from here (`EDGES` + 4·axis + the signs of the other two coordinates, bit set for +),
/// the corners from [`CORNERS`] (+ the corner's number in [`super::cuboid_corners`]).
const EDGES: u32 = 6;
/// See [`EDGES`].
const CORNERS: u32 = 18;

/// Contact of a sphere (`radius`, centre `centre`) with the cuboid B at (`b`, `b_orientation`)
/// with half extents `h`: its face, edge or corner nearest the centre (module notes), if the
/// gap is at most `margin`.
pub fn sphere_on_cuboid(
    radius: f64,
    centre: DVec3,
    (b, b_orientation): (DVec3, DQuat),
    h: DVec3,
    margin: f64,
) -> Option<ContactGeometry> {
    let lever = centre - b;
    let local = b_orientation.inverse() * lever;
    let beyond = (0..3).filter(|&k| local[k].abs() > h[k]).count();
    if beyond >= 2 {
        // The nearest point is on an edge (the one axis within its extent) or a corner.
        let foot = DVec3::from_array(std::array::from_fn(|k| local[k].clamp(-h[k], h[k])));
        let separation = b_orientation * (local - foot);
        // (std's square root: see sphere_sphere.rs.)
        let distance = separation.length_squared().sqrt();
        let gap = distance - radius;
        if gap > margin {
            return None;
        }
        if distance > 1e-12 * radius {
            return Some(nearest_edge_or_corner(
                radius,
                (separation, distance),
                (b, b_orientation * foot),
                b_orientation,
                local,
                h,
            ));
        }
    }
    let (face, n_local, s) = nearest_face(local, h, 0.0)?;
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

/// The contact of a sphere whose centre lies beyond two (an edge) or three (a corner) of the
/// cuboid's face planes: `separation` = c − p_B from the nearest point p_B = b + `arm_b`, at
/// `distance`; `local` is c in the cuboid's frame.
fn nearest_edge_or_corner(
    radius: f64,
    (separation, distance): (DVec3, f64),
    (b, arm_b): (DVec3, DVec3),
    b_orientation: DQuat,
    local: DVec3,
    h: DVec3,
) -> ContactGeometry {
    let n = separation / distance;
    let within = (0..3).find(|&k| local[k].abs() <= h[k]);
    let (feature, kinematics) = match within {
        Some(axis) => {
            let signs = (0..3)
                .filter(|&k| k != axis)
                .enumerate()
                .map(|(bit, k)| u32::from(local[k] > 0.0) << bit)
                .sum::<u32>();
            let mut e = DVec3::ZERO;
            e[axis] = 1.0;
            (
                EDGES + 4 * axis as u32 + signs,
                GapKinematics::PointToLine {
                    arm_a: DVec3::ZERO,
                    arm_b,
                    separation,
                    edge_b: b_orientation * e,
                },
            )
        }
        None => {
            let corner = (0..3).map(|k| u32::from(local[k] > 0.0) << k).sum::<u32>();
            (
                CORNERS + corner,
                GapKinematics::PointToPoint {
                    arm_a: DVec3::ZERO,
                    arm_b,
                    separation,
                },
            )
        }
    };
    ContactGeometry {
        feature,
        gap: distance - radius,
        normal: n,
        arm_a: -radius * n,
        arm_b,
        point_b: b + arm_b,
        kinematics,
    }
}

/// Contacts of the body-fixed `points` of a body at (`position`, `orientation`) with a sphere
/// (`radius`, centre `centre`): d = |p − c_B| − R_B, normal from the centre to the point.
pub fn points_on_sphere(
    (position, orientation): (DVec3, DQuat),
    points: &[DVec3],
    radius: f64,
    centre: DVec3,
    margin: f64,
) -> FoundContacts {
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
