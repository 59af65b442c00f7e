//! Bilateral joints between two bodies: the constraint g(q) = 0 they impose and the pins they
//! are drawn with.
//!
//! A planar revolute joint holds a material point of A on a material point of B:
//! g = R_Bᵀ (p_A − p_B) = 0 with p_A = x_A + R_A r_A and p_B = x_B + R_B r_B, two equations
//! written along B's body axes (so each is a point-on-surface gap of A's point against a line
//! of B, and its Jacobian row and J̇v come from the same kinematics as a contact's).

use glam::DVec2;

/// The kinds of joint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JointKind {
    /// A pin in the plane: the two anchor points coincide, the bodies turn freely.
    Revolute,
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
}

impl Joint {
    /// Number of scalar equations g = 0.
    pub fn equations(&self) -> usize {
        match self.kind {
            JointKind::Revolute => 2,
        }
    }

    /// True when the joint links bodies `i` and `j` (either order).
    pub fn links(&self, i: usize, j: usize) -> bool {
        (self.body_a == i && self.body_b == j) || (self.body_a == j && self.body_b == i)
    }
}
