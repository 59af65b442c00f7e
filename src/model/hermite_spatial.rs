//! A spatial co-rotational element's deformed centreline: the cubic Hermite curve between its nodes, its nearest point to a given point, and that material point's exact Jacobian.
//!
//! With the nodes x₁, x₂, Δ = x₂ − x₁, l = |Δ| and the sections' unit tangents tᵢ = Rᵢ Cᵢᵀ e₁
//! (the element's first axis carried by each node's rotation; [`super::corotational_spatial`]),
//! the centreline is the cubic Hermite curve through the nodes with end tangents l tᵢ:
//!
//! ```text
//!     p(ξ) = x₁ + ξ Δ + H₁(ξ) (l t₁ − Δ) + H₂(ξ) (l t₂ − Δ),
//!     H₁ = ξ − 2ξ² + ξ³,   H₂ = ξ³ − ξ²
//! ```
//!
//! In the plane l tᵢ − Δ = θ̄ᵢ Δ⊥ + O(θ̄²), the planar curve of [`super::hermite`].
//!
//! **The material point at fixed ξ.** With δl = e₁·δΔ and δtᵢ = δθᵢ × tᵢ,
//!
//! ```text
//!     δp = δx₁ + ξ δΔ + H₁ (δl t₁ + l δθ₁ × t₁ − δΔ) + H₂ (δl t₂ + l δθ₂ × t₂ − δΔ)
//! ```
//!
//! so d·δp is linear in (δx₁, δθ₁, δx₂, δθ₂) with the twelve coefficients of
//! [`SpatialSegment::row`]. A gap measured from the nearest point moves only with that
//! material point (the nearest ξ moves along p′, normal to the gap), so the row is the exact
//! gap rate.

use glam::{DQuat, DVec3};

use super::corotational_spatial::NodeFrame;

/// One element's centreline at one configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpatialSegment {
    /// x₁, m.
    pub start: DVec3,
    /// Δ = x₂ − x₁, m.
    pub chord: DVec3,
    /// t₁, t₂.
    pub tangents: [DVec3; 2],
}

/// H₁, H₂ and their first two derivatives in ξ.
fn shape(xi: f64) -> [[f64; 2]; 3] {
    let (x2, x3) = (xi * xi, xi * xi * xi);
    [
        [xi - 2.0 * x2 + x3, x3 - x2],
        [1.0 - 4.0 * xi + 3.0 * x2, 3.0 * x2 - 2.0 * xi],
        [6.0 * xi - 4.0, 6.0 * xi - 2.0],
    ]
}

impl SpatialSegment {
    /// The element between nodes `a` and `b` whose reference offsets are `offset` (Cᵢ).
    pub fn new(a: NodeFrame, b: NodeFrame, offset: [DQuat; 2]) -> Self {
        let tangent = |r: DQuat, c: DQuat| (r * c.conjugate()) * DVec3::X;
        Self {
            start: a.0,
            chord: b.0 - a.0,
            tangents: [tangent(a.1, offset[0]), tangent(b.1, offset[1])],
        }
    }

    /// l tᵢ − Δ: each end's deflection direction.
    fn bends(&self) -> [DVec3; 2] {
        let l = self.chord.length();
        self.tangents.map(|t| t * l - self.chord)
    }

    /// p(ξ).
    pub fn point(&self, xi: f64) -> DVec3 {
        let [h, _, _] = shape(xi);
        let [b1, b2] = self.bends();
        self.start + self.chord * xi + b1 * h[0] + b2 * h[1]
    }

    /// p′(ξ) (not unit).
    pub fn tangent(&self, xi: f64) -> DVec3 {
        let [_, h, _] = shape(xi);
        let [b1, b2] = self.bends();
        self.chord + b1 * h[0] + b2 * h[1]
    }

    fn curvature(&self, xi: f64) -> DVec3 {
        let [_, _, h] = shape(xi);
        let [b1, b2] = self.bends();
        b1 * h[0] + b2 * h[1]
    }

    /// The ξ ∈ [0, 1] of the curve's nearest point to `p`, and its distance: Newton on
    /// ½|p(ξ) − p|² from the best of a few samples, clamped to the element.
    pub fn nearest(&self, p: DVec3) -> (f64, f64) {
        let mut xi = (0..=4)
            .map(|k| k as f64 / 4.0)
            .min_by(|a, b| {
                self.point(*a)
                    .distance_squared(p)
                    .total_cmp(&self.point(*b).distance_squared(p))
            })
            .unwrap_or(0.0);
        for _ in 0..30 {
            let r = self.point(xi) - p;
            let t = self.tangent(xi);
            let g = t.dot(r);
            let h = self.curvature(xi).dot(r) + t.length_squared();
            let step = if h > 0.0 {
                g / h
            } else {
                g / t.length_squared()
            };
            let next = (xi - step).clamp(0.0, 1.0);
            let done = (next - xi).abs() < 1e-14;
            xi = next;
            if done {
                break;
            }
        }
        (xi, self.point(xi).distance(p))
    }

    /// The coefficients r of d·δp at fixed ξ over (δx₁, δθ₁, δx₂, δθ₂) (module docs).
    pub fn row(&self, xi: f64, d: DVec3) -> [f64; 12] {
        let [h, _, _] = shape(xi);
        let l = self.chord.length();
        let e1 = self.chord / l;
        let [t1, t2] = self.tangents;
        let on_chord = d * (xi - h[0] - h[1]) + e1 * (h[0] * d.dot(t1) + h[1] * d.dot(t2));
        let start = d - on_chord;
        let (r1, r2) = (t1.cross(d) * (l * h[0]), t2.cross(d) * (l * h[1]));
        let mut row = [0.0; 12];
        for k in 0..3 {
            row[k] = start[k];
            row[3 + k] = r1[k];
            row[6 + k] = on_chord[k];
            row[9 + k] = r2[k];
        }
        row
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nodes() -> (NodeFrame, NodeFrame) {
        (
            (
                DVec3::new(0.0, 0.01, 0.0),
                DQuat::from_scaled_axis(DVec3::new(0.1, 0.05, 0.08)),
            ),
            (
                DVec3::new(0.3, -0.02, 0.04),
                DQuat::from_scaled_axis(DVec3::new(-0.05, -0.1, 0.02)),
            ),
        )
    }

    #[test]
    fn the_curve_meets_its_nodes_with_their_tangents() {
        let (a, b) = nodes();
        let s = SpatialSegment::new(a, b, [DQuat::IDENTITY; 2]);
        assert!(s.point(0.0).distance(a.0) < 1e-15);
        assert!(s.point(1.0).distance(b.0) < 1e-15);
        let l = s.chord.length();
        assert!((s.tangent(0.0) - s.tangents[0] * l).length() < 1e-14);
        assert!((s.tangent(1.0) - s.tangents[1] * l).length() < 1e-14);
    }

    #[test]
    fn the_row_is_the_derivative_at_fixed_xi() {
        let (a, b) = nodes();
        let s = SpatialSegment::new(a, b, [DQuat::IDENTITY; 2]);
        let (xi, d) = (0.37, DVec3::new(0.3, -0.5, 0.8));
        let row = s.row(xi, d);
        let h = 1e-7;
        for i in 0..12 {
            let moved = |sign: f64| {
                let mut e = [0.0; 12];
                e[i] = sign * h;
                let n = |f: NodeFrame, e: &[f64]| {
                    (
                        f.0 + DVec3::new(e[0], e[1], e[2]),
                        DQuat::from_scaled_axis(DVec3::new(e[3], e[4], e[5])) * f.1,
                    )
                };
                SpatialSegment::new(n(a, &e[0..6]), n(b, &e[6..12]), [DQuat::IDENTITY; 2])
                    .point(xi)
                    .dot(d)
            };
            let fd = (moved(1.0) - moved(-1.0)) / (2.0 * h);
            assert!((fd - row[i]).abs() < 1e-7, "{i}: {fd} against {}", row[i]);
        }
    }

    #[test]
    fn the_nearest_point_is_normal_to_the_curve() {
        let (a, b) = nodes();
        let s = SpatialSegment::new(a, b, [DQuat::IDENTITY; 2]);
        let p = DVec3::new(0.12, 0.2, -0.1);
        let (xi, dist) = s.nearest(p);
        assert!(xi > 0.0 && xi < 1.0);
        let r = p - s.point(xi);
        assert!(r.dot(s.tangent(xi)).abs() < 1e-12);
        assert!((r.length() - dist).abs() < 1e-15);
    }
}
