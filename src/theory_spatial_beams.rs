//! Theory lines of the spatial cantilever: its static tip deflection about each section axis, its twist (with the bending–torsion coupling of a load across unequal axes), and its flexural and torsional frequencies.

use crate::beam_theory::cantilever_frequency;
use crate::presets_spatial_beams::{load_direction, spatial_section};
use crate::simulation::Simulation;
use crate::theory::{TheoryLine, line};

/// (static tip displacement (m) and twist (rad) from a static solve, ω (rad/s) of the modes).
type Answer = ([f64; 4], Vec<f64>);

thread_local! {
    /// The last (L, P, φ, T, n) asked about and its answer: the page asks every frame, and a
    /// static solve with modes of a beam in space takes tens of milliseconds.
    static SPATIAL_CANTILEVER: std::cell::RefCell<Option<([f64; 5], Answer)>> =
        const { std::cell::RefCell::new(None) };
}

/// The static solve and modes of the scene's initial (straight, unloaded) system.
fn statics(sim: &Simulation) -> Answer {
    let Some(system) = sim.scene().build().ok().map(|(system, _, _)| system) else {
        return ([f64::NAN; 4], vec![]);
    };
    let body = system.bodies.iter().position(|b| b.name == "beam");
    let tip = body
        .zip(crate::statics::static_equilibrium(&system, 10, 1e-10).ok())
        .map_or([f64::NAN; 4], |(i, eq)| {
            let b = &system.bodies[i];
            let p = b.position3(&eq.q);
            let turn = b.orientation(&eq.q) * b.orientation(&system.q).conjugate();
            [p.x, p.y, p.z, turn.to_scaled_axis().x]
        });
    (tip, crate::modes::analyse(&system, &[], &[]).omega)
}

/// The lines (linear theory: the static lines are flagged as guesses beyond 0.1 %).
pub(crate) fn spatial_cantilever(sim: &Simulation, p: &dyn Fn(&str) -> f64) -> Vec<TheoryLine> {
    let [weak, stiff, torsion, rho_a, rho_ip] = spatial_section();
    let (length, load, torque) = (p("L"), p("P"), p("T"));
    let key = [length, load, p("phi"), torque, p("n")];
    let (tip, omegas) = SPATIAL_CANTILEVER.with(|cache| {
        let mut cache = cache.borrow_mut();
        match &*cache {
            Some((k, answer)) if *k == key => answer.clone(),
            _ => {
                let answer = statics(sim);
                *cache = Some((key, answer.clone()));
                answer
            }
        }
    });
    let dir = load_direction(p("phi"));
    let cube = length.powi(3) / 3.0;
    let sideways = load * dir[1] * cube / weak;
    let down = -load * dir[2] * cube / stiff;
    // The tip load twists the beam too once it has bent: with EI_y ≠ EI_z the tip moves off
    // the load's plane, so the load has an arm about the bent axis. The torque about the local
    // tangent at s, t(s)·[(x_tip − x(s)) × F], is F_y F_z (1/EI_y − 1/EI_z) times
    // D(L) − D(s) − (L − s) s (2L − s)/2 with D(s) = s²(3L − s)/6 (the linear deflections and
    // slopes), whose integral over the length is L⁴/12: a second-order twist
    // F_y F_z (1/EI_y − 1/EI_z) L⁴/(12 GJ).
    let (fy, fz) = (load * dir[1], load * dir[2]);
    let coupling = fy * fz * (1.0 / weak - 1.0 / stiff) * length.powi(4) / (12.0 * torsion);
    let twist = torque * length / torsion + coupling;
    let nearest = |w: f64| {
        omegas
            .iter()
            .copied()
            .min_by(|a, b| (a - w).abs().total_cmp(&(b - w).abs()))
            .unwrap_or(f64::NAN)
    };
    let guess = |mut l: TheoryLine| {
        l.wrong = (l.predicted - l.simulated).abs() > 1e-3 * l.predicted.abs().max(1e-300);
        l
    };
    let w_weak = cantilever_frequency(1, weak, rho_a, length);
    let w_stiff = cantilever_frequency(1, stiff, rho_a, length);
    let w_torsion = std::f64::consts::FRAC_PI_2 * (torsion / rho_ip).sqrt() / length;
    vec![
        guess(line(
            "tip sideways, P sin φ L³/(3EI_y), static solve",
            "m",
            sideways,
            tip[1],
        )),
        guess(line(
            "tip down, P cos φ L³/(3EI_z), static solve",
            "m",
            down,
            -tip[2],
        )),
        guess(line(
            "tip twist, TL/(GJ) + F_y F_z (1/EI_y − 1/EI_z) L⁴/(12GJ) (the load's arm once bent), static solve",
            "rad",
            twist,
            tip[3],
        )),
        line(
            "ω₁ sideways, 1.8751² √(EI_y/(ρA L⁴)), modes",
            "rad/s",
            w_weak,
            nearest(w_weak),
        ),
        line(
            "ω₁ up and down, 1.8751² √(EI_z/(ρA L⁴))",
            "rad/s",
            w_stiff,
            nearest(w_stiff),
        ),
        line(
            "ω₁ torsion, (π/2) √(GJ/(ρI_p L²))",
            "rad/s",
            w_torsion,
            nearest(w_torsion),
        ),
    ]
}
