//! One body: its name, its kind (behind [`BodyModel`]: fixed, planar rigid, spatial rigid), its shape and its place in q and v.

use glam::{DMat3, DQuat, DVec2, DVec3};
use nalgebra::{DMatrix, DVector};

use super::beam::PlanarBeam;
use super::fixed::FixedBody;
use super::kind::BodyModel;
use super::planar::PlanarRigid;
use super::spatial::SpatialRigid;
use super::spatial_beam::SpatialBeam;

use crate::geometry::Shape;

/// Position and orientation of a body in the plane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    /// Centre of mass (or reference point), m.
    pub position: DVec2,
    /// Rotation, rad, counter-clockwise.
    pub angle: f64,
}

impl Pose {
    /// Pose at `position` rotated by `angle`.
    pub fn new(position: DVec2, angle: f64) -> Self {
        Self { position, angle }
    }

    /// The unit vector rotated by the pose's angle, (cos θ, sin θ).
    pub fn rotation(&self) -> DVec2 {
        DVec2::new(libm::cos(self.angle), libm::sin(self.angle))
    }

    /// Body-fixed offset `r` expressed in world axes: R(θ) r.
    pub fn rotate(&self, r: DVec2) -> DVec2 {
        self.rotation().rotate(r)
    }

    /// World point of the body-fixed point `r`.
    pub fn transform(&self, r: DVec2) -> DVec2 {
        self.position + self.rotate(r)
    }

    /// World direction `d` expressed in body axes: R(θ)ᵀ d.
    pub fn inverse_rotate(&self, d: DVec2) -> DVec2 {
        let c = self.rotation();
        DVec2::new(c.x * d.x + c.y * d.y, -c.y * d.x + c.x * d.y)
    }
}

pub use super::planar::PLANAR_COORDINATES;
pub use super::spatial::SPATIAL_COORDINATES;

/// What kind of body: one variant per implementation of [`BodyModel`] (one file each).
#[derive(Debug, Clone, PartialEq)]
pub enum BodyKind {
    /// Does not move ([`FixedBody`]).
    Fixed(FixedBody),
    /// A rigid body in the plane ([`PlanarRigid`]).
    Planar(PlanarRigid),
    /// A rigid body in space ([`SpatialRigid`]).
    Spatial(SpatialRigid),
    /// A flexible beam in the plane ([`PlanarBeam`]).
    Beam(PlanarBeam),
    /// A flexible beam in space ([`SpatialBeam`]).
    SpatialBeam(SpatialBeam),
}

impl BodyKind {
    /// The kind's mechanics.
    pub fn model(&self) -> &dyn BodyModel {
        match self {
            BodyKind::Fixed(b) => b,
            BodyKind::Planar(b) => b,
            BodyKind::Spatial(b) => b,
            BodyKind::Beam(b) => b,
            BodyKind::SpatialBeam(b) => b,
        }
    }
}

/// A body with a name, a kind, a shape and its place in the generalized vectors.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// Unique name (used by forces and in traces).
    pub name: String,
    /// Kind and mass properties.
    pub kind: BodyKind,
    /// Collision and drawing shape.
    pub shape: Shape,
    /// Body-fixed contact points that replace the shape's own features when not empty
    /// (the "feet" of a block on a load cell, the supports of a bar, a table's legs), m
    /// (z = 0 for a planar body).
    pub contact_points: Vec<DVec3>,
    /// Index of this body's first entry in q (set by [`super::System::new`]).
    pub q_offset: usize,
    /// Index of this body's first entry in v (set by [`super::System::new`]).
    pub v_offset: usize,
}

impl Body {
    /// The kind's mechanics.
    pub fn model(&self) -> &dyn BodyModel {
        self.kind.model()
    }

    /// This body's slice of the generalized positions.
    pub fn q_of<'a>(&self, q: &'a DVector<f64>) -> &'a [f64] {
        &q.as_slice()[self.q_offset..self.q_offset + self.positions()]
    }

    /// This body's slice of the generalized velocities.
    pub fn v_of<'a>(&self, v: &'a DVector<f64>) -> &'a [f64] {
        &v.as_slice()[self.v_offset..self.v_offset + self.dofs()]
    }

    /// Number of generalized velocities this body owns.
    pub fn dofs(&self) -> usize {
        self.model().dofs()
    }

    /// Appends ± the point Jacobian of the material point at `position + arm` along
    /// `direction` (see [`BodyModel::point_jacobian`]), at positions `q` (the whole system's).
    pub fn push_point_row(
        &self,
        row: &mut crate::contact::JacobianRow,
        q: &DVector<f64>,
        arm: DVec3,
        direction: DVec3,
    ) {
        let start = row.entries.len();
        self.model()
            .point_jacobian(self.q_of(q), arm, direction, &mut row.entries);
        for entry in &mut row.entries[start..] {
            entry.0 += self.v_offset;
        }
    }

    /// Appends the rotation Jacobian of the material at `position + arm` about `axis` (see
    /// [`BodyModel::rotation_jacobian`]).
    pub fn push_rotation_row(
        &self,
        row: &mut crate::contact::JacobianRow,
        q: &DVector<f64>,
        arm: DVec3,
        axis: DVec3,
    ) {
        let start = row.entries.len();
        self.model()
            .rotation_jacobian(self.q_of(q), arm, axis, &mut row.entries);
        for entry in &mut row.entries[start..] {
            entry.0 += self.v_offset;
        }
    }

    /// Names with units of this body's generalized positions and velocities, in q and v
    /// order: the trace, CSV and pose-array layout of its kind.
    pub fn coordinate_names(&self) -> (Vec<String>, Vec<String>) {
        self.model().coordinate_names()
    }

    /// Number of generalized positions this body owns (a quaternion has four).
    pub fn positions(&self) -> usize {
        self.model().positions()
    }

    /// True for a body that never moves.
    pub fn is_fixed(&self) -> bool {
        self.dofs() == 0
    }

    /// True for bodies that live in space rather than in the plane.
    pub fn is_spatial(&self) -> bool {
        self.model().is_spatial()
    }

    /// Mass, kg (0 for fixed bodies).
    pub fn mass(&self) -> f64 {
        self.model().mass()
    }

    pub(crate) fn initial_q(&self) -> Vec<f64> {
        self.model().initial_q()
    }

    pub(crate) fn initial_v(&self) -> Vec<f64> {
        self.model().initial_v()
    }

    /// The body's block of M at positions `q` (None for a fixed body).
    pub(crate) fn mass_block(&self, q: &DVector<f64>) -> Option<DMatrix<f64>> {
        self.model().mass_block(self.q_of(q))
    }

    /// Inertia tensor in world axes (zero for non-spatial bodies), kg·m².
    pub fn world_inertia(&self, q: &DVector<f64>) -> DMat3 {
        self.model().world_inertia(self.q_of(q))
    }

    /// True when the mass block does not depend on q.
    pub fn is_isotropic(&self) -> bool {
        self.model().is_isotropic()
    }

    /// Pose in the plane at generalized positions `q`.
    pub fn pose(&self, q: &DVector<f64>) -> Pose {
        self.model().pose(self.q_of(q))
    }

    /// The frame in space a joint attaches to: beam node `node`'s (position, rotation) when
    /// given, else the body's position and orientation.
    pub fn frame3(&self, q: &DVector<f64>, node: Option<usize>) -> (DVec3, DQuat) {
        node.and_then(|k| self.model().node_frame3(self.q_of(q), k))
            .unwrap_or_else(|| (self.position3(q), self.orientation(q)))
    }

    /// The frame a joint attaches to: beam node `node`'s (position, angle) when given, else
    /// the body's pose.
    pub fn frame(&self, q: &DVector<f64>, node: Option<usize>) -> Pose {
        node.and_then(|k| self.model().node_pose(self.q_of(q), k))
            .unwrap_or_else(|| self.pose(q))
    }

    /// Velocity of the reference point and angular velocity in the plane.
    pub fn twist(&self, v: &DVector<f64>) -> (DVec2, f64) {
        let (u, w) = self.twist3(v);
        (u.truncate(), w.z)
    }

    /// Position of the centre in space, m (planar bodies at z = 0).
    pub fn position3(&self, q: &DVector<f64>) -> DVec3 {
        self.model().position(self.q_of(q))
    }

    /// Orientation in space (planar bodies: a rotation about z).
    pub fn orientation(&self, q: &DVector<f64>) -> DQuat {
        self.model().orientation(self.q_of(q))
    }

    /// Linear and angular velocity in space (world axes).
    pub fn twist3(&self, v: &DVector<f64>) -> (DVec3, DVec3) {
        self.model().twist(self.v_of(v))
    }
}
