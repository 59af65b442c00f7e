//! The spatial co-rotational Euler–Bernoulli beam element: its energy, and the internal force and exact tangent as that energy's derivatives (forward-mode dual numbers).
//!
//! After Crisfield (1990, "A consistent co-rotational formulation for non-linear,
//! three-dimensional, beam-elements") and Battini & Pacoste (2002). An element joins nodes 1
//! and 2, each with a position xᵢ and a rotation Rᵢ (a unit quaternion; the section's frame:
//! first axis along the centreline tangent, second and third the section's principal axes).
//! The rigid motion is taken out by a co-rotated frame R_r:
//!
//! ```text
//!     R_m = R₁ (R₁ᵀR₂)^½                        (the mean of the two node rotations)
//!     R_r = A R_m,  A the least rotation taking R_m e₁ onto the chord e₁ = Δ/l, Δ = x₂ − x₁
//!     u   = l − l₀                               (stretch)
//!     θ̄ᵢ  = log(R_rᵀ Rᵢ Cᵢᵀ)                      (local rotations, in the frame's axes)
//! ```
//!
//! Cᵢ = R_r⁰ᵀRᵢ⁰ holds the reference, so θ̄ᵢ = 0 in the reference configuration. In the
//! co-rotated frame the element is the linear Euler–Bernoulli beam with Saint-Venant torsion:
//!
//! ```text
//!     V = EA u²/(2l₀) + GJ (θ̄₂ₓ − θ̄₁ₓ)²/(2l₀)
//!       + 2EI_z/l₀ (θ̄₁z² + θ̄₁zθ̄₂z + θ̄₂z²) + 2EI_y/l₀ (θ̄₁y² + θ̄₁yθ̄₂y + θ̄₂y²)
//! ```
//!
//! (bending in the frame's x–y plane turns the sections about z, so EI_z). Restricted to a
//! motion in the x–y plane this is exactly the planar element of [`super::corotational`]:
//! R_r turns by the chord's angle β and θ̄ᵢz = θᵢ − β.
//!
//! **Gravity** is the work of ρA g on the element's cubic Hermite centreline
//! p(ξ) = h₀₀x₁ + h₁₀ l t₁ + h₀₁x₂ + h₁₁ l t₂ (tᵢ the sections' tangents): ρA l₀ g·∫p dξ =
//! ρA l₀ g·[(x₁ + x₂)/2 + l (t₁ − t₂)/12], whose derivative is M g plus the end moments of
//! the consistent load, as in the plane.
//!
//! **Derivatives.** The generalized force and tangent are the gradient and Hessian of V with
//! respect to the twelve increments (δx₁, δθ₁, δx₂, δθ₂) of xᵢ ← xᵢ + δxᵢ, Rᵢ ← exp(δθᵢ) Rᵢ
//! (δθ in world axes, as the nodes' angular velocities), taken at zero by dual numbers
//! (`num_dual`): exact to rounding, with no hand-derived B matrices to get wrong. The
//! exponential and the logarithm are written as series where their closed forms have a
//! removable singularity (at zero rotation), so the duals carry exact derivatives there too.
//! The Hessian of V(exp(δθ)R) is symmetric; the derivative of the world moment m = ∂V/∂δθ
//! under a further left rotation is that Hessian − ½\[m\]× on each node's rotation block (from
//! exp(δ)exp(ε) = exp(δ + ε + ½δ×ε + …)), which [`ElementDerivatives::tangent`] returns.

use glam::{DQuat, DVec3};
use nalgebra::{SMatrix, SVector};
use num_dual::{Dual64, DualNum, gradient, hessian};

/// A section's stiffnesses.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpatialStiffness {
    /// EA, N.
    pub axial: f64,
    /// GJ, N·m².
    pub torsion: f64,
    /// EI_y and EI_z about the section's second and third axes, N·m².
    pub bending: [f64; 2],
}

/// One element's reference: its undeformed length and the nodes' rotations in its frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpatialElement {
    /// l₀, m.
    pub length: f64,
    /// Cᵢ = R_r⁰ᵀ Rᵢ⁰.
    pub offset: [DQuat; 2],
}

/// A node's place: position and rotation.
pub type NodeFrame = (DVec3, DQuat);

/// The element's energy with its gradient and Hessian over (δx₁, δθ₁, δx₂, δθ₂).
#[derive(Debug, Clone)]
pub struct ElementDerivatives {
    /// V (strain energy plus gravity's share), J.
    pub energy: f64,
    /// ∂V/∂(δx₁, δθ₁, δx₂, δθ₂): forces (N) and world moments (N·m).
    pub gradient: SVector<f64, 12>,
    /// ∂²V (symmetric), when asked for.
    pub hessian: Option<SMatrix<f64, 12, 12>>,
}

impl ElementDerivatives {
    /// ∂(gradient)/∂(increments) under the rotations' left update: the Hessian less ½\[m\]×
    /// on each node's rotation block (module docs). Needs the Hessian.
    pub fn tangent(&self) -> SMatrix<f64, 12, 12> {
        let mut k = self.hessian.expect("tangent needs the Hessian");
        for base in [3, 9] {
            let m = DVec3::new(
                self.gradient[base],
                self.gradient[base + 1],
                self.gradient[base + 2],
            );
            // −½[m]×: row i, column j of [m]× is ε_{i k j} m_k.
            let skew = [[0.0, -m.z, m.y], [m.z, 0.0, -m.x], [-m.y, m.x, 0.0]];
            for (i, row) in skew.iter().enumerate() {
                for (j, x) in row.iter().enumerate() {
                    k[(base + i, base + j)] -= 0.5 * x;
                }
            }
        }
        k
    }
}

/// What an element's energy needs beyond the nodes: section, gravity per length.
#[derive(Debug, Clone, Copy)]
pub struct ElementLoad {
    /// Section stiffnesses.
    pub stiffness: SpatialStiffness,
    /// ρA g, N/m (zero without gravity).
    pub weight_per_length: DVec3,
}

impl SpatialElement {
    /// The element between two reference nodes.
    pub fn new(a: NodeFrame, b: NodeFrame) -> Self {
        let reference = frame(lift_vec(a.0), lift_quat(a.1), lift_vec(b.0), lift_quat(b.1));
        let r0 = DQuat::from_xyzw(reference.v[0], reference.v[1], reference.v[2], reference.w);
        Self {
            length: a.0.distance(b.0),
            offset: [r0.conjugate() * a.1, r0.conjugate() * b.1],
        }
    }

    /// V with the nodes at `a` and `b`.
    pub fn energy(&self, load: &ElementLoad, a: NodeFrame, b: NodeFrame) -> f64 {
        self.energy_at(load, a, b, &[0.0; REDUCED]) + self.weight_energy(load, a, b)
    }

    /// The share of gravity linear in the positions, −ρA l₀ g·(x₁ + x₂)/2, J.
    fn weight_energy(&self, load: &ElementLoad, a: NodeFrame, b: NodeFrame) -> f64 {
        -load.weight_per_length.dot(a.0 + b.0) * (0.5 * self.length)
    }

    /// V and its gradient (and the Hessian when `second` is true) over the twelve increments.
    ///
    /// V depends on the positions through the chord Δ = x₂ − x₁ alone, but for gravity's
    /// linear share −ρA l₀ g·(x₁ + x₂)/2 (module docs), so the duals run over the nine
    /// increments (δΔ, δθ₁, δθ₂) and the twelve follow by δΔ = δx₂ − δx₁: a Hessian of 9 × 9
    /// where 12 × 12 would cost twice as much.
    pub fn derivatives(
        &self,
        load: &ElementLoad,
        a: NodeFrame,
        b: NodeFrame,
        second: bool,
    ) -> ElementDerivatives {
        let zero = SVector::<f64, REDUCED>::zeros();
        let weight = self.weight_energy(load, a, b);
        if second {
            let (energy, g, h) = hessian(|d| self.energy_at(load, a, b, d.as_slice()), &zero);
            ElementDerivatives {
                energy: energy + weight,
                gradient: self.expand_gradient(load, &g),
                hessian: Some(expand_hessian(&h)),
            }
        } else {
            let (energy, g) = gradient(|d| self.energy_at(load, a, b, d.as_slice()), &zero);
            ElementDerivatives {
                energy: energy + weight,
                gradient: self.expand_gradient(load, &g),
                hessian: None,
            }
        }
    }

    /// The gradient over (δx₁, δθ₁, δx₂, δθ₂) from that over (δΔ, δθ₁, δθ₂), with gravity's
    /// linear share −ρA l₀ g/2 on each node.
    fn expand_gradient(&self, load: &ElementLoad, g: &SVector<f64, REDUCED>) -> SVector<f64, 12> {
        let weight = load.weight_per_length * (-0.5 * self.length);
        SVector::<f64, 12>::from_fn(|i, _| match i {
            0..3 => -g[i] + weight[i],
            3..6 => g[i],
            6..9 => g[i - 6] + weight[i - 6],
            _ => g[i - 3],
        })
    }

    /// The gradient of V and the tangent's product with `w` (12 increments), K w =
    /// (Hessian − ½\[m\]× on the rotation blocks) w, in one forward-over-forward pass: the
    /// increments carry w in an inner dual, so the gradient's inner parts are the Hessian's
    /// product with w, at the cost of about two gradients (a whole Hessian costs sixty).
    pub fn gradient_and_tangent_times(
        &self,
        load: &ElementLoad,
        a: NodeFrame,
        b: NodeFrame,
        w: &[f64; 12],
    ) -> (SVector<f64, 12>, SVector<f64, 12>) {
        // w in the nine increments: (w_x₂ − w_x₁, w_θ₁, w_θ₂).
        let reduced: [f64; REDUCED] = std::array::from_fn(|k| match k {
            0..3 => w[6 + k] - w[k],
            3..6 => w[k],
            _ => w[k + 3],
        });
        let x = SVector::<Dual64, REDUCED>::from_fn(|k, _| Dual64::new(0.0, reduced[k]));
        let (_, g) = gradient(|d| self.energy_at(load, a, b, d.as_slice()), &x);
        let grad = self.expand_gradient(load, &g.map(|x| x.re));
        let h = g.map(|x| x.eps);
        // Tᵀ (H₉ T w): the chord's share goes to x₂ and, negated, to x₁.
        let mut kw = SVector::<f64, 12>::from_fn(|i, _| match i {
            0..3 => -h[i],
            3..6 => h[i],
            6..9 => h[i - 6],
            _ => h[i - 3],
        });
        for base in [3, 9] {
            let m = DVec3::new(grad[base], grad[base + 1], grad[base + 2]);
            let turn = DVec3::new(w[base], w[base + 1], w[base + 2]);
            // −½[m]× w = −½ m × w.
            let c = m.cross(turn) * 0.5;
            for k in 0..3 {
                kw[base + k] -= c[k];
            }
        }
        (grad, kw)
    }

    /// The local deformation (u, θ̄₁, θ̄₂), generic over the number type.
    fn local<D: DualNum<Primitive = f64> + Copy>(
        &self,
        a: &([D; 3], Quat<D>),
        b: &([D; 3], Quat<D>),
    ) -> (D, [D; 3], [D; 3]) {
        let r = frame(a.0, a.1, b.0, b.1);
        let delta = sub(b.0, a.0);
        let l2 = dot(delta, delta);
        let l = l2.sqrt();
        let l0 = self.length;
        // l − l₀ without cancellation when the stretch is tiny.
        let stretch = (l2 - l0 * l0) / (l + l0);
        let local = |q: Quat<D>, c: DQuat| log(r.conjugate().mul(q).mul(lift_quat(c.conjugate())));
        (
            stretch,
            local(a.1, self.offset[0]),
            local(b.1, self.offset[1]),
        )
    }

    /// V less gravity's linear share at the increments (δΔ, δθ₁, δθ₂): node 1 stays, node 2
    /// moves by δΔ.
    fn energy_at<D: DualNum<Primitive = f64> + Copy>(
        &self,
        load: &ElementLoad,
        a: NodeFrame,
        b: NodeFrame,
        d: &[D],
    ) -> D {
        let zero = [D::from(0.0); 3];
        let (na, nb) = (
            lift_node(a, &[zero[0], zero[1], zero[2], d[3], d[4], d[5]]),
            lift_node(b, &[d[0], d[1], d[2], d[6], d[7], d[8]]),
        );
        let (u, t1, t2) = self.local(&na, &nb);
        let s = load.stiffness;
        let l0 = self.length;
        let twist = t2[0] - t1[0];
        let bend = |k: usize| t1[k] * t1[k] + t1[k] * t2[k] + t2[k] * t2[k];
        let mut v = u * u * (0.5 * s.axial / l0)
            + twist * twist * (0.5 * s.torsion / l0)
            + bend(1) * (2.0 * s.bending[0] / l0)
            + bend(2) * (2.0 * s.bending[1] / l0);
        let g = load.weight_per_length;
        if g != DVec3::ZERO {
            // −ρA l₀ g·l (t₁ − t₂)/12 (module docs; the linear share is added apart).
            let delta = sub(nb.0, na.0);
            let l = dot(delta, delta).sqrt();
            let tangent = |q: Quat<D>, c: DQuat| q.mul(lift_quat(c.conjugate())).rotate_x();
            let (ta, tb) = (tangent(na.1, self.offset[0]), tangent(nb.1, self.offset[1]));
            let gv = [g.x, g.y, g.z];
            for k in 0..3 {
                v -= (ta[k] - tb[k]) * l * (gv[k] * l0 / 12.0);
            }
        }
        v
    }
}

/// The increments the duals run over: δΔ = δx₂ − δx₁, δθ₁, δθ₂.
const REDUCED: usize = 9;

/// The Hessian over (δx₁, δθ₁, δx₂, δθ₂) from that over (δΔ, δθ₁, δθ₂): Tᵀ H T with
/// δΔ = δx₂ − δx₁.
fn expand_hessian(h: &SMatrix<f64, REDUCED, REDUCED>) -> SMatrix<f64, 12, 12> {
    // Each of the twelve: its place among the nine and its sign.
    let map = |i: usize| -> (usize, f64) {
        match i {
            0..3 => (i, -1.0),
            3..6 => (i, 1.0),
            6..9 => (i - 6, 1.0),
            _ => (i - 3, 1.0),
        }
    };
    SMatrix::<f64, 12, 12>::from_fn(|i, j| {
        let ((a, sa), (b, sb)) = (map(i), map(j));
        sa * sb * h[(a, b)]
    })
}

/// A quaternion over a dual number type (only what the element needs).
#[derive(Debug, Clone, Copy)]
struct Quat<D> {
    w: D,
    v: [D; 3],
}

impl<D: DualNum<Primitive = f64> + Copy> Quat<D> {
    fn mul(self, o: Self) -> Self {
        let c = cross(self.v, o.v);
        Self {
            w: self.w * o.w - dot(self.v, o.v),
            v: std::array::from_fn(|k| o.v[k] * self.w + self.v[k] * o.w + c[k]),
        }
    }

    fn conjugate(self) -> Self {
        Self {
            w: self.w,
            v: self.v.map(|x| -x),
        }
    }

    fn normalize(self) -> Self {
        let n = (self.w * self.w + dot(self.v, self.v)).sqrt();
        Self {
            w: self.w / n,
            v: self.v.map(|x| x / n),
        }
    }

    /// R e₁, the rotated first axis.
    fn rotate_x(self) -> [D; 3] {
        let [x, y, z] = self.v;
        let w = self.w;
        let one = D::from(1.0);
        [
            one - (y * y + z * z) * 2.0,
            (x * y + w * z) * 2.0,
            (x * z - w * y) * 2.0,
        ]
    }
}

fn lift_vec<D: DualNum<Primitive = f64>>(v: DVec3) -> [D; 3] {
    [D::from(v.x), D::from(v.y), D::from(v.z)]
}

fn lift_quat<D: DualNum<Primitive = f64>>(q: DQuat) -> Quat<D> {
    Quat {
        w: D::from(q.w),
        v: [D::from(q.x), D::from(q.y), D::from(q.z)],
    }
}

/// The node (x + δx, exp(δθ) R).
fn lift_node<D: DualNum<Primitive = f64> + Copy>(n: NodeFrame, d: &[D]) -> ([D; 3], Quat<D>) {
    let x = lift_vec::<D>(n.0);
    (
        std::array::from_fn(|k| x[k] + d[k]),
        exp([d[3], d[4], d[5]]).mul(lift_quat(n.1)),
    )
}

fn dot<D: DualNum<Primitive = f64> + Copy>(a: [D; 3], b: [D; 3]) -> D {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross<D: DualNum<Primitive = f64> + Copy>(a: [D; 3], b: [D; 3]) -> [D; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn sub<D: DualNum<Primitive = f64> + Copy>(a: [D; 3], b: [D; 3]) -> [D; 3] {
    std::array::from_fn(|k| a[k] - b[k])
}

/// exp(θ) as a quaternion (cos(|θ|/2), sin(|θ|/2) θ/|θ|), by its series in s = |θ|²: it is
/// only ever evaluated at θ = 0 (the increments' real parts), where the series is exact to
/// the fourth order and the closed form's |θ| has no derivative.
fn exp<D: DualNum<Primitive = f64> + Copy>(t: [D; 3]) -> Quat<D> {
    let s = dot(t, t);
    let one = D::from(1.0);
    let w = one - s * (1.0 / 8.0) + s * s * (1.0 / 384.0);
    let f = one * 0.5 - s * (1.0 / 48.0) + s * s * (1.0 / 3840.0);
    Quat {
        w,
        v: t.map(|x| x * f),
    }
}

/// log(q) = 2 atan2(|v|, w) v/|v| (the rotation vector, |θ| ≤ π), by the series of
/// atan(x)/x in x² = |v|²/w² near zero rotation, where |v| has no derivative.
fn log<D: DualNum<Primitive = f64> + Copy>(q: Quat<D>) -> [D; 3] {
    let q = if q.w.re() < 0.0 {
        Quat {
            w: -q.w,
            v: q.v.map(|x| -x),
        }
    } else {
        q
    };
    let s2 = dot(q.v, q.v);
    let f = if s2.re() < 1e-6 * q.w.re() * q.w.re() {
        // 2 atan(x)/(x w) with x² < 1e-6: the series to x⁸ leaves < 1e-30.
        let x2 = s2 / (q.w * q.w);
        let one = D::from(1.0);
        (one - x2 * (1.0 / 3.0) + x2 * x2 * (1.0 / 5.0) - x2 * x2 * x2 * (1.0 / 7.0)) * 2.0 / q.w
    } else {
        let s = s2.sqrt();
        s.atan2(q.w) * 2.0 / s
    };
    q.v.map(|x| x * f)
}

/// The element frame R_r from the nodes (module docs): the mean rotation turned by the least
/// rotation that lays its first axis on the chord.
fn frame<D: DualNum<Primitive = f64> + Copy>(
    xa: [D; 3],
    qa: Quat<D>,
    xb: [D; 3],
    qb: Quat<D>,
) -> Quat<D> {
    let mut rel = qa.conjugate().mul(qb);
    if rel.w.re() < 0.0 {
        rel = Quat {
            w: -rel.w,
            v: rel.v.map(|x| -x),
        };
    }
    // √q = (1 + q)/|1 + q| for a unit q with w ≥ 0.
    let half = Quat {
        w: rel.w + 1.0,
        v: rel.v,
    }
    .normalize();
    let mean = qa.mul(half);
    let delta = sub(xb, xa);
    let l = dot(delta, delta).sqrt();
    let e1 = delta.map(|x| x / l);
    let a = mean.rotate_x();
    // The least rotation taking a onto e₁: (1 + a·e₁, a × e₁) normalised.
    let align = Quat {
        w: dot(a, e1) + 1.0,
        v: cross(a, e1),
    }
    .normalize();
    align.mul(mean)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::corotational::{Element, SectionStiffness};

    const STIFF: SpatialStiffness = SpatialStiffness {
        axial: 2.0e6,
        torsion: 30.0,
        bending: [45.0, 70.0],
    };

    fn load() -> ElementLoad {
        ElementLoad {
            stiffness: STIFF,
            weight_per_length: DVec3::ZERO,
        }
    }

    fn node(x: f64, y: f64, theta: f64) -> NodeFrame {
        (DVec3::new(x, y, 0.0), DQuat::from_rotation_z(theta))
    }

    #[test]
    fn in_the_plane_it_is_the_planar_element() {
        let planar = Element::new([0.0, 0.0, 0.0], [0.5, 0.0, 0.0]);
        let spatial = SpatialElement::new(node(0.0, 0.0, 0.0), node(0.5, 0.0, 0.0));
        let section = SectionStiffness {
            axial: STIFF.axial,
            bending: STIFF.bending[1],
        };
        let (a, b) = ([0.1, 0.2, 0.7], [0.55, 0.5, 0.4]);
        let st = planar.state(section, a, b);
        let f = st.internal_force();
        let d = spatial.derivatives(
            &load(),
            node(a[0], a[1], a[2]),
            node(b[0], b[1], b[2]),
            true,
        );
        assert!((d.energy - planar.energy(section, &st)).abs() < 1e-12 * d.energy);
        // Planar (x, y, θ) sit at places 0, 1, 5 and 6, 7, 11 of the twelve.
        let map = [0, 1, 5, 6, 7, 11];
        for (i, &k) in map.iter().enumerate() {
            assert!(
                (d.gradient[k] - f[i]).abs() < 1e-9 * (1.0 + f[i].abs()),
                "{k}"
            );
        }
        let kt = st.tangent(section, planar.length);
        let k = d.tangent();
        for (i, &r) in map.iter().enumerate() {
            for (j, &c) in map.iter().enumerate() {
                assert!((k[(r, c)] - kt[i][j]).abs() < 1e-7 * (1.0 + kt[i][j].abs()));
            }
        }
    }

    fn twisted() -> (NodeFrame, NodeFrame) {
        let a = (
            DVec3::new(0.01, -0.02, 0.03),
            DQuat::from_scaled_axis(DVec3::new(0.05, -0.08, 0.1)),
        );
        let b = (
            DVec3::new(0.52, 0.04, -0.05),
            DQuat::from_scaled_axis(DVec3::new(-0.07, 0.12, 0.02)),
        );
        (a, b)
    }

    fn perturbed(n: NodeFrame, d: &[f64]) -> NodeFrame {
        (
            n.0 + DVec3::new(d[0], d[1], d[2]),
            DQuat::from_scaled_axis(DVec3::new(d[3], d[4], d[5])) * n.1,
        )
    }

    #[test]
    fn gradient_and_tangent_match_finite_differences() {
        let el = SpatialElement::new(node(0.0, 0.0, 0.0), node(0.5, 0.0, 0.0));
        let mut ld = load();
        ld.weight_per_length = DVec3::new(0.0, 0.0, -30.0);
        let (a, b) = twisted();
        let d = el.derivatives(&ld, a, b, true);
        let k = d.tangent();
        let h = 1e-6;
        for i in 0..12 {
            let mut e = [0.0; 12];
            e[i] = h;
            let plus = |s: f64| {
                let e: Vec<f64> = e.iter().map(|x| x * s).collect();
                (perturbed(a, &e[0..6]), perturbed(b, &e[6..12]))
            };
            let (ap, bp) = plus(1.0);
            let (am, bm) = plus(-1.0);
            let fd = (el.energy(&ld, ap, bp) - el.energy(&ld, am, bm)) / (2.0 * h);
            assert!(
                (fd - d.gradient[i]).abs() < 1e-5 * (1.0 + d.gradient[i].abs()),
                "gradient {i}: {fd} against {}",
                d.gradient[i]
            );
            let gp = el.derivatives(&ld, ap, bp, false).gradient;
            let gm = el.derivatives(&ld, am, bm, false).gradient;
            for j in 0..12 {
                let fd = (gp[j] - gm[j]) / (2.0 * h);
                assert!(
                    (fd - k[(j, i)]).abs() < 1e-4 * (1.0 + k[(j, i)].abs()),
                    "tangent ({j}, {i}): {fd} against {}",
                    k[(j, i)]
                );
            }
        }
    }

    #[test]
    fn the_tangent_times_a_vector_is_the_tangent_s_product() {
        let el = SpatialElement::new(node(0.0, 0.0, 0.0), node(0.5, 0.0, 0.0));
        let mut ld = load();
        ld.weight_per_length = DVec3::new(0.0, 0.0, -30.0);
        let (a, b) = twisted();
        let d = el.derivatives(&ld, a, b, true);
        let w: [f64; 12] = std::array::from_fn(|k| (k as f64 * 0.7).sin());
        let (g, kw) = el.gradient_and_tangent_times(&ld, a, b, &w);
        let expect = d.tangent() * SVector::<f64, 12>::from_column_slice(&w);
        assert!((g - d.gradient).amax() < 1e-12 * (1.0 + d.gradient.amax()));
        assert!(
            (kw - expect).amax() < 1e-9 * (1.0 + expect.amax()),
            "{kw} against {expect}"
        );
    }

    #[test]
    fn a_rigid_motion_strains_nothing() {
        let (a, b) = (node(0.0, 0.0, 0.0), node(0.5, 0.0, 0.0));
        let el = SpatialElement::new(a, b);
        let turn = DQuat::from_scaled_axis(DVec3::new(0.7, -1.9, 2.4));
        let shift = DVec3::new(3.0, -1.0, 2.0);
        let moved = |n: NodeFrame| (turn * n.0 + shift, turn * n.1);
        let d = el.derivatives(&load(), moved(a), moved(b), false);
        assert!(d.energy.abs() < 1e-20);
        assert!(d.gradient.amax() < 1e-9);
    }

    #[test]
    fn torsion_and_bending_meet_the_linear_beam() {
        let (a, b) = (node(0.0, 0.0, 0.0), node(0.5, 0.0, 0.0));
        let el = SpatialElement::new(a, b);
        // Twist by φ about the axis: V = GJ φ²/(2 l₀).
        let phi = 1e-4;
        let twisted = (b.0, DQuat::from_rotation_x(phi));
        let v = el.energy(&load(), a, twisted);
        let expect = STIFF.torsion * phi * phi / (2.0 * 0.5);
        assert!((v - expect).abs() < 1e-6 * expect);
        // A clamped–free element with a tip force P along z: w = PL³/(3EI_y) by the tangent.
        let k = el.derivatives(&load(), a, b, true).tangent();
        let free = [8, 10]; // z and θ_y of node 2
        let m = nalgebra::Matrix2::from_fn(|i, j| k[(free[i], free[j])]);
        let w = m.try_inverse().unwrap() * nalgebra::Vector2::new(1.0, 0.0);
        let expect = 0.125 / (3.0 * STIFF.bending[0]);
        assert!(
            (w[0] - expect).abs() < 1e-9 * expect,
            "{} against {expect}",
            w[0]
        );
    }
}
