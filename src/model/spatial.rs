//! A rigid body in space: q = (x, y, z, q_w, q_x, q_y, q_z), v = (v, ω) with ω in world axes; rotations by the exponential map.

use glam::{DMat3, DQuat, DVec2, DVec3};
use nalgebra::DMatrix;

use super::Pose;
use super::kind::BodyModel;
use crate::contact::RowEntries;

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

/// A rigid body in space.
#[derive(Debug, Clone, PartialEq)]
pub struct SpatialRigid {
    /// Mass, kg (> 0).
    pub mass: f64,
    /// Principal moments of inertia about the centre (body axes), kg·m².
    pub inertia: DVec3,
    /// Initial position of the centre, m.
    pub position: DVec3,
    /// Initial orientation.
    pub orientation: DQuat,
    /// Initial velocity of the centre, m/s.
    pub velocity: DVec3,
    /// Initial angular velocity (world axes), rad/s.
    pub angular_velocity: DVec3,
}

impl BodyModel for SpatialRigid {
    fn dofs(&self) -> usize {
        6
    }
    fn positions(&self) -> usize {
        7
    }
    fn is_spatial(&self) -> bool {
        true
    }
    fn mass(&self) -> f64 {
        self.mass
    }
    fn initial_q(&self) -> Vec<f64> {
        let (p, r) = (self.position, self.orientation);
        vec![p.x, p.y, p.z, r.w, r.x, r.y, r.z]
    }
    fn initial_v(&self) -> Vec<f64> {
        let (u, w) = (self.velocity, self.angular_velocity);
        vec![u.x, u.y, u.z, w.x, w.y, w.z]
    }
    /// diag(m, m, m) and the world-axes inertia R diag(I) Rᵀ.
    fn mass_block(&self, q: &[f64]) -> Option<DMatrix<f64>> {
        let world = self.world_inertia(q);
        let mut m = DMatrix::zeros(6, 6);
        for i in 0..3 {
            m[(i, i)] = self.mass;
            for j in 0..3 {
                m[(3 + i, 3 + j)] = world.col(j)[i];
            }
        }
        Some(m)
    }
    fn is_isotropic(&self) -> bool {
        let i = self.inertia;
        i.x == i.y && i.y == i.z
    }
    fn world_inertia(&self, q: &[f64]) -> DMat3 {
        let r = DMat3::from_quat(self.orientation(q));
        r * DMat3::from_diagonal(self.inertia) * r.transpose()
    }
    fn position(&self, q: &[f64]) -> DVec3 {
        DVec3::new(q[0], q[1], q[2])
    }
    fn orientation(&self, q: &[f64]) -> DQuat {
        DQuat::from_xyzw(q[4], q[5], q[6], q[3])
    }
    fn pose(&self, q: &[f64]) -> Pose {
        Pose::new(DVec2::new(q[0], q[1]), 0.0)
    }
    fn twist(&self, v: &[f64]) -> (DVec3, DVec3) {
        (DVec3::new(v[0], v[1], v[2]), DVec3::new(v[3], v[4], v[5]))
    }
    fn jacobian(&self, linear: DVec3, angular: DVec3, out: &mut RowEntries) {
        // One reservation for the six entries (six pushes check the capacity six times).
        out.extend_from_slice(&[
            (0, linear.x),
            (1, linear.y),
            (2, linear.z),
            (3, angular.x),
            (4, angular.y),
            (5, angular.z),
        ]);
    }
    fn forces_depend_on_state(&self) -> bool {
        true
    }
    /// Gravity and the gyroscopic term −ω × (I ω).
    fn add_forces(&self, q: &[f64], v: &[f64], gravity: DVec3, f: &mut [f64]) {
        let (_, w) = self.twist(v);
        let gyro = -w.cross(self.world_inertia(q) * w);
        for k in 0..3 {
            f[k] += self.mass * gravity[k];
            f[3 + k] += gyro[k];
        }
    }
    /// kq ∂g/∂θ + kv ∂g/∂ω of the gyroscopic term g = −ω × (I_w ω), I_w = R I Rᵀ, for a turn
    /// R ← exp(δθ) R (world axes): δI_w = \[δθ\]× I_w − I_w \[δθ\]×, so
    /// ∂g/∂θ = \[ω\]×\[I_w ω\]× − \[ω\]× I_w \[ω\]× and ∂g/∂ω = \[I_w ω\]× − \[ω\]× I_w (gravity is
    /// constant).
    fn add_force_tangent(
        &self,
        q: &[f64],
        v: &[f64],
        kq: f64,
        kv: f64,
        out: &mut DMatrix<f64>,
    ) -> bool {
        let (_, w) = self.twist(v);
        let inertia = self.world_inertia(q);
        let (sw, siw) = (skew(w), skew(inertia * w));
        let dq = sw * siw - sw * inertia * sw;
        let dv = siw - sw * inertia;
        let k = dq * kq + dv * kv;
        for i in 0..3 {
            for j in 0..3 {
                out[(3 + i, 3 + j)] += k.col(j)[i];
            }
        }
        true
    }
    /// The centre adds; the orientation turns by the exponential map, R ← exp(Δθ) R with Δθ
    /// in world axes, so the quaternion stays unit to rounding (no renormalised Euler step).
    fn displace(&self, q: &[f64], delta: &[f64], out: &mut [f64]) {
        for k in 0..3 {
            out[k] = q[k] + delta[k];
        }
        let turn = DVec3::new(delta[3], delta[4], delta[5]);
        // normalize() only removes rounding; the exponential map is already unit.
        let r = (DQuat::from_scaled_axis(turn) * self.orientation(q)).normalize();
        out[3] = r.w;
        out[4] = r.x;
        out[5] = r.y;
        out[6] = r.z;
    }
    fn coordinate_names(&self) -> (Vec<String>, Vec<String>) {
        super::planar::names(SPATIAL_COORDINATES)
    }
}

/// \[a\]×, the matrix of a × (·).
fn skew(a: DVec3) -> DMat3 {
    DMat3::from_cols_array(&[0.0, a.z, -a.y, -a.z, 0.0, a.x, a.y, -a.x, 0.0])
}

/// The angular velocity change h ω̇ of a free rigid body over a step of `h` by backward Euler
/// in its spin: ω₁ = ω₀ + Δ solves I_w (ω₁ − ω₀) = h τ − h ω₁ × I_w ω₁, where `angular`
/// = τ − ω₀ × I_w ω₀ is the torque with the gyroscopic term at ω₀ (what
/// [`BodyModel::add_forces`] gives). Explicit Euler, Δ = h I_w⁻¹ `angular`, gains energy
/// at every step of a body turning about other than a principal axis, and diverges once h ω is
/// a sizeable fraction of a radian; backward Euler loses energy and angular momentum instead
/// (the step's equation dotted with ω₁ gives 2T₁ = ω₁ᵀ I_w ω₀ ≤ √(2T₁ 2T₀); and L₁ + h ω₁ × L₁ =
/// L₀ gives |L₁| ≤ |L₀|). Newton on r(ω) = I_w (ω − ω₀) − h τ + h ω × I_w ω, whose Jacobian is
/// I_w + h (\[ω\]× I_w − \[I_w ω\]×), from ω₀: its first step is Catto's one-step gyroscopic
/// update; a few more solve the equation to rounding.
pub fn backward_euler_spin(inertia: DMat3, omega: DVec3, angular: DVec3, h: f64) -> DVec3 {
    // h τ, from `angular` = τ − ω₀ × I_w ω₀.
    let impulse = h * (angular + omega.cross(inertia * omega));
    let mut w = omega;
    for _ in 0..8 {
        let residual = inertia * (w - omega) - impulse + h * w.cross(inertia * w);
        let jacobian = inertia + h * (skew(w) * inertia - skew(inertia * w));
        let step = jacobian.inverse() * residual;
        w -= step;
        // (NaN ends it too.)
        if step.length().partial_cmp(&(1e-15 * w.length())) != Some(std::cmp::Ordering::Greater) {
            break;
        }
    }
    let change = w - omega;
    if change.is_finite() {
        change
    } else {
        // A singular Newton matrix (h ω far beyond a radian): the explicit change, whose
        // growth the step's checks report as a divergence.
        h * (inertia.inverse() * angular)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gyroscopic_tangent_is_the_derivative_of_the_gyroscopic_force() {
        let body = SpatialRigid {
            mass: 2.0,
            inertia: DVec3::new(0.1, 0.3, 0.5),
            position: DVec3::ZERO,
            orientation: DQuat::from_scaled_axis(DVec3::new(0.3, -0.2, 0.9)),
            velocity: DVec3::ZERO,
            angular_velocity: DVec3::new(1.5, -2.0, 0.7),
        };
        let (q, v) = (body.initial_q(), body.initial_v());
        let force = |q: &[f64], v: &[f64]| {
            let mut f = vec![0.0; 6];
            body.add_forces(q, v, DVec3::ZERO, &mut f);
            f
        };
        for (kq, kv) in [(1.0, 0.0), (0.0, 1.0)] {
            let mut k = DMatrix::zeros(6, 6);
            assert!(body.add_force_tangent(&q, &v, kq, kv, &mut k));
            let h = 1e-7;
            for j in 0..3 {
                let (mut qp, mut qm) = (q.clone(), q.clone());
                let (mut vp, mut vm) = (v.clone(), v.clone());
                let mut d = vec![0.0; 6];
                d[3 + j] = h;
                if kq > 0.0 {
                    body.displace(&q, &d, &mut qp);
                    d[3 + j] = -h;
                    body.displace(&q, &d, &mut qm);
                } else {
                    vp[3 + j] += h;
                    vm[3 + j] -= h;
                }
                let (fp, fm) = (force(&qp, &vp), force(&qm, &vm));
                for i in 0..3 {
                    let fd = (fp[3 + i] - fm[3 + i]) / (2.0 * h);
                    assert!(
                        (fd - k[(3 + i, 3 + j)]).abs() < 1e-6,
                        "({i}, {j}) {fd} against {}",
                        k[(3 + i, 3 + j)]
                    );
                }
            }
        }
    }
}
