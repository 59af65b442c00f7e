//! Theory lines of the beam presets: the cantilever's static deflection (linear and elastica) and frequencies, the rod's impact (duration, force, rebound), the flexible bar's modes against the rigid bar's, the flexible slider-crank's energy balance, the bridge's influence line and loaded mode.

use crate::beam_theory::{
    cantilever_elastica, cantilever_frequency, loaded_bridge_frequency, rod_impact,
    simply_supported_deflection, uniform_load_midspan_deflection,
};
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
        "flexible-bar-on-supports" => Some(flexible_bar(sim, p)),
        "flexible-slider-crank" => Some(flexible_slider_crank(sim, p)),
        "sphere-on-bridge" => Some(sphere_on_bridge(sim, p)),
        "spatial-cantilever" => Some(crate::theory_spatial_beams::spatial_cantilever(sim, p)),
        _ => None,
    }
}

fn cantilever(sim: &Simulation, p: &dyn Fn(&str) -> f64) -> Vec<TheoryLine> {
    let (modulus, density, side) = STEEL;
    let (length, load) = (p("L"), p("P"));
    let bending = modulus * side.powi(4) / 12.0;
    let rho_a = density * side * side;
    let linear = load * length.powi(3) / (3.0 * bending);
    // The simulated counterparts come from the scene's initial (straight, unloaded) system:
    // its static equilibrium under P, and its modes. They and the elastica (a shooting
    // solve) depend on (L, P, n) only, and the page asks for the theory every frame (95 ms at
    // 60 elements), so the last answer is kept.
    let key = [length, load, p("n")];
    let (elastica, static_tip, omegas) = CANTILEVER.with(|cache| {
        let mut cache = cache.borrow_mut();
        match &*cache {
            Some((k, answer)) if *k == key => answer.clone(),
            _ => {
                let elastica =
                    cantilever_elastica(load * length * length / bending).deflection * length;
                let (tip, omegas) = cantilever_statics(sim);
                let answer = (elastica, tip, omegas);
                *cache = Some((key, answer.clone()));
                answer
            }
        }
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

/// (elastica tip deflection m, static-solve tip deflection m, ω rad/s).
type CantileverAnswer = (f64, f64, Vec<f64>);

thread_local! {
    /// The cantilever's elastica and static tip deflections and its modes for the last
    /// (L, P, n) asked about.
    static CANTILEVER: std::cell::RefCell<Option<([f64; 3], CantileverAnswer)>> =
        const { std::cell::RefCell::new(None) };
}

/// The static tip deflection (m) and the angular frequencies (rad/s) of the scene's initial
/// system.
fn cantilever_statics(sim: &Simulation) -> (f64, Vec<f64>) {
    let initial = sim.scene().build().ok().map(|(system, _, _)| system);
    initial.map_or((f64::NAN, vec![]), |system| {
        let tip = crate::statics::static_equilibrium(&system, 10, 1e-10)
            .map(|eq| -eq.q[eq.q.len() - 2])
            .unwrap_or(f64::NAN);
        (tip, crate::modes::analyse(&system, &[], &[]).omega)
    })
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

/// The free–free beam's first wavenumber: cos βL cosh βL = 1, βL = 4.730041.
pub const FREE_FREE_WAVENUMBER: f64 = 4.730_040_744_862_704;

fn flexible_bar(sim: &Simulation, p: &dyn Fn(&str) -> f64) -> Vec<TheoryLine> {
    let (m, a, k, modulus) = (p("m"), p("a"), p("k"), p("E"));
    let length = 2.0 * a;
    let side = length / crate::presets_beams::BAR_SLENDERNESS;
    let bending = modulus * side.powi(4) / 12.0;
    let rho_a = m / length;
    let [heave, rocking, bent] = flexible_bar_modes(&sim.modes());
    vec![
        line(
            "heave → √(2k/m) as EI → ∞ (rigid bar)",
            "rad/s",
            (2.0 * k / m).sqrt(),
            heave,
        ),
        line(
            "rocking → √(2ka²/I) = √(6k/m), I = m(2a)²/12",
            "rad/s",
            (6.0 * k / m).sqrt(),
            rocking,
        ),
        line(
            "first bending → 4.7300² √(EI/(ρAL⁴)) (free–free) as k → 0",
            "rad/s",
            FREE_FREE_WAVENUMBER.powi(2) * (bending / (rho_a * length.powi(4))).sqrt(),
            bent,
        ),
    ]
}

/// The heave, rocking and first bending frequencies among the modes of a bar on two
/// supports, told apart by their shapes at the supports: heave is the lowest mode moving
/// both supports the same way, rocking the lowest moving them opposite ways, the first
/// bending mode the next symmetric one. NaN where the modes do not show one (a support
/// lifted off).
pub fn flexible_bar_modes(modes: &crate::modes::ModalAnalysis) -> [f64; 3] {
    let mut symmetric = Vec::new();
    let mut antisymmetric = Vec::new();
    for (omega, shape) in modes.omega.iter().zip(&modes.mode_shapes) {
        if let [left, right] = shape[..] {
            if left * right > 0.0 {
                symmetric.push(*omega);
            } else if left * right < 0.0 {
                antisymmetric.push(*omega);
            }
        }
    }
    let at = |v: &[f64], i: usize| v.get(i).copied().unwrap_or(f64::NAN);
    [at(&symmetric, 0), at(&antisymmetric, 0), at(&symmetric, 1)]
}

fn flexible_slider_crank(sim: &Simulation, p: &dyn Fn(&str) -> f64) -> Vec<TheoryLine> {
    let (r, omega) = (p("r"), p("omega"));
    let l = p("ratio") * r;
    let phi = crate::presets::SLIDER_CRANK_PHI0 + omega * sim.time();
    let (x, _) = crate::presets::slider_kinematics(r, l, phi, omega);
    let system = sim.system();
    let x_sim = system
        .body_index("slider")
        .map_or(f64::NAN, |i| system.pose(i, &system.q).position.x);
    let events = sim.events();
    let gained = events
        .start_energy
        .map_or(0.0, |start| sim.energy() - start);
    vec![
        line(
            "slider x → r cos φ + √(l² − r² sin² φ) as EA, EI → ∞ (rigid rod)",
            "m",
            x,
            x_sim,
        ),
        line(
            "energy balance: E(t) − E(0) = the drive's work ∫τΩ dt (no damping)",
            "J",
            events.drive_work,
            gained,
        ),
    ]
    .into_iter()
    .chain(crate::theory::joints_held(events))
    .collect()
}

/// The ball's x (m) and the bridge's midspan deflection (m, downward positive) now.
pub fn bridge_state(sim: &Simulation) -> (f64, f64) {
    let system = sim.system();
    let x = system
        .body_index("ball")
        .map_or(f64::NAN, |i| system.bodies[i].pose(&system.q).position.x);
    let midspan = system.body_index("bridge").and_then(|i| {
        let body = &system.bodies[i];
        match &body.kind {
            crate::model::BodyKind::Beam(beam) => {
                let nodes = beam.node_coordinates(body.q_of(&system.q));
                Some(-nodes[nodes.len() / 2][1])
            }
            _ => None,
        }
    });
    (x, midspan.unwrap_or(f64::NAN))
}

fn sphere_on_bridge(sim: &Simulation, p: &dyn Fn(&str) -> f64) -> Vec<TheoryLine> {
    let (mass, length, stiffness) = (p("m"), p("L"), p("k"));
    let (bending, rho_a, weight) = crate::presets_beams::bridge_properties(p("E"));
    let load = mass * 9.81;
    let (x, midspan) = bridge_state(sim);
    let on_bridge = (0.0..=length).contains(&x) && !sim.compressed_contacts().is_empty();
    let own = uniform_load_midspan_deflection(weight, bending, length);
    let under_ball = simply_supported_deflection((load, x), 0.5 * length, bending, length) + own;
    // Within half an element of midspan the ball is "at midspan".
    let half_element = 0.5 * length / crate::presets_beams::bridge_elements(p("n")) as f64;
    let at_midspan = on_bridge && (x - 0.5 * length).abs() <= half_element;
    // The modes are a dense eigenproblem over every coordinate, and the page asks for the
    // theory every frame: only for a structure small enough to sample them.
    let small = sim.modes_sampled();
    let lowest = if small {
        sim.modes().omega.first().copied().unwrap_or(f64::NAN)
    } else {
        f64::NAN
    };
    vec![
        line(
            "midspan deflection, ball at x: P x(3L² − 4x²)/(48EI) + 5qL⁴/(384EI) (quasi-static)",
            "m",
            if on_bridge { under_ball } else { own },
            midspan,
        ),
        line(
            "midspan deflection, ball at midspan: PL³/(48EI) + 5qL⁴/(384EI)",
            "m",
            load * length.powi(3) / (48.0 * bending) + own,
            if at_midspan { midspan } else { f64::NAN },
        ),
        line(
            "ω₁ loaded: 1 = M_k ω² Σ sin²(nπx/L)/((ρAL/2)(ωₙ² − ω²)), M_k = Mk/(k − Mω²); modes (K_beam + Jᵀ k J) φ = ω² M φ",
            "rad/s",
            if on_bridge {
                loaded_bridge_frequency((mass, stiffness), x, (bending, rho_a, length))
            } else {
                f64::NAN
            },
            if on_bridge { lowest } else { f64::NAN },
        ),
        line(
            "ω₁ of the bare bridge π² √(EI/(ρA L⁴))",
            "rad/s",
            crate::beam_theory::simply_supported_frequency(1, bending, rho_a, length),
            if on_bridge { f64::NAN } else { lowest },
        ),
    ]
}
