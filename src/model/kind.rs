//! What every body kind supplies to the solvers: coordinates, mass block, forces, how positions integrate, point Jacobians.
//!
//! The steppers see a body only through this trait (by way of [`super::Body`] and
//! [`super::System`]), so a new kind — a flexible element with many nodes next — is one file
//! implementing it, plus its drawing. Every method takes the body's own slices of the
//! generalized positions q and velocities v.

use glam::{DMat3, DQuat, DVec3};
use nalgebra::DMatrix;

use super::Pose;
use crate::contact::RowEntries;

/// A kind of body: its generalized coordinates and how the mechanics reads them.
pub trait BodyModel {
    /// Number of generalized velocities (0 for a fixed body).
    fn dofs(&self) -> usize;
    /// Number of generalized positions (a quaternion has four entries for three rotations).
    fn positions(&self) -> usize;
    /// True for a body in space rather than in the plane.
    fn is_spatial(&self) -> bool;
    /// Mass, kg (0 for a fixed body).
    fn mass(&self) -> f64;
    /// The initial generalized positions.
    fn initial_q(&self) -> Vec<f64>;
    /// The initial generalized velocities.
    fn initial_v(&self) -> Vec<f64>;
    /// The body's (symmetric positive-definite) block of M at positions `q`, None when fixed.
    fn mass_block(&self, q: &[f64]) -> Option<DMatrix<f64>>;
    /// True when M does not depend on q (then it is assembled once).
    fn is_isotropic(&self) -> bool {
        true
    }
    /// Inertia tensor in world axes, kg·m² (zero where it does not apply).
    fn world_inertia(&self, _q: &[f64]) -> DMat3 {
        DMat3::ZERO
    }
    /// Position of the body origin (centre of mass), m; z = 0 in the plane.
    fn position(&self, q: &[f64]) -> DVec3;
    /// Orientation (a rotation about z in the plane).
    fn orientation(&self, q: &[f64]) -> DQuat;
    /// Pose in the plane (the projection of a spatial body).
    fn pose(&self, q: &[f64]) -> Pose;
    /// Velocity of the origin and angular velocity, in world axes.
    fn twist(&self, v: &[f64]) -> (DVec3, DVec3);
    /// The point Jacobian's transpose: the generalized entries (indices relative to the
    /// body's velocities) of the world directions (`linear`, `angular`), whose product with v
    /// is `linear`·v_origin + `angular`·ω. The same entries map a force and torque at the
    /// origin to a generalized force.
    fn jacobian(&self, linear: DVec3, angular: DVec3, out: &mut RowEntries);
    /// The Jacobian of a material point along a direction: the entries r with
    /// r·v = `direction` · (velocity of the material point now at `position(q) + arm`).
    /// For a rigid body that point moves with v_origin + ω × arm, so r·v =
    /// d·v_origin + (arm × d)·ω; a flexible element overrides this with its shape functions.
    fn point_jacobian(&self, _q: &[f64], arm: DVec3, direction: DVec3, out: &mut RowEntries) {
        self.jacobian(direction, arm.cross(direction), out);
    }
    /// The Jacobian of the material's rotation at a point along an axis: r·v = `axis` · ω
    /// there (rigid: the body's ω everywhere).
    fn rotation_jacobian(&self, _q: &[f64], _arm: DVec3, axis: DVec3, out: &mut RowEntries) {
        self.jacobian(DVec3::ZERO, axis, out);
    }
    /// Adds gravity and the body's own velocity-dependent forces (gyroscopic) to `f`.
    fn add_forces(&self, q: &[f64], v: &[f64], gravity: DVec3, f: &mut [f64]);
    /// True when [`BodyModel::add_forces`] depends on q or v (internal or gyroscopic forces):
    /// an implicit stepper must then iterate on them.
    fn forces_depend_on_state(&self) -> bool {
        false
    }
    /// Adds `kq`·∂f/∂q + `kv`·∂f/∂v of the body's own forces to `out` (the body's dofs ×
    /// dofs block) and returns true; false when the kind gives no analytic tangent (the
    /// stepper then differentiates numerically).
    fn add_force_tangent(
        &self,
        _q: &[f64],
        _v: &[f64],
        _kq: f64,
        _kv: f64,
        _out: &mut DMatrix<f64>,
    ) -> bool {
        !self.forces_depend_on_state()
    }
    /// Solves (M − kq ∂f/∂q − kv ∂f/∂v) x = r over the body's own coordinates when the kind
    /// can do it faster than a dense factorisation (a beam: inside its band); None otherwise.
    fn solve_tangent(
        &self,
        _q: &[f64],
        _v: &[f64],
        _k: (f64, f64),
        _r: &nalgebra::DVector<f64>,
    ) -> Option<nalgebra::DVector<f64>> {
        None
    }
    /// Potential energy of gravity and of the body's own elastic forces, J (zero at the
    /// origin): −m g·x for a rigid body.
    fn potential_energy(&self, q: &[f64], gravity: DVec3) -> f64 {
        -self.mass() * gravity.dot(self.position(q))
    }
    /// The frame (position, angle) of node `node` of a body made of nodes (a beam's
    /// (x, y, θ)), where joints attach; None for a rigid body, whose frame is its pose.
    fn node_pose(&self, _q: &[f64], _node: usize) -> Option<super::Pose> {
        None
    }
    /// The frame (position, orientation) of node `node` of a body in space made of nodes (a
    /// beam's), where joints attach; None for a rigid body, whose frame is its own.
    fn node_frame3(&self, _q: &[f64], _node: usize) -> Option<(DVec3, DQuat)> {
        None
    }
    /// Writes q ⊕ Δ into `out` (vector addition, or the exponential map for a rotation).
    fn displace(&self, q: &[f64], delta: &[f64], out: &mut [f64]);
    /// Names with units of the generalized positions and velocities (trace and CSV layout).
    fn coordinate_names(&self) -> (Vec<String>, Vec<String>);
}
