//! NSGA's three levels (issue 14): persistent contacts act by smooth forces in the
//! generalized-α step, so positions under lasting contact converge at second order in h,
//! where the two-level scheme (contacts by impulses only, `stepper.nsga_levels = 2`) is
//! first order. Each case measures the error against its closed form at h, h/2, h/4, h/8.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;

mod common;

/// The preset `name` at step `h` under NSGA with `levels` levels.
fn preset(name: &str, levels: u64, h: f64) -> Simulation {
    let mut scene = Simulation::from_preset(name, &[]).unwrap().scene().clone();
    scene.stepper.nsga_levels = levels;
    scene.stepper.dt = h;
    Simulation::from_scene(scene).unwrap()
}

/// The orders log₂(e(h)/e(h/2)) of successive errors.
fn orders(errors: &[f64]) -> Vec<f64> {
    errors
        .windows(2)
        .map(|w| (w[0].abs() / w[1].abs()).log2())
        .collect()
}

/// Errors at h, h/2, h/4, h/8 of `measure` run on simulations made by `make`.
fn errors(
    h: f64,
    make: impl Fn(f64) -> Simulation,
    measure: impl Fn(Simulation) -> f64,
) -> Vec<f64> {
    (0..4)
        .map(|k| {
            let h = h / f64::from(1 << k);
            measure(make(h))
        })
        .collect()
}

/// The last moving body's centre in a spatial system: (x, y, z).
fn centre(sim: &Simulation) -> [f64; 3] {
    let q = &sim.system().q;
    let k = q.len() - 7;
    [q[k], q[k + 1], q[k + 2]]
}

/// Runs to time `t` (a whole number of steps), every step converged.
fn run_to(sim: &mut Simulation, t: f64) {
    let steps = (t / sim.time_step()).round() as usize;
    for _ in 0..steps {
        sim.step().unwrap();
        assert!(sim.last_report().converged, "t = {}", sim.time());
    }
}

/// Reference F2: a sphere (R = 0.1 m) rolling at 1 m/s against rolling resistance
/// ρ = 2 mm slows at a = (5/7) ρ g / R: at t = 3 s it has gone t − a t²/2. Three levels:
/// second order; two: first.
#[test]
fn a_sphere_slowing_under_rolling_resistance_is_where_it_should_be_at_second_order() {
    let a = 5.0 / 7.0 * 0.002 * 9.81 / 0.1;
    let position = |levels: u64| {
        errors(
            4e-3,
            |h| preset("sphere-rolling-resistance", levels, h),
            |mut sim| {
                run_to(&mut sim, 3.0);
                let t = sim.time();
                centre(&sim)[0] - (t - 0.5 * a * t * t)
            },
        )
    };
    let three = position(3);
    let two = position(2);
    println!("F2 x(3 s) errors, three levels {three:?}, two {two:?}");
    assert!(orders(&three).iter().all(|&p| p >= 1.9), "{three:?}");
    assert!(
        orders(&two).iter().all(|&p| (0.9..1.1).contains(&p)),
        "{two:?}"
    );
    assert!(
        three[0].abs() < 1e-5 && two[0].abs() > 1e-4,
        "{three:?} {two:?}"
    );
}

/// Reference F2's stopping distance v₀²/(2a) = 3.567788 m, reached in one step of 7.1356 s.
#[test]
fn the_rolling_resistance_stopping_distance_is_second_order() {
    let a = 5.0 / 7.0 * 0.002 * 9.81 / 0.1;
    let exact = 1.0 / (2.0 * a);
    let three = errors(
        4e-3,
        |h| preset("sphere-rolling-resistance", 3, h),
        |mut sim| {
            run_to(&mut sim, 7.5);
            // At rest, exactly, after the stop.
            let v = &sim.system().v;
            assert!(v.amax() <= 1e-9, "still moving: {}", v.amax());
            centre(&sim)[0] - exact
        },
    );
    println!("F2 stopping distance errors {three:?}");
    assert!(three.iter().all(|e| e.abs() < 2e-6), "{three:?}");
    assert!(orders(&three).iter().all(|&p| p >= 1.9), "{three:?}");
}

/// V12-type: a sphere released on a 10° incline with rolling resistance rolls at
/// (5/7) g (sin θ − (ρ/R) cos θ); the distance after 1 s at second order.
#[test]
fn a_sphere_rolling_down_an_incline_against_rolling_resistance_is_second_order() {
    let theta = 10f64.to_radians();
    let a = 5.0 / 7.0 * 9.81 * (theta.sin() - 0.002 / 0.1 * theta.cos());
    let three = errors(
        4e-3,
        |h| preset("sphere-incline", 3, h),
        |mut sim| {
            let start = centre(&sim);
            run_to(&mut sim, 1.0);
            let end = centre(&sim);
            let d = (0..3)
                .map(|k| (end[k] - start[k]).powi(2))
                .sum::<f64>()
                .sqrt();
            d - 0.5 * a * sim.time() * sim.time()
        },
    );
    println!("incline distance errors {three:?}");
    assert!(orders(&three).iter().all(|&p| p >= 1.9), "{three:?}");
}

/// A planar block with two feet sliding down a 20° incline, μ = 0.2: it slides
/// ½ g (sin θ − μ cos θ) t² in 1 s. The position level's friction acts on the tangential
/// displacement h²g/2 sin θ that the predictor's gravity made, and keeps
/// h²/2 g (sin θ − μ cos θ) of it: the step of a constant acceleration, exact to rounding,
/// with two levels and (from the first step, before the feet are persistent) with three.
#[test]
fn a_block_sliding_down_an_incline_is_exact() {
    let (theta, mu) = (20f64.to_radians(), 0.2);
    let a = 9.81 * (theta.sin() - mu * theta.cos());
    let block = |levels: u64, h: f64| {
        let stepper = format!(r#"{{"kind": "nsga", "dt": {h}, "nsga_levels": {levels}}}"#);
        Simulation::from_json(&common::block_on_incline(theta, mu, &stepper)).unwrap()
    };
    let distance = |levels: u64| {
        errors(
            4e-3,
            |h| block(levels, h),
            |mut sim| {
                let start = (sim.system().q[0], sim.system().q[1]);
                run_to(&mut sim, 1.0);
                let q = &sim.system().q;
                (q[0] - start.0).hypot(q[1] - start.1) - 0.5 * a * sim.time() * sim.time()
            },
        )
    };
    let three = distance(3);
    let two = distance(2);
    println!("sliding block errors, three levels {three:?}, two {two:?}");
    // Rounding of a 1.4 m distance over up to 2000 steps.
    assert!(three.iter().all(|e| e.abs() <= 1e-12), "{three:?}");
    assert!(two.iter().all(|e| e.abs() <= 1e-12), "{two:?}");
}

/// The sphere mill's drive torque N(ρR/r + γ) (first order with two levels, docs/joints.md)
/// is second order with three: the runner's turn gets the floor's friction inside the step.
#[test]
fn the_sphere_mill_s_drive_torque_is_second_order() {
    let steady = contactlab::theory_mill::mill_steady(2.0, 0.3, 0.05, 2.0, (1e-3, 1e-3), 9.81);
    let torque_errors = |levels: u64| {
        errors(
            2e-3,
            |h| preset("sphere-mill", levels, h),
            |mut sim| {
                run_to(&mut sim, 1.0);
                let sample = sim.sample();
                let drive = sample.joints.iter().find(|j| j.name == "drive").unwrap();
                drive.torque - steady.drive_torque
            },
        )
    };
    let (torque, two) = (torque_errors(3), torque_errors(2));
    println!("mill drive torque errors, three levels {torque:?}, two {two:?}");
    assert!(orders(&torque).iter().all(|&p| p >= 1.9), "{torque:?}");
    assert!(
        orders(&two).iter().all(|&p| (0.9..1.1).contains(&p)),
        "{two:?}"
    );
    assert!(torque[1].abs() < 1e-5, "{torque:?}");
}

/// A bar (2 kg, 0.4 × 0.1 m) on two rigid supports 0.2 m apart, pushed sideways through its
/// centre by a force growing at 39.24 N/s (μ = 5, so it never slides): both supports carry
/// it until F h_c = m g a (t* = 1 s), then it rocks about the far one, following
/// I_P φ̈ = F(t)(a sin φ + h_c cos φ) + m g (h_c sin φ − a cos φ). Its tilt 0.25 s later,
/// against that equation integrated by RK4 at 1 µs: second order with three levels.
#[test]
fn a_bar_rocking_onto_one_support_under_a_growing_push_is_second_order() {
    // The push grows at 39.24 N/s so that the bar lifts off at t* = 1 s, on a step of every
    // h (where within its step an event falls changes the error's constant, not its order).
    let (m, a, h_c, rate, g) = (2.0f64, 0.1f64, 0.05f64, 39.24f64, 9.81f64);
    let inertia = m * (0.4 * 0.4 + 0.1 * 0.1) / 12.0 + m * (a * a + h_c * h_c);
    let onset = m * g * a / (rate * h_c);
    // 0.25 s after the onset (1000 steps of 0.25 ms: a whole number of every step).
    let end = 1.25;
    // The rocking equation from rest at the onset to `end`, by RK4 at 1 µs.
    let reference = |end: f64| {
        let accel = |t: f64, phi: f64| {
            (rate * t * (a * phi.sin() + h_c * phi.cos())
                + m * g * (h_c * phi.sin() - a * phi.cos()))
                / inertia
        };
        let (mut t, mut phi, mut omega) = (onset, 0.0f64, 0.0f64);
        let steps = ((end - onset) / 1e-6).round() as usize;
        let dt = (end - onset) / steps as f64;
        for _ in 0..steps {
            let k1 = (omega, accel(t, phi));
            let k2 = (
                omega + 0.5 * dt * k1.1,
                accel(t + 0.5 * dt, phi + 0.5 * dt * k1.0),
            );
            let k3 = (
                omega + 0.5 * dt * k2.1,
                accel(t + 0.5 * dt, phi + 0.5 * dt * k2.0),
            );
            let k4 = (omega + dt * k3.1, accel(t + dt, phi + dt * k3.0));
            phi += dt / 6.0 * (k1.0 + 2.0 * k2.0 + 2.0 * k3.0 + k4.0);
            omega += dt / 6.0 * (k1.1 + 2.0 * k2.1 + 2.0 * k3.1 + k4.1);
            t += dt;
        }
        phi
    };
    let bar = |levels: u64, h: f64| {
        Simulation::from_json(&format!(
            r#"{{"bodies": [
                {{"name": "floor", "fixed": true, "shape": {{"type": "half_plane"}}}},
                {{"name": "bar", "mass": {m}, "position": [0, 0.05],
                  "shape": {{"type": "box", "width": 0.4, "height": 0.1}},
                  "contact_points": [[-0.1, -0.05], [0.1, -0.05]]}}],
              "forces": [{{"type": "ramp", "body": "bar", "rate": [{rate}, 0]}}],
              "material": {{"friction": 5}},
              "stepper": {{"kind": "nsga", "dt": {h}, "nsga_levels": {levels}}},
              "contact_margin": 0.01}}"#
        ))
        .unwrap()
    };
    let tilt = |levels: u64| {
        errors(
            4e-3,
            |h| bar(levels, h),
            |mut sim| {
                run_to(&mut sim, end);
                -sim.system().q[2] - reference(sim.time())
            },
        )
    };
    let three = tilt(3);
    let two = tilt(2);
    println!(
        "rocking bar tilt φ({end} s) = {:.6} rad; errors, three levels {three:?}, two {two:?}",
        reference(end)
    );
    assert!(orders(&three).iter().all(|&p| p >= 1.9), "{three:?}");
}
