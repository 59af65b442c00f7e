//! Contacts of the whole system: detection over body pairs, Jacobian rows and J̇v, in the plane and in space alike.
//!
//! Geometry ([`crate::geometry`]) gives each contact a gap d, a unit normal n (from the surface
//! body B towards the point body A) and the contact points, in world axes (a planar scene
//! lives in z = 0). This module turns them into rows of the contact Jacobian from the body
//! kinds' point and rotation Jacobians ([`crate::model::BodyModel::point_jacobian`],
//! [`crate::model::BodyModel::rotation_jacobian`]): a row of A's material point along a
//! direction minus B's measures their relative velocity along it (normal, tangents); a row of
//! A's rotation about an axis minus B's, their relative angular velocity (rolling, spinning).
//!
//! **Normal row.** For a material point p_A = x_A + r_A of A against a surface of B whose
//! normal turns with B (ℓ = p_A − x_B), the gap rate is the normal relative velocity of p_A
//! and of the point of B coinciding with it,
//!
//! ```text
//!     ḋ = n · (v_A + ω_A × r_A − v_B − ω_B × ℓ),      J_N = [n, r_A × n]_A − [n, ℓ × n]_B,
//! ```
//!
//! and for two material points p_A, p_B (centres of round bodies, d = |p_A − p_B| − const)
//! J_N = [n, r_A × n]_A − [n, r_B × n]_B. Differentiating once more, d̈ = J_N v̇ + J̇_N v with
//! the velocity-product term (ṅ = ω_B × n for a surface of B):
//!
//! ```text
//!     point on surface:  J̇_N v = (ω_B × n)·u + n·(ω_A × (ω_A × r_A)) − n·(ω_B × ℓ̇),
//!                        u = v_A + ω_A × r_A − v_B − ω_B × ℓ,   ℓ̇ = v_A + ω_A × r_A − v_B;
//!     point to point:    J̇_N v = (|ṙ|² − (n·ṙ)²)/|p_A − p_B| + n·(ω_A × (ω_A × r_A) − ω_B × (ω_B × r_B)),
//!                        ṙ = v_A + ω_A × r_A − v_B − ω_B × r_B,
//! ```
//!
//! which in the plane are −ω_A² n·r_A − ω_B² n·ℓ + 2ω_B (k×n)·ℓ̇ and the centripetal term of
//! two disks. The acceleration-level LCP needs it in b = J M⁻¹ f + J̇v.
//!
//! Two crossing edges (d = n·(p_A − p_B) between the closest points of the lines, n along
//! e_A × e_B with e_A fixed in A, e_B in B) take the point-to-point row at those points, since
//! ṅ·(p_A − p_B) = d ṅ·n = 0; differentiating d = n·r for material points that coincide with
//! the closest points now (r = d n, so n̈·r = −d|ṅ|²),
//!
//! ```text
//!     edge to edge:      J̇_N v = −d |ṅ|² + 2 ṅ·ṙ + n·(ω_A × (ω_A × r_A) − ω_B × (ω_B × r_B)),
//!                        ṅ = (ċ − n (n·ċ))/|c|,   c = e_A × e_B,   ċ = (ω_A × e_A) × e_B + e_A × (ω_B × e_B),
//! ```
//!
//! with ṙ as for two points. A material point at distance ρ from a line of B along e (fixed
//! in B; a sphere's centre by a cuboid's edge), n = r/ρ with r ⊥ e from the foot p_B, takes
//! the point-to-point row too, since ρ̇ = n·ṙ − (r·e)(n·ė) and r·e = 0 at the foot; once
//! more, with u = ṙ·e and w = n·ė = n·(ω_B × e),
//!
//! ```text
//!     point to line:     J̇_N v = (|ṙ|² − (n·ṙ)² − u²)/ρ − 2 u w − ρ w² + n·(ω_A × (ω_A × r_A) − ω_B × (ω_B × r_B)).
//! ```
//!
//! **Tangent, rolling and spinning rows** act at the contact points (p_A on A's surface, p_B on
//! B's): J_Tk = [t_k, (p_A − x_A) × t_k]_A − [t_k, (p_B − x_B) × t_k]_B, rolling
//! J_Rk = [0, t_k]_A − [0, t_k]_B, spinning J_S = [0, n]_A − [0, n]_B. In space the tangents
//! t₁, t₂ complete n to a right-handed frame (t₁ = x̂, t₂ = ŷ on a level floor); in the plane the
//! one tangent is t = k × n (the directions a planar body cannot move along are left out), the
//! one rolling axis is k (the in-plane rotation of a disk rolling on a line) and there is no
//! spinning row.

pub mod delassus;
pub mod jacobian;
pub mod joint_rows;
pub mod material;

pub use delassus::Delassus;
pub use jacobian::{JacobianRow, RowEntries};
pub use material::ContactMaterial;

use glam::DVec3;
use nalgebra::DVector;
use smallvec::SmallVec;

use crate::geometry::broad_phase::{Bounds, candidate_pairs};
use crate::geometry::{Collider, ContactGeometry, GapKinematics, PairContacts, Side, detect_pair};
use crate::model::System;

/// Stable identity of a contact: the pair (in scene order) and the feature within it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ContactKey {
    /// Lower body index of the pair.
    pub first: usize,
    /// Higher body index of the pair.
    pub second: usize,
    /// Feature number within the pair.
    pub feature: u32,
}

impl ContactKey {
    /// (point body A, surface body B, feature number within A's features).
    pub fn point_body_first(&self) -> (usize, usize, u32) {
        if self.feature >= crate::geometry::SECOND_SIDE_FEATURES {
            (
                self.second,
                self.first,
                self.feature - crate::geometry::SECOND_SIDE_FEATURES,
            )
        } else {
            (self.first, self.second, self.feature)
        }
    }
}

/// Up to two directions (one in the plane, two in space), kept inline.
pub type Directions = SmallVec<[DVec3; 2]>;

/// Up to two rows (tangents or rolling axes), kept inline.
pub type RowPair = SmallVec<[JacobianRow; 2]>;

/// One candidate contact with its rows: the only contact type, for every body kind.
#[derive(Debug, Clone, PartialEq)]
pub struct Contact {
    /// Stable identity.
    pub key: ContactKey,
    /// Body offering the point feature.
    pub body_a: usize,
    /// Body offering the surface.
    pub body_b: usize,
    /// Signed gap d, m (positive = apart).
    pub gap: f64,
    /// Unit normal from B towards A.
    pub normal: DVec3,
    /// Contact point on B's surface, m (for drawing and reports).
    pub point: DVec3,
    /// Tangent directions of the rows in `tangent_rows` (one in the plane, two in space).
    pub tangents: Directions,
    /// Rolling axes of the rows in `rolling_rows` (k in the plane, t₁ and t₂ in space).
    pub rolling_axes: Directions,
    /// J_N: ḋ = J_N v.
    pub normal_row: JacobianRow,
    /// J_T: slip velocities along the tangents.
    pub tangent_rows: RowPair,
    /// J_R: relative angular velocity about the rolling axes.
    pub rolling_rows: RowPair,
    /// J_S: relative angular velocity about the normal (space only).
    pub spin_row: Option<JacobianRow>,
    /// How the gap depends on the poses (for J̇v).
    pub kinematics: GapKinematics,
    /// A joint's equation (g = 0 held from both sides, no friction) rather than a contact.
    pub bilateral: bool,
    /// ∂g/∂t of a time-dependent joint equation (a drive), m/s: ġ = J_N v + this (0 for
    /// contacts).
    pub rate_bias: f64,
    /// ∂²g/∂t² of a time-dependent joint equation (a drive that is not at constant speed),
    /// m/s²: g̈ = J_N v̇ + J̇_N v + this (0 for contacts).
    pub acceleration_bias: f64,
}

impl Contact {
    /// Gap rate ḋ = J_N v, m/s.
    pub fn gap_rate(&self, v: &DVector<f64>) -> f64 {
        self.normal_row.dot(v)
    }

    /// Slip velocity along the first tangent, J_T v, m/s.
    pub fn slip_rate(&self, v: &DVector<f64>) -> f64 {
        self.tangent_rows[0].dot(v)
    }

    /// Number of multipliers: 1 + tangents + rolling + spin.
    pub fn len(&self) -> usize {
        1 + self.tangent_rows.len() + self.rolling_rows.len() + usize::from(self.spin_row.is_some())
    }

    /// Never empty (a normal row is always there).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// All rows in multiplier order: normal, tangents, rolling, spin.
    pub fn rows(&self) -> impl Iterator<Item = &JacobianRow> {
        std::iter::once(&self.normal_row)
            .chain(&self.tangent_rows)
            .chain(&self.rolling_rows)
            .chain(self.spin_row.iter())
    }

    /// The velocity-product term J̇_N v of d̈ = J_N v̇ + J̇_N v, m/s² (module docs).
    pub fn normal_velocity_product(&self, system: &System, v: &DVector<f64>) -> f64 {
        let (va, wa) = system.bodies[self.body_a].twist3(v);
        let (vb, wb) = system.bodies[self.body_b].twist3(v);
        let n = self.normal;
        // For two material points p_A = x_A + r_A, p_B = x_B + r_B: their relative velocity ṙ
        // and the centripetal part n·(ω_A × (ω_A × r_A) − ω_B × (ω_B × r_B)) of n·r̈.
        let points = |arm_a: DVec3, arm_b: DVec3| {
            (
                va + wa.cross(arm_a) - vb - wb.cross(arm_b),
                n.dot(wa.cross(wa.cross(arm_a)) - wb.cross(wb.cross(arm_b))),
            )
        };
        match self.kinematics {
            GapKinematics::PointOnSurface { arm, lever } => {
                let lever_rate = va + wa.cross(arm) - vb;
                let relative = lever_rate - wb.cross(lever);
                wb.cross(n).dot(relative) + n.dot(wa.cross(wa.cross(arm)))
                    - n.dot(wb.cross(lever_rate))
            }
            GapKinematics::PointToPoint {
                arm_a,
                arm_b,
                separation,
            } => {
                let (rate, centripetal) = points(arm_a, arm_b);
                let along = n.dot(rate);
                (rate.length_squared() - along * along) / separation.length() + centripetal
            }
            GapKinematics::PointToLine {
                arm_a,
                arm_b,
                separation,
                edge_b,
            } => {
                let (rate, centripetal) = points(arm_a, arm_b);
                let distance = separation.length();
                let (along, normal_rate) = (rate.dot(edge_b), n.dot(wb.cross(edge_b)));
                let across = n.dot(rate);
                (rate.length_squared() - across * across - along * along) / distance
                    - 2.0 * along * normal_rate
                    - distance * normal_rate * normal_rate
                    + centripetal
            }
            GapKinematics::EdgeToEdge {
                arm_a,
                arm_b,
                edge_a,
                edge_b,
            } => {
                let (rate, centripetal) = points(arm_a, arm_b);
                let cross = edge_a.cross(edge_b);
                let cross_rate = wa.cross(edge_a).cross(edge_b) + edge_a.cross(wb.cross(edge_b));
                let normal_rate = (cross_rate - n * n.dot(cross_rate)) / cross.length();
                -self.gap * normal_rate.length_squared() + 2.0 * normal_rate.dot(rate) + centripetal
            }
            GapKinematics::Rotation => wb.cross(n).dot(wa - wb),
            GapKinematics::AxisPair { u, w } => {
                (wa - wb).dot(wa.cross(u).cross(w) + u.cross(wb.cross(w)))
            }
        }
    }
}

/// A right-handed tangent frame for normal `n`, deterministic (x̂, ŷ for n = ẑ).
pub fn tangent_frame(n: DVec3) -> [DVec3; 2] {
    let helper = if n.y.abs() < 0.9 { DVec3::Y } else { DVec3::Z };
    let t1 = helper.cross(n).normalize();
    [t1, n.cross(t1)]
}

/// An upper bound on the contacts the system can ever have at once: over every pair that
/// can touch, the point features each body offers the other.
pub fn contact_capacity(system: &System) -> usize {
    // Σ over pairs not both fixed of (fᵢ + fⱼ) = Σᵢ fᵢ · (the partners body i has): every
    // other body for a moving one, the moving bodies for a fixed one.
    let bodies = system.bodies.len();
    let moving = system.bodies.iter().filter(|b| !b.is_fixed()).count();
    system
        .bodies
        .iter()
        .map(|b| {
            let features = b.shape.point_feature_count(b.contact_points.len());
            let partners = if b.is_fixed() { moving } else { bodies - 1 };
            features.saturating_mul(partners)
        })
        .fold(0usize, usize::saturating_add)
}

/// The number of contacts within `margin` at positions `q`, and the number in the largest
/// island (contacts linked through shared moving bodies), from the geometry alone (no rows).
pub fn contact_census(system: &System, q: &DVector<f64>, margin: f64) -> (usize, usize) {
    let colliders = colliders(system, q);
    crate::linalg::buffers::with_scratch(&CENSUS_WORK, |work| {
        work.touching.clear();
        let mut found = PairContacts::new();
        for (i, j) in candidate_pairs(&bounds(system, &colliders), margin) {
            if system.jointed(i, j) {
                continue;
            }
            detect_pair(&colliders[i], &colliders[j], margin, &mut found);
            work.touching
                .extend(std::iter::repeat_n((i, j), found.len()));
        }
        island_census(system, work)
    })
}

/// The same census over contacts already detected.
pub fn census_of(system: &System, contacts: &[Contact]) -> (usize, usize) {
    crate::linalg::buffers::with_scratch(&CENSUS_WORK, |work| {
        work.touching.clear();
        work.touching
            .extend(contacts.iter().map(|c| (c.key.first, c.key.second)));
        island_census(system, work)
    })
}

/// The census's lists, kept on this thread from step to step.
#[derive(Default)]
struct CensusWork {
    /// One (body, body) pair per contact.
    touching: Vec<(usize, usize)>,
    /// Union–find parents, one per body.
    parent: Vec<usize>,
    /// Contacts per island, by root body.
    per_island: Vec<usize>,
}

thread_local! {
    static CENSUS_WORK: crate::linalg::buffers::ScratchPool<CensusWork> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// (number of contacts, contacts in the largest island) for the pairs in
/// `work.touching`, islands joined through moving bodies by union–find.
fn island_census(system: &System, work: &mut CensusWork) -> (usize, usize) {
    let CensusWork {
        touching,
        parent,
        per_island,
    } = work;
    let bodies = system.bodies.len();
    parent.clear();
    parent.extend(0..bodies);
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for &(i, j) in touching.iter() {
        if !system.bodies[i].is_fixed() && !system.bodies[j].is_fixed() {
            let (a, b) = (root(parent, i), root(parent, j));
            if a != b {
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    per_island.clear();
    per_island.resize(bodies, 0);
    for &(i, j) in touching.iter() {
        let moving = if system.bodies[i].is_fixed() { j } else { i };
        per_island[root(parent, moving)] += 1;
    }
    (
        touching.len(),
        per_island.iter().copied().max().unwrap_or(0),
    )
}

fn colliders<'a>(system: &'a System, q: &DVector<f64>) -> Vec<Collider<'a>> {
    let mut out = Vec::new();
    colliders_into(system, q, &mut out);
    out
}

/// [`colliders`] into `out` (cleared first).
fn colliders_into<'a>(system: &'a System, q: &DVector<f64>, out: &mut Vec<Collider<'a>>) {
    out.clear();
    out.extend(system.bodies.iter().map(|b| Collider {
        shape: &b.shape,
        pose: b.pose(q),
        position: b.position3(q),
        orientation: b.orientation(q),
        feet: &b.contact_points,
        nodes: match &b.kind {
            crate::model::BodyKind::Beam(beam) => beam.node_coordinates(b.q_of(q)),
            _ => Vec::new(),
        },
        segments: match &b.kind {
            crate::model::BodyKind::SpatialBeam(beam) => {
                beam.segments(&beam.node_frames(b.q_of(q)))
            }
            _ => Vec::new(),
        },
    }));
}

/// Each body's bounding sphere; a sleeping body counts as fixed (no contact between two
/// sleeping or fixed bodies is looked for).
fn bounds(system: &System, colliders: &[Collider]) -> Vec<Bounds> {
    let mut out = Vec::new();
    bounds_into(system, colliders, &mut out);
    out
}

/// [`bounds`] into `out` (cleared first).
fn bounds_into(system: &System, colliders: &[Collider], out: &mut Vec<Bounds>) {
    out.clear();
    out.extend(
        system
            .bodies
            .iter()
            .zip(colliders)
            .zip(&system.asleep)
            .map(|((b, c), asleep)| Bounds {
                centre: c.position,
                radius: b.shape.bounding_radius(),
                fixed: b.is_fixed() || *asleep,
            }),
    );
}

/// Detection's work lists, kept on this thread from call to call (the colliders' list for
/// any lifetime, see [`crate::linalg::buffers::recycled`]).
#[derive(Default)]
struct DetectWork {
    colliders: Vec<Collider<'static>>,
    bounds: Vec<Bounds>,
    pairs: Vec<(usize, usize)>,
    /// The broad phase's pairs kept between calls (a settled pile keeps its neighbours),
    /// a list for each of a few scenes stepped in turn.
    kept: crate::geometry::kept_pairs::KeptPairLists,
    /// One pair's contacts, kept so that a pair of several (a box's corners) reuses its room.
    found: PairContacts,
}

thread_local! {
    static DETECT_WORK: crate::linalg::buffers::ScratchPool<DetectWork> =
        const { std::cell::RefCell::new(Vec::new()) };
    /// Lists of contacts given back ([`recycle_contacts`]), for detection to fill again.
    static SPARE_CONTACTS: crate::linalg::buffers::ScratchPool<Vec<Contact>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Lists of contacts kept for reuse: a step holds three at most (the start's, the
/// position passes', the end's).
const SPARE_CONTACT_LISTS: usize = 4;

/// Gives a list of contacts that is no longer needed back to this thread's detection, which
/// fills its storage again instead of allocating (a contact is over a kilobyte: a pile's
/// list is megabytes).
pub fn recycle_contacts(contacts: Vec<Contact>) {
    // (Its contacts stay: detection refills them in place.)
    crate::linalg::buffers::give_back(&SPARE_CONTACTS, contacts, SPARE_CONTACT_LISTS);
}

/// All candidate contacts at positions `q` with gap ≤ `margin`, and the bilateral rows of
/// every joint (whatever their gap) at the system's time, sorted by key. Bodies linked by a
/// joint are not checked for contact with each other (a pin sits inside both).
pub fn detect_contacts(system: &System, q: &DVector<f64>, margin: f64) -> Vec<Contact> {
    detect_contacts_at(system, q, system.t, margin)
}

/// [`detect_contacts`] with the joints' equations taken at time `t` (a drive's angle).
pub fn detect_contacts_at(system: &System, q: &DVector<f64>, t: f64, margin: f64) -> Vec<Contact> {
    let planar = !system.is_spatial();
    // A list given back keeps its old contacts: they are refilled in place (a contact is
    // over a kilobyte, and building one apart and moving it in was most of detection's
    // memory traffic), and the list is cut to what this call found.
    let mut out = crate::linalg::buffers::take_spare(&SPARE_CONTACTS);
    // The joints' rows first (built apart: a mechanism has few).
    let mut found_count = 0;
    if !system.joints.is_empty() {
        out.clear();
        joint_rows::push_joint_contacts(&mut out, system, q, t);
        found_count = out.len();
    }
    crate::linalg::buffers::with_scratch(&DETECT_WORK, |work| {
        let mut colliders = crate::linalg::buffers::recycled(std::mem::take(&mut work.colliders));
        colliders_into(system, q, &mut colliders);
        bounds_into(system, &colliders, &mut work.bounds);
        // The pairs come in key order, so the contacts come out (nearly) sorted and the sort
        // below moves little (a contact with its rows is over a kilobyte).
        work.kept
            .candidate_pairs_into(&work.bounds, margin, &mut work.pairs);
        // Room for a contact a pair (more only where a pair has several), counted from the
        // contacts found so far, not from the kept ones.
        out.reserve((found_count + work.pairs.len()).saturating_sub(out.len()));
        let found = &mut work.found;
        for &(i, j) in &work.pairs {
            if system.jointed(i, j) {
                continue;
            }
            detect_pair(&colliders[i], &colliders[j], margin, found);
            for (side, g) in found.drain(..) {
                let (a, b) = match side {
                    Side::First => (i, j),
                    Side::Second => (j, i),
                };
                let slot = next_slot(&mut out, found_count);
                found_count += 1;
                fill_contact(slot, system, q, (a, b), g, (i, j), planar);
            }
        }
        work.colliders = crate::linalg::buffers::recycled(colliders);
    });
    out.truncate(found_count);
    // Keys are unique (a pair once, each feature once), so an unstable sort gives the one
    // order, without the stable sort's buffer of half the list; mostly nothing moves.
    if !out.is_sorted_by_key(|c| c.key) {
        out.sort_unstable_by_key(|c| c.key);
    }
    out
}

/// The relative velocity along `direction` of A's material point at `arm_a` and B's at
/// `arm_b`, as a row from the bodies' point Jacobians: J_A(arm_a)·d − J_B(arm_b)·d.
fn relative_point_row(
    system: &System,
    q: &DVector<f64>,
    bodies: (usize, usize),
    arms: (DVec3, DVec3),
    direction: DVec3,
) -> JacobianRow {
    let mut row = JacobianRow::default();
    write_point_row(&mut row, system, q, bodies, arms, direction);
    row
}

/// The relative angular velocity about `axis` of A's material at `arm_a` and B's at `arm_b`.
fn relative_rotation_row(
    system: &System,
    q: &DVector<f64>,
    bodies: (usize, usize),
    arms: (DVec3, DVec3),
    axis: DVec3,
) -> JacobianRow {
    let mut row = JacobianRow::default();
    write_rotation_row(&mut row, system, q, bodies, arms, axis);
    row
}

/// [`relative_point_row`] appended to `row` in place.
fn write_point_row(
    row: &mut JacobianRow,
    system: &System,
    q: &DVector<f64>,
    (a, b): (usize, usize),
    (arm_a, arm_b): (DVec3, DVec3),
    direction: DVec3,
) {
    system.bodies[a].push_point_row(row, q, arm_a, direction);
    system.bodies[b].push_point_row(row, q, arm_b, -direction);
}

/// [`relative_rotation_row`] appended to `row` in place.
fn write_rotation_row(
    row: &mut JacobianRow,
    system: &System,
    q: &DVector<f64>,
    (a, b): (usize, usize),
    (arm_a, arm_b): (DVec3, DVec3),
    axis: DVec3,
) {
    system.bodies[a].push_rotation_row(row, q, arm_a, axis);
    system.bodies[b].push_rotation_row(row, q, arm_b, -axis);
}

/// The contact at `index` of `out` to be filled: a kept one, or a new one pushed.
fn next_slot(out: &mut Vec<Contact>, index: usize) -> &mut Contact {
    if index == out.len() {
        out.push(Contact {
            key: ContactKey {
                first: 0,
                second: 0,
                feature: 0,
            },
            body_a: 0,
            body_b: 0,
            gap: 0.0,
            normal: DVec3::ZERO,
            point: DVec3::ZERO,
            tangents: Directions::new(),
            rolling_axes: Directions::new(),
            normal_row: JacobianRow::default(),
            tangent_rows: RowPair::new(),
            rolling_rows: RowPair::new(),
            spin_row: None,
            kinematics: GapKinematics::Rotation,
            bilateral: false,
            rate_bias: 0.0,
            acceleration_bias: 0.0,
        });
    }
    &mut out[index]
}

/// `rows` holding `count` empty rows, the ones it has kept (their storage with them).
fn empty_rows(rows: &mut RowPair, count: usize) {
    rows.truncate(count);
    for row in rows.iter_mut() {
        row.entries.clear();
    }
    while rows.len() < count {
        rows.push(JacobianRow::default());
    }
}

/// Makes `c` the contact of geometry `g` between point body `a` and surface body `b`, its
/// rows written in place (every field is set: `c` may hold an earlier contact).
fn fill_contact(
    c: &mut Contact,
    system: &System,
    q: &DVector<f64>,
    (a, b): (usize, usize),
    g: ContactGeometry,
    (first, second): (usize, usize),
    planar: bool,
) {
    let n = g.normal;
    let arms = (g.arm_a, g.arm_b);
    c.tangents.clear();
    c.rolling_axes.clear();
    if planar {
        c.tangents.push(DVec3::Z.cross(n));
        c.rolling_axes.push(DVec3::Z);
    } else {
        let t = tangent_frame(n);
        c.tangents.extend(t);
        c.rolling_axes.extend(t);
    }
    c.key = ContactKey {
        first,
        second,
        feature: g.feature,
    };
    c.body_a = a;
    c.body_b = b;
    c.gap = g.gap;
    c.normal = n;
    c.point = g.point_b;
    c.kinematics = g.kinematics;
    c.bilateral = false;
    c.rate_bias = 0.0;
    c.acceleration_bias = 0.0;
    c.normal_row.entries.clear();
    let (tangent_count, rolling_count) = (c.tangents.len(), c.rolling_axes.len());
    empty_rows(&mut c.tangent_rows, tangent_count);
    empty_rows(&mut c.rolling_rows, rolling_count);
    match g.kinematics {
        GapKinematics::PointOnSurface { arm, lever } => {
            write_point_row(&mut c.normal_row, system, q, (a, b), (arm, lever), n);
        }
        GapKinematics::PointToPoint { arm_a, arm_b, .. }
        | GapKinematics::PointToLine { arm_a, arm_b, .. }
        | GapKinematics::EdgeToEdge { arm_a, arm_b, .. } => {
            write_point_row(&mut c.normal_row, system, q, (a, b), (arm_a, arm_b), n);
        }
        GapKinematics::Rotation | GapKinematics::AxisPair { .. } => {
            write_rotation_row(&mut c.normal_row, system, q, (a, b), arms, n);
        }
    }
    for k in 0..c.tangents.len() {
        let t = c.tangents[k];
        write_point_row(&mut c.tangent_rows[k], system, q, (a, b), arms, t);
    }
    for k in 0..c.rolling_axes.len() {
        let axis = c.rolling_axes[k];
        write_rotation_row(&mut c.rolling_rows[k], system, q, (a, b), arms, axis);
    }
    if planar {
        c.spin_row = None;
    } else {
        let spin = c.spin_row.get_or_insert_with(JacobianRow::default);
        spin.entries.clear();
        write_rotation_row(spin, system, q, (a, b), arms, n);
    }
}
