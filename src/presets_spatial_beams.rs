//! Presets with flexible beams in space: a cantilever loaded at its tip across both of its section's axes and in torsion.

use crate::presets::Values;
use crate::scene::{ForceSpec, Scene, SpatialBeamSpec};
use crate::scene_beams::{MassSpec, SupportSpec};
use crate::scene_spatial_beams::rectangle_torsion_constant;

/// The spatial cantilever's steel section: E, ν, ρ, width (across), height (upward).
pub const SPATIAL_STEEL: (f64, f64, f64, f64, f64) = (2.1e11, 0.3, 7850.0, 0.01, 0.02);

/// The section's constants: (EI_y across the width, EI_z across the height, GJ, ρA, ρI_p).
pub fn spatial_section() -> [f64; 5] {
    let (e, nu, rho, w, h) = SPATIAL_STEEL;
    let (iy, iz) = (h * w.powi(3) / 12.0, w * h.powi(3) / 12.0);
    let g = e / (2.0 * (1.0 + nu));
    [
        e * iy,
        e * iz,
        g * rectangle_torsion_constant(w, h),
        rho * w * h,
        rho * (iy + iz),
    ]
}

/// The tip load's direction for an angle φ (degrees) from straight down towards +y.
pub fn load_direction(phi_degrees: f64) -> [f64; 3] {
    let phi = phi_degrees.to_radians();
    [0.0, libm::sin(phi), -libm::cos(phi)]
}

/// A steel cantilever of length L along x, clamped at the origin, its section 10 mm wide and
/// 20 mm high (so four times stiffer against a vertical load than a sideways one), a tip load
/// P at φ from the vertical and a torque T about its axis applied suddenly, no gravity: the
/// tip orbits its static deflection, drawing a Lissajous figure of the two flexural
/// frequencies (2 : 1), lightly damped.
pub(crate) fn spatial_cantilever(v: &Values) -> Scene {
    let (e, nu, rho, w, h) = SPATIAL_STEEL;
    let (length, load, torque) = (v.get("L"), v.get("P"), v.get("T"));
    let elements = v.get("n").round() as usize;
    let [weak, _, _, rho_a, _] = spatial_section();
    let omega1 = crate::beam_theory::cantilever_frequency(1, weak, rho_a, length);
    let mut s = crate::presets_beams::empty("spatial-cantilever");
    s.gravity = Some(vec![0.0, 0.0, 0.0]);
    s.spatial_beams.push(SpatialBeamSpec {
        name: "beam".into(),
        start: [0.0, 0.0, 0.0],
        end: [length, 0.0, 0.0],
        elements,
        youngs_modulus: e,
        poissons_ratio: nu,
        density: rho,
        width: Some(w),
        height: Some(h),
        diameter: None,
        height_axis: [0.0, 0.0, 1.0],
        supports: [SupportSpec::Clamped, SupportSpec::Free],
        mass: MassSpec::Consistent,
        // Stiffness-proportional: 0.2 % of critical in the weak first mode.
        damping: Some([0.0, 2.0 * 0.002 / omega1]),
        velocity: [0.0; 3],
    });
    let dir = load_direction(v.get("phi"));
    s.forces.push(ForceSpec::Constant {
        body: "beam".into(),
        force: dir.iter().map(|d| d * load).collect(),
        torque: crate::scene_loads::TorqueSpec::Vector(vec![torque, 0.0, 0.0]),
    });
    s.stepper.kind = "nsga".into();
    // T₁/100: the flexural periods to about 3e-4 (NSGA's (ωh)²/12); the torsional mode,
    // 36 times higher, is resolved by three steps a period and NSGA's dissipation of high
    // modes damps it (its static twist is still exact).
    let period = std::f64::consts::TAU / omega1;
    s.stepper.dt = period / 100.0;
    s.duration = 10.0 * period;
    s
}
