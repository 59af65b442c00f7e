//! Impacts through the public API: the bouncing ball (I1) and the limits e = 0, e = 1 (I2).
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::needless_range_loop)] // index loops read like the maths here

use contactlab::Simulation;
use contactlab::trace::Trace;

const G: f64 = 9.81;

fn ball(e: f64, height: f64, stepper: &str, duration: f64) -> (Simulation, Trace) {
    let mut sim = Simulation::from_preset(
        "bouncing-ball",
        &[("e".into(), e), ("height".into(), height)],
    )
    .unwrap();
    sim.set_stepper(stepper).unwrap();
    let steps = sim.steps_for(duration);
    let trace = sim.run(steps, 1).unwrap();
    (sim, trace)
}

/// Times of the steps whose contact state is `impact`.
fn impact_steps(trace: &Trace) -> Vec<usize> {
    (0..trace.samples.len())
        .filter(|&k| trace.samples[k].contacts[0].state.label() == "impact")
        .collect()
}

#[test]
fn i1_first_impact_time_and_speed() {
    let (h_drop, e) = (1.0, 0.5);
    let (sim, trace) = ball(e, h_drop, "acceleration", 0.6);
    let h = sim.time_step();
    let k = impact_steps(&trace)[0];
    let s = &trace.samples[k];
    let t0 = (2.0 * h_drop / G).sqrt();
    let v0 = (2.0 * G * h_drop).sqrt();
    // The step ending at s.t contains the impact; after it the ball rises at e·v0 − g(t − t_impact).
    assert!(
        s.t - h < t0 && t0 <= s.t,
        "impact step ends at {} but t0 = {t0}",
        s.t
    );
    let vy = s.bodies[0].v[1];
    let t_impact = s.t - (e * v0 - vy) / G;
    assert!(
        (t_impact - t0).abs() < 1e-9,
        "impact at {t_impact}, expected {t0}"
    );
    // Impulse P = m (1 + e) v0 for m = 1 kg.
    let p = s.contacts[0].impulse;
    assert!((p - (1.0 + e) * v0).abs() < 1e-6 * v0, "impulse {p}");
}

#[test]
fn i1_rebound_heights_shrink_by_e_squared() {
    let (h_drop, e) = (1.0, 0.5);
    let (_, trace) = ball(e, h_drop, "acceleration", 2.0);
    let impacts = impact_steps(&trace);
    for bounce in 1..=3 {
        let (a, b) = (impacts[bounce - 1], impacts[bounce]);
        let apex = trace.samples[a..b]
            .iter()
            .map(|s| s.contacts[0].gap)
            .fold(f64::MIN, f64::max);
        let expected = h_drop * e.powi(2 * bounce as i32);
        // Sampled every step, the apex is missed by at most g h²/8 ≈ 1.2e-6 m.
        assert!(
            (apex - expected).abs() < 2e-6,
            "bounce {bounce}: apex {apex}, expected {expected}"
        );
    }
}

#[test]
fn i1_impacts_accumulate_then_the_ball_rests_with_n_equal_mg() {
    let (h_drop, e) = (1.0, 0.5);
    let (sim, trace) = ball(e, h_drop, "acceleration", 2.5);
    let h = sim.time_step();
    let t0 = (2.0 * h_drop / G).sqrt();
    let v0 = (2.0 * G * h_drop).sqrt();
    let t_inf = t0 + 2.0 * e * v0 / (G * (1.0 - e));
    let last = *impact_steps(&trace).last().unwrap();
    let t_last = trace.samples[last].t;
    assert!(
        (t_last - t_inf).abs() <= 2.0 * h,
        "last impact at {t_last}, t∞ = {t_inf}"
    );
    for s in &trace.samples {
        assert!(
            s.contacts[0].gap >= -1e-9,
            "penetration {} at t = {}",
            s.contacts[0].gap,
            s.t
        );
        if s.t > t_inf + 3.0 * h {
            let c = &s.contacts[0];
            assert_eq!(c.state.label(), "loaded", "t = {}", s.t);
            assert!(
                (c.normal - G).abs() < 1e-9,
                "N = {} at t = {}",
                c.normal,
                s.t
            );
            assert!(c.gap.abs() < 1e-9);
        }
    }
}

#[test]
fn i1_moreau_jean_times_impacts_within_a_step_and_rests() {
    let (h_drop, e) = (1.0, 0.5);
    let (sim, trace) = ball(e, h_drop, "moreau-jean", 2.5);
    let h = sim.time_step();
    let t0 = (2.0 * h_drop / G).sqrt();
    let first = trace.samples[impact_steps(&trace)[0]].t;
    assert!(
        (first - t0).abs() <= 2.0 * h,
        "first impact {first}, expected {t0}"
    );
    let last = trace.samples.last().unwrap();
    assert!(
        (last.contacts[0].normal - G).abs() < 1e-9,
        "N = {}",
        last.contacts[0].normal
    );
    for s in &trace.samples {
        assert!(s.contacts[0].gap >= -1e-9, "penetration at t = {}", s.t);
    }
}

#[test]
fn i2_plastic_impact_stays_down() {
    let (_, trace) = ball(0.0, 0.5, "acceleration", 1.0);
    let first = impact_steps(&trace)[0];
    for s in &trace.samples[first + 1..] {
        let c = &s.contacts[0];
        assert!(c.gap.abs() < 1e-9, "gap {} at t = {}", c.gap, s.t);
        assert!(s.bodies[0].v[1].abs() < 1e-9, "rebound at t = {}", s.t);
    }
}

#[test]
fn i2_plastic_impact_moreau_jean_never_rebounds() {
    // Moreau–Jean stops the ball when it would cross the floor within the step, up to h·v
    // above it; the ball then drops the rest of the way in ever smaller plastic impacts.
    let (h_drop, h) = (0.5, 1e-3);
    let v0 = (2.0 * G * h_drop).sqrt();
    let (_, trace) = ball(0.0, h_drop, "moreau-jean", 1.0);
    let first = impact_steps(&trace)[0];
    let mut previous_gap = f64::INFINITY;
    for s in &trace.samples[first..] {
        let c = &s.contacts[0];
        assert!(s.bodies[0].v[1] <= 1e-12, "rebound at t = {}", s.t);
        assert!(c.gap <= previous_gap + 1e-15 && c.gap <= v0 * h && c.gap >= -1e-12);
        previous_gap = c.gap;
    }
    // Velocity-level stepping can come to rest with a gap below g h², never more.
    let rest_gap = trace.samples.last().unwrap().contacts[0].gap;
    assert!((0.0..=G * h * h).contains(&rest_gap), "rest gap {rest_gap}");
}

#[test]
fn i2_elastic_impact_returns_to_drop_height() {
    let h_drop = 0.5;
    // Event-driven: flight is integrated exactly, so the apex is H to sampling accuracy.
    let (_, trace) = ball(1.0, h_drop, "acceleration", 1.2);
    let first = impact_steps(&trace)[0];
    let apex = trace.samples[first..]
        .iter()
        .map(|s| s.contacts[0].gap)
        .fold(f64::MIN, f64::max);
    assert!((apex - h_drop).abs() < 2e-6, "apex {apex}");
    // Moreau–Jean: first order, the rebound starts up to one step early.
    let (sim, trace) = ball(1.0, h_drop, "moreau-jean", 1.2);
    let apex = trace.samples[impact_steps(&trace)[0]..]
        .iter()
        .map(|s| s.contacts[0].gap)
        .fold(f64::MIN, f64::max);
    let v0 = (2.0 * G * h_drop).sqrt();
    assert!(
        (apex - h_drop).abs() < 2.0 * v0 * sim.time_step(),
        "moreau-jean apex {apex}"
    );
}
