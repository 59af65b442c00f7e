//! Bilateral joints between two bodies: the constraints g(q, t) = 0 they impose.
//!
//! In the plane, with p_A = x_A + R_A r_A and p_B = x_B + R_B r_B the joint's points:
//!
//! - **revolute**: R_Bᵀ (p_A − p_B) = 0, two equations along B's body axes (each a
//!   point-on-line gap of A's point against a line of B, so its Jacobian row and J̇v come from
//!   the same kinematics as a contact's); **driven**, also θ_A − θ_B − (φ₀ + φ(t)) = 0, whose
//!   multiplier is the drive torque, with φ(t) = Ω t + A sin ωt ([`Drive`]): ∂g/∂t = −φ̇
//!   enters the velocity level and ∂²g/∂t² = −φ̈ the acceleration level;
//! - **prismatic**: n_B · (p_A − p_B) = 0 with n_B = R_B n̂ normal to the sliding axis, and
//!   θ_A − θ_B − φ₀ = 0;
//! - **weld**: the revolute pair and θ_A − θ_B − φ₀ = 0;
//! - **distance**: |p_A − p_B| − L = 0 (a massless rod between the two points; its row is the
//!   point-to-point gap's, along the line between them).
//!
//! φ₀ is the relative angle at the start. On a flexible beam a joint attaches at a node: its
//! point is the node, its frame the node's (x, y, θ), so a pin to a beam's end node holds the
//! node's position and a weld also its section's angle.
//!
//! In space, with R_A, R_B the bodies' rotations:
//!
//! - **spherical**: R_Bᵀ (p_A − p_B) = 0, three point equations along B's body axes;
//! - **revolute** about an axis a (fixed in A, a_B in B, equal at the start): the three point
//!   equations and the two axis equations (R_A a)·(R_B b_k) = 0, k = 1, 2, with b_1, b_2
//!   completing a_B to an orthonormal frame in B. Each is exact in its Jacobian:
//!   d/dt (u·w) = (ω_A − ω_B)·(u × w) for u fixed in A and w in B. **Driven**, also
//!   θ − φ(t) = 0 with θ the turn of A relative to B about the axis,
//!   θ = 2 atan2(a_B · vec(d), d_w), d = (q_B⁻¹ q_A)(q_B⁻¹ q_A)₀⁻¹ (the relative rotation
//!   since the start, in B's frame), and θ̇ = (R_B a_B)·(ω_A − ω_B) on the joint;
//! - **weld**: the point equations and three axis equations (R_A u_k)·(R_B w_l) = 0 over
//!   (k, l) = (1, 2), (2, 3), (3, 1), with u and w the world axes at the start fixed in A and
//!   B ([`Lock`]);
//! - **prismatic** along a direction n fixed in B: the point equations along B's two normals to
//!   n, and the weld's three axis equations;
//! - **distance**: as in the plane.

use glam::{DQuat, DVec2, DVec3};

/// A driven joint's prescribed relative turning since the start,
/// φ(t) = Ω t + A sin ωt: a constant speed with an oscillation on top.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Drive {
    /// Ω, rad/s.
    pub speed: f64,
    /// A, rad (0: none).
    pub amplitude: f64,
    /// ω, rad/s.
    pub frequency: f64,
}

impl Drive {
    /// Turning at constant speed Ω.
    pub fn constant(speed: f64) -> Self {
        Self {
            speed,
            amplitude: 0.0,
            frequency: 0.0,
        }
    }

    /// (φ, φ̇, φ̈) at time t.
    pub fn at(&self, t: f64) -> (f64, f64, f64) {
        let (w, a) = (self.frequency, self.amplitude);
        let (s, c) = (libm::sin(w * t), libm::cos(w * t));
        (
            self.speed * t + a * s,
            self.speed + a * w * c,
            -a * w * w * s,
        )
    }
}

/// The kinds of joint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum JointKind {
    /// A pin: the two anchor points coincide; the bodies turn freely about it, or as
    /// `drive` prescribes.
    Revolute {
        /// Prescribed relative turning θ_A − θ_B − φ₀ (None: free).
        drive: Option<Drive>,
    },
    /// A slider: A's anchor moves along the line of B through B's anchor with direction
    /// `axis` (in B's frame, unit); no relative rotation.
    Prismatic {
        /// Sliding direction in B's body frame (unit).
        axis: DVec2,
    },
    /// The bodies move as one.
    Weld,
    /// The anchors stay `length` apart.
    Distance {
        /// The distance held, m (> 0).
        length: f64,
    },
    /// A ball joint in space: the anchors coincide, the bodies turn freely.
    Spherical,
    /// A revolute joint in space (a hinge): the anchors coincide and A turns relative to B
    /// about one axis only, freely or at the relative speed `drive`.
    Hinge(Hinge),
    /// A weld in space: the anchors coincide and the bodies keep their relative orientation.
    Locked(Lock),
    /// A slider in space: A's anchor moves along B's line through B's anchor (direction
    /// fixed in B) and the bodies keep their relative orientation.
    Slider {
        /// The relative orientation held.
        lock: Lock,
        /// Two unit vectors in B's frame normal to the sliding direction.
        normals_b: [DVec3; 2],
    },
}

/// A relative orientation held in space: the world axes at the start, fixed in A and in B
/// (u_k in A's frame, w_k in B's), kept by (R_A u_1)·(R_B w_2) = (R_A u_2)·(R_B w_3) =
/// (R_A u_3)·(R_B w_1) = 0, three axis equations whose rows (along u_1 × w_2 ≈ e_3, …) are
/// independent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lock {
    /// The world axes at the start in A's body frame.
    pub axes_a: [DVec3; 3],
    /// The same in B's body frame.
    pub axes_b: [DVec3; 3],
}

impl Lock {
    /// The lock of bodies at orientations `a` and `b` (their starting poses).
    pub fn new(a: DQuat, b: DQuat) -> Self {
        let axes = [DVec3::X, DVec3::Y, DVec3::Z];
        Self {
            axes_a: axes.map(|e| a.inverse() * e),
            axes_b: axes.map(|e| b.inverse() * e),
        }
    }

    /// The pairs (k, l) of the three equations u_k · w_l = 0.
    pub const PAIRS: [(usize, usize); 3] = [(0, 1), (1, 2), (2, 0)];
}

/// The frames of a revolute joint in space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hinge {
    /// The turning axis in A's body frame (unit).
    pub axis_a: DVec3,
    /// The turning axis in B's body frame (unit; R_A axis_a = R_B axis_b at the start).
    pub axis_b: DVec3,
    /// Two unit vectors in B's frame completing `axis_b` to an orthonormal frame.
    pub normals_b: [DVec3; 2],
    /// The relative rotation q_B⁻¹ q_A at the start.
    pub rest: DQuat,
    /// Prescribed relative turning about the axis (None: free).
    pub drive: Option<Drive>,
}

impl Hinge {
    /// The hinge along the world direction `axis` between bodies at orientations `a` and
    /// `b` (their starting poses).
    pub fn new(axis: DVec3, (a, b): (DQuat, DQuat), drive: Option<Drive>) -> Self {
        let axis = axis.normalize();
        let axis_b = b.inverse() * axis;
        let [n1, n2] = crate::contact::tangent_frame(axis_b);
        Self {
            axis_a: a.inverse() * axis,
            axis_b,
            normals_b: [n1, n2],
            rest: b.inverse() * a,
            drive,
        }
    }

    /// The turn θ of A relative to B about the axis since the start, in (−π, π], for
    /// orientations `a` and `b` (module docs).
    pub fn turn(&self, a: DQuat, b: DQuat) -> f64 {
        let d = (b.inverse() * a) * self.rest.inverse();
        let d = if d.w < 0.0 { -d } else { d };
        2.0 * self.axis_b.dot(DVec3::new(d.x, d.y, d.z)).atan2(d.w)
    }
}

/// An angle wrapped into (−π, π].
pub fn wrap_angle(angle: f64) -> f64 {
    let turns = (angle / std::f64::consts::TAU).round();
    angle - turns * std::f64::consts::TAU
}

/// A joint between bodies `body_a` and `body_b` (either may be fixed, not both).
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// Name (for traces and messages).
    pub name: String,
    /// What it holds.
    pub kind: JointKind,
    /// Index of body A.
    pub body_a: usize,
    /// Index of body B.
    pub body_b: usize,
    /// The anchor in A's body frame, m (z = 0 in the plane).
    pub anchor_a: DVec3,
    /// The anchor in B's body frame, m (z = 0 in the plane).
    pub anchor_b: DVec3,
    /// θ_A − θ_B at the start, rad.
    pub angle0: f64,
    /// The beam node A's side attaches at (its frame is then the node's, (x, y, θ) in the
    /// plane or (x, R) in space, and `anchor_a` is zero); None for a rigid body, whose frame
    /// is its pose.
    pub node_a: Option<usize>,
    /// The same for B.
    pub node_b: Option<usize>,
}

impl Joint {
    /// True when the joint links bodies `i` and `j` (either order).
    pub fn links(&self, i: usize, j: usize) -> bool {
        (self.body_a == i && self.body_b == j) || (self.body_a == j && self.body_b == i)
    }

    /// The joint's points p_A and p_B in the world at positions `q`, with the frames of A
    /// and B they are fixed in (a body's pose, or a beam node's frame).
    pub fn points(
        &self,
        bodies: &[super::Body],
        q: &nalgebra::DVector<f64>,
    ) -> ((DVec2, super::Pose), (DVec2, super::Pose)) {
        let frame_a = bodies[self.body_a].frame(q, self.node_a);
        let frame_b = bodies[self.body_b].frame(q, self.node_b);
        (
            (frame_a.transform(self.anchor_a.truncate()), frame_a),
            (frame_b.transform(self.anchor_b.truncate()), frame_b),
        )
    }

    /// The joint's points p_A and p_B in space with the orientations of the frames they are
    /// fixed in (a body's, or a beam node's in space).
    pub fn points3(
        &self,
        bodies: &[super::Body],
        q: &nalgebra::DVector<f64>,
    ) -> ((DVec3, DQuat), (DVec3, DQuat)) {
        let point = |body: &super::Body, node: Option<usize>, anchor: DVec3| {
            let (x, r) = body.frame3(q, node);
            (x + r * anchor, r)
        };
        (
            point(&bodies[self.body_a], self.node_a, self.anchor_a),
            point(&bodies[self.body_b], self.node_b, self.anchor_b),
        )
    }

    /// A driven joint's prescribed turning.
    pub fn drive(&self) -> Option<Drive> {
        match self.kind {
            JointKind::Revolute { drive } => drive,
            JointKind::Hinge(h) => h.drive,
            _ => None,
        }
    }

    /// The prescribed relative angle θ_A − θ_B at time t, its rate and its acceleration,
    /// when the joint holds one (driven revolute, prismatic, weld).
    pub fn relative_angle(&self, t: f64) -> Option<(f64, f64, f64)> {
        match self.kind {
            JointKind::Revolute { drive: None }
            | JointKind::Distance { .. }
            | JointKind::Spherical
            | JointKind::Hinge(_)
            | JointKind::Locked(_)
            | JointKind::Slider { .. } => None,
            JointKind::Revolute { drive: Some(drive) } => {
                let (angle, rate, acceleration) = drive.at(t);
                Some((self.angle0 + angle, rate, acceleration))
            }
            JointKind::Prismatic { .. } | JointKind::Weld => Some((self.angle0, 0.0, 0.0)),
        }
    }
}
