//! Closed forms of the sphere mill (an edge mill, seed 002's sphere in a mechanism) in steady rolling.
//!
//! A shaft turns at Ω about the vertical; on a pitch hinge at the height r of the sphere's
//! centre it carries an arm (mass m_a, centre at x_a from the axis); at radius R a gimbal (a
//! second pitch hinge, mass m_g) holds the axle of the sphere (mass m, radius r, I = (2/5)mr²)
//! along the arm. Rolling without slip, the sphere turns at ω = Ω ẑ − (ΩR/r) ê_r: it rolls
//! at ΩR/r about the axle and spins against the floor at Ω. In the frame turning with the arm
//! (ê_r, ê_θ, ẑ) the steady reactions follow from three balances:
//!
//! - **the sphere and gimbal about the gimbal's hinge (ê_θ through the centre)**, which
//!   passes no moment about ê_θ: the floor's radial friction F_r acts at −r ẑ, and
//!   d(Iω)/dt = I(−ΩR/r) Ω ê_θ, so −r F_r = −I Ω² R/r, **F_r = (2/5) m Ω² R** outward;
//! - **the sphere about its axle (ê_r)**, which passes no moment about ê_r: the rolling
//!   resistance ρN opposes the relative rolling (−ê_r), so r F_θ + ρN = 0,
//!   **F_θ = −ρN/r** (a drag);
//! - **arm, gimbal and sphere about the pitch hinge (ê_θ through the axis)**: every centre
//!   sits at the hinge's height, so the centripetal forces have no moment; the sphere's
//!   gyroscopic moment I Ω² R/r is exactly the moment r F_r of the radial friction, so
//!   **N = (m + m_g) g + m_a g x_a / R** (the gimbal cancels the edge mill's gyroscopic
//!   press, which with a rigid axle would rest on a radial friction the rigid model cannot
//!   determine).
//!
//! The drive supplies what rolling and spinning resistance dissipate (sticking friction does
//! no work): T Ω = ρN · ΩR/r + γN · Ω, **T = N (ρR/r + γ)**, in the sense of Ω.

use crate::Simulation;
use crate::presets_space::{MILL_ARM_MASS, MILL_GIMBAL_MASS, mill_arm_length};
use crate::theory::{TheoryLine, joints_held, line};

/// The steady reactions of the sphere mill (module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MillSteady {
    /// The floor's normal force N, N.
    pub normal: f64,
    /// The floor's friction on the sphere along ê_r (outward), N.
    pub radial_friction: f64,
    /// The floor's friction along ê_θ (the sense of travel), N.
    pub tangential_friction: f64,
    /// The drive torque about +z, N·m.
    pub drive_torque: f64,
    /// The sphere's angular velocity about ê_r, rad/s.
    pub rolling_rate: f64,
}

/// The steady reactions for drive speed `omega`, arm radius `arm`, sphere radius `r` and
/// mass `m`, resistance lengths `rho` and `gamma`, gravity g.
pub fn mill_steady(
    omega: f64,
    arm: f64,
    r: f64,
    m: f64,
    (rho, gamma): (f64, f64),
    g: f64,
) -> MillSteady {
    let x_arm = 0.5 * mill_arm_length(arm, r);
    let normal = (m + MILL_GIMBAL_MASS) * g + MILL_ARM_MASS * g * x_arm / arm;
    let sense = omega.signum();
    MillSteady {
        normal,
        radial_friction: 0.4 * m * omega * omega * arm,
        tangential_friction: -sense * rho * normal / r,
        drive_torque: sense * normal * (rho * arm / r + gamma),
        rolling_rate: -omega * arm / r,
    }
}

/// The theory panel of the `sphere-mill` preset.
pub(crate) fn lines(sim: &Simulation, p: &dyn Fn(&str) -> f64) -> Vec<TheoryLine> {
    let (omega, arm, r, m) = (p("omega"), p("R"), p("r"), p("m"));
    let steady = mill_steady(omega, arm, r, m, (p("rho"), p("gamma")), 9.81);
    let sample = sim.sample();
    // Moving bodies in scene order: shaft, arm, gimbal, sphere.
    let sphere = sample.bodies.get(3);
    let radial = sphere.map_or(glam::DVec3::X, |b| {
        glam::DVec3::new(b.q[0], b.q[1], 0.0).normalize_or(glam::DVec3::X)
    });
    let tangential = glam::DVec3::Z.cross(radial);
    let contact = sample.contacts.iter().find(|c| c.id == "sphere/floor#0");
    let friction =
        contact
            .and_then(|c| c.laws.as_ref())
            .map_or(glam::DVec3::splat(f64::NAN), |l| {
                // The tangent frame of a level floor is (x̂, ŷ).
                glam::DVec3::new(l.friction_force[0], l.friction_force[1], 0.0)
            });
    let rolling = sphere.map_or(f64::NAN, |b| {
        radial.dot(glam::DVec3::new(b.v[3], b.v[4], b.v[5]))
    });
    let drive = sample
        .joints
        .iter()
        .find(|j| j.name == "drive")
        .map_or(f64::NAN, |j| j.torque);
    let mut out = vec![
        line(
            "floor load N = (m + m_g)g + m_a g x_a/R",
            "N",
            steady.normal,
            contact.map_or(f64::NAN, |c| c.normal),
        ),
        line(
            "radial friction F_r = (2/5) m Ω² R (outward)",
            "N",
            steady.radial_friction,
            friction.dot(radial),
        ),
        line(
            "tangential friction F_θ = −ρN/r",
            "N",
            steady.tangential_friction,
            friction.dot(tangential),
        ),
        line(
            "drive torque T = N(ρR/r + γ)",
            "N m",
            steady.drive_torque,
            drive,
        ),
        line(
            "rolling rate ω·ê_r = −ΩR/r",
            "rad/s",
            steady.rolling_rate,
            rolling,
        ),
    ];
    out.extend(joints_held(sim.events()));
    out
}
