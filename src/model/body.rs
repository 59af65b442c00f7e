//! One body: its kind (planar rigid or fixed), mass properties, shape and initial state.

use glam::DVec2;
use nalgebra::{DMatrix, DVector};

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

/// What kind of body, with the mass properties that kind needs.
#[derive(Debug, Clone, PartialEq)]
pub enum BodyKind {
    /// Does not move; its pose is given.
    Fixed {
        /// The fixed pose.
        pose: Pose,
    },
    /// A rigid body moving in the plane with coordinates (x, y, θ).
    Planar {
        /// Mass, kg (> 0).
        mass: f64,
        /// Moment of inertia about the centre of mass, kg·m² (> 0).
        inertia: f64,
        /// Initial pose.
        pose: Pose,
        /// Initial velocity of the centre of mass, m/s.
        velocity: DVec2,
        /// Initial angular velocity, rad/s.
        angular_velocity: f64,
    },
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
    /// (the "feet" of a block on a load cell, the supports of a bar), m.
    pub contact_points: Vec<DVec2>,
    /// Index of this body's first entry in q and v (set by [`super::System::new`]).
    pub dof_offset: usize,
}

impl Body {
    /// Number of generalized velocities this body owns.
    pub fn dofs(&self) -> usize {
        match self.kind {
            BodyKind::Fixed { .. } => 0,
            BodyKind::Planar { .. } => 3,
        }
    }

    /// True for a body that never moves.
    pub fn is_fixed(&self) -> bool {
        matches!(self.kind, BodyKind::Fixed { .. })
    }

    pub(crate) fn initial_q(&self) -> Vec<f64> {
        match &self.kind {
            BodyKind::Fixed { .. } => vec![],
            BodyKind::Planar { pose, .. } => vec![pose.position.x, pose.position.y, pose.angle],
        }
    }

    pub(crate) fn initial_v(&self) -> Vec<f64> {
        match &self.kind {
            BodyKind::Fixed { .. } => vec![],
            BodyKind::Planar {
                velocity,
                angular_velocity,
                ..
            } => vec![velocity.x, velocity.y, *angular_velocity],
        }
    }

    pub(crate) fn mass_block(&self) -> Option<DMatrix<f64>> {
        match self.kind {
            BodyKind::Fixed { .. } => None,
            BodyKind::Planar { mass, inertia, .. } => {
                Some(DMatrix::from_diagonal(&DVector::from_vec(vec![
                    mass, mass, inertia,
                ])))
            }
        }
    }

    /// Pose at generalized positions `q`.
    pub fn pose(&self, q: &DVector<f64>) -> Pose {
        match &self.kind {
            BodyKind::Fixed { pose } => *pose,
            BodyKind::Planar { .. } => {
                let o = self.dof_offset;
                Pose::new(DVec2::new(q[o], q[o + 1]), q[o + 2])
            }
        }
    }

    /// Velocity of the reference point and angular velocity at generalized velocities `v`.
    pub fn twist(&self, v: &DVector<f64>) -> (DVec2, f64) {
        match self.kind {
            BodyKind::Fixed { .. } => (DVec2::ZERO, 0.0),
            BodyKind::Planar { .. } => {
                let o = self.dof_offset;
                (DVec2::new(v[o], v[o + 1]), v[o + 2])
            }
        }
    }
}
