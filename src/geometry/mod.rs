//! Shapes and contact detection: for each pair of shapes, the signed gaps, normals and points.
//!
//! Convention for every contact: body A offers a *point feature* (a box corner, a foot, a disk
//! centre), body B offers a *surface* (a half-plane, a box face, a disk rim). The normal n is
//! a unit vector from B towards A and the gap d is positive when the two are apart. The
//! [`GapKinematics`] tag records how d depends on the poses so that the contact module can
//! write the Jacobian rows and the velocity-product term J̇v exactly.
//!
//! Everything is returned in world axes in 3-D; a planar scene lives in the plane z = 0.
//!
//! Pairs, one file each: [`box_plane`] (corners or feet on a half-plane), [`disk_plane`],
//! [`disk_disk`], [`box_box`] (a foot against a box's nearest face, a disk against its nearest face or corner), [`box_pair`]
//! (two boxes: the corners of each against the one pair of faces the separating axis test
//! picks) in the plane; [`sphere_plane`], [`sphere_sphere`], [`cuboid_plane`] (corners or
//! feet on a plane), [`cuboid_cuboid`] (feet against a cuboid's nearest faces),
//! [`cuboid_pair`] (two cuboids: as two boxes in the plane, or edge across edge) and
//! [`sphere_cuboid`] (a sphere against the cuboid's face, edge or corner nearest its centre)
//! in space. [`detect_pair`] is the one dispatcher: adding a
//! pair is one file and one arm there.

pub mod beam_pairs;
pub mod box_box;
pub mod box_pair;
pub mod box_plane;
pub mod broad_phase;
pub mod cuboid_cuboid;
pub mod cuboid_pair;
pub mod cuboid_plane;
pub mod disk_disk;
pub mod disk_plane;
pub mod kept_pairs;
pub mod spatial_beam_pairs;
pub mod sphere_cuboid;
pub mod sphere_plane;
pub mod sphere_sphere;

use glam::{DQuat, DVec2, DVec3};
use smallvec::SmallVec;

use crate::model::Pose;

/// A collision shape in its body's frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// The solid half-plane y ≤ 0 of the body frame (a floor; rotate the body for an incline).
    HalfPlane,
    /// A rectangle centred on the body origin, half extents in m.
    Box {
        /// Half width (x) and half height (y), m.
        half_extents: DVec2,
    },
    /// A disk centred on the body origin.
    Disk {
        /// Radius, m.
        radius: f64,
    },
    /// In space: the solid half-space z ≤ 0 of the body frame.
    Plane,
    /// In space: a sphere centred on the body origin.
    Sphere {
        /// Radius, m.
        radius: f64,
    },
    /// In space: a box centred on the body origin, its edges along the body axes.
    Cuboid {
        /// Half extents along the body's x, y and z, m.
        half_extents: DVec3,
    },
    /// A flexible beam's centreline (its elements' Hermite curves, see
    /// [`crate::model::PlanarBeam`]) and its surface `half_thickness` from it.
    Beam {
        /// Half the section's height, m.
        half_thickness: f64,
        /// Undeformed length, m.
        length: f64,
        /// Number of nodes.
        nodes: usize,
    },
    /// A flexible beam in space ([`crate::model::SpatialBeam`]): its centreline and a tube of
    /// radius `half_thickness` about it.
    SpatialBeam {
        /// The tube's radius, m.
        half_thickness: f64,
        /// Undeformed length, m.
        length: f64,
        /// Number of nodes.
        nodes: usize,
    },
}

impl Shape {
    /// The smallest extent of the shape, m (box: the shorter side; disk and sphere: the
    /// diameter; ∞ for a half-plane or plane): the scale an overlap is judged against.
    pub fn smallest_extent(&self) -> f64 {
        match self {
            Shape::HalfPlane | Shape::Plane => f64::INFINITY,
            Shape::Box { half_extents } => 2.0 * half_extents.x.min(half_extents.y),
            Shape::Cuboid { half_extents } => 2.0 * half_extents.min_element(),
            Shape::Disk { radius } | Shape::Sphere { radius } => 2.0 * radius,
            Shape::Beam { half_thickness, .. } | Shape::SpatialBeam { half_thickness, .. } => {
                2.0 * half_thickness
            }
        }
    }

    /// Point features the shape offers to another body's surface (box corners, or the body's
    /// feet when it has some; one for a disk or sphere centre): an upper bound per pair.
    pub fn point_feature_count(&self, feet: usize) -> usize {
        if feet > 0 {
            return feet;
        }
        match self {
            Shape::Box { .. } => 4,
            Shape::Cuboid { .. } => 8,
            Shape::Disk { .. } | Shape::Sphere { .. } => 1,
            Shape::Beam { nodes, .. } | Shape::SpatialBeam { nodes, .. } => *nodes,
            Shape::HalfPlane | Shape::Plane => 0,
        }
    }

    /// Radius of a circle about the body origin that contains the shape (∞ for a half-plane).
    pub fn bounding_radius(&self) -> f64 {
        match self {
            Shape::HalfPlane | Shape::Plane => f64::INFINITY,
            Shape::Box { half_extents } => half_extents.length(),
            Shape::Cuboid { half_extents } => half_extents.length(),
            Shape::Disk { radius } | Shape::Sphere { radius } => *radius,
            // Every point of the centreline is within its arc length of the tip (the
            // reference point); strains are small, so 1.1 L bounds it.
            Shape::Beam {
                half_thickness,
                length,
                ..
            }
            | Shape::SpatialBeam {
                half_thickness,
                length,
                ..
            } => 1.1 * length + half_thickness,
        }
    }

    /// Name used in scene files.
    pub fn type_name(&self) -> &'static str {
        match self {
            Shape::HalfPlane => "half_plane",
            Shape::Box { .. } => "box",
            Shape::Disk { .. } => "disk",
            Shape::Plane => "plane",
            Shape::Sphere { .. } => "sphere",
            Shape::Cuboid { .. } => "cuboid",
            Shape::Beam { .. } => "beam",
            Shape::SpatialBeam { .. } => "spatial_beam",
        }
    }
}

/// How the gap depends on the two poses (what the contact module needs for J and J̇v), in
/// world axes; a planar pair lives in z = 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GapKinematics {
    /// d = n_B · (p_A − x_B) − const with n_B fixed in B: a material point p_A = x_A + `arm`
    /// of A (a corner, a foot, or a round body's centre with the radius in the constant)
    /// against a flat surface of B. `lever` = p_A − x_B.
    PointOnSurface {
        /// p_A − x_A, m.
        arm: DVec3,
        /// p_A − x_B, m.
        lever: DVec3,
    },
    /// d = |p_A − p_B| − const between material points p_A = x_A + `arm_a` and
    /// p_B = x_B + `arm_b` (two disk or sphere centres: both arms zero); n = (p_A − p_B)/|·|.
    PointToPoint {
        /// p_A − x_A, m.
        arm_a: DVec3,
        /// p_B − x_B, m.
        arm_b: DVec3,
        /// p_A − p_B, m.
        separation: DVec3,
    },
    /// d = |r_⊥| − const, the distance of a material point p_A = x_A + `arm_a` of A (a
    /// sphere's centre, the radius in the constant) from a line of B through p_B = x_B +
    /// `arm_b` along e_B (an edge of a cuboid), fixed in B: r = p_A − p_B with p_B the foot of
    /// the perpendicular (r·e_B = 0), n = r/|r|. p_B is the material point of B at the foot
    /// now; the foot slides along the line, which leaves the gap rate the normal relative
    /// velocity of p_A and p_B, since (r·e_B) = 0.
    PointToLine {
        /// p_A − x_A, m.
        arm_a: DVec3,
        /// p_B − x_B, m.
        arm_b: DVec3,
        /// p_A − p_B, m (perpendicular to the line).
        separation: DVec3,
        /// e_B, the line's unit direction (world axes).
        edge_b: DVec3,
    },
    /// d = n · (p_A − p_B) between an edge of A and an edge of B that cross: p_A and p_B the
    /// closest points of the two edge lines, n = (e_A × e_B)/|e_A × e_B| from B towards A
    /// (`edge_a` signed so that it is), e_A fixed in A and e_B in B. Neither closest point
    /// is a material point (each slides along its edge), but the gap rate is still the
    /// normal relative velocity of the material points there, since ṅ·(p_A − p_B) =
    /// d ṅ·n = 0.
    EdgeToEdge {
        /// p_A − x_A, m.
        arm_a: DVec3,
        /// p_B − x_B, m.
        arm_b: DVec3,
        /// e_A, the unit direction of A's edge (world axes).
        edge_a: DVec3,
        /// e_B, the unit direction of B's edge (world axes).
        edge_b: DVec3,
    },
    /// A joint's angle equation about the row's axis n, fixed in B: in the plane
    /// g = θ_A − θ_B − φ(t) (n = z), in space a hinge's turn; ġ = n·(ω_A − ω_B) − φ̇ and
    /// J̇v = (ω_B × n)·(ω_A − ω_B) (zero in the plane).
    Rotation,
    /// g = u·w with u fixed in A and w fixed in B (a hinge's axis equations in space); the
    /// row is along u × w, since ġ = (ω_A − ω_B)·(u × w), and
    /// J̇v = (ω_A − ω_B)·((ω_A × u) × w + u × (ω_B × w)).
    AxisPair {
        /// u (world axes).
        u: DVec3,
        /// w (world axes).
        w: DVec3,
    },
}

/// One candidate contact between a point feature of A and a surface of B, in world axes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactGeometry {
    /// Feature number, unique within the pair and stable from step to step.
    pub feature: u32,
    /// Signed gap, m (positive = apart).
    pub gap: f64,
    /// Unit normal from B towards A.
    pub normal: DVec3,
    /// Point on A's surface closest to B (where friction acts on A) minus x_A, m.
    pub arm_a: DVec3,
    /// Point on B's surface closest to A minus x_B, m.
    pub arm_b: DVec3,
    /// World point on B's surface closest to A, m.
    pub point_b: DVec3,
    /// How the gap depends on the poses.
    pub kinematics: GapKinematics,
}

impl ContactGeometry {
    /// A planar contact (z = 0) from its 2-D parts: the points on A's and B's surfaces and the
    /// centres of A and B give the friction arms.
    pub(crate) fn planar(
        feature: u32,
        gap: f64,
        normal: DVec2,
        (point_a, point_b): (DVec2, DVec2),
        (centre_a, centre_b): (DVec2, DVec2),
        kinematics: GapKinematics,
    ) -> Self {
        Self {
            feature,
            gap,
            normal: normal.extend(0.0),
            arm_a: (point_a - centre_a).extend(0.0),
            arm_b: (point_b - centre_b).extend(0.0),
            point_b: point_b.extend(0.0),
            kinematics,
        }
    }
}

impl GapKinematics {
    /// A planar point-on-surface gap.
    pub(crate) fn planar_point(arm: DVec2, lever: DVec2) -> Self {
        Self::PointOnSurface {
            arm: arm.extend(0.0),
            lever: lever.extend(0.0),
        }
    }

    /// The gap between two centres (disks, spheres).
    pub(crate) fn centres(separation: DVec3) -> Self {
        Self::PointToPoint {
            arm_a: DVec3::ZERO,
            arm_b: DVec3::ZERO,
            separation,
        }
    }
}

/// What one body presents to the detector: shape, pose and optional feet.
#[derive(Debug, Clone)]
pub struct Collider<'a> {
    /// The shape.
    pub shape: &'a Shape,
    /// Its pose in the plane (planar bodies).
    pub pose: Pose,
    /// Its position in space, m.
    pub position: DVec3,
    /// Its orientation in space.
    pub orientation: DQuat,
    /// Body-fixed contact points that replace corners as the body's point features.
    pub feet: &'a [DVec3],
    /// A beam's nodes (x, y, θ) in world axes (empty for rigid bodies): m, m, rad.
    pub nodes: Vec<[f64; 3]>,
    /// A beam in space: its elements' centrelines (empty otherwise).
    pub segments: Vec<crate::model::hermite_spatial::SpatialSegment>,
}

impl Collider<'_> {
    /// Body-fixed point features in the plane: the feet if given, else a box's four corners.
    /// (Kept on the stack for a box's corners or up to eight feet: detection runs every
    /// step and allocates nothing for them.)
    pub(crate) fn point_features(&self) -> SmallVec<[DVec2; 8]> {
        if !self.feet.is_empty() {
            return self.feet.iter().map(|p| p.truncate()).collect();
        }
        match self.shape {
            Shape::Box { half_extents } => SmallVec::from_slice(&box_corners(*half_extents)),
            _ => SmallVec::new(),
        }
    }

    /// Body-fixed point features in space: the feet if given, else a cuboid's eight corners
    /// (x varying fastest, then y, then z).
    /// (On the stack, as [`Self::point_features`].)
    pub(crate) fn point_features3(&self) -> SmallVec<[DVec3; 8]> {
        if !self.feet.is_empty() {
            return SmallVec::from_slice(self.feet);
        }
        match self.shape {
            Shape::Cuboid { half_extents } => SmallVec::from_buf(cuboid_corners(*half_extents)),
            _ => SmallVec::new(),
        }
    }
}

/// A box's corners in its body frame, counter-clockwise from (−w/2, −h/2): the point features
/// the detector tests and the outline the drawing traces.
pub fn box_corners(h: DVec2) -> [DVec2; 4] {
    [
        DVec2::new(-h.x, -h.y),
        DVec2::new(h.x, -h.y),
        DVec2::new(h.x, h.y),
        DVec2::new(-h.x, h.y),
    ]
}

/// A cuboid's eight corners in its body frame, x varying fastest, then y, then z (corner k
/// has +h.x when bit 0 of k is set, +h.y for bit 1, +h.z for bit 2).
pub fn cuboid_corners(h: DVec3) -> [DVec3; 8] {
    std::array::from_fn(|k| {
        let sign = |bit: usize| if k & bit == 0 { -1.0 } else { 1.0 };
        DVec3::new(sign(1) * h.x, sign(2) * h.y, sign(4) * h.z)
    })
}

/// The twelve edges of a cuboid as pairs of [`cuboid_corners`] numbers.
pub const CUBOID_EDGES: [(usize, usize); 12] = [
    (0, 1),
    (2, 3),
    (4, 5),
    (6, 7),
    (0, 2),
    (1, 3),
    (4, 6),
    (5, 7),
    (0, 4),
    (1, 5),
    (2, 6),
    (3, 7),
];

/// Which of the pair plays A (point side) in a contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The first collider of the pair is A.
    First,
    /// The second collider of the pair is A.
    Second,
}

/// Feature numbers of contacts whose point body is the second of the pair start here.
pub const SECOND_SIDE_FEATURES: u32 = 1000;

impl Side {
    /// What a contact of this side adds to its feature number, so that the pair's numbers
    /// stay unique: 0 for the first, [`SECOND_SIDE_FEATURES`] for the second.
    pub(crate) fn feature_offset(self) -> u32 {
        match self {
            Side::First => 0,
            Side::Second => SECOND_SIDE_FEATURES,
        }
    }
}

/// What [`detect_pair`] finds for one pair: a pair of round bodies at most one contact,
/// inline; a box up to its corners (on the heap, in a list detection keeps from step to
/// step).
pub type PairContacts = SmallVec<[(Side, ContactGeometry); 1]>;

/// The contacts of one pair's point features (a box's corners, its feet), on the stack up to
/// eight: detection runs every step and allocates nothing for them.
pub type FoundContacts = SmallVec<[ContactGeometry; 8]>;

/// Every candidate contact of the pair with gap ≤ `margin`, tagged with which side is A,
/// appended to `out` (cleared first).
///
/// Feature numbers are offset by side (second-as-A features start at 1000) so they stay
/// unique within the pair. Each geometry is written once into the caller's buffer: a
/// geometry is about 200 bytes, and returning it by value through the dispatcher and a
/// small vector copied it three times per pair (6 % of a small pile's profile).
pub fn detect_pair(a: &Collider, b: &Collider, margin: f64, out: &mut PairContacts) {
    out.clear();
    let reach = a.shape.bounding_radius() + b.shape.bounding_radius();
    if reach.is_finite() && (a.position - b.position).length_squared().sqrt() > reach + margin {
        return;
    }
    // Two boxes (cuboids) touch across one pair of faces, found once for the pair
    // (`box_pair.rs`, `cuboid_pair.rs`); a box with feet has point features, not corners,
    // and takes the directed tests.
    let faced = a.feet.is_empty() && b.feet.is_empty();
    match (a.shape, b.shape) {
        (Shape::Box { half_extents: ha }, Shape::Box { half_extents: hb }) if faced => {
            box_pair::box_on_box((a.pose, *ha), (b.pose, *hb), margin, out);
        }
        (Shape::Cuboid { half_extents: ha }, Shape::Cuboid { half_extents: hb }) if faced => {
            cuboid_pair::cuboid_on_cuboid(
                (a.position, a.orientation, *ha),
                (b.position, b.orientation, *hb),
                margin,
                out,
            );
        }
        _ => detect_both_ways(a, b, margin, out),
    }
}

/// Contacts of A's point features against B, then of B's against A (feature numbers offset
/// by side).
fn detect_both_ways(a: &Collider, b: &Collider, margin: f64, out: &mut PairContacts) {
    for (side, p, s) in [(Side::First, a, b), (Side::Second, b, a)] {
        let offset = side.feature_offset();
        let from = out.len();
        detect_directed(p, s, margin, side, out);
        for (_, g) in &mut out[from..] {
            g.feature += offset;
        }
    }
}

/// Contacts of A's point features (or A's disk) against B's surface, appended to `out` as
/// `side`'s.
fn detect_directed(a: &Collider, b: &Collider, margin: f64, side: Side, out: &mut PairContacts) {
    let first = side == Side::First;
    if let Some(found) = detect_beam(a, b, margin) {
        return many(out, side, found);
    }
    let points = a.point_features();
    let disk_radius = match a.shape {
        Shape::Disk { radius } => Some(*radius),
        _ => None,
    };
    match b.shape {
        Shape::HalfPlane => {
            if !points.is_empty() {
                many(
                    out,
                    side,
                    box_plane::points_on_plane(a.pose, &points, b.pose, margin),
                )
            } else if let Some(r) = disk_radius {
                one(
                    out,
                    side,
                    disk_plane::disk_on_plane(r, a.pose, b.pose, margin),
                )
            }
        }
        Shape::Box { half_extents } => {
            if !points.is_empty() {
                many(
                    out,
                    side,
                    box_box::points_on_box(a.pose, &points, b.pose, *half_extents, margin),
                )
            } else if let Some(r) = disk_radius {
                one(
                    out,
                    side,
                    box_box::disk_on_box(r, a.pose, b.pose, *half_extents, margin),
                )
            }
        }
        Shape::Plane => match a.shape {
            Shape::Sphere { radius } => one(
                out,
                side,
                sphere_plane::sphere_on_plane(
                    *radius,
                    a.position,
                    b.position,
                    b.orientation,
                    margin,
                ),
            ),
            _ => many(
                out,
                side,
                cuboid_plane::points_on_plane(
                    (a.position, a.orientation),
                    &a.point_features3(),
                    (b.position, b.orientation),
                    margin,
                ),
            ),
        },
        Shape::Sphere { radius: rb } => match a.shape {
            // A sphere pair is symmetric: report it once, from the first collider's side.
            Shape::Sphere { radius: ra } if first => one(
                out,
                side,
                sphere_sphere::sphere_on_sphere(*ra, a.position, *rb, b.position, margin),
            ),
            Shape::Sphere { .. } => {}
            // A cuboid's corners are found by the sphere's test against it (its nearest
            // feature); a cuboid with feet offers those instead.
            Shape::Cuboid { .. } if a.feet.is_empty() => {}
            _ => many(
                out,
                side,
                sphere_cuboid::points_on_sphere(
                    (a.position, a.orientation),
                    &a.point_features3(),
                    *rb,
                    b.position,
                    margin,
                ),
            ),
        },
        Shape::Cuboid { half_extents } => match a.shape {
            Shape::Sphere { radius } => one(
                out,
                side,
                sphere_cuboid::sphere_on_cuboid(
                    *radius,
                    a.position,
                    (b.position, b.orientation),
                    *half_extents,
                    margin,
                ),
            ),
            _ => many(
                out,
                side,
                cuboid_cuboid::points_on_cuboid(
                    (a.position, a.orientation),
                    &a.point_features3(),
                    (b.position, b.orientation),
                    *half_extents,
                    margin,
                ),
            ),
        },
        Shape::Beam { .. } | Shape::SpatialBeam { .. } => {}
        Shape::Disk { radius: rb } => match disk_radius {
            // A disk pair is symmetric: report it once, from the first collider's side.
            Some(ra) if points.is_empty() && first => one(
                out,
                side,
                disk_disk::disk_on_disk(ra, a.pose, *rb, b.pose, margin),
            ),
            _ => {}
        },
    }
}

/// Appends the contact of a test that finds at most one (a round body).
fn one(out: &mut PairContacts, side: Side, found: Option<ContactGeometry>) {
    out.extend(found.map(|g| (side, g)));
}

/// Appends the contacts of a test that finds several (a box's corners, a beam's nodes).
fn many(out: &mut PairContacts, side: Side, found: impl IntoIterator<Item = ContactGeometry>) {
    out.extend(found.into_iter().map(|g| (side, g)));
}

/// A beam's pairs (its nodes on a half-plane or plane; a disk or sphere on it), None when
/// neither is a beam.
/// Other pairs with a beam find no contact yet.
fn detect_beam(a: &Collider, b: &Collider, margin: f64) -> Option<Vec<ContactGeometry>> {
    match (a.shape, b.shape) {
        (Shape::Beam { half_thickness, .. }, Shape::HalfPlane) => Some(beam_pairs::nodes_on_plane(
            &a.nodes,
            *half_thickness,
            a.pose.position,
            b.pose,
            margin,
        )),
        (Shape::Disk { radius }, Shape::Beam { half_thickness, .. }) => {
            Some(beam_pairs::disk_on_beam(
                *radius,
                a.pose.position,
                (&b.nodes, *half_thickness, b.pose.position),
                margin,
            ))
        }
        (Shape::SpatialBeam { half_thickness, .. }, Shape::Plane) => {
            let mut nodes: Vec<DVec3> = a.segments.iter().map(|s| s.start).collect();
            if let Some(last) = a.segments.last() {
                nodes.push(last.start + last.chord);
            }
            Some(spatial_beam_pairs::nodes_on_plane(
                &nodes,
                *half_thickness,
                a.position,
                (b.position, b.orientation),
                margin,
            ))
        }
        (Shape::Sphere { radius }, Shape::SpatialBeam { half_thickness, .. }) => {
            Some(spatial_beam_pairs::sphere_on_beam(
                *radius,
                a.position,
                (&b.segments, *half_thickness, b.position),
                margin,
            ))
        }
        (Shape::Beam { .. } | Shape::SpatialBeam { .. }, _)
        | (_, Shape::Beam { .. } | Shape::SpatialBeam { .. }) => Some(Vec::new()),
        _ => None,
    }
}
