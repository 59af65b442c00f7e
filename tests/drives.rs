//! Drives beyond constant speed: a pendulum whose pin prescribes φ(t) = A sin ωt follows it exactly under NSGA, and its drive torque is I_O φ̈ + m g (L/2) cos θ.

use contactlab::Simulation;
use contactlab::scene::Scene;

const AMPLITUDE: f64 = 0.6;
const FREQUENCY: f64 = 4.0;

/// The pendulum preset (L = 1 m, m = 1 kg, rod 0.04 L thick) with its pin driven by
/// φ(t) = A sin ωt about the starting angle, at step `h`.
fn driven_pendulum(h: f64) -> (Simulation, f64) {
    let base = Simulation::from_preset("pendulum", &[]).unwrap();
    let mut scene: Scene = base.scene().clone();
    scene.joints[0].drive_speed = Some(0.0);
    scene.joints[0].drive_oscillation = Some([AMPLITUDE, FREQUENCY]);
    scene.stepper.dt = h;
    // Starting at the drive's rate φ̇(0) = Aω (from rest the pin would jerk it there in one
    // step): the rod turns about the pin, its centre moving at ω × r.
    let rate = AMPLITUDE * FREQUENCY;
    let rod = &mut scene.bodies[1];
    rod.angular_velocity = rate;
    rod.velocity = [-rate * rod.position[1], rate * rod.position[0]];
    let sim = Simulation::from_scene(scene).unwrap();
    let start = sim.system().bodies[1].pose(&sim.system().q).angle;
    (sim, start)
}

/// (largest |θ − θ_prescribed|, largest |θ̇ − θ̇_prescribed|, largest torque error, largest
/// torque) over 3 s at step `h`.
fn run(h: f64) -> [f64; 4] {
    let (mut sim, start) = driven_pendulum(h);
    let (length, mass, g) = (1.0f64, 1.0, 9.81);
    let thickness = 0.04 * length;
    // I about the pin: the box's (L² + t²)/12 plus m (L/2)².
    let inertia =
        mass * (length * length + thickness * thickness) / 12.0 + mass * 0.25 * length * length;
    let mut worst = [0.0f64; 4];
    while sim.time() < 3.0 - 1e-12 {
        sim.step().unwrap();
        assert!(sim.last_report().converged, "t = {}", sim.time());
        let t = sim.time();
        let rod = &sim.system().bodies[1];
        let angle = rod.pose(&sim.system().q).angle;
        let rate = rod.twist(&sim.system().v).1;
        let (s, c) = ((FREQUENCY * t).sin(), (FREQUENCY * t).cos());
        worst[0] = worst[0].max((angle - start - AMPLITUDE * s).abs());
        worst[1] = worst[1].max((rate - AMPLITUDE * FREQUENCY * c).abs());
        // The pin's torque on the rod: I_O θ̈ less gravity's moment −m g (L/2) cos θ.
        let expected = inertia * (-AMPLITUDE * FREQUENCY * FREQUENCY * s)
            + mass * g * 0.5 * length * angle.cos();
        let torque = sim.last_report().joints[0].torque;
        worst[2] = worst[2].max((torque - expected).abs());
        worst[3] = worst[3].max(expected.abs());
    }
    worst
}

#[test]
fn a_pin_driven_by_a_sine_holds_its_angle_exactly_and_its_torque_is_i_phi_ddot_plus_gravity_s() {
    let errors: Vec<[f64; 4]> = [2e-3, 1e-3, 5e-4].iter().map(|&h| run(h)).collect();
    for e in &errors {
        println!(
            "angle {:.2e} rate {:.2e} torque {:.3e} of {:.3}",
            e[0], e[1], e[2], e[3]
        );
        assert!(e[0] <= 1e-10 && e[1] <= 1e-10, "{e:?}");
    }
    // The torque (the predictor's smooth reaction at t_{n+1} with the velocity level's
    // correction) converges at first order in h, within 2e-5 of its largest value at 0.5 ms.
    for pair in errors.windows(2) {
        let order = (pair[0][2] / pair[1][2]).log2();
        assert!(order > 0.9, "order {order}: {errors:?}");
    }
    assert!(errors[2][2] <= 2e-5 * errors[2][3], "{errors:?}");
}

#[test]
fn the_drive_s_work_balances_the_energy_the_pendulum_gains_at_first_order() {
    // The motion is prescribed, so the energy gained over 2 s is the same at every h; the
    // drive's work Σ τ φ̇(t − h/2) h (events.rs) meets it at first order in h.
    let mut misses = Vec::new();
    for h in [2e-3, 1e-3, 5e-4] {
        let (mut sim, _) = driven_pendulum(h);
        let start = sim.energy();
        while sim.time() < 2.0 - 1e-12 {
            sim.step().unwrap();
        }
        let gained = sim.energy() - start;
        misses.push((gained - sim.events().drive_work) / gained);
    }
    for pair in misses.windows(2) {
        let order = (pair[0] / pair[1]).log2();
        assert!(order > 0.9, "order {order}: {misses:?}");
    }
    assert!(misses[2].abs() < 5e-3, "{misses:?}");
}

#[test]
fn a_drive_oscillation_needs_a_drive_speed_and_a_sane_amplitude() {
    let base = Simulation::from_preset("pendulum", &[]).unwrap();
    let mut scene: Scene = base.scene().clone();
    scene.joints[0].drive_oscillation = Some([0.5, 2.0]);
    let err = Simulation::from_scene(scene.clone())
        .err()
        .unwrap()
        .to_string();
    assert!(
        err.contains("drive_oscillation") && err.contains("drive_speed"),
        "{err}"
    );
    scene.joints[0].drive_speed = Some(0.0);
    scene.joints[0].drive_oscillation = Some([1e3, 2.0]);
    let err = Simulation::from_scene(scene.clone())
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("drive_oscillation[0]"), "{err}");
    scene.joints[0].drive_oscillation = Some([0.5, -2.0]);
    let err = Simulation::from_scene(scene).err().unwrap().to_string();
    assert!(err.contains("drive_oscillation[1]"), "{err}");
}
