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

/// The largest ball a law projects onto: a Coulomb or rolling disc (two rows).
pub const MAX_BALL: usize = 2;

/// P_B(r)(x) with its derivatives, for x of at most [`MAX_BALL`] entries (the rest zero).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BallProjection {
    /// P.
    pub p: [f64; MAX_BALL],
    /// ∂P/∂x, row-major.
    pub dp_dx: [[f64; MAX_BALL]; MAX_BALL],
    /// ∂P/∂r.
    pub dp_dr: [f64; MAX_BALL],
    /// Which branch applied.
    pub case: BallCase,
}

/// P_B(r)(x) with ∂P/∂x and ∂P/∂r, on the stack (this runs for every law of every residual).
pub fn project_ball(x: &[f64], r: f64) -> BallProjection {
    let k = x.len();
    debug_assert!(k <= MAX_BALL, "a ball law has at most {MAX_BALL} rows");
    let mut out = BallProjection {
        p: [0.0; MAX_BALL],
        dp_dx: [[0.0; MAX_BALL]; MAX_BALL],
        dp_dr: [0.0; MAX_BALL],
        case: BallCase::Open,
    };
    if r <= 0.0 {
        return out;
    }
    let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    if norm <= r {
        out.p[..k].copy_from_slice(x);
        for i in 0..k {
            out.dp_dx[i][i] = 1.0;
        }
        out.case = BallCase::Inside;
        return out;
    }
    let mut unit = [0.0; MAX_BALL];
    for i in 0..k {
        unit[i] = x[i] / norm;
    }
    let scale = r / norm;
    for i in 0..k {
        out.p[i] = unit[i] * r;
        out.dp_dr[i] = unit[i];
        for j in 0..k {
            let identity = if i == j { 1.0 } else { 0.0 };
            out.dp_dx[i][j] = (identity - unit[i] * unit[j]) * scale;
        }
    }
    out.case = BallCase::Boundary;
    out
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
