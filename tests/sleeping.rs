//! Sleeping: bodies at rest fall asleep (held bit for bit), a sphere dropped on them wakes them, and a run with sleeping is deterministic.

use contactlab::Simulation;
use contactlab::scene::Scene;
use contactlab::sleep::SLEEP_TIME;

/// Four spheres resting on the floor in a touching 2 × 2 square, and a fifth dropped from
/// z = 3 m onto the pocket between them (it arrives after √(2·2.7/9.81) = 0.742 s).
fn scene(sleep: bool) -> Simulation {
    let r = 0.1;
    let mut bodies =
        vec![serde_json::json!({"name": "floor", "fixed": true, "shape": {"type": "plane"}})];
    for (k, (x, y)) in [(-r, -r), (r, -r), (-r, r), (r, r)].into_iter().enumerate() {
        bodies.push(serde_json::json!({
            "name": format!("s{k}"), "mass": 1.0, "position": [x, y, r],
            "shape": {"type": "sphere", "radius": r}
        }));
    }
    bodies.push(serde_json::json!({
        "name": "dropped", "mass": 1.0, "position": [0.0, 0.0, 3.0],
        "shape": {"type": "sphere", "radius": r}
    }));
    let scene = serde_json::json!({
        "spatial_bodies": bodies,
        "material": {"friction": 0.5},
        "stepper": {"kind": "nsga", "dt": 1e-3, "sleep": sleep},
        "contact_margin": 0.05
    });
    Simulation::from_scene(Scene::from_json(&scene.to_string()).unwrap()).unwrap()
}

fn run_to(sim: &mut Simulation, t: f64) {
    while sim.time() < t - 1e-9 {
        sim.step().unwrap();
    }
}

/// The resting spheres' coordinates (q of bodies 1–4).
fn resting_q(sim: &Simulation) -> Vec<u64> {
    let system = sim.system();
    system.bodies[1..5]
        .iter()
        .flat_map(|b| system.q.as_slice()[b.q_offset..b.q_offset + b.positions()].to_vec())
        .map(f64::to_bits)
        .collect()
}

#[test]
fn resting_spheres_sleep_and_a_dropped_sphere_wakes_them() {
    let mut sim = scene(true);
    // Before SLEEP_TIME has passed, nothing sleeps.
    run_to(&mut sim, 0.9 * SLEEP_TIME);
    assert_eq!(sim.sleeping_bodies(), 0);
    // After it, the four resting spheres sleep (the falling one is far from them).
    run_to(&mut sim, SLEEP_TIME + 0.05);
    assert_eq!(sim.sleeping_bodies(), 4);
    let held = resting_q(&sim);
    run_to(&mut sim, 0.7);
    assert_eq!(resting_q(&sim), held, "sleeping bodies moved");
    let system = sim.system();
    for b in &system.bodies[1..5] {
        assert!(b.v_of(&system.v).iter().all(|v| *v == 0.0));
    }
    // The dropped sphere reaches the margin at about 0.74 s: everything wakes, and the
    // impact pushes the four apart.
    run_to(&mut sim, 0.8);
    assert_eq!(sim.sleeping_bodies(), 0);
    assert_ne!(resting_q(&sim), held, "the impact moved nothing");
    assert!(sim.deepest_gap() >= -1e-9, "gap {}", sim.deepest_gap());
}

#[test]
fn a_run_with_sleeping_is_deterministic_and_equals_one_without_until_something_sleeps() {
    let digest = |sleep: bool, t: f64| {
        let mut sim = scene(sleep);
        run_to(&mut sim, t);
        sim.digest()
    };
    assert_eq!(digest(true, 1.0), digest(true, 1.0));
    // Until the first body falls asleep the two runs are the same run.
    assert_eq!(
        digest(true, 0.9 * SLEEP_TIME),
        digest(false, 0.9 * SLEEP_TIME)
    );
}

/// A sphere (r = 0.1 m) rolling without slip on the floor at v = 5 mm/s, ω = v/r about ŷ,
/// with sleeping on and the given `stepper` thresholds, as scene JSON.
fn rolling_scene(thresholds: serde_json::Value) -> String {
    let (r, v) = (0.1, 0.005);
    let mut stepper = serde_json::json!({"kind": "nsga", "dt": 1e-3, "sleep": true});
    for (k, value) in thresholds.as_object().unwrap() {
        stepper[k] = value.clone();
    }
    serde_json::json!({
        "spatial_bodies": [
            {"name": "floor", "fixed": true, "shape": {"type": "plane"}},
            {"name": "ball", "mass": 1.0, "position": [0.0, 0.0, r],
             "velocity": [v, 0.0, 0.0], "angular_velocity": [0.0, v / r, 0.0],
             "shape": {"type": "sphere", "radius": r}}
        ],
        "material": {"friction": 0.5},
        "stepper": stepper,
        "contact_margin": 0.01
    })
    .to_string()
}

fn rolling(thresholds: serde_json::Value) -> Simulation {
    Simulation::from_scene(Scene::from_json(&rolling_scene(thresholds)).unwrap()).unwrap()
}

/// The rolling sphere's x and speed along x.
fn ball_x_and_speed(sim: &Simulation) -> (f64, f64) {
    let system = sim.system();
    let ball = &system.bodies[1];
    (system.q[ball.q_offset], ball.v_of(&system.v)[0])
}

#[test]
fn a_rolling_sphere_rolls_on_under_the_default_threshold_and_sleeps_under_a_looser_one() {
    let (v, h) = (0.005, 1e-3);
    // |v| + |ω| r = 1 cm/s is above the default 1 mm/s: nothing slows a sphere rolling on a
    // plane, so it rolls on at v (x = v t) and never sleeps.
    let mut strict = rolling(serde_json::json!({}));
    run_to(&mut strict, 1.0);
    assert_eq!(strict.sleeping_bodies(), 0);
    let (x, speed) = ball_x_and_speed(&strict);
    assert!((speed - v).abs() <= 1e-9, "speed {speed}");
    assert!((x - v).abs() <= 1e-9, "x = {x} after 1 s at {v} m/s");
    // Below a 2 cm/s threshold from the first step, it sleeps once 0.2 s have passed, held
    // where it had rolled: x = v t with t within a step of 0.2 s.
    let mut loose = rolling(serde_json::json!({"sleep_speed": 0.02, "sleep_time": 0.2}));
    run_to(&mut loose, 0.3);
    assert_eq!(loose.sleeping_bodies(), 1);
    let (x, speed) = ball_x_and_speed(&loose);
    assert_eq!(speed, 0.0);
    assert!(
        x >= v * (0.2 - h) - 1e-12 && x <= v * (0.2 + h) + 1e-12,
        "x = {x}, v t at t = 0.2 s ± h: {}",
        v * 0.2
    );
}

#[test]
fn sleeping_thresholds_out_of_range_are_refused_by_name() {
    for (field, value) in [
        ("sleep_speed", 0.0),
        ("sleep_speed", -1.0),
        ("sleep_speed", 11.0),
        ("sleep_time", -0.5),
        ("sleep_time", 1e6),
    ] {
        let text = rolling_scene(serde_json::json!({ field: value }));
        let message = match Scene::from_json(&text).and_then(Simulation::from_scene) {
            Ok(_) => panic!("{field} = {value} was accepted"),
            Err(e) => e.to_string(),
        };
        assert!(
            message.contains(&format!("stepper.{field}")) && message.contains("must be in ["),
            "{field} = {value}: '{message}'"
        );
    }
}
