//! Closed-form predictions beside the simulated values, for the page's theory panel and for tests.
//!
//! Each line states a formula from the seeds or from elementary mechanics, evaluated at the
//! preset's parameters (and, where the formula depends on it, the current state), next to the
//! value the simulation produced in its last step.

use serde::Serialize;

use crate::Simulation;
use crate::integrators::ContactState;

/// One prediction and the simulated value it should match.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TheoryLine {
    /// What is compared, with the formula, e.g. `N = max(0, mg − u)`.
    pub label: String,
    /// SI unit of both numbers.
    pub unit: &'static str,
    /// The closed-form value.
    pub predicted: f64,
    /// The value from the simulation (NaN when it has no counterpart, e.g. a wrong guess).
    pub simulated: f64,
    /// True for a value shown as a counter-example (the decoupled guess of seed 001).
    pub wrong: bool,
}

/// The largest |g| and |ġ| of any joint equation over the run, against zero.
pub(crate) fn joints_held(events: &crate::events::Events) -> [TheoryLine; 2] {
    [
        line(
            "joints held: max |g| over the run (m or rad)",
            "",
            0.0,
            events.joint_violation,
        ),
        line(
            "joints held: max |ġ| over the run (m/s or rad/s)",
            "",
            0.0,
            events.joint_rate,
        ),
    ]
}

pub(crate) fn line(label: &str, unit: &'static str, predicted: f64, simulated: f64) -> TheoryLine {
    TheoryLine {
        label: label.into(),
        unit,
        predicted,
        simulated,
        wrong: false,
    }
}

/// A drop from rest through a gap `height` with restitution `e`: the first impact at
/// t₀ = √(2H/g) and the accumulation time t∞ = t₀ + 2e v₀/(g(1 − e)), v₀ = √(2gH).
fn bounce_times(height: f64, e: f64) -> (f64, f64) {
    let t0 = (2.0 * height / 9.81).sqrt();
    let v0 = (2.0 * 9.81 * height).sqrt();
    let t_inf = if e < 1.0 {
        t0 + 2.0 * e * v0 / (9.81 * (1.0 - e))
    } else {
        f64::INFINITY
    };
    (t0, t_inf)
}

/// Seed 001, a block of mass m pulled up by u under gravity g: N = max(0, mg − u) while it
/// rests, d̈ = max(0, (u − mg)/m) once it lifts, beside the simulated reaction and vertical
/// acceleration.
fn seed_001_lines(
    (m, u, g): (f64, f64, f64),
    reaction: f64,
    vertical_acceleration: f64,
) -> Vec<TheoryLine> {
    vec![
        line(
            "reaction N = max(0, mg − u)",
            "N",
            (m * g - u).max(0.0),
            reaction,
        ),
        line(
            "acceleration d̈ = max(0, (u − mg)/m)",
            "m/s²",
            ((u - m * g) / m).max(0.0),
            vertical_acceleration,
        ),
    ]
}

/// The theory lines for the simulation's preset (empty for scene files and presets without one).
pub fn theory(sim: &Simulation) -> Vec<TheoryLine> {
    let Some(preset) = sim.preset() else {
        return vec![];
    };
    let values = sim.parameter_values();
    let p = |name: &str| {
        values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|v| v.1)
            .unwrap_or(f64::NAN)
    };
    if let Some(lines) = crate::theory_beams::lines(sim, preset.name, &p) {
        return lines;
    }
    if preset.name == "sphere-mill" {
        return crate::theory_mill::lines(sim, &p);
    }
    let sample = sim.sample();
    let events = sim.events();
    let measured = |t: Option<f64>| t.unwrap_or(f64::NAN);
    // Impacts have accumulated once the ball rests on a closed contact with no impact for
    // 0.1 s (a flight between bounces has no closed contact).
    let resting_now = sim
        .last_report()
        .contacts
        .iter()
        .any(|c| matches!(c.state, ContactState::Loaded | ContactState::Touching));
    let settled = |e: &crate::events::Events| {
        resting_now
            && e.steps_since_impact as f64 * sim.time_step() >= 0.1
            && e.last_impact.is_some()
    };
    let normals: Vec<f64> = sample.contacts.iter().map(|c| c.normal).collect();
    let total_normal: f64 = normals.iter().sum();
    let vertical_acceleration = sim.acceleration().get(1).copied().unwrap_or(f64::NAN);
    match preset.name {
        "block-pull" => seed_001_lines(
            (p("m"), p("u"), p("g")),
            total_normal,
            vertical_acceleration,
        ),
        "penalty-block" => {
            let (m, u, k) = (p("m"), p("u"), p("k"));
            let load = (m * 9.81 - u).max(0.0);
            let gap = sample.contacts.first().map(|c| c.gap).unwrap_or(f64::NAN);
            vec![
                line("static overlap d = −N/k", "m", -load / k, gap),
                line("reaction N = mg − u", "N", load, total_normal),
            ]
        }
        "coupled-pair" => {
            let (m, i, a, g) = (p("m"), p("I"), p("a"), p("g"));
            // W N = −b with W = [[1/m + a²/I, 1/m − a²/I], …], b = −g (1, 1): N = mg/2 each.
            let exact = m * g / 2.0;
            let guess = g / (1.0 / m + a * a / i);
            let mut lines = vec![
                line(
                    "N₁ from the coupled LCP (W N + b = 0)",
                    "N",
                    exact,
                    normals.first().copied().unwrap_or(f64::NAN),
                ),
                line(
                    "N₂ from the coupled LCP",
                    "N",
                    exact,
                    normals.get(1).copied().unwrap_or(f64::NAN),
                ),
            ];
            let is_wrong = (guess - exact).abs() > 1e-12 * exact;
            let mut wrong = line(
                "decoupled guess −bᵢ/Wᵢᵢ (ignores coupling)",
                "N",
                guess,
                f64::NAN,
            );
            wrong.wrong = is_wrong;
            lines.push(wrong);
            // The guess inserted into the full system: (W₁₁ + W₁₂)·guess + b₁ = 2·guess/m − g.
            let w = 2.0 * guess / m - g;
            let mut residual = line("… its separating acceleration W N + b", "m/s²", w, f64::NAN);
            residual.wrong = is_wrong;
            lines.push(residual);
            lines
        }
        "bouncing-ball" => {
            let (e, h, m) = (p("e"), p("height"), p("m"));
            let (t0, t_inf) = bounce_times(h, e);
            let resting = sample.t > t_inf + 2.0 * sim.time_step();
            vec![
                line(
                    "first impact at √(2H/g)",
                    "s",
                    t0,
                    measured(events.first_impact),
                ),
                line(
                    "impacts accumulate at t∞ = t₀ + 2e v₀/(g(1 − e)) (last impact)",
                    "s",
                    t_inf,
                    if settled(events) {
                        measured(events.last_impact)
                    } else {
                        f64::NAN
                    },
                ),
                line(
                    "reaction at rest N = mg (after t∞)",
                    "N",
                    m * 9.81,
                    if resting { total_normal } else { f64::NAN },
                ),
            ]
        }
        "load-cell" => {
            let (m, rate, g) = (p("m"), p("rate"), p("g"));
            // The reaction of the last step was solved at its start, t − h.
            let t = sample.t - sim.time_step();
            vec![
                line(
                    "reading N = max(0, mg − rate·t)",
                    "N",
                    (m * g - rate * t).max(0.0),
                    total_normal,
                ),
                line(
                    "lift-off at t = mg/rate",
                    "s",
                    m * g / rate,
                    measured(events.first_liftoff),
                ),
            ]
        }
        "stacked-boxes" => {
            let (m1, m2) = (p("m1"), p("m2"));
            vec![
                line(
                    "floor reaction (m₁ + m₂) g",
                    "N",
                    (m1 + m2) * 9.81,
                    normals.first().copied().unwrap_or(f64::NAN),
                ),
                line(
                    "between the boxes m₂ g",
                    "N",
                    m2 * 9.81,
                    normals.get(1).copied().unwrap_or(f64::NAN),
                ),
            ]
        }
        "disk-over-disk" => {
            let phi0 = p("phi0");
            let q = &sample.bodies[0].q;
            let phi = libm::atan2(q[0], q[1]);
            // Energy: v² = 2g(R + r)(cos φ₀ − cos φ); N = m(g cos φ − v²/(R + r)) with m = 1 kg.
            let n = (9.81 * (3.0 * libm::cos(phi) - 2.0 * libm::cos(phi0))).max(0.0);
            vec![
                line("reaction N = mg(3 cos φ − 2 cos φ₀)", "N", n, total_normal),
                line(
                    "lift-off angle φ, from cos φ = ⅔ cos φ₀",
                    "rad",
                    libm::acos(2.0 / 3.0 * libm::cos(phi0)),
                    // Measured at the step the contact opened (the fixed disk at the origin).
                    sim.system()
                        .bodies
                        .iter()
                        .position(|b| !b.is_fixed())
                        .and_then(|i| events.liftoff_positions.get(i))
                        .map_or(f64::NAN, |p| libm::atan2(p[0], p[1])),
                ),
            ]
        }
        "rocking-bar" | "three-support-bar" => {
            let (m, i, a, k) = (p("m"), p("I"), p("a"), p("k"));
            let supports = if preset.name == "rocking-bar" {
                2.0
            } else {
                3.0
            };
            let heave = (supports * k / m).sqrt();
            let rock = (2.0 * k * a * a / i).sqrt();
            let omega = sim.modes().omega;
            let at = |j: usize| omega.get(j).copied().unwrap_or(f64::NAN);
            let mut lines = vec![
                line(
                    if supports == 2.0 {
                        "heave ω = √(2k/m)"
                    } else {
                        "heave ω = √(3k/m)"
                    },
                    "rad/s",
                    heave,
                    at(0),
                ),
                line("rocking ω = √(2ka²/I)", "rad/s", rock, at(1)),
            ];
            if supports == 2.0 {
                let mut guess = line(
                    "decoupled √(k(1/m + a²/I)) per contact",
                    "rad/s",
                    (k * (1.0 / m + a * a / i)).sqrt(),
                    f64::NAN,
                );
                guess.wrong = true;
                lines.push(guess);
            }
            // Simulated: 2/ω_max of the coupled modes computed from the current state (the
            // eigenvalues of K^½AK^½), not the step in use.
            let computed = sim.modes().omega.iter().fold(0.0f64, |m, &w| m.max(w));
            lines.push(line(
                "central-difference limit h < 2/ω_max",
                "s",
                2.0 / heave.max(rock),
                if computed > 0.0 {
                    2.0 / computed
                } else {
                    f64::NAN
                },
            ));
            lines
        }
        "block-pull-3d" => {
            // In space the vertical is z, the third generalized velocity.
            let vertical = sim.acceleration().get(2).copied().unwrap_or(f64::NAN);
            seed_001_lines((p("m"), p("u"), p("g")), total_normal, vertical)
        }
        "table-modes" => {
            let (legs, m, k, half) = (p("legs").round(), p("m"), p("k"), p("L"));
            let t = crate::presets_space::PLATE_THICKNESS;
            let inertia = m * ((2.0 * half).powi(2) + t * t) / 12.0;
            let r = 0.8 * half;
            let sum_sq = if legs == 4.0 {
                4.0 * r * r
            } else {
                1.5 * r * r
            };
            let heave = (legs * k / m).sqrt();
            let tilt = (k * sum_sq / inertia).sqrt();
            let analysis = sim.modes();
            let omega = &analysis.omega;
            // Sorted ascending: heave below the two (equal) tilts for these plates, or above.
            let (heave_at, tilt_at) = if heave <= tilt { (0, 1) } else { (2, 0) };
            let at = |j: usize| omega.get(j).copied().unwrap_or(f64::NAN);
            vec![
                line("heave ω = √(nk/m)", "rad/s", heave, at(heave_at)),
                line("roll ω = √(kΣy²/I_x)", "rad/s", tilt, at(tilt_at)),
                line("pitch ω = √(kΣx²/I_y)", "rad/s", tilt, at(tilt_at + 1)),
                line(
                    "zero modes (legs beyond 3)",
                    "1",
                    legs - 3.0,
                    analysis.zero_modes as f64,
                ),
                line(
                    "central-difference limit h < 2/ω_max",
                    "s",
                    2.0 / heave.max(tilt),
                    sim.time_step(),
                ),
            ]
        }
        "sphere-on-penalty-floor" => {
            let (m, k) = (p("m"), p("k"));
            let gap = sample.contacts.first().map_or(f64::NAN, |c| c.gap);
            vec![line("overlap d = −mg/k", "m", -m * 9.81 / k, gap)]
        }
        "box-slide-3d" => {
            let (mu, v0) = (p("mu"), p("v0"));
            let stopped = sample.bodies[0].v.iter().all(|x| x.abs() < 1e-9);
            let x = sample.bodies[0].q[0];
            vec![
                line(
                    "stops after v₀²/(2μg)",
                    "m",
                    v0 * v0 / (2.0 * mu * 9.81),
                    if stopped { x } else { f64::NAN },
                ),
                line(
                    "deceleration μg while sliding",
                    "m/s²",
                    mu * 9.81,
                    if stopped {
                        f64::NAN
                    } else {
                        -sim.acceleration()[0]
                    },
                ),
            ]
        }
        "pendulum" => {
            let (theta0, length, m) = (p("theta0"), p("L"), p("m"));
            // The rod about its pin: I_O = m(L² + t²)/12 + m(L/2)², t = 0.04 L; gravity's
            // moment m g (L/2) sin θ, so θ̈ = −ω₀² sin θ with ω₀² = m g (L/2)/I_O. Released at
            // rest from θ₀ it swings with period T = 4 K(k)/ω₀, k = sin(θ₀/2).
            let t = crate::presets::ROD_THICKNESS * length;
            let inertia = m * (length * length + t * t) / 12.0 + m * 0.25 * length * length;
            let omega0 = (m * 9.81 * 0.5 * length / inertia).sqrt();
            let period = 4.0 * elliptic_k(libm::sin(0.5 * theta0)) / omega0;
            let small = 2.0 * std::f64::consts::PI / omega0;
            let measured_period = events.turns.get(1).copied().unwrap_or(f64::NAN);
            let mut guess = line("small-angle guess 2π/ω₀", "s", small, f64::NAN);
            guess.wrong = (small - period).abs() > 1e-3 * period;
            vec![
                line(
                    "period T = 4K(sin(θ₀/2))/ω₀, ω₀² = mgL/(2I_O)",
                    "s",
                    period,
                    measured_period,
                ),
                guess,
                line(
                    "joint held: max |g| over the run",
                    "m",
                    0.0,
                    events.joint_violation,
                ),
                line(
                    "joint held: max |ġ| over the run",
                    "m/s",
                    0.0,
                    events.joint_rate,
                ),
            ]
        }
        "slider-crank" => {
            let (r, omega) = (p("r"), p("omega"));
            let l = p("ratio") * r;
            // The crank angle is prescribed, φ = φ₀ + Ω t, so the whole mechanism's position
            // and velocity are functions of t: the slider must be where the kinematics says.
            let phi = crate::presets::SLIDER_CRANK_PHI0 + omega * sample.t;
            let (x, speed) = crate::presets::slider_kinematics(r, l, phi, omega);
            let system = sim.system();
            let (x_sim, speed_sim) =
                system
                    .body_index("slider")
                    .map_or((f64::NAN, f64::NAN), |i| {
                        (
                            system.pose(i, &system.q).position.x,
                            system.twist(i, &system.v).0.x,
                        )
                    });
            vec![
                line(
                    "slider x = r cos φ + √(l² − r² sin² φ), φ = φ₀ + Ωt",
                    "m",
                    x,
                    x_sim,
                ),
                line(
                    "slider speed ẋ = −rΩ sin φ (1 + r cos φ/√(l² − r² sin² φ))",
                    "m/s",
                    speed,
                    speed_sim,
                ),
            ]
            .into_iter()
            .chain(joints_held(events))
            .collect()
        }
        "two-spheres" => {
            let (r, mu, e, v0) = (p("R"), p("mu"), p("e"), p("v0"));
            // The first sphere rolls at v₀ without resistance, closing the 4R between the
            // surfaces (centres 6R apart) at t = 4R/v₀. The impact is central (centres level):
            // Newton's law at the sphere–sphere contact gives the separation speed e v₀ for any
            // friction. Without friction no tangential impulse acts (on either sphere or at the
            // floor), so momentum m v₀ is kept as well: v_A = (1 − e) v₀/2, v_B = (1 + e) v₀/2.
            // With friction the contact point of the rolling sphere moves down at v₀ against
            // the other's, the vertical friction impulse presses the second sphere into the
            // floor, and the floor's friction impulse changes the momentum: no closed form.
            let system = sim.system();
            let after = |name: &str| {
                system
                    .body_index(name)
                    .and_then(|i| events.first_impact_velocities.get(i))
                    .map_or(f64::NAN, |v| v[0])
            };
            let (va, vb) = (after("first"), after("second"));
            let mut lines = vec![
                line(
                    "spheres meet at t = 4R/v₀",
                    "s",
                    4.0 * r / v0,
                    measured(events.first_impact),
                ),
                line(
                    "separation speed v_B − v_A after impact = e v₀",
                    "m/s",
                    e * v0,
                    vb - va,
                ),
            ];
            if mu == 0.0 {
                lines.push(line(
                    "v_A after impact = (1 − e) v₀/2 (μ = 0: momentum kept)",
                    "m/s",
                    0.5 * (1.0 - e) * v0,
                    va,
                ));
                lines.push(line(
                    "v_B after impact = (1 + e) v₀/2 (μ = 0)",
                    "m/s",
                    0.5 * (1.0 + e) * v0,
                    vb,
                ));
            }
            lines
        }
        "sphere-slide" => {
            let (r, mu, v0, w0) = (p("R"), p("mu"), p("v0"), p("omega0"));
            let slip0 = v0 - r * w0;
            let t_star = 2.0 * slip0.abs() / (7.0 * mu * 9.81);
            let v = sample.bodies[0].v[0];
            let rolling = sample.t > t_star + 2.0 * sim.time_step();
            vec![
                line(
                    "rolling from t* = 2|v₀ − Rω₀|/(7μg)",
                    "s",
                    t_star,
                    measured(events.slip_end),
                ),
                line(
                    "then v = (5v₀ + 2Rω₀)/7",
                    "m/s",
                    (5.0 * v0 + 2.0 * r * w0) / 7.0,
                    if rolling { v } else { f64::NAN },
                ),
                line(
                    "slip speed v − Rω = (v₀ − Rω₀) − (7/2)μg t, until t*",
                    "m/s",
                    (slip0.abs() - 3.5 * mu * 9.81 * sample.t).max(0.0) * slip0.signum(),
                    v - r * sample.bodies[0].v[4],
                ),
            ]
        }
        "sphere-rolling-resistance" => {
            let (r, v0, rho) = (p("R"), p("v0"), p("rho"));
            let dec = 5.0 / 7.0 * rho * 9.81 / r;
            let stop = if dec > 0.0 { v0 / dec } else { f64::INFINITY };
            vec![
                line(
                    "speed v₀ − (5/7)(ρg/R) t",
                    "m/s",
                    (v0 - dec * sample.t).max(0.0),
                    sample.bodies[0].v[0],
                ),
                line(
                    "stops at t = v₀ / ((5/7)ρg/R)",
                    "s",
                    stop,
                    measured(events.stop),
                ),
                line(
                    "after v₀²/(2·(5/7)ρg/R)",
                    "m",
                    v0 * v0 / (2.0 * dec),
                    if events.stop.is_some() {
                        sample.bodies[0].q[0]
                    } else {
                        f64::NAN
                    },
                ),
            ]
        }
        "sphere-spin" => {
            let (r, w0, gamma) = (p("R"), p("omega0"), p("gamma"));
            let rate = 2.5 * gamma * 9.81 / (r * r);
            let stop = if rate > 0.0 {
                w0.abs() / rate
            } else {
                f64::INFINITY
            };
            vec![
                line(
                    "spin ω₀ − (5/2)(γg/R²) t",
                    "rad/s",
                    (w0.abs() - rate * sample.t).max(0.0) * w0.signum(),
                    sample.bodies[0].v[5],
                ),
                line(
                    "stops at t = ω₀ / ((5/2)γg/R²)",
                    "s",
                    stop,
                    measured(events.stop),
                ),
                line(
                    "centre displacement",
                    "m",
                    0.0,
                    libm::hypot(sample.bodies[0].q[0], sample.bodies[0].q[1]),
                ),
            ]
        }
        "sphere-incline" => {
            let (r, mu, rho, theta) = (p("R"), p("mu"), p("rho"), p("theta").to_radians());
            let a = (5.0 / 7.0 * 9.81 * (libm::sin(theta) - rho / r * libm::cos(theta))).max(0.0);
            let v = &sample.bodies[0].v;
            vec![
                line(
                    &format!("least μ that rolls, (2/7) tan θ (here μ = {mu})"),
                    "",
                    2.0 / 7.0 * libm::tan(theta),
                    f64::NAN,
                ),
                line(
                    "speed (5/7) g (sin θ − (ρ/R) cos θ) t",
                    "m/s",
                    a * sample.t,
                    (v[0] * v[0] + v[2] * v[2]).sqrt(),
                ),
            ]
        }
        "bouncing-sphere" => {
            let (e, height, r, w0) = (p("e"), p("height"), p("R"), p("omega0"));
            let (t0, t_inf) = bounce_times(height, e);
            vec![
                line(
                    "first impact at √(2H/g)",
                    "s",
                    t0,
                    measured(events.first_impact),
                ),
                line(
                    "impacts accumulate by t∞ = t₀ + 2e v₀/(g(1 − e)) (last impact)",
                    "s",
                    t_inf,
                    if settled(events) {
                        measured(events.last_impact)
                    } else {
                        f64::NAN
                    },
                ),
                line(
                    "rolling speed once it rolls, 2Rω₀/7 (if the spin did not stop)",
                    "m/s",
                    2.0 * r * w0 / 7.0,
                    sample.bodies[0].v[0],
                ),
            ]
        }
        _ => vec![],
    }
}

/// The complete elliptic integral of the first kind K(k) = ∫₀^{π/2} dφ/√(1 − k² sin²φ), by
/// the arithmetic–geometric mean: K(k) = π / (2 AGM(1, √(1 − k²))) (converges quadratically;
/// exact to rounding after a handful of steps for k < 1).
pub fn elliptic_k(k: f64) -> f64 {
    let (mut a, mut g) = (1.0f64, (1.0 - k * k).sqrt());
    for _ in 0..64 {
        if (a - g).abs() <= 1e-16 * a {
            break;
        }
        (a, g) = (0.5 * (a + g), (a * g).sqrt());
    }
    std::f64::consts::PI / (2.0 * a)
}
