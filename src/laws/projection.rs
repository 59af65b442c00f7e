//! Projections onto the admissible sets of the contact laws, with their generalized Jacobians.
//!
//! The normal law projects onto ℝ⁺, Coulomb friction and rolling resistance onto a disc of
//! radius μN or ρN (a segment in the plane), spinning resistance onto [−γN, γN]. For a point
//! x and radius r ≥ 0 the projection onto the ball B(r) and its derivatives are
//!
//! ```text
//!     |x| ≤ r  (stick / no-roll / no-spin):  P = x,          ∂P/∂x = I,                  ∂P/∂r = 0
//!     |x| > r  (slip / rolling / spinning):  P = r x/|x|,    ∂P/∂x = (r/|x|)(I − x̂x̂ᵀ),   ∂P/∂r = x̂
//! ```
//!
//! which are the case distinctions of the seed's Appendix B (Eqs. 55–58); r = 0 (an open
//! contact) gives P = 0 with zero derivatives.

use nalgebra::{DMatrix, DVector};

/// Which branch of a ball projection applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BallCase {
    /// Radius zero: the contact is open, the multiplier vanishes.
    Open,
    /// Inside the ball: the relative motion is held (stick, no-roll, no-spin).
    Inside,
    /// On the boundary: the multiplier is at its bound and opposes the motion.
    Boundary,
}

/// P_B(r)(x) with ∂P/∂x and ∂P/∂r.
pub fn project_ball(
    x: &DVector<f64>,
    r: f64,
) -> (DVector<f64>, DMatrix<f64>, DVector<f64>, BallCase) {
    let k = x.len();
    if r <= 0.0 {
        return (
            DVector::zeros(k),
            DMatrix::zeros(k, k),
            DVector::zeros(k),
            BallCase::Open,
        );
    }
    let norm = x.norm();
    if norm <= r {
        return (
            x.clone(),
            DMatrix::identity(k, k),
            DVector::zeros(k),
            BallCase::Inside,
        );
    }
    let unit = x / norm;
    let d = (DMatrix::identity(k, k) - &unit * unit.transpose()) * (r / norm);
    (&unit * r, d, unit, BallCase::Boundary)
}

/// Projects the slice `x` in place onto the ball of radius `radius` (a segment in one
/// dimension), without derivatives; true when it was outside (the law at its bound).
pub fn clamp_to_ball(x: &mut [f64], radius: f64) -> bool {
    let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    if norm <= radius {
        return false;
    }
    let s = if norm > 0.0 { radius / norm } else { 0.0 };
    x.iter_mut().for_each(|v| *v *= s);
    true
}
