//! Closed forms for beams and rods that the flexible presets are checked against.
//!
//! - The cantilever's large deflection under a dead tip load (the elastica, Bisshopp &
//!   Drucker 1945), from its boundary-value problem solved by shooting with a fine
//!   Runge–Kutta integration (independent of the finite elements);
//! - the cantilever's flexural frequencies ωₙ = (βₙL)² √(EI/(ρA L⁴)), βₙL the roots of
//!   1 + cos βL cosh βL = 0 (1.8751, 4.6941, …), found by Newton;
//! - the linear tip and midspan deflections PL³/(3EI) and PL³/(48EI), and a simply supported
//!   beam's deflection anywhere under a point load anywhere (its influence line);
//! - the fundamental frequency of a simply supported beam carrying a mass on a spring at any
//!   point, from the beam's modal series, and for a rigid mass at midspan from the
//!   transcendental equation 2 = μ z (tan z − tanh z);
//! - a free elastic rod striking a rigid wall at v₀: contact lasts 2L/c with c = √(E/ρ),
//!   the wall force is ρcAv₀ throughout, the rod leaves at −v₀.

/// The cantilever elastica under a dead tip load P: deflections as fractions of L.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Elastica {
    /// Tip deflection along the load, δ_v / L.
    pub deflection: f64,
    /// Tip's approach to the clamp along the beam's axis, δ_h / L.
    pub shortening: f64,
    /// Tip rotation, rad.
    pub tip_angle: f64,
}

/// The elastica of a cantilever with PL²/EI = `alpha` (load perpendicular to the straight
/// beam, keeping its direction).
///
/// With s the arc length over L and θ the section's rotation towards the load, the moment
/// P (x_tip − x(s)) gives θ'' = −α cos θ, θ(0) = 0 (clamped), θ'(1) = 0 (free tip). The
/// initial curvature θ'(0) ∈ [0, α] is found by bisection on θ'(1); each trial integrates
/// (θ, θ', x, y) by classical Runge–Kutta in 4000 steps (error ~1e-14).
pub fn cantilever_elastica(alpha: f64) -> Elastica {
    let integrate = |kappa0: f64| {
        let n = 4000;
        let h = 1.0 / n as f64;
        // state: θ, θ', x, y
        let rhs = |s: [f64; 4]| {
            [
                s[1],
                -alpha * libm::cos(s[0]),
                libm::cos(s[0]),
                libm::sin(s[0]),
            ]
        };
        let mut s = [0.0, kappa0, 0.0, 0.0];
        for _ in 0..n {
            let add = |a: [f64; 4], k: [f64; 4], f: f64| std::array::from_fn(|i| a[i] + f * k[i]);
            let k1 = rhs(s);
            let k2 = rhs(add(s, k1, 0.5 * h));
            let k3 = rhs(add(s, k2, 0.5 * h));
            let k4 = rhs(add(s, k3, h));
            s = std::array::from_fn(|i| {
                s[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i])
            });
        }
        s
    };
    let (mut lo, mut hi) = (0.0, alpha);
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if integrate(mid)[1] < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let s = integrate(0.5 * (lo + hi));
    Elastica {
        deflection: s[3],
        shortening: 1.0 - s[2],
        tip_angle: s[0],
    }
}

/// βₙL, the n-th root (n = 1, 2, …) of 1 + cos x cosh x = 0: the cantilever's flexural
/// wavenumbers (1.8751041, 4.6940911, 7.8547574, …), by Newton from (n − ½)π.
pub fn cantilever_wavenumber(n: usize) -> f64 {
    let mut x = (n as f64 - 0.5) * std::f64::consts::PI;
    for _ in 0..50 {
        let f = 1.0 + libm::cos(x) * libm::cosh(x);
        let df = -libm::sin(x) * libm::cosh(x) + libm::cos(x) * libm::sinh(x);
        let dx = f / df;
        x -= dx;
        if dx.abs() < 1e-15 * x {
            break;
        }
    }
    x
}

/// The cantilever's n-th flexural angular frequency, rad/s: (βₙL)² √(EI/(ρA L⁴)).
pub fn cantilever_frequency(n: usize, bending: f64, mass_per_length: f64, length: f64) -> f64 {
    let b = cantilever_wavenumber(n);
    b * b * (bending / (mass_per_length * length.powi(4))).sqrt()
}

/// ∫φ′² dx / ∫φ² dx over the n-th cantilever mode φ = cosh βx − cos βx − σ(sinh βx − sin βx)
/// (σ = (cosh βL + cos βL)/(sinh βL + sin βL)), 1/m², by Simpson's rule on 4000 intervals.
/// A rotary inertia ρI_r per length lowers that mode's frequency, to first order in Rayleigh's
/// quotient, by Δω/ω = −½ (I_r/A) ∫φ′²/∫φ² (Rayleigh's beam against Euler–Bernoulli's).
pub fn cantilever_slope_ratio(n: usize, length: f64) -> f64 {
    let b = cantilever_wavenumber(n) / length;
    let bl = b * length;
    let sigma = (libm::cosh(bl) + libm::cos(bl)) / (libm::sinh(bl) + libm::sin(bl));
    let phi = |x: f64| {
        let y = b * x;
        libm::cosh(y) - libm::cos(y) - sigma * (libm::sinh(y) - libm::sin(y))
    };
    let slope = |x: f64| {
        let y = b * x;
        b * (libm::sinh(y) + libm::sin(y) - sigma * (libm::cosh(y) - libm::cos(y)))
    };
    let m = 4000;
    let h = length / m as f64;
    let (mut num, mut den) = (0.0, 0.0);
    for k in 0..=m {
        let w = if k == 0 || k == m {
            1.0
        } else if k % 2 == 1 {
            4.0
        } else {
            2.0
        };
        let x = k as f64 * h;
        num += w * slope(x).powi(2);
        den += w * phi(x).powi(2);
    }
    num / den
}

/// The first root λ = βL of a cantilever carrying a point mass M at its tip (no rotary
/// inertia): 1 + cos λ cosh λ + μ λ (cos λ sinh λ − sin λ cosh λ) = 0 with μ = M/(ρAL), by
/// bisection on (0, 1.8751]. It is 1.8751 at μ = 0 and tends to (3/μ)^¼ as μ grows (the
/// mass on the beam's tip stiffness 3EI/L³); ω = λ² √(EI/(ρA L⁴)).
pub fn cantilever_tip_mass_wavenumber(mass_ratio: f64) -> f64 {
    let f = |x: f64| {
        let (c, s, ch, sh) = (libm::cos(x), libm::sin(x), libm::cosh(x), libm::sinh(x));
        1.0 + c * ch + mass_ratio * x * (c * sh - s * ch)
    };
    let (mut lo, mut hi) = (1e-6, cantilever_wavenumber(1) + 1e-9);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The n-th flexural angular frequency of a simply supported beam, rad/s: (nπ)² √(EI/(ρA L⁴)).
pub fn simply_supported_frequency(
    n: usize,
    bending: f64,
    mass_per_length: f64,
    length: f64,
) -> f64 {
    let b = n as f64 * std::f64::consts::PI;
    b * b * (bending / (mass_per_length * length.powi(4))).sqrt()
}

/// A free rod of length L, modulus E, density ρ and area A striking a rigid wall along its
/// axis at speed v₀: (contact duration 2L/c, wall force ρcAv₀, rebound speed v₀).
pub fn rod_impact(
    length: f64,
    modulus: f64,
    density: f64,
    area: f64,
    speed: f64,
) -> (f64, f64, f64) {
    let c = (modulus / density).sqrt();
    (2.0 * length / c, density * c * area * speed, speed)
}

/// Deflection at `x` of a simply supported beam (span L, bending stiffness EI) under a point
/// load P at `a`, in the load's direction, m: for x ≤ a, P b x (L² − b² − x²)/(6 EI L) with
/// b = L − a, and the mirror image beyond the load. At midspan under a load at midspan,
/// PL³/(48EI).
pub fn simply_supported_deflection(
    (load, a): (f64, f64),
    x: f64,
    bending: f64,
    length: f64,
) -> f64 {
    let (a, x) = if x <= a {
        (a, x)
    } else {
        (length - a, length - x)
    };
    let b = length - a;
    load * b * x * (length * length - b * b - x * x) / (6.0 * bending * length)
}

/// Midspan deflection of a simply supported beam under its own uniform weight q (N/m):
/// 5qL⁴/(384EI).
pub fn uniform_load_midspan_deflection(weight_per_length: f64, bending: f64, length: f64) -> f64 {
    5.0 * weight_per_length * length.powi(4) / (384.0 * bending)
}

/// Terms of the modal series in [`loaded_bridge_frequency`]: the tail after N terms is
/// below 1/(3N³) of the first (ωₙ² grows as n⁴).
const MODAL_TERMS: usize = 2000;

/// The lowest angular frequency (rad/s) of a simply supported Euler–Bernoulli beam (span L,
/// EI, mass per length ρA) carrying a mass M on a spring k (k = ∞: rigidly) at `position`.
///
/// The beam's receptance at a point a, from its modes φₙ = sin(nπx/L) (modal mass ρAL/2,
/// ωₙ = (nπ/L)² √(EI/ρA)), is α(ω) = Σₙ φₙ(a)² / ((ρAL/2)(ωₙ² − ω²)). The mass on its spring
/// pushes on the beam with M_k ω² w, M_k = Mk/(k − Mω²), so the coupled frequencies solve
/// 1 = M_k ω² α(ω). Below min(ω₁, √(k/M)) the right side grows from 0 to ∞, so the lowest
/// root is there, found by bisection. NaN for a mass on a support (it does not load the
/// beam's first mode).
pub fn loaded_bridge_frequency(
    (mass, stiffness): (f64, f64),
    position: f64,
    (bending, mass_per_length, length): (f64, f64, f64),
) -> f64 {
    let pi = std::f64::consts::PI;
    let modal_mass = 0.5 * mass_per_length * length;
    let omega_n = |n: usize| (n as f64 * pi / length).powi(2) * (bending / mass_per_length).sqrt();
    let shapes: Vec<(f64, f64)> = (1..=MODAL_TERMS)
        .map(|n| {
            let phi = libm::sin(n as f64 * pi * position / length);
            (phi * phi / modal_mass, omega_n(n).powi(2))
        })
        .collect();
    if shapes[0].0 <= 1e-24 {
        return f64::NAN;
    }
    let excess = |omega: f64| {
        let w2 = omega * omega;
        let receptance: f64 = shapes.iter().map(|(s, on2)| s / (on2 - w2)).sum();
        let effective = if stiffness.is_finite() {
            mass * stiffness / (stiffness - mass * w2)
        } else {
            mass
        };
        1.0 - effective * w2 * receptance
    };
    let mut top = omega_n(1);
    if stiffness.is_finite() {
        top = top.min((stiffness / mass).sqrt());
    }
    let (mut lo, mut hi) = (0.0, top);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if excess(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The lowest angular frequency (rad/s) of a simply supported beam (span L, EI, ρA) with a
/// rigid point mass M at midspan, from the symmetric mode of each half (w = A sin βx +
/// B sinh βx, w′(L/2) = 0, the mass's inertia the jump in shear 2EI w‴ = −Mω² w): with
/// z = βL/2 and μ = M/(ρAL), 2 = μ z (tan z − tanh z), z ∈ (0, π/2); ω = (2z/L)² √(EI/ρA).
/// (μ = 0: z = π/2, the bare beam; μ → ∞: ω² → 48EI/(ML³), the spring PL³/(48EI) under M.)
pub fn central_mass_frequency(mass: f64, bending: f64, mass_per_length: f64, length: f64) -> f64 {
    let mu = mass / (mass_per_length * length);
    let g = |z: f64| mu * z * (libm::tan(z) - libm::tanh(z)) - 2.0;
    // g rises from −2 at z = 0 to +∞ at π/2.
    let (mut lo, mut hi) = (0.0, std::f64::consts::FRAC_PI_2);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if g(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let z = 0.5 * (lo + hi);
    (2.0 * z / length).powi(2) * (bending / mass_per_length).sqrt()
}
