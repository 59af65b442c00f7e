//! One body: its kind (planar or spatial rigid, or fixed), mass properties, shape and initial state.

use glam::{DMat3, DQuat, DVec2, DVec3};
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

/// A planar rigid body's generalized positions and velocities (names with units): also the
/// layout of the wasm `bodyPoses()` and `bodyVelocities()` arrays.
pub const PLANAR_COORDINATES: (&[&str], &[&str]) = (
    &["x [m]", "y [m]", "theta [rad]"],
    &["vx [m/s]", "vy [m/s]", "omega [rad/s]"],
);

/// A spatial rigid body's generalized positions and velocities (ω in world axes): also the
/// layout of the wasm `bodyPoses3()` and `bodyVelocities3()` arrays.
pub const SPATIAL_COORDINATES: (&[&str], &[&str]) = (
    &[
        "x [m]", "y [m]", "z [m]", "qw [1]", "qx [1]", "qy [1]", "qz [1]",
    ],
    &[
        "vx [m/s]",
        "vy [m/s]",
        "vz [m/s]",
        "wx [rad/s]",
        "wy [rad/s]",
        "wz [rad/s]",
    ],
);

/// What kind of body, with the mass properties that kind needs.
#[derive(Debug, Clone, PartialEq)]
pub enum BodyKind {
    /// Does not move; its pose is given.
    Fixed {
        /// The fixed pose.
        pose: Pose,
    },
    /// Does not move; a pose in space.
    FixedSpatial {
        /// Position, m.
        position: DVec3,
        /// Orientation (unit quaternion).
        orientation: DQuat,
    },
    /// A rigid body in space: q = (x, y, z, q_w, q_x, q_y, q_z), v = (v, ω) with ω in world axes.
    Spatial {
        /// Mass, kg (> 0).
        mass: f64,
        /// Principal moments of inertia about the centre (body axes), kg·m².
        inertia: DVec3,
        /// Initial position of the centre, m.
        position: DVec3,
        /// Initial orientation.
        orientation: DQuat,
        /// Initial velocity of the centre, m/s.
        velocity: DVec3,
        /// Initial angular velocity (world axes), rad/s.
        angular_velocity: DVec3,
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
    /// (the "feet" of a block on a load cell, the supports of a bar, a table's legs), m
    /// (z = 0 for a planar body).
    pub contact_points: Vec<DVec3>,
    /// Index of this body's first entry in q (set by [`super::System::new`]).
    pub q_offset: usize,
    /// Index of this body's first entry in v (set by [`super::System::new`]).
    pub v_offset: usize,
}

impl Body {
    /// Number of generalized velocities this body owns.
    pub fn dofs(&self) -> usize {
        match self.kind {
            BodyKind::Fixed { .. } | BodyKind::FixedSpatial { .. } => 0,
            BodyKind::Planar { .. } => 3,
            BodyKind::Spatial { .. } => 6,
        }
    }

    /// Appends to `row` this body's point-Jacobian entries for the world directions
    /// (`linear`, `angular`): the generalized row whose product with v is
    /// `linear`·v_body + `angular`·ω. A planar body keeps the in-plane components (x, y and the
    /// rotation about z); a spatial body all six; a fixed body none. (For the velocity of a
    /// material point p along d, pass linear = d and angular = (p − x) × d.)
    pub fn push_row(&self, row: &mut crate::contact::JacobianRow, linear: DVec3, angular: DVec3) {
        let o = self.v_offset;
        match self.kind {
            BodyKind::Fixed { .. } | BodyKind::FixedSpatial { .. } => {}
            BodyKind::Planar { .. } => {
                row.entries.push((o, linear.x));
                row.entries.push((o + 1, linear.y));
                row.entries.push((o + 2, angular.z));
            }
            BodyKind::Spatial { .. } => {
                for k in 0..3 {
                    row.entries.push((o + k, linear[k]));
                }
                for k in 0..3 {
                    row.entries.push((o + 3 + k, angular[k]));
                }
            }
        }
    }

    /// Names with units of this body's generalized positions and velocities, in q and v
    /// order: the trace, CSV and pose-array layout of its kind.
    pub fn coordinate_names(&self) -> (&'static [&'static str], &'static [&'static str]) {
        match self.kind {
            BodyKind::Fixed { .. } | BodyKind::FixedSpatial { .. } => (&[], &[]),
            BodyKind::Planar { .. } => PLANAR_COORDINATES,
            BodyKind::Spatial { .. } => SPATIAL_COORDINATES,
        }
    }

    /// Number of generalized positions this body owns (a quaternion has four).
    pub fn positions(&self) -> usize {
        match self.kind {
            BodyKind::Spatial { .. } => 7,
            _ => self.dofs(),
        }
    }

    /// True for a body that never moves.
    pub fn is_fixed(&self) -> bool {
        matches!(
            self.kind,
            BodyKind::Fixed { .. } | BodyKind::FixedSpatial { .. }
        )
    }

    /// True for bodies that live in space rather than in the plane.
    pub fn is_spatial(&self) -> bool {
        matches!(
            self.kind,
            BodyKind::Spatial { .. } | BodyKind::FixedSpatial { .. }
        )
    }

    /// Mass, kg (0 for fixed bodies).
    pub fn mass(&self) -> f64 {
        match self.kind {
            BodyKind::Planar { mass, .. } | BodyKind::Spatial { mass, .. } => mass,
            _ => 0.0,
        }
    }

    pub(crate) fn initial_q(&self) -> Vec<f64> {
        match &self.kind {
            BodyKind::Fixed { .. } | BodyKind::FixedSpatial { .. } => vec![],
            BodyKind::Planar { pose, .. } => vec![pose.position.x, pose.position.y, pose.angle],
            BodyKind::Spatial {
                position,
                orientation: r,
                ..
            } => vec![position.x, position.y, position.z, r.w, r.x, r.y, r.z],
        }
    }

    pub(crate) fn initial_v(&self) -> Vec<f64> {
        match &self.kind {
            BodyKind::Fixed { .. } | BodyKind::FixedSpatial { .. } => vec![],
            BodyKind::Planar {
                velocity,
                angular_velocity,
                ..
            } => vec![velocity.x, velocity.y, *angular_velocity],
            BodyKind::Spatial {
                velocity: u,
                angular_velocity: w,
                ..
            } => vec![u.x, u.y, u.z, w.x, w.y, w.z],
        }
    }

    /// The body's block of M at positions `q`: diag(m, m, I) in the plane; in space
    /// diag(m, m, m) and the world-axes inertia R diag(I) Rᵀ.
    pub(crate) fn mass_block(&self, q: &DVector<f64>) -> Option<DMatrix<f64>> {
        match self.kind {
            BodyKind::Fixed { .. } | BodyKind::FixedSpatial { .. } => None,
            BodyKind::Planar { mass, inertia, .. } => {
                Some(DMatrix::from_diagonal(&DVector::from_vec(vec![
                    mass, mass, inertia,
                ])))
            }
            BodyKind::Spatial { mass, .. } => {
                let world = self.world_inertia(q);
                let mut m = DMatrix::zeros(6, 6);
                for i in 0..3 {
                    m[(i, i)] = mass;
                    for j in 0..3 {
                        m[(3 + i, 3 + j)] = world.col(j)[i];
                    }
                }
                Some(m)
            }
        }
    }

    /// Inertia tensor in world axes, R diag(I) Rᵀ (zero for non-spatial bodies), kg·m².
    pub fn world_inertia(&self, q: &DVector<f64>) -> DMat3 {
        match self.kind {
            BodyKind::Spatial { inertia, .. } => {
                let r = DMat3::from_quat(self.orientation(q));
                r * DMat3::from_diagonal(inertia) * r.transpose()
            }
            _ => DMat3::ZERO,
        }
    }

    /// True when the inertia is the same about every axis (then M does not depend on q).
    pub fn is_isotropic(&self) -> bool {
        match self.kind {
            BodyKind::Spatial { inertia: i, .. } => i.x == i.y && i.y == i.z,
            _ => true,
        }
    }

    /// Pose in the plane at generalized positions `q` (planar and fixed planar bodies).
    pub fn pose(&self, q: &DVector<f64>) -> Pose {
        match &self.kind {
            BodyKind::Fixed { pose } => *pose,
            BodyKind::Planar { .. } => {
                let o = self.q_offset;
                Pose::new(DVec2::new(q[o], q[o + 1]), q[o + 2])
            }
            BodyKind::FixedSpatial { .. } | BodyKind::Spatial { .. } => {
                let p = self.position3(q);
                Pose::new(DVec2::new(p.x, p.y), 0.0)
            }
        }
    }

    /// Velocity of the reference point and angular velocity in the plane.
    pub fn twist(&self, v: &DVector<f64>) -> (DVec2, f64) {
        match self.kind {
            BodyKind::Planar { .. } => {
                let o = self.v_offset;
                (DVec2::new(v[o], v[o + 1]), v[o + 2])
            }
            _ => (DVec2::ZERO, 0.0),
        }
    }

    /// Position of the centre in space, m (planar bodies at z = 0).
    pub fn position3(&self, q: &DVector<f64>) -> DVec3 {
        match &self.kind {
            BodyKind::FixedSpatial { position, .. } => *position,
            BodyKind::Spatial { .. } => {
                let o = self.q_offset;
                DVec3::new(q[o], q[o + 1], q[o + 2])
            }
            _ => self.pose(q).position.extend(0.0),
        }
    }

    /// Orientation in space (planar bodies: a rotation about z).
    pub fn orientation(&self, q: &DVector<f64>) -> DQuat {
        match &self.kind {
            BodyKind::FixedSpatial { orientation, .. } => *orientation,
            BodyKind::Spatial { .. } => {
                let o = self.q_offset;
                DQuat::from_xyzw(q[o + 4], q[o + 5], q[o + 6], q[o + 3])
            }
            _ => DQuat::from_rotation_z(self.pose(q).angle),
        }
    }

    /// Linear and angular velocity in space (world axes).
    pub fn twist3(&self, v: &DVector<f64>) -> (DVec3, DVec3) {
        match self.kind {
            BodyKind::Spatial { .. } => {
                let o = self.v_offset;
                (
                    DVec3::new(v[o], v[o + 1], v[o + 2]),
                    DVec3::new(v[o + 3], v[o + 4], v[o + 5]),
                )
            }
            BodyKind::Planar { .. } => {
                let (u, w) = self.twist(v);
                (u.extend(0.0), DVec3::new(0.0, 0.0, w))
            }
            _ => (DVec3::ZERO, DVec3::ZERO),
        }
    }
}
