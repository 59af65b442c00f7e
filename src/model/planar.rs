//! A rigid body in the plane: q = (x, y, θ), v = (vx, vy, ω), M = diag(m, m, I).

use glam::{DQuat, DVec2, DVec3};
use nalgebra::{DMatrix, DVector};

use super::Pose;
use super::kind::BodyModel;
use crate::contact::RowEntries;

/// A planar rigid body's generalized positions and velocities (names with units): also the
/// layout of the wasm `bodyPoses()` and `bodyVelocities()` arrays.
pub const PLANAR_COORDINATES: (&[&str], &[&str]) = (
    &["x [m]", "y [m]", "theta [rad]"],
    &["vx [m/s]", "vy [m/s]", "omega [rad/s]"],
);

/// A constant name table as owned names (the form [`BodyModel::coordinate_names`] returns).
pub(crate) fn names((q, v): (&[&str], &[&str])) -> (Vec<String>, Vec<String>) {
    let own = |list: &[&str]| list.iter().map(|s| s.to_string()).collect();
    (own(q), own(v))
}

/// A rigid body moving in the plane.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanarRigid {
    /// Mass, kg (> 0).
    pub mass: f64,
    /// Moment of inertia about the centre of mass, kg·m² (> 0).
    pub inertia: f64,
    /// Initial pose.
    pub pose: Pose,
    /// Initial velocity of the centre of mass, m/s.
    pub velocity: DVec2,
    /// Initial angular velocity, rad/s.
    pub angular_velocity: f64,
}

impl BodyModel for PlanarRigid {
    fn dofs(&self) -> usize {
        3
    }
    fn positions(&self) -> usize {
        3
    }
    fn is_spatial(&self) -> bool {
        false
    }
    fn mass(&self) -> f64 {
        self.mass
    }
    fn initial_q(&self) -> Vec<f64> {
        vec![self.pose.position.x, self.pose.position.y, self.pose.angle]
    }
    fn initial_v(&self) -> Vec<f64> {
        vec![self.velocity.x, self.velocity.y, self.angular_velocity]
    }
    fn mass_block(&self, _q: &[f64]) -> Option<DMatrix<f64>> {
        Some(DMatrix::from_diagonal(&DVector::from_vec(vec![
            self.mass,
            self.mass,
            self.inertia,
        ])))
    }
    fn position(&self, q: &[f64]) -> DVec3 {
        DVec3::new(q[0], q[1], 0.0)
    }
    fn orientation(&self, q: &[f64]) -> DQuat {
        DQuat::from_rotation_z(q[2])
    }
    fn pose(&self, q: &[f64]) -> Pose {
        Pose::new(DVec2::new(q[0], q[1]), q[2])
    }
    fn twist(&self, v: &[f64]) -> (DVec3, DVec3) {
        (DVec3::new(v[0], v[1], 0.0), DVec3::new(0.0, 0.0, v[2]))
    }
    /// The in-plane components: x, y of the linear part and z of the angular part.
    fn jacobian(&self, linear: DVec3, angular: DVec3, out: &mut RowEntries) {
        out.extend_from_slice(&[(0, linear.x), (1, linear.y), (2, angular.z)]);
    }
    fn add_forces(&self, _q: &[f64], _v: &[f64], gravity: DVec3, f: &mut [f64]) {
        f[0] += self.mass * gravity.x;
        f[1] += self.mass * gravity.y;
    }
    /// Coordinates add: (x, y, θ) + Δ.
    fn displace(&self, q: &[f64], delta: &[f64], out: &mut [f64]) {
        for k in 0..3 {
            out[k] = q[k] + delta[k];
        }
    }
    fn coordinate_names(&self) -> (Vec<String>, Vec<String>) {
        names(PLANAR_COORDINATES)
    }
}
