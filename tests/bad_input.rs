//! Every kind of bad scene or parameter gets an error naming the field, never a panic.
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::needless_range_loop)] // index loops read like the maths here

use contactlab::{Error, Simulation};

const GOOD: &str = r#"{
  "bodies": [
    {"name": "floor", "fixed": true, "shape": {"type": "half_plane"}},
    {"name": "block", "mass": 2.0, "position": [0, 0.05],
     "shape": {"type": "box", "width": 0.2, "height": 0.1}}
  ],
  "forces": [{"type": "constant", "body": "block", "force": [0, 5]}]
}"#;

fn edit(f: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(GOOD).unwrap();
    f(&mut v);
    v.to_string()
}

fn error_of(json: &str) -> String {
    match Simulation::from_json(json) {
        Ok(_) => panic!("accepted a bad scene: {json}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_good_scene_is_accepted() {
    let mut sim = Simulation::from_json(GOOD).unwrap();
    sim.step().unwrap();
}

#[test]
fn each_bad_field_is_named_with_its_range() {
    let cases: Vec<(String, &str)> = vec![
        (
            edit(|v| v["bodies"][1]["mass"] = (-1.0).into()),
            "bodies[1].mass",
        ),
        (
            edit(|v| v["bodies"][1]["mass"] = 0.0.into()),
            "bodies[1].mass",
        ),
        (
            edit(|v| {
                v["bodies"][1]
                    .as_object_mut()
                    .unwrap()
                    .remove("mass")
                    .map(|_| ())
                    .unwrap()
            }),
            "bodies[1].mass",
        ),
        (
            edit(|v| v["bodies"][1]["inertia"] = (-0.5).into()),
            "bodies[1].inertia",
        ),
        (
            edit(|v| v["bodies"][1]["shape"]["width"] = 0.0.into()),
            "bodies[1].shape.width",
        ),
        (
            edit(|v| v["bodies"][1]["shape"] = serde_json::json!({"type": "disk", "radius": -1})),
            "bodies[1].shape.radius",
        ),
        (
            edit(|v| v["bodies"][0]["fixed"] = false.into()),
            "bodies[0].shape",
        ),
        (
            edit(|v| v["bodies"][0]["mass"] = 1.0.into()),
            "bodies[0].mass",
        ),
        (
            edit(|v| v["bodies"][1]["name"] = "floor".into()),
            "bodies[1].name",
        ),
        (edit(|v| v["bodies"] = serde_json::json!([])), "bodies"),
        (
            edit(|v| v["forces"][0]["body"] = "ghost".into()),
            "forces[0].body",
        ),
        (
            edit(|v| v["forces"][0]["body"] = "floor".into()),
            "forces[0].body",
        ),
        (
            edit(|v| v["stepper"] = serde_json::json!({"dt": 0.0})),
            "stepper.dt",
        ),
        (
            edit(|v| v["stepper"] = serde_json::json!({"dt": -1e-3})),
            "stepper.dt",
        ),
        (
            edit(|v| v["stepper"] = serde_json::json!({"kind": "verlet"})),
            "stepper.kind",
        ),
        (
            edit(|v| v["stepper"] = serde_json::json!({"solver": "simplex"})),
            "JSON",
        ),
        (
            edit(|v| v["stepper"] = serde_json::json!({"pgs_max_iterations": 0})),
            "stepper.pgs_max_iterations",
        ),
        (
            edit(|v| v["material"] = serde_json::json!({"restitution": 1.5})),
            "material.restitution",
        ),
        (
            edit(|v| v["material"] = serde_json::json!({"friction": -0.1})),
            "material.friction",
        ),
        (
            edit(|v| v["material"] = serde_json::json!({"stiffness": 0})),
            "material.stiffness",
        ),
        (
            edit(|v| v["contact_margin"] = (-1.0).into()),
            "contact_margin",
        ),
        (edit(|v| v["duration"] = (-1.0).into()), "duration"),
        (
            edit(|v| v["bodies"][1]["mas"] = 2.0.into()),
            "unknown field `mas`",
        ),
        (
            edit(|v| v["bodies"][1]["shape"]["type"] = "triangle".into()),
            "unknown variant `triangle`",
        ),
        ("{ not json".to_string(), "JSON"),
        ("NaN".to_string(), "JSON"),
        (GOOD.replace("[0, 0.05]", "[1e400, 0.05]"), "JSON"),
    ];
    for (json, field) in cases {
        let message = error_of(&json);
        assert!(message.contains(field), "expected '{field}' in: {message}");
    }
}

#[test]
fn range_errors_say_what_is_allowed() {
    let message = error_of(&edit(|v| {
        v["material"] = serde_json::json!({"restitution": 2})
    }));
    assert!(message.contains("[0, 1]"), "{message}");
}

#[test]
fn preset_and_parameter_errors() {
    let e = Simulation::from_preset("no-such", &[]).err().unwrap();
    assert!(matches!(e, Error::Unknown { .. }));
    assert!(e.to_string().contains("block-pull"), "{e}");
    let e = Simulation::from_preset("block-pull", &[("mass".into(), 1.0)])
        .err()
        .unwrap();
    assert!(
        e.to_string().contains("unknown parameter 'mass'") && e.to_string().contains("m, u, g, k"),
        "{e}"
    );
    let e = Simulation::from_preset("block-pull", &[("m".into(), -2.0)])
        .err()
        .unwrap();
    assert!(e.to_string().contains("[0.1, 20]"), "{e}");
    let e = Simulation::from_preset("block-pull", &[("u".into(), f64::NAN)])
        .err()
        .unwrap();
    assert!(e.to_string().contains("finite"), "{e}");
}

#[test]
fn a_running_simulation_refuses_bad_settings_and_keeps_working() {
    let mut sim = Simulation::from_preset("block-pull", &[]).unwrap();
    sim.step().unwrap();
    let before = sim.sample();
    assert!(sim.set_time_step(0.0).is_err());
    assert!(sim.set_time_step(f64::NAN).is_err());
    assert!(
        sim.set_stepper("rk4")
            .unwrap_err()
            .to_string()
            .contains("moreau-jean")
    );
    assert!(sim.set_parameter("u", 1e9).is_err());
    assert!(sim.set_parameter("zeta", 1.0).is_err());
    assert!(sim.set_push("ghost", [0.0, 1.0], 0.0).is_err());
    assert!(sim.set_push("floor", [0.0, 1.0], 0.0).is_err());
    assert!(sim.set_push("block", [f64::INFINITY, 0.0], 0.0).is_err());
    assert!(sim.set_lcp_solver("simplex", 10, 1e-6).is_err());
    assert_eq!(sim.sample(), before, "a refused setting changed the state");
    sim.step().unwrap();
    assert!((sim.sample().contacts[0].normal - 14.62).abs() < 1e-9);
}

#[test]
fn an_unstable_step_never_hands_out_nan() {
    // Explicit penalty far above its stability limit h < 2/ω (h ω ≈ 70): every sample is
    // finite, or the step is refused with an error that says why.
    let mut sim =
        Simulation::from_preset("penalty-block", &[("k".into(), 1e8), ("c".into(), 0.0)]).unwrap();
    sim.set_time_step(0.01).unwrap();
    for _ in 0..10_000 {
        match sim.step() {
            Ok(_) => {
                let s = sim.sample();
                assert!(
                    s.bodies[0]
                        .q
                        .iter()
                        .chain(&s.bodies[0].v)
                        .all(|x| x.is_finite())
                );
                assert!(s.energy.is_finite());
            }
            Err(e) => {
                assert!(e.to_string().contains("non-finite"), "{e}");
                break;
            }
        }
    }
}

const SPHERE: &str = r#"{
  "spatial_bodies": [
    {"name": "plane", "fixed": true, "shape": {"type": "plane"}},
    {"name": "ball", "mass": 1.0, "position": [0, 0, 0.1], "shape": {"type": "sphere", "radius": 0.1}}
  ],
  "stepper": {"kind": "nsga"}
}"#;

fn edit_sphere(f: impl FnOnce(&mut serde_json::Value)) -> String {
    let mut v: serde_json::Value = serde_json::from_str(SPHERE).unwrap();
    f(&mut v);
    v.to_string()
}

#[test]
fn each_bad_spatial_field_is_named() {
    Simulation::from_json(SPHERE).unwrap().step().unwrap();
    let cases: Vec<(String, &str)> = vec![
        (
            edit_sphere(|v| v["spatial_bodies"][1]["shape"]["radius"] = (-0.1).into()),
            "spatial_bodies[1].shape.radius",
        ),
        (
            edit_sphere(|v| v["spatial_bodies"][0]["fixed"] = false.into()),
            "spatial_bodies[0].shape",
        ),
        (
            edit_sphere(|v| {
                v["spatial_bodies"][1]["orientation"] = serde_json::json!([0, 0, 0, 0])
            }),
            "spatial_bodies[1].orientation",
        ),
        (
            edit_sphere(|v| v["spatial_bodies"][1]["inertia"] = serde_json::json!([1, -1, 1])),
            "spatial_bodies[1].inertia[1]",
        ),
        (
            edit_sphere(|v| {
                v["spatial_bodies"][1]
                    .as_object_mut()
                    .unwrap()
                    .remove("mass")
                    .map(|_| ())
                    .unwrap()
            }),
            "spatial_bodies[1].mass",
        ),
        (
            edit_sphere(|v| v["gravity"] = serde_json::json!([0, -9.81])),
            "gravity",
        ),
        (
            edit_sphere(|v| v["stepper"]["kind"] = "euler".into()),
            "stepper.kind",
        ),
        (
            edit_sphere(|v| v["stepper"]["spectral_radius"] = 1.5.into()),
            "stepper.spectral_radius",
        ),
        (
            edit_sphere(|v| v["stepper"]["newton_max_iterations"] = 0.into()),
            "stepper.newton_max_iterations",
        ),
        (
            edit_sphere(|v| {
                v["stepper"]["kind"] = "nsga".into();
                v["stepper"]["velocity_sweeps"] = 0.into();
            }),
            "stepper.velocity_sweeps",
        ),
        (
            edit_sphere(|v| {
                v["stepper"]["kind"] = "nsga".into();
                v["stepper"]["gap_tolerance"] = 1e-3.into();
            }),
            "stepper.gap_tolerance",
        ),
        (
            edit_sphere(|v| v["stepper"]["gap_tolerance"] = 0.into()),
            "stepper.gap_tolerance",
        ),
        (
            edit_sphere(|v| v["material"] = serde_json::json!({"rolling_resistance": -1})),
            "material.rolling_resistance",
        ),
        (
            edit_sphere(|v| {
                v["bodies"] = serde_json::json!([{"name": "x", "fixed": true, "shape": {"type": "half_plane"}}])
            }),
            "bodies",
        ),
        (
            edit_sphere(|v| {
                v["forces"] =
                    serde_json::json!([{"type": "constant", "body": "ball", "force": [1, 0]}])
            }),
            "forces",
        ),
    ];
    for (json, field) in cases {
        let message = error_of(&json);
        assert!(message.contains(field), "expected '{field}' in: {message}");
    }
    // Every stepper runs a sphere scene (one core for every body).
    let mut sim = Simulation::from_json(SPHERE).unwrap();
    for stepper in contactlab::integrators::STEPPER_NAMES {
        sim.set_stepper(stepper).unwrap();
        sim.step().unwrap();
    }
}
