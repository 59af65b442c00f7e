//! The planar co-rotational Euler–Bernoulli beam element: internal forces, exact tangent and strain energy.
//!
//! After Crisfield (1991, "Non-linear finite element analysis of solids and structures",
//! vol. 1, §7.2) and Battini (2002). An element joins nodes 1 and 2, each with (x, y, θ),
//! θ the angle of the cross-section's normal (the centreline tangent). The rigid motion is
//! taken out by the chord: with Δ = x₂ − x₁, l = |Δ|, β = atan2(Δ_y, Δ_x),
//!
//! ```text
//!     u   = l − l₀                         (stretch)
//!     θ̄ᵢ = (θᵢ − β) − θ̄ᵢ⁰,  i = 1, 2      (local rotations against the chord)
//! ```
//!
//! and in the co-rotated frame the element is the linear Euler–Bernoulli beam (cubic Hermite
//! deflection, linear axial displacement), so the local forces are
//!
//! ```text
//!     N  = EA u / l₀
//!     M₁ = EI/l₀ (4θ̄₁ + 2θ̄₂),   M₂ = EI/l₀ (2θ̄₁ + 4θ̄₂)
//!     V  = ½ EA u²/l₀ + EI/l₀ (2θ̄₁² + 2θ̄₁θ̄₂ + 2θ̄₂²)       (strain energy)
//! ```
//!
//! With r = (−c, −s, 0, c, s, 0), z = (s, −c, 0, −s, c, 0) (c = cos β, s = sin β) the
//! variations are δu = rᵀδd, δβ = zᵀδd / l, δθ̄ᵢ = δθᵢ − δβ, so the global internal force
//! and its exact tangent (the derivative of f_int, symmetric) are
//!
//! ```text
//!     f_int = r N + e₃ M₁ + e₆ M₂ − z (M₁ + M₂)/l
//!     K_t   = Bᵀ K_l B + (N/l) z zᵀ + ((M₁ + M₂)/l²)(r zᵀ + z rᵀ)
//! ```
//!
//! Large displacements and rotations are exact (the chord carries them); strains must stay
//! small (the local beam is linear). θ̄ is taken in (−π, π] from sin and cos, so an element
//! may turn any number of times as a whole but must not bend by π within itself.

/// Axial and bending stiffness of a cross-section.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SectionStiffness {
    /// EA, N.
    pub axial: f64,
    /// EI, N·m².
    pub bending: f64,
}

/// One element's reference: its undeformed length and the undeformed local rotations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Element {
    /// l₀, m.
    pub length: f64,
    /// θ̄ᵢ⁰ = θᵢ⁰ − β⁰ (zero for a straight beam), rad.
    pub rotation0: [f64; 2],
}

/// The element's deformation and local forces at one configuration.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ElementState {
    /// cos β, sin β of the chord.
    pub c: f64,
    /// sin β.
    pub s: f64,
    /// Current chord length l, m.
    pub l: f64,
    /// Stretch u = l − l₀, m.
    pub stretch: f64,
    /// Local rotations θ̄₁, θ̄₂, rad.
    pub rotations: [f64; 2],
    /// N, M₁, M₂ (N, N·m).
    pub forces: [f64; 3],
}

impl Element {
    /// The element from its two reference nodes (x, y, θ).
    pub fn new(a: [f64; 3], b: [f64; 3]) -> Self {
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let length = dx.hypot(dy);
        let beta = libm::atan2(dy, dx);
        let wrap = |x: f64| libm::atan2(libm::sin(x), libm::cos(x));
        Self {
            length,
            rotation0: [wrap(a[2] - beta), wrap(b[2] - beta)],
        }
    }

    /// Deformation and local forces with the nodes at `a` and `b`.
    pub fn state(&self, section: SectionStiffness, a: [f64; 3], b: [f64; 3]) -> ElementState {
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let l = dx.hypot(dy);
        let (c, s) = (dx / l, dy / l);
        let l0 = self.length;
        // l − l₀ without cancellation when the stretch is tiny.
        let stretch = (dx * dx + dy * dy - l0 * l0) / (l + l0);
        let local = |theta: f64, theta0: f64| {
            // θ − β from sin and cos of the difference: no wrap of β itself.
            let (st, ct) = (libm::sin(theta), libm::cos(theta));
            libm::atan2(st * c - ct * s, ct * c + st * s) - theta0
        };
        let rotations = [
            local(a[2], self.rotation0[0]),
            local(b[2], self.rotation0[1]),
        ];
        let k = section.bending / l0;
        let forces = [
            section.axial * stretch / l0,
            k * (4.0 * rotations[0] + 2.0 * rotations[1]),
            k * (2.0 * rotations[0] + 4.0 * rotations[1]),
        ];
        ElementState {
            c,
            s,
            l,
            stretch,
            rotations,
            forces,
        }
    }

    /// The strain energy V, J.
    pub fn energy(&self, section: SectionStiffness, st: &ElementState) -> f64 {
        let [t1, t2] = st.rotations;
        0.5 * section.axial * st.stretch * st.stretch / self.length
            + section.bending / self.length * 2.0 * (t1 * t1 + t1 * t2 + t2 * t2)
    }
}

impl ElementState {
    fn r(&self) -> [f64; 6] {
        [-self.c, -self.s, 0.0, self.c, self.s, 0.0]
    }

    fn z(&self) -> [f64; 6] {
        [self.s, -self.c, 0.0, -self.s, self.c, 0.0]
    }

    /// The rows of B (δu, δθ̄₁, δθ̄₂ from δd).
    fn b_rows(&self) -> [[f64; 6]; 3] {
        let (r, z) = (self.r(), self.z());
        let mut b = [r, [0.0; 6], [0.0; 6]];
        for k in 0..6 {
            b[1][k] = -z[k] / self.l;
            b[2][k] = -z[k] / self.l;
        }
        b[1][2] += 1.0;
        b[2][5] += 1.0;
        b
    }

    /// The global internal force f_int = Bᵀ (N, M₁, M₂) on (x₁, y₁, θ₁, x₂, y₂, θ₂).
    pub fn internal_force(&self) -> [f64; 6] {
        let b = self.b_rows();
        std::array::from_fn(|k| (0..3).map(|i| b[i][k] * self.forces[i]).sum())
    }

    /// The exact tangent K_t = ∂f_int/∂d (symmetric).
    pub fn tangent(&self, section: SectionStiffness, length0: f64) -> [[f64; 6]; 6] {
        let b = self.b_rows();
        let (r, z) = (self.r(), self.z());
        let ea = section.axial / length0;
        let k = section.bending / length0;
        let kl = [
            [ea, 0.0, 0.0],
            [0.0, 4.0 * k, 2.0 * k],
            [0.0, 2.0 * k, 4.0 * k],
        ];
        let [n, m1, m2] = self.forces;
        let (zz, rz) = (n / self.l, (m1 + m2) / (self.l * self.l));
        std::array::from_fn(|i| {
            std::array::from_fn(|j| {
                let mut x = zz * z[i] * z[j] + rz * (r[i] * z[j] + z[i] * r[j]);
                for p in 0..3 {
                    for q in 0..3 {
                        x += b[p][i] * kl[p][q] * b[q][j];
                    }
                }
                x
            })
        })
    }
}
