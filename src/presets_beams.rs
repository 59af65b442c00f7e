//! Presets with flexible beams (seed 002's flexible elements): a cantilever under a tip load, an elastic rod striking a wall, an elastic bar on two penalty supports (seed 003), a slider-crank with an elastic rod, and a ball rolling across a flexible bridge.

use crate::presets::Values;
use crate::scene::{BeamSpec, BodySpec, ForceSpec, Scene, ShapeSpec};
use crate::scene_beams::{MassSpec, SupportSpec};

/// The steel section of the cantilever: 10 mm × 10 mm, E = 210 GPa, ρ = 7850 kg/m³.
pub const STEEL: (f64, f64, f64) = (2.1e11, 7850.0, 0.01);

/// The rod of the impact: E = 1 GPa and ρ = 1000 kg/m³ (c = 1000 m/s), 10 mm square, 1 m.
pub const ROD: (f64, f64, f64, f64) = (1e9, 1000.0, 0.01, 1.0);

/// Gap between the rod's rounded end and the wall at the start, m.
pub const ROD_GAP: f64 = 1e-3;

/// A scene with nothing in it yet, named `name`, without gravity (the beams' closed forms are
/// for loads alone), contact margin 1 cm.
pub(crate) fn empty(name: &str) -> Scene {
    Scene {
        name: name.into(),
        gravity: Some(vec![0.0, 0.0]),
        bodies: Vec::new(),
        beams: Vec::new(),
        spatial_bodies: Vec::new(),
        spatial_beams: Vec::new(),
        forces: Vec::new(),
        joints: Vec::new(),
        material: Default::default(),
        stepper: Default::default(),
        contact_margin: 0.01,
        duration: 1.0,
    }
}

/// Slenderness of the flexible bar on supports: its square section's side is its length
/// over this.
pub const BAR_SLENDERNESS: f64 = 10.0;

/// Radius of the small fixed disks the flexible bar rests on, m.
const SUPPORT_RADIUS: f64 = 0.005;

/// A free, resting beam of square section along the x axis from the origin, consistent mass.
fn square_beam(
    name: &str,
    length: f64,
    elements: usize,
    (modulus, density, side): (f64, f64, f64),
) -> BeamSpec {
    BeamSpec {
        name: name.into(),
        start: [0.0, 0.0],
        end: [length, 0.0],
        elements,
        youngs_modulus: modulus,
        density,
        width: side,
        height: side,
        supports: [SupportSpec::Free, SupportSpec::Free],
        mass: MassSpec::Consistent,
        damping: None,
        velocity: [0.0, 0.0],
        angular_velocity: 0.0,
    }
}

/// A steel cantilever of length L clamped at the origin, a tip load P suddenly applied
/// downward (no gravity, so the closed forms hold as they are): it vibrates about its static
/// deflection, lightly damped (stiffness-proportional damping, 0.5 % in the first mode).
pub(crate) fn cantilever(v: &Values) -> Scene {
    let (modulus, density, side) = STEEL;
    let (length, load) = (v.get("L"), v.get("P"));
    let elements = v.get("n").round() as usize;
    let mut s = empty("cantilever");
    let omega1 = crate::beam_theory::cantilever_frequency(
        1,
        modulus * side.powi(4) / 12.0,
        density * side * side,
        length,
    );
    s.beams.push(BeamSpec {
        supports: [SupportSpec::Clamped, SupportSpec::Free],
        damping: Some([0.0, 2.0 * 0.005 / omega1]),
        ..square_beam("beam", length, elements, (modulus, density, side))
    });
    s.forces.push(ForceSpec::Constant {
        body: "beam".into(),
        force: vec![0.0, -load],
        torque: Default::default(),
    });
    s.stepper.kind = "nsga".into();
    // T₁/2000: at T₁/200 a load of 800 N (PL²/EI = 4.6), applied suddenly, swings the tip
    // through rotations that NSGA's Newton does not follow within its 20 iterations and the
    // energy grows; at T₁/2000 every step converges in about 6.
    s.stepper.dt = (2.0 * std::f64::consts::PI / omega1) / 2000.0;
    s.duration = 20.0 * 2.0 * std::f64::consts::PI / omega1;
    s
}

/// A free elastic rod moving at v₀ along its axis towards a rigid wall 1 mm beyond its end.
pub(crate) fn elastic_rod_impact(v: &Values) -> Scene {
    let (modulus, density, side, length) = ROD;
    let (speed, elements) = (v.get("v0"), v.get("n").round() as usize);
    let mut s = empty("elastic-rod-impact");
    s.bodies.push(BodySpec {
        name: "wall".into(),
        fixed: true,
        mass: None,
        inertia: None,
        position: [length + 0.5 * side + ROD_GAP, 0.0],
        angle: std::f64::consts::FRAC_PI_2,
        velocity: [0.0, 0.0],
        angular_velocity: 0.0,
        shape: ShapeSpec::HalfPlane,
        contact_points: Vec::new(),
    });
    s.beams.push(BeamSpec {
        velocity: [speed, 0.0],
        ..square_beam("rod", length, elements, (modulus, density, side))
    });
    s.material.friction = 0.0;
    s.material.restitution = 0.0;
    s.stepper.kind = "nsga".into();
    s.stepper.spectral_radius = 1.0;
    // One element's transit time l/c.
    s.stepper.dt = length / elements as f64 / (modulus / density).sqrt();
    s.contact_margin = 0.05;
    s.duration = ROD_GAP / speed + 4.0 * length / (modulus / density).sqrt();
    s
}

/// Seed 003 with an elastic bar: a free uniform bar of mass m and length 2a (square section
/// 2a/10, E given, density from m) resting with its ends on two small fixed disks, penalty
/// contacts of stiffness k. It starts straight at the rigid bar's preload −mg/(2k), lifted by
/// `amplitude` (kind 0) or tilted by it (kind 1: ends at ∓amplitude). Explicit penalty
/// stepping at 0.8 of the beam's explicit limit 2/ω_max.
pub(crate) fn flexible_bar(v: &Values) -> Scene {
    let (m, a, k, modulus) = (v.get("m"), v.get("a"), v.get("k"), v.get("E"));
    let (amplitude, elements) = (v.get("amplitude"), v.get("n").round() as usize);
    let length = 2.0 * a;
    let side = length / BAR_SLENDERNESS;
    let density = m / (side * side * length);
    let preload = m * 9.81 / (2.0 * k);
    let (rise, tilt) = if v.get("kind").round() as i64 == 1 {
        (0.0, amplitude)
    } else {
        (amplitude, 0.0)
    };
    let mut s = empty("flexible-bar-on-supports");
    s.gravity = Some(vec![0.0, -9.81]);
    for (name, x) in [("left", 0.0), ("right", length)] {
        s.bodies.push(BodySpec {
            name: name.into(),
            fixed: true,
            mass: None,
            inertia: None,
            position: [x, -0.5 * side - SUPPORT_RADIUS],
            angle: 0.0,
            velocity: [0.0, 0.0],
            angular_velocity: 0.0,
            shape: ShapeSpec::Disk {
                radius: SUPPORT_RADIUS,
            },
            contact_points: Vec::new(),
        });
    }
    s.beams.push(BeamSpec {
        start: [0.0, rise - tilt - preload],
        end: [length, rise + tilt - preload],
        ..square_beam("bar", length, elements, (modulus, density, side))
    });
    s.material.stiffness = k;
    s.material.damping = 0.0;
    s.material.friction = 0.0;
    s.stepper.kind = "penalty-explicit".into();
    s.contact_margin = 0.01;
    s.duration = 0.1;
    // The beam's own limit (its stiffest element) bounds the explicit step; the supports'
    // coupled frequencies are far below it.
    let limit = s
        .build()
        .ok()
        .and_then(|(system, _, _)| system.explicit_step_limit())
        .unwrap_or(1e-6);
    // A stiff bar in many elements can need less than the smallest step a scene takes: the
    // stepper then refuses it by its field, naming the limit.
    s.stepper.dt = (0.8 * limit).max(crate::scene::MIN_TIME_STEP);
    s
}

/// The slider-crank of [`crate::presets`] with an elastic connecting rod: a beam of E and n
/// elements in place of the rigid rod (same length, mass and section), pinned to the crank
/// and the slider at its end nodes, starting straight and moving as the rigid rod would.
pub(crate) fn flexible_slider_crank(v: &Values) -> Scene {
    let elements = v.get("n").round() as usize;
    let mut s = crate::presets::slider_crank_with(v, Some((v.get("E"), elements)));
    s.stepper.dt = 5e-4;
    s
}

/// The bridge's section and material: 20 mm wide, 10 mm high, ρ = 7850 kg/m³ (steel).
pub const BRIDGE_SECTION: (f64, f64, f64) = (0.02, 0.01, 7850.0);

/// The bridge's bending stiffness EI (N·m²), mass per length ρA (kg/m) and weight per
/// length (N/m) at Young's modulus `modulus`.
pub fn bridge_properties(modulus: f64) -> (f64, f64, f64) {
    let (width, height, density) = BRIDGE_SECTION;
    let rho_a = density * width * height;
    (
        modulus * width * height.powi(3) / 12.0,
        rho_a,
        rho_a * GRAVITY,
    )
}

const GRAVITY: f64 = 9.81;

/// The bridge's element count: `n` rounded to an even number (≥ 2), so a node sits at
/// midspan.
pub fn bridge_elements(n: f64) -> usize {
    (2.0 * (0.5 * n).round()).max(2.0) as usize
}

/// A ball (a disk of mass m and radius R) rolling at v₀ from x₀ across a simply supported
/// steel bridge (span L, pinned at x = 0, on a roller at L, section [`BRIDGE_SECTION`], E
/// given, n elements), compliant contact of stiffness k with friction μ, under the implicit
/// penalty stepper (the beam's forces taken at the end of each step: it rests at its exact
/// static equilibrium). The ball starts touching the straight bridge; the run lasts until
/// it reaches L − min(x₀, L/20) (the time its energy gives it, rolling down into the sag and
/// out), or 5 s when it starts at rest or already there.
pub(crate) fn sphere_on_bridge(v: &Values) -> Scene {
    let (mass, radius, speed, start) = (v.get("m"), v.get("R"), v.get("v0"), v.get("x0"));
    let (length, modulus, stiffness) = (v.get("L"), v.get("E"), v.get("k"));
    let (width, height, density) = BRIDGE_SECTION;
    let start = start.clamp(0.0, length);
    let mut s = empty("sphere-on-bridge");
    s.gravity = Some(vec![0.0, -GRAVITY]);
    s.bodies.push(BodySpec {
        name: "ball".into(),
        fixed: false,
        mass: Some(mass),
        inertia: None,
        position: [start, 0.5 * height + radius],
        angle: 0.0,
        velocity: [speed, 0.0],
        angular_velocity: -speed / radius,
        shape: ShapeSpec::Disk { radius },
        contact_points: Vec::new(),
    });
    s.beams.push(BeamSpec {
        name: "bridge".into(),
        start: [0.0, 0.0],
        end: [length, 0.0],
        elements: bridge_elements(v.get("n")),
        youngs_modulus: modulus,
        density,
        width,
        height,
        supports: [SupportSpec::Pinned, SupportSpec::Roller],
        mass: MassSpec::Consistent,
        damping: None,
        velocity: [0.0, 0.0],
        angular_velocity: 0.0,
    });
    s.material.stiffness = stiffness;
    s.material.damping = 0.0;
    s.material.friction = v.get("mu");
    s.material.restitution = 0.0;
    s.stepper.kind = "penalty-implicit".into();
    s.stepper.dt = 1e-3;
    s.contact_margin = 0.01;
    s.duration = crossing_time(v, start, length - start.min(0.05 * length));
    s
}

/// The time the ball takes from `start` to `end`, rolling without slip along the quasi-static
/// sag under it: the bridge's own w_q(x) and its load's w_P(x) = P x²(L − x)²/(3EIL). Half
/// the load's work P w_P goes into the bending (Clapeyron), so a rolling disk (kinetic energy
/// ¾ m v²) has v(x)² = v₀² + (4/3) g [w_q + ½ w_P]ₓ₀ˣ. 5 s when it does not move.
fn crossing_time(v: &Values, start: f64, end: f64) -> f64 {
    let (mass, speed, length) = (v.get("m"), v.get("v0"), v.get("L"));
    let (bending, _, weight) = bridge_properties(v.get("E"));
    if speed <= 0.0 || end <= start {
        return 5.0;
    }
    let sag = |x: f64| {
        0.5 * crate::beam_theory::simply_supported_deflection(
            (mass * GRAVITY, x),
            x,
            bending,
            length,
        ) + weight * x * (length - x) * (length * length + x * (length - x)) / (24.0 * bending)
    };
    let steps = 400;
    let dx = (end - start) / steps as f64;
    (0..steps)
        .map(|i| {
            let x = start + (i as f64 + 0.5) * dx;
            let v2 = speed * speed + 4.0 / 3.0 * GRAVITY * (sag(x) - sag(start));
            dx / v2.max(1e-12).sqrt()
        })
        .sum::<f64>()
        .min(600.0)
}
