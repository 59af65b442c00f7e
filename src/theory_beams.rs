//! Theory lines of the beam presets: the cantilever's static deflection (linear and elastica) and frequencies, the rod's impact (duration, force, rebound).

use crate::beam_theory::{cantilever_elastica, cantilever_frequency, rod_impact};
use crate::presets_beams::{ROD, STEEL};
use crate::simulation::Simulation;
use crate::theory::{TheoryLine, line};

/// The lines for `preset`, None when it is not a beam preset.
pub(crate) fn lines(
    sim: &Simulation,
    preset: &str,
    p: &dyn Fn(&str) -> f64,
) -> Option<Vec<TheoryLine>> {
    match preset {
        "cantilever" => Some(cantilever(sim, p)),
        "elastic-rod-impact" => Some(rod(sim, p)),
        _ => None,
    }
}

fn cantilever(sim: &Simulation, p: &dyn Fn(&str) -> f64) -> Vec<TheoryLine> {
    let (modulus, density, side) = STEEL;
    let (length, load) = (p("L"), p("P"));
    let bending = modulus * side.powi(4) / 12.0;
    let rho_a = density * side * side;
    let linear = load * length.powi(3) / (3.0 * bending);
    let elastica = cantilever_elastica(load * length * length / bending).deflection * length;
    // The simulated counterparts come from the scene's initial (straight, unloaded) system:
    // its static equilibrium under P, and its modes.
    let initial = sim.scene().build().ok().map(|(system, _, _)| system);
    let (static_tip, omegas) = initial.map_or((f64::NAN, vec![]), |system| {
        let tip = crate::statics::static_equilibrium(&system, 10, 1e-10)
            .map(|eq| -eq.q[eq.q.len() - 2])
            .unwrap_or(f64::NAN);
        (tip, crate::modes::analyse(&system, &[], &[]).omega)
    });
    let mut guess = line("tip deflection, linear PL³/(3EI)", "m", linear, static_tip);
    guess.wrong = (linear - elastica).abs() > 1e-3 * elastica.abs().max(1e-300);
    let omega = |k: usize| omegas.get(k - 1).copied().unwrap_or(f64::NAN);
    vec![
        guess,
        line(
            "tip deflection, elastica (Bisshopp–Drucker), static solve",
            "m",
            elastica,
            static_tip,
        ),
        line(
            "ω₁ = 1.8751² √(EI/(ρA L⁴)), modes of the straight beam",
            "rad/s",
            cantilever_frequency(1, bending, rho_a, length),
            omega(1),
        ),
        line(
            "ω₂ = 4.6941² √(EI/(ρA L⁴))",
            "rad/s",
            cantilever_frequency(2, bending, rho_a, length),
            omega(2),
        ),
    ]
}

fn rod(sim: &Simulation, p: &dyn Fn(&str) -> f64) -> Vec<TheoryLine> {
    let (modulus, density, side, length) = ROD;
    let speed = p("v0");
    let (duration, force, rebound) = rod_impact(length, modulus, density, side * side, speed);
    let events = sim.events();
    let width = events.pulse().map_or(f64::NAN, |(a, b)| b - a);
    // The rod's mean velocity: its momentum over its mass.
    let system = sim.system();
    let momentum = system.mass().apply(&system.v);
    let mean_velocity = (0..momentum.len())
        .step_by(3)
        .map(|i| momentum[i])
        .sum::<f64>()
        / (density * side * side * length);
    vec![
        line(
            "contact duration 2L/c, c = √(E/ρ) (force pulse at half height)",
            "s",
            duration,
            width,
        ),
        line("wall force ρcAv₀ (peak)", "N", force, events.peak_force),
        line(
            "rebound: the rod's mean velocity −v₀",
            "m/s",
            -rebound,
            mean_velocity,
        ),
    ]
}
