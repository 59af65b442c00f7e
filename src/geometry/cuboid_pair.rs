//! Two cuboids in space: the separating axis test over faces and edges; across a pair of faces, the corners of each against the other's face and the crossings of their edges; edge across edge, the edges' crossing.
//!
//! Each corner against the other cuboid's *nearest* face, both ways, is what a point against
//! a cuboid takes (`cuboid_cuboid.rs`), and it is wrong for two cuboids: two boxes side by
//! side at one height have the corners of their touching edges level with the other's top and
//! bottom faces, so those corners found the top and the bottom face nearest, and the pair got
//! two vertical contacts with opposite normals instead of a horizontal one. Two contacts of
//! opposite normals on one line can squeeze with any force without moving anything, and with
//! friction that force holds any tangential motion: the velocity problem has no bounded answer.
//! In a pile of 100 boxes every small island that failed all of the dense solvers (Newton,
//! block Gauss–Seidel, then Lemke, which ended on a secondary ray) held such a pair
//! (docs/benchmarks.md, thirty-seventh sitting).
//!
//! So the pair is treated as one contact between two faces, or between two edges, as
//! collision libraries do:
//!
//! 1. **The separating axis.** Along a unit axis L the two boxes (centres x_A, x_B, unit axes
//!    a_k, b_k, half extents h_A, h_B) are apart by
//!
//!    ```text
//!        s(L) = |(x_A − x_B)·L| − Σ_k h_A,k |a_k·L| − Σ_k h_B,k |b_k·L|
//!    ```
//!
//!    (negative: they overlap by −s along L). The fifteen axes (the six face normals and the
//!    nine a_i × b_j of edge directions that are not parallel) decide: any s above the margin
//!    keeps the boxes that far apart, and no contact is listed. Of the face normals the
//!    largest s is the axis of least penetration; its box owns the *reference* face, the face
//!    that looks towards the other box, and the other box's face most opposed to it is the
//!    *incident* face. An edge axis is taken instead only where it separates the boxes more,
//!    by 5 % of the face's penetration (collision libraries' preference for faces: an edge
//!    lying on a face ties the two, and then the face's corners hold it).
//! 2. **The corners** (a face axis). The other box's corners against the reference face, and
//!    the reference box's corners against the incident face, each a point on a flat surface
//!    of the other body as a corner on a plane is (gap d = n·(p − c) − h along the face's
//!    outward normal n), kept where d ≤ margin and the corner lies over the face or beside it
//!    by at most the margin (as a point against a cuboid's face is kept: a corner about to
//!    slide over the face is held before it does). Every contact of the pair pushes the boxes
//!    apart across the same pair of faces, so no two of them can squeeze.
//! 3. **The crossing** (an edge axis a_i × b_j). The edge of A along a_i nearest B and the
//!    edge of B along b_j nearest A: one contact between the closest points of their lines,
//!    d = n·(p_A − p_B) with n = ±(a_i × b_j)/|a_i × b_j| from B towards A, which is s(L) of
//!    that axis. Its gap has exact derivatives though neither point is material
//!    ([`GapKinematics::EdgeToEdge`], `contact/mod.rs`). Where the closest points fall beyond
//!    either edge's end the edges pass beside each other, and the face axis's corners are
//!    taken.
//!
//! 4. **The faces' crossings** (a face axis, the faces within 0.1 rad of parallel, and
//!    fewer than three corners found in 2: three hold a face). Each edge of the incident
//!    face against each edge of the reference face, at an angle whose sine is at least
//!    0.05: a contact where their lines' closest points lie within both edges, edge to edge
//!    as in 3. (Taken whatever the corners, they put the piles of 20 to 100 cubes under NSGA
//!    on other trajectories with 162 unconverged steps against 102, in one run each.)
//!
//! The corners of both faces cover the region two parallel faces share when it is bounded by
//! corners (a box on a larger one, two boxes side by side, staggered). Where the edges of two
//! nearly parallel faces cross (two equal cubes stacked, the upper turned: the shared region
//! is an octagon), its corners are the crossings, so 4 takes them. Before it, only the corners
//! beside the faces within the margin stood in for them, and with a margin smaller than
//! their overhang such a pair had no contact at all: the upper cube fell through the lower
//! (`tests/stacked_boxes.rs`).

use glam::{DQuat, DVec3};

use super::{ContactGeometry, GapKinematics, PairContacts, Side};

/// A cuboid in world axes.
#[derive(Clone, Copy)]
struct Cuboid {
    centre: DVec3,
    orientation: DQuat,
    /// Unit axes (the columns of its rotation).
    axes: [DVec3; 3],
    half: DVec3,
}

impl Cuboid {
    fn new(centre: DVec3, orientation: DQuat, half: DVec3) -> Self {
        Self {
            centre,
            orientation,
            axes: [
                orientation * DVec3::X,
                orientation * DVec3::Y,
                orientation * DVec3::Z,
            ],
            half,
        }
    }

    /// Half its extent along the unit vector `l`.
    fn reach(&self, l: DVec3) -> f64 {
        (0..3)
            .map(|k| self.half[k] * self.axes[k].dot(l).abs())
            .sum()
    }
}

/// A face of a box: the body axis it is normal to and the sign of its outward normal.
#[derive(Clone, Copy)]
pub(super) struct Face {
    pub(super) axis: usize,
    pub(super) sign: f64,
}

impl Face {
    /// The face number, +x, −x, +y, −y, +z, −z (as a point against a cuboid numbers them).
    fn number(self) -> u32 {
        2 * self.axis as u32 + u32::from(self.sign < 0.0)
    }

    /// The face number of a box in the plane, +y, −y, +x, −x (as a point against a box
    /// numbers them).
    pub(super) fn planar_number(self) -> u32 {
        match (self.axis, self.sign > 0.0) {
            (1, true) => 0,
            (1, false) => 1,
            (_, true) => 2,
            (_, false) => 3,
        }
    }
}

/// A new face axis replaces the best so far only if it separates the boxes more by this
/// fraction of the smaller box's least half extent: two axes that separate equally (two
/// boxes side by side, aligned) then keep the one found first in every step, and the
/// contacts keep their numbers for the warm start.
pub(super) const TIE: f64 = 1e-9;

/// The face axis of least penetration: of `separations` (separation, the reference box is A,
/// axis), B's axes listed first, the largest, a later one replacing the best only if larger
/// by `tie`; None when it leaves the boxes more than `margin` apart (or a pose is NaN). Two
/// boxes in the plane take it too (`box_pair.rs`).
pub(super) fn reference_axis(
    separations: impl IntoIterator<Item = (f64, bool, usize)>,
    tie: f64,
    margin: f64,
) -> Option<(bool, usize)> {
    let (separation, reference_is_a, axis) = best_face_axis(separations, tie)?;
    (separation <= margin).then_some((reference_is_a, axis))
}

/// [`reference_axis`] with its separation, whatever it is (None only for NaN poses).
fn best_face_axis(
    separations: impl IntoIterator<Item = (f64, bool, usize)>,
    tie: f64,
) -> Option<(f64, bool, usize)> {
    let mut best: Option<(f64, bool, usize)> = None;
    for (s, reference_is_a, axis) in separations {
        if best.is_none_or(|(t, _, _)| s > t + tie) {
            best = Some((s, reference_is_a, axis));
        }
    }
    best
}

/// An edge axis is taken over the best face axis only if it separates the boxes more by this
/// fraction of the face axis's penetration (plus the tie), as collision libraries prefer
/// faces: where an edge lies on a face the two axes separate equally, and the face's corners
/// are the contacts that hold it.
const EDGE_PREFERENCE: f64 = 0.05;

/// Edge pairs whose directions' cross product is shorter than this are parallel: no axis.
const PARALLEL: f64 = 1e-6;

/// Feature numbers of the crossing of two edges start here (corners take 6·corner + face,
/// below 48): `EDGE_FEATURES` + 12·(A's edge) + (B's edge), an edge numbered 4·axis + the
/// signs of its other two coordinates.
const EDGE_FEATURES: u32 = 100;

/// The best edge axis L = a_i × b_j / |a_i × b_j| of cuboids A and B: its separation s(L),
/// i, j, and L turned from B towards A.
#[derive(Clone, Copy, Debug)]
struct EdgeAxis {
    separation: f64,
    a_axis: usize,
    b_axis: usize,
    normal: DVec3,
}

/// Of the nine edge axes of A and B (pairs of edge directions that are not parallel), the
/// one that separates them most, a later one replacing the best only if larger by `tie`;
/// None when every pair is parallel (or a pose is NaN).
fn best_edge_axis(a: &Cuboid, b: &Cuboid, tie: f64) -> Option<EdgeAxis> {
    let d = a.centre - b.centre;
    let mut best: Option<EdgeAxis> = None;
    for (i, &ai) in a.axes.iter().enumerate() {
        for (j, &bj) in b.axes.iter().enumerate() {
            let cross = ai.cross(bj);
            let length = cross.length();
            if length < PARALLEL {
                continue;
            }
            let l = cross / length;
            let along = d.dot(l);
            let separation = along.abs() - a.reach(l) - b.reach(l);
            if best.is_none_or(|e| separation > e.separation + tie) {
                best = Some(EdgeAxis {
                    separation,
                    a_axis: i,
                    b_axis: j,
                    normal: if along >= 0.0 { l } else { -l },
                });
            }
        }
    }
    best
}

/// The edge of `cuboid` along its axis `axis` that reaches furthest along `towards`: a point
/// on it (the edge's midpoint), its number (4·axis + the signs of the other two
/// coordinates, bit set for +).
fn support_edge(cuboid: &Cuboid, axis: usize, towards: DVec3) -> (DVec3, u32) {
    let mut point = cuboid.centre;
    let mut number = 4 * axis as u32;
    for (bit, k) in (0..3).filter(|&k| k != axis).enumerate() {
        let outward = cuboid.axes[k].dot(towards) >= 0.0;
        let sign = if outward { 1.0 } else { -1.0 };
        point += sign * cuboid.half[k] * cuboid.axes[k];
        number += u32::from(outward) << bit;
    }
    (point, number)
}

/// The contact of the two edges that the edge axis `crossing` names, the one of A nearest B
/// and the one of B nearest A, when their lines' closest points lie on both edges (else
/// None: the edges pass beside each other, and the face axis's corners hold the pair).
fn edges_crossing(a: &Cuboid, b: &Cuboid, crossing: EdgeAxis) -> Option<ContactGeometry> {
    let n = crossing.normal;
    let a_edge = support_edge(a, crossing.a_axis, -n);
    let b_edge = support_edge(b, crossing.b_axis, n);
    edge_pair_contact(
        a,
        b,
        (a_edge, crossing.a_axis),
        (b_edge, crossing.b_axis),
        n,
        1.0,
    )
}

/// The contact of an edge of A (a point on it, its number; along A's axis `a_axis`) and an
/// edge of B, with normal `n` = ±(e_A × e_B)/|e_A × e_B| from B towards A, when their
/// lines' closest points lie within both edges, each within `inside` of its half length
/// (else None: the edges pass beside each other).
fn edge_pair_contact(
    a: &Cuboid,
    b: &Cuboid,
    ((a_point, a_edge), a_axis): ((DVec3, u32), usize),
    ((b_point, b_edge), b_axis): ((DVec3, u32), usize),
    n: DVec3,
    inside: f64,
) -> Option<ContactGeometry> {
    let edge_b = b.axes[b_axis];
    let mut edge_a = a.axes[a_axis];
    if edge_a.cross(edge_b).dot(n) < 0.0 {
        edge_a = -edge_a;
    }
    // The closest points p_A = a_point + s e_A, p_B = b_point + t e_B of the two lines:
    // ∂/∂s and ∂/∂t of |w + s e_A − t e_B|² vanish, w = a_point − b_point.
    let w = a_point - b_point;
    let cosine = edge_a.dot(edge_b);
    let (along_a, along_b) = (edge_a.dot(w), edge_b.dot(w));
    let sine_squared = 1.0 - cosine * cosine;
    let s = (cosine * along_b - along_a) / sine_squared;
    let t = (along_b - cosine * along_a) / sine_squared;
    // (NaN, for a NaN pose, fails the tests and is no contact.)
    if !(s.abs() <= inside * a.half[a_axis] && t.abs() <= inside * b.half[b_axis]) {
        return None;
    }
    let (p_a, p_b) = (a_point + s * edge_a, b_point + t * edge_b);
    let (arm_a, arm_b) = (p_a - a.centre, p_b - b.centre);
    Some(ContactGeometry {
        feature: EDGE_FEATURES + 12 * a_edge + b_edge,
        gap: n.dot(p_a - p_b),
        normal: n,
        arm_a,
        arm_b,
        point_b: p_b,
        kinematics: GapKinematics::EdgeToEdge {
            arm_a,
            arm_b,
            edge_a,
            edge_b,
        },
    })
}

/// The contacts of cuboids A (centre, orientation, half extents) and B within `margin`, each
/// appended to `out` with the side whose corner it is (the point body A of the contact).
/// Feature = 6·corner + face (+ [`super::SECOND_SIDE_FEATURES`] on the second side), the
/// corner numbered as [`super::cuboid_corners`] lists them, the face on the other box; or,
/// edge across edge, the one contact 100 + 12·(A's edge) + (B's edge), of the
/// first side.
pub fn cuboid_on_cuboid(
    (a_centre, a_orientation, a_half): (DVec3, DQuat, DVec3),
    (b_centre, b_orientation, b_half): (DVec3, DQuat, DVec3),
    margin: f64,
    out: &mut PairContacts,
) {
    let a = Cuboid::new(a_centre, a_orientation, a_half);
    let b = Cuboid::new(b_centre, b_orientation, b_half);
    let d = a.centre - b.centre;
    let scale = a.half.min_element().min(b.half.min_element());
    // (separation, the reference box is A, axis)
    let separations = [(false, &b), (true, &a)]
        .into_iter()
        .flat_map(|(owner_is_a, owner)| {
            owner.axes.into_iter().enumerate().map(move |(k, l)| {
                let s = d.dot(l).abs() - a.reach(l) - b.reach(l);
                (s, owner_is_a, k)
            })
        });
    let Some((face_separation, reference_is_a, axis)) = best_face_axis(separations, TIE * scale)
    else {
        return;
    };
    // Any axis that separates the boxes by more than the margin keeps them that far apart.
    let crossing = best_edge_axis(&a, &b, TIE * scale);
    if face_separation > margin || crossing.is_some_and(|c| c.separation > margin) {
        return;
    }
    let preferred = face_separation + EDGE_PREFERENCE * (-face_separation).max(0.0) + TIE * scale;
    if let Some(crossing) = crossing.filter(|c| c.separation > preferred)
        && let Some(contact) = edges_crossing(&a, &b, crossing)
    {
        out.push((Side::First, contact));
        return;
    }
    let (reference, incident, incident_side) = if reference_is_a {
        (a, b, Side::Second)
    } else {
        (b, a, Side::First)
    };
    let towards = incident.centre - reference.centre;
    let reference_face = Face {
        axis,
        sign: if towards.dot(reference.axes[axis]) >= 0.0 {
            1.0
        } else {
            -1.0
        },
    };
    let n = reference_face.sign * reference.axes[axis];
    // The incident face: the other box's face whose outward normal is most opposed to n.
    let incident_axis = (0..3)
        .max_by(|&i, &j| {
            let (x, y) = (incident.axes[i].dot(n).abs(), incident.axes[j].dot(n).abs());
            x.total_cmp(&y)
        })
        .expect("three axes");
    let incident_face = Face {
        axis: incident_axis,
        sign: if incident.axes[incident_axis].dot(n) <= 0.0 {
            1.0
        } else {
            -1.0
        },
    };
    let reference_side = match incident_side {
        Side::First => Side::Second,
        Side::Second => Side::First,
    };
    // A's corners first, as the directed tests listed them.
    let mut faces = [
        (incident_side, &incident, &reference, reference_face),
        (reference_side, &reference, &incident, incident_face),
    ];
    if incident_side == Side::Second {
        faces.swap(0, 1);
    }
    let before = out.len();
    for (side, points, surface, face) in faces {
        corners_on_face(points, surface, face, margin, side, out);
    }
    // Three corners hold a face; fewer leave the region the faces share to its other
    // corners, the crossings of their edges.
    if out.len() - before >= 3 {
        return;
    }
    let (a_face, b_face) = if reference_is_a {
        (reference_face, incident_face)
    } else {
        (incident_face, reference_face)
    };
    // From B towards A across the two faces.
    let towards_a = if reference_is_a { -n } else { n };
    faces_edges_crossing(&a, a_face, &b, b_face, towards_a, margin, out);
}

/// Two edges of facing faces are taken as a contact only where the sine of the angle between
/// them is at least this: the crossing of two nearly parallel edges moves along them as
/// 1/sine with the boxes' turn, and its normal's rate grows alike. Below it the crossings
/// of the other edges (at an angle near 90°), and the corners, hold the faces.
const FACE_CROSSING_SINE: f64 = 0.05;

/// Two edges cross as faces touch only where their normal ±(e_A × e_B)/|e_A × e_B| lies
/// within 0.1 rad of the faces' normal (its cosine at least this): the faces then nearly
/// parallel. A face tilted further touches by its corners, and the closest points of its
/// edges' lines and the other face's are no contact (a tilted box's side edge and the edge
/// of the face below it, 17 cm apart along a horizontal normal).
const FACE_CROSSING_ALIGNED: f64 = 0.995;

/// A crossing this close to an edge's end (a fraction of its half length) is the corner
/// there, already a contact or not over the face: it is left out.
const FACE_CROSSING_INSIDE: f64 = 1.0 - 1e-9;

/// The crossings of the edges of A's face `a_face` with the edges of B's face `b_face` (the
/// two faces across which the boxes touch), within `margin`, as edge-to-edge contacts of
/// the first side with normals near `towards_a`. Where two faces overlap without either's
/// corners over the other (two equal cubes stacked, the upper turned by 0.3 rad: the shared
/// region is an octagon whose corners are these crossings), the corners alone found no
/// contact, and with a margin smaller than the corners' overhang the boxes passed through
/// each other.
fn faces_edges_crossing(
    a: &Cuboid,
    a_face: Face,
    b: &Cuboid,
    b_face: Face,
    towards_a: DVec3,
    margin: f64,
    out: &mut PairContacts,
) {
    for (a_edge, a_axis) in face_edges(a, a_face) {
        for (b_edge, b_axis) in face_edges(b, b_face) {
            let cross = a.axes[a_axis].cross(b.axes[b_axis]);
            let sine = cross.length();
            if sine < FACE_CROSSING_SINE {
                continue;
            }
            let l = cross / sine;
            let n = if l.dot(towards_a) >= 0.0 { l } else { -l };
            if n.dot(towards_a) < FACE_CROSSING_ALIGNED {
                continue;
            }
            if let Some(contact) = edge_pair_contact(
                a,
                b,
                (a_edge, a_axis),
                (b_edge, b_axis),
                n,
                FACE_CROSSING_INSIDE,
            ) && contact.gap <= margin
            {
                out.push((Side::First, contact));
            }
        }
    }
}

/// The four edges of `face` of `cuboid`: for each, a point on it (its midpoint) and its
/// number as [`support_edge`] numbers edges, and the axis it runs along.
fn face_edges(cuboid: &Cuboid, face: Face) -> [((DVec3, u32), usize); 4] {
    let mut edges = [((cuboid.centre, 0), 0); 4];
    let across = face.sign * cuboid.half[face.axis] * cuboid.axes[face.axis];
    let mut slot = 0;
    for along in (0..3).filter(|&k| k != face.axis) {
        let other = 3 - face.axis - along;
        for sign in [-1.0, 1.0] {
            let point = cuboid.centre + across + sign * cuboid.half[other] * cuboid.axes[other];
            // 4·axis + a bit per other coordinate (in increasing order), set for +.
            let mut number = 4 * along as u32;
            for (bit, k) in (0..3).filter(|&k| k != along).enumerate() {
                let plus = if k == face.axis {
                    face.sign > 0.0
                } else {
                    sign > 0.0
                };
                number += u32::from(plus) << bit;
            }
            edges[slot] = ((point, number), along);
            slot += 1;
        }
    }
    edges
}

/// The corners of `points` that lie over `face` of `surface` within `margin` of it, as
/// contacts of side `side` (the corners' box is the contact's A).
fn corners_on_face(
    points: &Cuboid,
    surface: &Cuboid,
    face: Face,
    margin: f64,
    side: Side,
    out: &mut PairContacts,
) {
    let n = face.sign * surface.axes[face.axis];
    let to_local = surface.orientation.inverse();
    for (i, r) in super::cuboid_corners(points.half).into_iter().enumerate() {
        let arm = points.orientation * r;
        let p = points.centre + arm;
        let lever = p - surface.centre;
        let local = to_local * lever;
        let gap = face.sign * local[face.axis] - surface.half[face.axis];
        let over = (0..3)
            .filter(|&k| k != face.axis)
            .all(|k| local[k].abs() <= surface.half[k] + margin);
        if gap <= margin && over {
            let point_b = p - gap * n;
            out.push((
                side,
                ContactGeometry {
                    feature: i as u32 * 6 + face.number() + side.feature_offset(),
                    gap,
                    normal: n,
                    arm_a: arm,
                    arm_b: point_b - surface.centre,
                    point_b,
                    kinematics: GapKinematics::PointOnSurface { arm, lever },
                },
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contacts(a: (DVec3, DQuat, DVec3), b: (DVec3, DQuat, DVec3), margin: f64) -> PairContacts {
        let mut out = PairContacts::new();
        cuboid_on_cuboid(a, b, margin, &mut out);
        out
    }

    const CUBE: DVec3 = DVec3::splat(0.04);

    /// Two equal cubes side by side at one height, overlapping by 10 µm along x and staggered
    /// by 1 cm along y: every contact is across the facing side faces (normal ±x, gap −10 µm),
    /// none vertical. (The corners of the shared edges are level with the top and bottom faces
    /// and 10 µm inside the side face, so each corner's nearest face was the top or bottom.)
    #[test]
    fn side_by_side_cubes_touch_across_their_side_faces() {
        let a = (DVec3::new(0.08 - 1e-5, 0.01, 0.04), DQuat::IDENTITY, CUBE);
        let b = (DVec3::new(0.0, 0.0, 0.04), DQuat::IDENTITY, CUBE);
        let found = contacts(a, b, 0.005);
        // A's two corners over B's face (y = 0.01 − 0.04 = −0.03 ∈ [−0.04, 0.04]; y = 0.05
        // is beside it by more than the margin), at both heights; B's likewise over A's face.
        assert_eq!(found.len(), 4, "{found:?}");
        for (side, g) in &found {
            assert!((g.gap + 1e-5).abs() < 1e-15, "gap {}", g.gap);
            // The normal points from the face's box to the corner's box.
            let expected = match side {
                Side::First => DVec3::X,
                Side::Second => -DVec3::X,
            };
            assert!((g.normal - expected).length() < 1e-15, "{:?}", g.normal);
        }
    }

    /// A small cube resting on a large one, turned by 0.3 rad about z: the reference face is
    /// the large cube's top (the axis of least penetration), the small cube's four bottom
    /// corners rest on it with gap 0, and the large cube's corners are not over the small
    /// cube's bottom face.
    #[test]
    fn a_cube_rests_on_a_larger_one_on_its_four_bottom_corners() {
        let small = (
            DVec3::new(0.01, -0.02, 0.2 + 0.04),
            DQuat::from_rotation_z(0.3),
            CUBE,
        );
        let large = (DVec3::ZERO, DQuat::IDENTITY, DVec3::splat(0.2));
        let found = contacts(small, large, 0.01);
        assert_eq!(found.len(), 4, "{found:?}");
        for (side, g) in &found {
            assert_eq!(*side, Side::First);
            assert!(g.gap.abs() < 1e-15, "gap {}", g.gap);
            assert!((g.normal - DVec3::Z).length() < 1e-15);
            assert!((g.point_b.z - 0.2).abs() < 1e-15);
        }
    }

    /// Two cubes edge across edge, 2 mm apart: A turned 45° about x (its top an edge along x
    /// at z = 0.04√2), B turned 45° about y above it (its bottom an edge along y). The face
    /// axes all overlap (each is tilted 45° from the line between the centres), the edge axis
    /// x × y = z separates the boxes by 2 mm: one contact, the crossing of the two edges, at
    /// the origin's vertical, gap 2 mm, normal −z (from B to A).
    #[test]
    fn crossed_edges_touch_at_their_crossing() {
        let turn = std::f64::consts::FRAC_PI_4;
        let ridge = 0.04 * 2f64.sqrt();
        let gap = 2e-3;
        let a = (DVec3::ZERO, DQuat::from_rotation_x(turn), CUBE);
        let b = (
            DVec3::new(0.0, 0.0, 2.0 * ridge + gap),
            DQuat::from_rotation_y(turn),
            CUBE,
        );
        let found = contacts(a, b, 0.01);
        assert_eq!(found.len(), 1, "{found:?}");
        let (side, g) = found[0];
        assert_eq!(side, Side::First);
        assert!((g.gap - gap).abs() < 1e-15, "gap {}", g.gap);
        assert!((g.normal + DVec3::Z).length() < 1e-15, "{:?}", g.normal);
        assert!((g.point_b - DVec3::new(0.0, 0.0, ridge + gap)).length() < 1e-15);
        assert!(matches!(g.kinematics, GapKinematics::EdgeToEdge { .. }));
        // Swapped, the same contact seen from the other box: normal +z.
        let swapped = contacts(b, a, 0.01);
        assert_eq!(swapped.len(), 1, "{swapped:?}");
        assert!((swapped[0].1.gap - gap).abs() < 1e-15);
        assert!((swapped[0].1.normal - DVec3::Z).length() < 1e-15);
    }

    /// A cube turned 45° about x rests on an edge on a larger box's top face: the edge axes
    /// x × (B's axes) separate the boxes exactly as the face axis z does, and the face wins the
    /// tie, so the contacts are the edge's two end corners on the face (a single crossing
    /// point could not hold the cube upright about the edge).
    #[test]
    fn an_edge_lying_on_a_face_rests_on_its_two_corners() {
        let ridge = 0.04 * 2f64.sqrt();
        let a = (
            DVec3::new(0.01, 0.02, 0.2 + ridge),
            DQuat::from_rotation_x(std::f64::consts::FRAC_PI_4),
            CUBE,
        );
        let b = (DVec3::ZERO, DQuat::IDENTITY, DVec3::splat(0.2));
        let found = contacts(a, b, 0.005);
        assert_eq!(found.len(), 2, "{found:?}");
        for (side, g) in &found {
            assert_eq!(*side, Side::First);
            assert!(g.gap.abs() < 1e-15, "gap {}", g.gap);
            assert!((g.normal - DVec3::Z).length() < 1e-15);
            assert!(matches!(g.kinematics, GapKinematics::PointOnSurface { .. }));
        }
    }

    /// Two equal cubes (half edge a = 4 cm), the upper resting on the lower and turned by
    /// θ = 0.3 rad about z: each one's corners overhang the other's face by 1 cm, beyond the
    /// 1 mm margin, and the faces share an octagon whose corners are the crossings of their
    /// edges. On the lower face's edge x = a the upper face's edges x cos θ + y sin θ = a and
    /// −x sin θ + y cos θ = −a cross it at y = a tan(θ/2) and y = −a (1 − sin θ)/cos θ; the
    /// other three edges have the same crossings turned by 90°. Each is an edge-to-edge
    /// contact of gap 0 and normal +z (from the lower cube to the upper).
    #[test]
    fn equal_cubes_turned_past_their_corners_touch_at_their_edges_crossings() {
        let a = 0.04;
        let theta: f64 = 0.3;
        let upper = (
            DVec3::new(0.0, 0.0, 2.0 * a),
            DQuat::from_rotation_z(theta),
            CUBE,
        );
        let lower = (DVec3::ZERO, DQuat::IDENTITY, CUBE);
        let on_edge = [
            a * (theta / 2.0).tan(),
            -a * (1.0 - theta.sin()) / theta.cos(),
        ];
        let expected: Vec<DVec3> = (0..4)
            .flat_map(|quarter| {
                let turn = DQuat::from_rotation_z(quarter as f64 * std::f64::consts::FRAC_PI_2);
                on_edge.map(move |y| turn * DVec3::new(a, y, a))
            })
            .collect();
        for (first, second) in [(upper, lower), (lower, upper)] {
            let found = contacts(first, second, 1e-3);
            assert_eq!(found.len(), 8, "{found:?}");
            let mut features: Vec<u32> = found.iter().map(|(_, g)| g.feature).collect();
            features.sort_unstable();
            features.dedup();
            assert_eq!(features.len(), 8, "each crossing its own feature");
            for (side, g) in &found {
                assert_eq!(*side, Side::First);
                assert!(matches!(g.kinematics, GapKinematics::EdgeToEdge { .. }));
                assert!(g.gap.abs() < 1e-15, "gap {}", g.gap);
                // From the second box (B) towards the first (A).
                let up = if first.0.z > second.0.z {
                    DVec3::Z
                } else {
                    -DVec3::Z
                };
                assert!((g.normal - up).length() < 1e-15, "{:?}", g.normal);
                assert!(
                    expected.iter().any(|p| (*p - g.point_b).length() < 1e-15),
                    "crossing at {:?}, expected one of {expected:?}",
                    g.point_b
                );
            }
        }
    }

    /// Apart by more than the margin along a face axis (here 0.106 m along x): no contact.
    #[test]
    fn boxes_apart_beyond_the_margin_have_no_contact() {
        let a = (DVec3::new(0.2, 0.0, 0.0), DQuat::from_rotation_y(0.5), CUBE);
        let b = (DVec3::ZERO, DQuat::IDENTITY, CUBE);
        assert!(contacts(a, b, 0.01).is_empty());
    }

    /// A box whose corner dips into a larger box's top face: the gap is the corner's depth
    /// below the face, its normal the face's.
    #[test]
    fn a_tilted_box_s_lowest_corner_measures_its_penetration() {
        // Turned about x and y so that one corner is lowest: its depth below the box's
        // centre is the reach along z.
        let orientation = DQuat::from_rotation_x(0.4) * DQuat::from_rotation_y(0.3);
        let small = Cuboid::new(DVec3::ZERO, orientation, CUBE);
        let reach = small.reach(DVec3::Z);
        let depth = 1e-4;
        let a = (DVec3::new(0.0, 0.0, 0.2 + reach - depth), orientation, CUBE);
        let b = (DVec3::ZERO, DQuat::IDENTITY, DVec3::splat(0.2));
        let found = contacts(a, b, 0.0);
        assert_eq!(found.len(), 1, "{found:?}");
        let (_, g) = found[0];
        assert!((g.gap + depth).abs() < 1e-15, "gap {}", g.gap);
        assert!((g.normal - DVec3::Z).length() < 1e-15);
    }
}
