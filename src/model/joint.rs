//! Bilateral joints between two bodies: the constraints g(q, t) = 0 they impose.
//!
//! In the plane, with p_A = x_A + R_A r_A and p_B = x_B + R_B r_B the joint's points:
//!
//! - **revolute**: R_Bᵀ (p_A − p_B) = 0, two equations along B's body axes (each a
//!   point-on-line gap of A's point against a line of B, so its Jacobian row and J̇v come from
//!   the same kinematics as a contact's); **driven**, also θ_A − θ_B − (φ₀ + Ω t) = 0, whose
//!   multiplier is the drive torque;
//! - **prismatic**: n_B · (p_A − p_B) = 0 with n_B = R_B n̂ normal to the sliding axis, and
//!   θ_A − θ_B − φ₀ = 0;
//! - **weld**: the revolute pair and θ_A − θ_B − φ₀ = 0;
//! - **distance**: |p_A − p_B| − L = 0 (a massless rod between the two points; its row is the
//!   point-to-point gap's, along the line between them).
//!
//! φ₀ is the relative angle at the start. On a flexible beam a joint attaches at a node: its
//! point is the node, its frame the node's (x, y, θ), so a pin to a beam's end node holds the
//! node's position and a weld also its section's angle.

use glam::DVec2;

/// The kinds of joint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum JointKind {
    /// A pin: the two anchor points coincide; the bodies turn freely about it, or at the
    /// relative speed `drive` (rad/s) when driven.
    Revolute {
        /// Prescribed relative angular speed θ̇_A − θ̇_B, rad/s (None: free).
        drive: Option<f64>,
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
    /// The anchor in A's body frame, m.
    pub anchor_a: DVec2,
    /// The anchor in B's body frame, m.
    pub anchor_b: DVec2,
    /// θ_A − θ_B at the start, rad.
    pub angle0: f64,
    /// The beam node A's side attaches at (its frame is then the node's (x, y, θ) and
    /// `anchor_a` is zero); None for a rigid body, whose frame is its pose.
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
            (frame_a.transform(self.anchor_a), frame_a),
            (frame_b.transform(self.anchor_b), frame_b),
        )
    }

    /// The prescribed relative angle θ_A − θ_B at time t and its rate, when the joint holds
    /// one (driven revolute, prismatic, weld).
    pub fn relative_angle(&self, t: f64) -> Option<(f64, f64)> {
        match self.kind {
            JointKind::Revolute { drive: None } | JointKind::Distance { .. } => None,
            JointKind::Revolute { drive: Some(speed) } => Some((self.angle0 + speed * t, speed)),
            JointKind::Prismatic { .. } | JointKind::Weld => Some((self.angle0, 0.0)),
        }
    }
}
