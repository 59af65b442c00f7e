// The wasm API cases shared by tests/wasm_browser.rs and tests/wasm_node.rs (included there).

use contactlab::wasm::{CONTACT_STRIDE, Simulation};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

fn params(pairs: &[(&str, f64)]) -> JsValue {
    let object = js_sys::Object::new();
    for (k, v) in pairs {
        js_sys::Reflect::set(&object, &JsValue::from_str(k), &JsValue::from_f64(*v)).unwrap();
    }
    object.into()
}

fn message(e: wasm_bindgen::JsError) -> String {
    let value: JsValue = e.into();
    value
        .dyn_into::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_default()
}

/// (normal reaction, vertical acceleration, state code) after one step.
fn one_step(u: f64) -> (f64, f64, f64) {
    let mut sim = Simulation::preset("block-pull", params(&[("u", u)])).unwrap();
    sim.step(1).unwrap();
    let c = sim.contact_data();
    assert_eq!(c.len(), CONTACT_STRIDE);
    (c[2], sim.acceleration()[1], c[5])
}

#[wasm_bindgen_test]
fn s1_block_pull_through_wasm() {
    let (n, a, state) = one_step(5.0);
    assert!((n - 14.62).abs() < 1e-9 * 14.62, "N = {n}");
    assert!(a.abs() < 1e-12);
    assert_eq!(state, 2.0, "loaded");
    let (n, a, state) = one_step(19.62);
    assert!(n.abs() < 1e-12 && a.abs() < 1e-12);
    assert_eq!(state, 1.0, "touching");
    let (n, a, state) = one_step(25.0);
    assert_eq!(n, 0.0);
    assert!((a - 2.69).abs() < 1e-9 * 2.69, "d̈ = {a}");
    assert_eq!(state, 0.0, "open");
}

#[wasm_bindgen_test]
fn s2_coupled_pair_through_wasm() {
    let mut sim = Simulation::preset("coupled-pair", JsValue::UNDEFINED).unwrap();
    sim.step(1).unwrap();
    let c = sim.contact_data();
    assert_eq!(c.len(), 2 * CONTACT_STRIDE);
    for k in 0..2 {
        assert!((c[k * CONTACT_STRIDE + 2] - 1.0).abs() < 1e-12, "N = {}", c[k * CONTACT_STRIDE + 2]);
    }
}

#[wasm_bindgen_test]
fn s3_penalty_overlap_through_wasm() {
    let mut sim = Simulation::preset("penalty-block", JsValue::NULL).unwrap();
    sim.step(20_000).unwrap();
    let gap = sim.contact_data()[0];
    let expected = -(2.0 * 9.81 - 5.0) / 1e5;
    assert!(((gap - expected) / expected).abs() < 1e-6, "d = {gap}");
}

#[wasm_bindgen_test]
fn errors_are_js_errors_and_the_simulation_keeps_working() {
    let e = Simulation::preset("no-such", JsValue::UNDEFINED).err().unwrap();
    assert!(message(e).contains("unknown preset 'no-such'"));
    let e = Simulation::preset("block-pull", params(&[("u", 1e9)])).err().unwrap();
    assert!(message(e).contains("[0, 100]"));
    let e = Simulation::preset("block-pull", JsValue::from_str("u=5")).err().unwrap();
    assert!(message(e).contains("params"));
    let e = Simulation::from_scene("{ not json").err().unwrap();
    assert!(message(e).starts_with("JSON"));
    let mut sim = Simulation::preset("block-pull", JsValue::UNDEFINED).unwrap();
    assert!(message(sim.set_parameter("u", f64::NAN).err().unwrap()).contains("finite"));
    assert!(message(sim.set_parameter("zeta", 1.0).err().unwrap()).contains("unknown parameter"));
    assert!(sim.set_time_step(-1.0).is_err());
    assert!(sim.set_stepper("rk4").is_err());
    assert!(sim.set_push("block", f64::NAN, 0.0, 0.0).is_err());
    sim.set_parameter("u", 25.0).unwrap();
    sim.step(10).unwrap();
    assert!(sim.body_poses()[4] > 0.05, "the block lifts after the errors");
    assert!(sim.body_poses().iter().all(|x| x.is_finite()));
}

#[wasm_bindgen_test]
fn s4_rocking_bar_modes_through_wasm() {
    let sim = Simulation::preset("rocking-bar", JsValue::UNDEFINED).unwrap();
    let w = sim.frequencies();
    assert_eq!(w.len(), 2);
    assert!((w[0] - (2.0f64 * 1e5 / 2.0).sqrt()).abs() < 1e-9 * w[0], "{w:?}");
    assert!((w[1] - (2.0f64 * 1e5 * 0.01 / 0.005).sqrt()).abs() < 1e-9 * w[1]);
    let limit = sim.time_step_limit().unwrap();
    assert!((limit - 3.162e-3).abs() < 1e-6);
    let modes = sim.modes();
    let decoupled = js_sys::Reflect::get(&modes, &JsValue::from_str("decoupledOmega")).unwrap();
    let decoupled: Vec<f64> = serde_wasm_bindgen::from_value(decoupled).unwrap();
    assert!(decoupled.iter().all(|w| (w - 500.0).abs() < 1e-9));
}

/// Largest |gap − preload| over `steps` steps of the antisymmetrically perturbed bar at h.
fn rocking_excursion(h: f64, steps: u32) -> f64 {
    let mut sim =
        Simulation::preset("rocking-bar", params(&[("kind", 1.0), ("amplitude", 1e-8)])).unwrap();
    sim.set_time_step(h).unwrap();
    let preload = -2.0 * 9.81 / (2.0 * 1e5);
    let mut worst = 0.0f64;
    for _ in 0..steps {
        if sim.step(1).is_err() {
            return f64::INFINITY;
        }
        let c = sim.contact_data();
        worst = worst.max((c[0] - preload).abs());
    }
    worst
}

#[wasm_bindgen_test]
fn s4_central_difference_bounded_at_3_0_ms_growing_at_3_3_ms() {
    // 1/√(1 − (hω/2)²) ≈ 3.2 bounds the excursion at h = 3.0 ms; at 3.3 ms it grows ~1.8× a step.
    assert!(rocking_excursion(3.0e-3, 1000) < 4.0e-8);
    assert!(rocking_excursion(3.3e-3, 40) > 1e-6);
}

#[wasm_bindgen_test]
fn f1_sliding_sphere_through_wasm() {
    let mut sim = Simulation::preset("sphere-slide", JsValue::UNDEFINED).unwrap();
    assert!(sim.spatial());
    sim.step(600).unwrap();
    let v = sim.body_velocities3();
    // Body 0 is the plane; body 1 the sphere: v = 5v₀/7, ω_y R = v.
    assert!((v[6] - 10.0 / 7.0).abs() < 1e-6 * 10.0 / 7.0, "v = {}", v[6]);
    assert!((v[10] * 0.1 - v[6]).abs() < 1e-9);
    let laws = sim.law_data();
    assert_eq!(laws[8], 1.0, "stick once rolling");
    assert!(sim.set_stepper("acceleration").is_err());
}
