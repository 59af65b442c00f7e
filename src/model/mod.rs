//! The mechanical system in generalized coordinates: bodies, their state (q, v), M and f(q, v, t).
//!
//! Every stepper sees the system only through this module: the generalized positions q and
//! velocities v (one block per body, fixed bodies have none), the block-diagonal mass matrix
//! ([`mass::BlockDiagonalMass`]), the generalized force vector f(q, v, t) ([`forces`]) and a
//! position update q ← q ⊕ h v that each body kind defines for itself. A new body kind
//! (a spatial rigid body with a quaternion, a flexible element) adds a [`BodyKind`] variant and
//! its blocks; the solvers do not change.

pub mod body;
pub mod forces;
pub mod mass;

pub use body::{Body, BodyKind, Pose};
pub use forces::{AppliedForce, ForceLaw};
pub use mass::BlockDiagonalMass;

use glam::DVec2;
use nalgebra::DVector;

/// The bodies, the applied loads and the generalized state of the whole system.
#[derive(Debug, Clone)]
pub struct System {
    /// All bodies in scene order; fixed bodies carry no degrees of freedom.
    pub bodies: Vec<Body>,
    /// Gravitational acceleration, m/s² (usually (0, −9.81)).
    pub gravity: DVec2,
    /// Loads other than gravity, from the scene.
    pub forces: Vec<AppliedForce>,
    /// Loads set while running (a user dragging or pushing a body).
    pub pushes: Vec<AppliedForce>,
    /// Generalized positions (x, y, θ per planar body), m and rad.
    pub q: DVector<f64>,
    /// Generalized velocities (vx, vy, ω per planar body), m/s and rad/s.
    pub v: DVector<f64>,
    /// Time, s.
    pub t: f64,
    mass: BlockDiagonalMass,
}

impl System {
    /// Assembles a system; each moving body is given its slice of q and v in order.
    pub fn new(mut bodies: Vec<Body>, gravity: DVec2, forces: Vec<AppliedForce>) -> Self {
        let mut q = Vec::new();
        let mut v = Vec::new();
        let mut blocks = Vec::new();
        for body in bodies.iter_mut() {
            body.dof_offset = q.len();
            q.extend_from_slice(&body.initial_q());
            v.extend_from_slice(&body.initial_v());
            if let Some(block) = body.mass_block() {
                blocks.push((body.dof_offset, block));
            }
        }
        let mass = BlockDiagonalMass::new(q.len(), blocks);
        Self {
            bodies,
            gravity,
            forces,
            pushes: Vec::new(),
            q: DVector::from_vec(q),
            v: DVector::from_vec(v),
            t: 0.0,
            mass,
        }
    }

    /// Number of generalized velocities.
    pub fn dofs(&self) -> usize {
        self.v.len()
    }

    /// The mass matrix M (constant for planar bodies).
    pub fn mass(&self) -> &BlockDiagonalMass {
        &self.mass
    }

    /// Pose of body `i` at the generalized positions `q`.
    pub fn pose(&self, i: usize, q: &DVector<f64>) -> Pose {
        self.bodies[i].pose(q)
    }

    /// Velocity (v, ω) of body `i` at generalized velocities `v` (zero for fixed bodies).
    pub fn twist(&self, i: usize, v: &DVector<f64>) -> (DVec2, f64) {
        self.bodies[i].twist(v)
    }

    /// Generalized force f(q, v, t): gravity plus every applied load, N and N·m.
    pub fn generalized_forces(&self, q: &DVector<f64>, v: &DVector<f64>, t: f64) -> DVector<f64> {
        let mut f = DVector::zeros(self.dofs());
        for body in &self.bodies {
            if let BodyKind::Planar { mass, .. } = body.kind {
                let o = body.dof_offset;
                f[o] += mass * self.gravity.x;
                f[o + 1] += mass * self.gravity.y;
            }
        }
        for load in self.forces.iter().chain(&self.pushes) {
            load.add_to(self, q, v, t, &mut f);
        }
        f
    }

    /// Position update q ⊕ h·v for the velocity `v` held over a step of length `h`.
    pub fn integrate_positions(&self, q: &DVector<f64>, v: &DVector<f64>, h: f64) -> DVector<f64> {
        // Planar bodies: (x, y, θ) are coordinates, so the update is linear. A spatial body
        // would apply the exponential map to its quaternion block here.
        q + v * h
    }

    /// Kinetic energy ½ vᵀ M v, J.
    pub fn kinetic_energy(&self, v: &DVector<f64>) -> f64 {
        0.5 * v.dot(&self.mass.apply(v))
    }

    /// Gravitational potential energy −Σ m g·x, J (zero at the origin).
    pub fn potential_energy(&self, q: &DVector<f64>) -> f64 {
        self.bodies
            .iter()
            .map(|b| match b.kind {
                BodyKind::Planar { mass, .. } => {
                    let p = b.pose(q).position;
                    -mass * self.gravity.dot(p)
                }
                BodyKind::Fixed { .. } => 0.0,
            })
            .sum()
    }

    /// Index of the body called `name`.
    pub fn body_index(&self, name: &str) -> Option<usize> {
        self.bodies.iter().position(|b| b.name == name)
    }
}
