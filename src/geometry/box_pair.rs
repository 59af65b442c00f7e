//! Two boxes in the plane: the one pair of faces they touch across, chosen by the separating axis test, and the corners of each against the other's face (the planar twin of `cuboid_pair.rs`).
//!
//! Each corner against the other box's nearest face, both ways, gave two boxes level side by
//! side and overlapping by a hair two contacts of opposite normals at the shared edge's ends
//! (its corners are level with the other's top and bottom faces, and inside its side face):
//! a pair that squeezes freely, with which friction holds anything. Instead, over the four
//! face normals (B's, then A's), the axis L with the largest separation
//!
//! ```text
//!     s(L) = |(x_A − x_B)·L| − Σ_k h_A,k |a_k·L| − Σ_k h_B,k |b_k·L|
//! ```
//!
//! (the least penetration) gives the reference face, the face of its box that looks towards
//! the other; the other box's face most opposed to it is the incident face. The contacts are
//! the other box's corners over (or beside by at most the margin) the reference face and
//! the reference box's corners over the incident face, within the margin of it: material
//! points against flat faces, as before, listed first side first as the directed tests did.
//! A corner beside the other's face is then dropped where the other box has a corner listed
//! within the margin of it: the overlap of two faces ends at corners, and a second support
//! just beyond an end makes the pair's rows redundant (`drop_redundant_beside`).

use glam::DVec2;

use super::cuboid_pair::{Face, TIE, reference_axis};
use super::{ContactGeometry, GapKinematics, PairContacts, Side};
use crate::model::Pose;

/// The body axes of a box at `pose`.
fn axes(pose: Pose) -> [DVec2; 2] {
    [pose.rotate(DVec2::X), pose.rotate(DVec2::Y)]
}

/// Half the extent along the unit vector `l` of a box with `axes` and half extents `h`.
fn reach(axes: [DVec2; 2], h: DVec2, l: DVec2) -> f64 {
    h.x * axes[0].dot(l).abs() + h.y * axes[1].dot(l).abs()
}

/// The contacts of boxes A (`a`, half extents `ha`) and B within `margin`, appended to `out`
/// with the side whose corner it is; feature = 4·corner + face of the other box (+
/// [`super::SECOND_SIDE_FEATURES`] on the second side), corners numbered as
/// [`super::box_corners`] lists them.
pub fn box_on_box(
    (a, ha): (Pose, DVec2),
    (b, hb): (Pose, DVec2),
    margin: f64,
    out: &mut PairContacts,
) {
    let (axes_a, axes_b) = (axes(a), axes(b));
    let d = a.position - b.position;
    let scale = ha.min_element().min(hb.min_element());
    let separations =
        [(false, axes_b), (true, axes_a)]
            .into_iter()
            .flat_map(|(owner_is_a, owner)| {
                owner.into_iter().enumerate().map(move |(k, l)| {
                    let s = d.dot(l).abs() - reach(axes_a, ha, l) - reach(axes_b, hb, l);
                    (s, owner_is_a, k)
                })
            });
    let Some((reference_is_a, axis)) = reference_axis(separations, TIE * scale, margin) else {
        return;
    };
    let ((reference, h_ref, axes_ref), (incident, h_inc, axes_inc)) = if reference_is_a {
        ((a, ha, axes_a), (b, hb, axes_b))
    } else {
        ((b, hb, axes_b), (a, ha, axes_a))
    };
    let towards = incident.position - reference.position;
    let reference_face = Face {
        axis,
        sign: if towards.dot(axes_ref[axis]) >= 0.0 {
            1.0
        } else {
            -1.0
        },
    };
    let n = reference_face.sign * axes_ref[axis];
    let incident_axis = if axes_inc[0].dot(n).abs() >= axes_inc[1].dot(n).abs() {
        0
    } else {
        1
    };
    let incident_face = Face {
        axis: incident_axis,
        sign: if axes_inc[incident_axis].dot(n) <= 0.0 {
            1.0
        } else {
            -1.0
        },
    };
    // A's corners first, as the directed tests listed them.
    let (first, second) = if reference_is_a {
        (
            (reference, h_ref, incident, h_inc, incident_face),
            (incident, h_inc, reference, h_ref, reference_face),
        )
    } else {
        (
            (incident, h_inc, reference, h_ref, reference_face),
            (reference, h_ref, incident, h_inc, incident_face),
        )
    };
    let start = out.len();
    let mut beside = 0u16;
    for (side, (points, h_points, surface, h_surface, face)) in
        [(Side::First, first), (Side::Second, second)]
    {
        let listed = out.len() - start;
        beside |= corners_on_face(
            (points, h_points),
            (surface, h_surface),
            face,
            margin,
            side,
            out,
        ) << listed;
    }
    drop_redundant_beside(out, start, beside, margin);
}

/// Drops each corner listed beside its face (bit k of `beside` for `out[start + k]`) that has
/// a corner of the other box, still listed, within `margin` of it. Where two faces overlap
/// in the plane, each end of the overlap is a corner of one box over the other's face; a
/// corner of the other box just beyond that end adds a second support on the same line. Two
/// corners of each box on one line give a face pair's normal rows rank 2 of 4 and its
/// tangent rows rank 1 of 4: on the planar pile of 100 squares under Moreau–Jean, where every
/// stacked pair had its four, small islands' solves stalled in 440 of 480 steps (51 s); with
/// the redundant corners dropped, 139 (1.6 s). Where the other box has no corner within the
/// margin (the faces at an angle), the corner beside the face stays, to be met before it
/// comes over the face.
///
/// In space the overlap of two faces also has corners where edges cross, which the cuboid
/// pair does not list, and a corner beside the face stands in for them: the same rule there
/// took the 3-D pile of 100 cubes under Moreau–Jean from 169 unconverged steps of 480 (42 s)
/// to 444 (523 s), so `cuboid_pair.rs` keeps every corner.
fn drop_redundant_beside(out: &mut PairContacts, start: usize, beside: u16, margin: f64) {
    if beside == 0 {
        return;
    }
    let listed = out.len() - start;
    let mut dropped = 0u16;
    for i in (0..listed).filter(|i| beside & (1 << i) != 0) {
        let (side, here) = (out[start + i].0, out[start + i].1.point_b);
        let covered = (0..listed).any(|j| {
            let (other, there) = (out[start + j].0, out[start + j].1.point_b);
            other != side && dropped & (1 << j) == 0 && (here - there).length() <= margin
        });
        if covered {
            dropped |= 1 << i;
        }
    }
    let mut k = 0;
    out.retain(|_| {
        let keep = k < start || dropped & (1 << (k - start)) == 0;
        k += 1;
        keep
    });
}

/// The corners of the box (`points`, half extents) over `face` of box `surface` (or beside
/// it by at most `margin`) within `margin` of it, as contacts of `side`; returns which of
/// those it listed are beside the face (bit k for the k-th listed).
fn corners_on_face(
    (points, h_points): (Pose, DVec2),
    (surface, h_surface): (Pose, DVec2),
    face: Face,
    margin: f64,
    side: Side,
    out: &mut PairContacts,
) -> u16 {
    let n = surface.rotate(if face.axis == 0 {
        DVec2::new(face.sign, 0.0)
    } else {
        DVec2::new(0.0, face.sign)
    });
    let other = 1 - face.axis;
    let (mut beside, mut listed) = (0u16, 0);
    for (i, r) in super::box_corners(h_points).into_iter().enumerate() {
        let arm = points.rotate(r);
        let c = points.position + arm;
        let lever = c - surface.position;
        let local = surface.inverse_rotate(lever);
        let gap = face.sign * local[face.axis] - h_surface[face.axis];
        if gap <= margin && local[other].abs() <= h_surface[other] + margin {
            out.push((
                side,
                ContactGeometry::planar(
                    i as u32 * 4 + face.planar_number() + side.feature_offset(),
                    gap,
                    n,
                    (c, c - gap * n),
                    (points.position, surface.position),
                    GapKinematics::planar_point(arm, lever),
                ),
            ));
            if local[other].abs() > h_surface[other] {
                beside |= 1 << listed;
            }
            listed += 1;
        }
    }
    beside
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two equal boxes level side by side, overlapping by 10 µm: every contact is across the
    /// facing sides (normal ±x), none vertical.
    #[test]
    fn level_boxes_side_by_side_touch_across_their_sides() {
        let h = DVec2::new(0.1, 0.05);
        let a = Pose::new(DVec2::new(0.2 - 1e-5, 0.05), 0.0);
        let b = Pose::new(DVec2::new(0.0, 0.05), 0.0);
        let mut found = PairContacts::new();
        box_on_box((a, h), (b, h), 0.005, &mut found);
        // A's two left corners on B's right face, B's two right corners on A's left face.
        assert_eq!(found.len(), 4, "{found:?}");
        for (side, g) in &found {
            assert!((g.gap + 1e-5).abs() < 1e-15, "gap {}", g.gap);
            let expected = match side {
                Side::First => 1.0,
                Side::Second => -1.0,
            };
            assert!((g.normal.x - expected).abs() < 1e-15 && g.normal.y.abs() < 1e-15);
        }
    }

    /// Two equal squares stacked 2 mm apart sideways, overlapping by 1 µm: the overlap's ends
    /// are the upper square's left corner over the lower's face and the lower square's right
    /// corner under the upper's face, and those two are the contacts. The corners 2 mm beyond
    /// them (beside the other's face) would make a second support on each end of the line.
    #[test]
    fn stacked_squares_touch_at_the_ends_of_their_overlap_only() {
        let h = DVec2::splat(0.04);
        let a = Pose::new(DVec2::new(0.002, 0.08 - 1e-6), 0.0);
        let b = Pose::new(DVec2::ZERO, 0.0);
        let mut found = PairContacts::new();
        box_on_box((a, h), (b, h), 0.03, &mut found);
        assert_eq!(found.len(), 2, "{found:?}");
        let mut ends: Vec<f64> = found.iter().map(|(_, g)| g.point_b.x).collect();
        ends.sort_by(f64::total_cmp);
        assert!(
            (ends[0] + 0.038).abs() < 1e-12 && (ends[1] - 0.04).abs() < 1e-12,
            "{ends:?}"
        );
        for (_, g) in &found {
            assert!((g.gap + 1e-6).abs() < 1e-12, "gap {}", g.gap);
        }
    }

    /// A square just off the corner of another, 5 mm beside it and 5 mm above: each has its
    /// near corner beside the other's face, 7 mm apart; one of them is the pair's contact.
    #[test]
    fn squares_corner_to_corner_keep_one_of_the_two_corners() {
        let h = DVec2::splat(0.04);
        let a = Pose::new(DVec2::new(0.085, 0.085), 0.0);
        let b = Pose::new(DVec2::ZERO, 0.0);
        let mut found = PairContacts::new();
        box_on_box((a, h), (b, h), 0.03, &mut found);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!((found[0].1.gap - 0.005).abs() < 1e-12, "{found:?}");
    }

    /// A small box resting on a wide one, turned by 0.3 rad: its lowest corner touches the
    /// wide box's top face with the face's normal and the corner's depth as gap.
    #[test]
    fn a_turned_box_rests_on_its_lowest_corner() {
        let (small, wide) = (DVec2::new(0.05, 0.03), DVec2::new(0.5, 0.1));
        let angle: f64 = 0.3;
        let reach = small.x * angle.sin() + small.y * angle.cos();
        let depth = 1e-4;
        let a = Pose::new(DVec2::new(0.02, 0.1 + reach - depth), angle);
        let b = Pose::new(DVec2::ZERO, 0.0);
        let mut found = PairContacts::new();
        box_on_box((a, small), (b, wide), 0.0, &mut found);
        assert_eq!(found.len(), 1, "{found:?}");
        let (side, g) = found[0];
        assert_eq!(side, Side::First);
        assert!((g.gap + depth).abs() < 1e-15, "gap {}", g.gap);
        assert!((g.normal - glam::DVec3::Y).length() < 1e-15);
    }
}
