//! A co-rotational element's deformed centreline: the cubic Hermite curve between its nodes, its nearest point to a given point, and that material point's exact Jacobian.
//!
//! With the nodes x₁, x₂, Δ = x₂ − x₁, l = |Δ|, β = atan2(Δ_y, Δ_x) and the local rotations
//! θ̄ᵢ = θᵢ − β against the chord, the element's centreline in its chord frame is the
//! linear-axial, cubic-transverse curve of [`super::corotational`]: at ξ ∈ [0, 1]
//!
//! ```text
//!     p(ξ) = x₁ + ξ Δ + W(ξ) Δ⊥,     W = θ̄₁ H₁(ξ) + θ̄₂ H₂(ξ),
//!     H₁ = ξ − 2ξ² + ξ³,   H₂ = ξ³ − ξ²,       Δ⊥ = (−Δ_y, Δ_x)
//! ```
//!
//! (W Δ⊥ is the deflection l W along the chord's normal). The curve passes through both nodes
//! with slope θ̄ᵢ against the chord there (the local beam is linear: its angle is
//! β + atan θ̄ᵢ), so consecutive elements join with a common tangent to O(θ̄³): C¹ for the
//! small strains the element is made for.
//!
//! **The material point at fixed ξ.** With δβ = Δ⊥·δΔ / l² and δθ̄ᵢ = δθᵢ − δβ,
//!
//! ```text
//!     δp = δx₁ + ξ δΔ + δW Δ⊥ + W δΔ⊥,    δW = H₁ δθ₁ + H₂ δθ₂ − (H₁ + H₂) δβ
//! ```
//!
//! so d·δp is linear in (δx₁, δθ₁, δx₂, δθ₂) with the six coefficients of [`Segment::row`].
//! A gap measured from the nearest point p(ξ*) moves only with that material point: the
//! change of ξ* is along the tangent p′, normal to the gap's direction, so the row at fixed ξ*
//! is the exact gap rate.

use glam::DVec2;

/// One element's centreline at one configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Segment {
    /// x₁, m.
    pub start: DVec2,
    /// Δ = x₂ − x₁, m.
    pub chord: DVec2,
    /// θ̄₁, θ̄₂ (the nodes' angles against the chord), rad.
    pub rotations: [f64; 2],
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

fn perp(v: DVec2) -> DVec2 {
    DVec2::new(-v.y, v.x)
}

impl Segment {
    /// The element between nodes `a` and `b`, each (x, y, θ).
    pub fn new(a: [f64; 3], b: [f64; 3]) -> Self {
        let start = DVec2::new(a[0], a[1]);
        let chord = DVec2::new(b[0], b[1]) - start;
        let l = chord.length();
        let (c, s) = (chord.x / l, chord.y / l);
        // θ − β from sin and cos of the difference: no wrap of β itself.
        let local = |theta: f64| {
            let (st, ct) = (libm::sin(theta), libm::cos(theta));
            libm::atan2(st * c - ct * s, ct * c + st * s)
        };
        Self {
            start,
            chord,
            rotations: [local(a[2]), local(b[2])],
        }
    }

    fn w(&self, h: [f64; 2]) -> f64 {
        self.rotations[0] * h[0] + self.rotations[1] * h[1]
    }

    /// p(ξ).
    pub fn point(&self, xi: f64) -> DVec2 {
        let [h, _, _] = shape(xi);
        self.start + self.chord * xi + perp(self.chord) * self.w(h)
    }

    /// dp/dξ (the tangent, not normalised).
    pub fn tangent(&self, xi: f64) -> DVec2 {
        let [_, h1, _] = shape(xi);
        self.chord + perp(self.chord) * self.w(h1)
    }

    /// The unit normal at ξ: the tangent turned by +90°.
    pub fn normal(&self, xi: f64) -> DVec2 {
        perp(self.tangent(xi)).normalize()
    }

    /// The ξ ∈ [0, 1] of the curve's nearest point to `c` and its squared distance.
    ///
    /// Newton on φ′(ξ) = (p − c)·p′ from the chord's nearest fraction, kept in [0, 1]; the
    /// ends are candidates too, so the answer is the least of what Newton and the ends give.
    pub fn nearest(&self, c: DVec2) -> (f64, f64) {
        let distance = |xi: f64| (self.point(xi) - c).length_squared();
        let mut xi =
            ((c - self.start).dot(self.chord) / self.chord.length_squared()).clamp(0.0, 1.0);
        for _ in 0..30 {
            let [_, _, h2] = shape(xi);
            let (p, t) = (self.point(xi), self.tangent(xi));
            let slope = (p - c).dot(t);
            let curvature = t.length_squared() + (p - c).dot(perp(self.chord) * self.w(h2));
            if curvature <= 0.0 {
                break;
            }
            let next = (xi - slope / curvature).clamp(0.0, 1.0);
            let moved = (next - xi).abs();
            xi = next;
            if moved <= 1e-15 {
                break;
            }
        }
        [
            (xi, distance(xi)),
            (0.0, distance(0.0)),
            (1.0, distance(1.0)),
        ]
        .into_iter()
        .fold(
            (xi, f64::INFINITY),
            |best, x| if x.1 < best.1 { x } else { best },
        )
    }

    /// The coefficients of d·δp for the material point at ξ over (x₁, y₁, θ₁, x₂, y₂, θ₂)
    /// (module docs).
    pub fn row(&self, xi: f64, d: DVec2) -> [f64; 6] {
        let [h, _, _] = shape(xi);
        let normal = perp(self.chord);
        let l2 = self.chord.length_squared();
        let along = d.dot(normal);
        // The coefficient of δΔ: ξ d − (d·Δ⊥)(H₁ + H₂) Δ⊥ / l² − W d⊥ (d·δΔ⊥ = −d⊥·δΔ).
        let g = d * xi - normal * (along * (h[0] + h[1]) / l2) - perp(d) * self.w(h);
        let first = d - g;
        [first.x, first.y, along * h[0], g.x, g.y, along * h[1]]
    }

    /// The coefficients over the same six coordinates of the section's turning rate at ξ.
    /// The section's angle is the local linear beam's, β + W′(ξ) (its tangent's is
    /// β + atan W′, the same to O(θ̄³)), so at a node it is the node's own θ and its rate
    /// δβ (1 − H₁′ − H₂′) + H₁′ δθ₁ + H₂′ δθ₂ is exactly δθ there.
    pub fn rotation_row(&self, xi: f64) -> [f64; 6] {
        let [_, h1, _] = shape(xi);
        let (k1, k2) = (h1[0], h1[1]);
        // δβ = Δ⊥·δΔ / l², taken by each δθ̄ with a minus sign.
        let beta = perp(self.chord) / self.chord.length_squared() * (1.0 - k1 - k2);
        [-beta.x, -beta.y, k1, beta.x, beta.y, k2]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: [f64; 3] = [0.1, -0.2, 0.3];
    const B: [f64; 3] = [0.6, 0.1, 0.9];

    fn p(a: [f64; 3], b: [f64; 3], xi: f64) -> DVec2 {
        Segment::new(a, b).point(xi)
    }

    #[test]
    fn the_curve_meets_its_nodes_at_their_angles() {
        let s = Segment::new(A, B);
        assert!((s.point(0.0) - DVec2::new(A[0], A[1])).length() < 1e-15);
        assert!((s.point(1.0) - DVec2::new(B[0], B[1])).length() < 1e-15);
        // The slope against the chord is θ̄ᵢ = tan of the tangent's angle to it (the local
        // beam is linear: its end slopes are its end rotations).
        let beta = libm::atan2(s.chord.y, s.chord.x);
        for (xi, theta) in [(0.0, A[2]), (1.0, B[2])] {
            let t = s.tangent(xi);
            let slope = libm::tan(libm::atan2(t.y, t.x) - beta);
            assert!((slope - (theta - beta)).abs() < 1e-14, "{slope}");
        }
    }

    #[test]
    fn the_rows_are_the_derivatives_of_the_material_point_and_its_section_angle() {
        // Central differences of p(q + ε v) and of the tangent's angle against the rows, at an
        // interior ξ.
        let v = [0.3, -0.7, 1.1, -0.4, 0.2, -0.9];
        let at = |e: f64| {
            let a = [A[0] + e * v[0], A[1] + e * v[1], A[2] + e * v[2]];
            let b = [B[0] + e * v[3], B[1] + e * v[4], B[2] + e * v[5]];
            (a, b)
        };
        let xi = 0.37;
        let eps = 1e-5;
        let pt = |e: f64| {
            let (a, b) = at(e);
            p(a, b, xi)
        };
        let velocity = (pt(eps) - pt(-eps)) / (2.0 * eps);
        let s = Segment::new(A, B);
        for d in [DVec2::X, DVec2::Y] {
            let r = s.row(xi, d);
            let rv: f64 = r.iter().zip(v).map(|(x, y)| x * y).sum();
            assert!(
                (rv - d.dot(velocity)).abs() < 1e-8,
                "{rv} {}",
                d.dot(velocity)
            );
        }
        // The section's turning rate against the difference of its angle β + W′(ξ).
        let angle = |e: f64| {
            let (a, b) = at(e);
            let s = Segment::new(a, b);
            let t = s.tangent(xi);
            let beta = libm::atan2(s.chord.y, s.chord.x);
            // W′ = the tangent's slope against the chord.
            beta + t.dot(perp(s.chord)) / t.dot(s.chord)
        };
        let rate = (angle(eps) - angle(-eps)) / (2.0 * eps);
        let r = s.rotation_row(xi);
        // At the nodes it is the node's own θ.
        assert_eq!(s.rotation_row(0.0), [0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
        assert_eq!(s.rotation_row(1.0), [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
        let rv: f64 = r.iter().zip(v).map(|(x, y)| x * y).sum();
        assert!((rv - rate).abs() < 1e-8, "{rv} {rate}");
    }

    #[test]
    fn the_nearest_point_is_where_the_separation_is_normal_to_the_curve() {
        let s = Segment::new(A, B);
        let c = s.point(0.62) + s.normal(0.62) * 0.05;
        let (xi, d2) = s.nearest(c);
        assert!((xi - 0.62).abs() < 1e-12, "{xi}");
        assert!((d2.sqrt() - 0.05).abs() < 1e-13);
        // Beyond an end, the end.
        let (xi, _) = s.nearest(DVec2::new(A[0], A[1]) - s.chord);
        assert_eq!(xi, 0.0);
    }
}
