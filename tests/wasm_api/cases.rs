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

/// A JS value, as JavaScript would pass it.
fn js(value: impl Into<JsValue>) -> JsValue {
    value.into()
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
    let mut sim = Simulation::preset(js("block-pull"), params(&[("u", u)])).unwrap();
    sim.step(js(1)).unwrap();
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
    let mut sim = Simulation::preset(js("coupled-pair"), JsValue::UNDEFINED).unwrap();
    sim.step(js(1)).unwrap();
    let c = sim.contact_data();
    assert_eq!(c.len(), 2 * CONTACT_STRIDE);
    for k in 0..2 {
        assert!((c[k * CONTACT_STRIDE + 2] - 1.0).abs() < 1e-12, "N = {}", c[k * CONTACT_STRIDE + 2]);
    }
}

#[wasm_bindgen_test]
fn s3_penalty_overlap_through_wasm() {
    let mut sim = Simulation::preset(js("penalty-block"), JsValue::NULL).unwrap();
    let mut taken = 0;
    while taken < 20_000 {
        taken += sim.step(js(20_000 - taken)).unwrap();
    }
    let gap = sim.contact_data()[0];
    let expected = -(2.0 * 9.81 - 5.0) / 1e5;
    assert!(((gap - expected) / expected).abs() < 1e-6, "d = {gap}");
}

#[wasm_bindgen_test]
fn errors_are_js_errors_and_the_simulation_keeps_working() {
    let e = Simulation::preset(js("no-such"), JsValue::UNDEFINED).err().unwrap();
    assert!(message(e).contains("unknown preset 'no-such'"));
    let e = Simulation::preset(js("block-pull"), params(&[("u", 1e9)])).err().unwrap();
    assert!(message(e).contains("[0, 100]"));
    let e = Simulation::preset(js("block-pull"), JsValue::from_str("u=5")).err().unwrap();
    assert!(message(e).contains("params"));
    let e = Simulation::from_scene(js("{ not json")).err().unwrap();
    assert!(message(e).starts_with("JSON"));
    let mut sim = Simulation::preset(js("block-pull"), JsValue::UNDEFINED).unwrap();
    assert!(message(sim.set_parameter(js("u"), js(f64::NAN)).err().unwrap()).contains("finite"));
    assert!(message(sim.set_parameter(js("zeta"), js(1.0)).err().unwrap()).contains("unknown parameter"));
    assert!(sim.set_time_step(js(-1.0)).is_err());
    assert!(sim.set_stepper(js("rk4")).is_err());
    assert!(sim.set_push(js("block"), js(f64::NAN), js(0.0), js(0.0)).is_err());
    sim.set_parameter(js("u"), js(25.0)).unwrap();
    sim.step(js(10)).unwrap();
    assert!(sim.body_poses()[4] > 0.05, "the block lifts after the errors");
    assert!(sim.body_poses().iter().all(|x| x.is_finite()));
}

#[wasm_bindgen_test]
fn s4_rocking_bar_modes_through_wasm() {
    let sim = Simulation::preset(js("rocking-bar"), JsValue::UNDEFINED).unwrap();
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
        Simulation::preset(js("rocking-bar"), params(&[("kind", 1.0), ("amplitude", 1e-8)])).unwrap();
    sim.set_time_step(js(h)).unwrap();
    let preload = -2.0 * 9.81 / (2.0 * 1e5);
    let mut worst = 0.0f64;
    for _ in 0..steps {
        if sim.step(js(1)).is_err() {
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
    let mut sim = Simulation::preset(js("sphere-slide"), JsValue::UNDEFINED).unwrap();
    assert!(sim.spatial());
    sim.step(js(600)).unwrap();
    let v = sim.body_velocities3();
    // Body 0 is the plane; body 1 the sphere: v = 5v₀/7, ω_y R = v.
    assert!((v[6] - 10.0 / 7.0).abs() < 1e-6 * 10.0 / 7.0, "v = {}", v[6]);
    assert!((v[10] * 0.1 - v[6]).abs() < 1e-9);
    let laws = sim.law_data();
    assert_eq!(laws[8], 1.0, "stick once rolling");
    // Every stepper runs a sphere scene; the acceleration stepper is frictionless.
    sim.set_stepper(js("acceleration")).unwrap();
    sim.step(js(1)).unwrap();
}

#[wasm_bindgen_test]
fn arguments_of_the_wrong_type_are_errors_naming_the_argument() {
    // These used to trap inside the string glue ("memory access out of bounds").
    let e = Simulation::preset(js(42), JsValue::UNDEFINED).err().unwrap();
    assert_eq!(message(e), "name: expected a string, got number 42");
    let e = Simulation::from_scene(js_sys::Object::new().into()).err().unwrap();
    assert_eq!(message(e), "json: expected a string, got object");
    let e = Simulation::preset(JsValue::UNDEFINED, JsValue::UNDEFINED).err().unwrap();
    assert_eq!(message(e), "name: expected a string, got undefined");
    let mut sim = Simulation::preset(js("block-pull"), JsValue::UNDEFINED).unwrap();
    assert!(message(sim.set_stepper(js(123)).err().unwrap()).starts_with("name: expected a string"));
    assert!(message(sim.set_push(js(7), js(0.0), js(0.0), js(0.0)).err().unwrap()).starts_with("body:"));
    assert!(message(sim.set_push(js("block"), js("1"), js(0.0), js(0.0)).err().unwrap()).starts_with("fx: expected a number"));
    assert!(message(sim.set_parameter(js(5), js(1.0)).err().unwrap()).starts_with("name:"));
    assert!(message(sim.set_parameter(js("u"), js("5")).err().unwrap()).starts_with("value: expected a number"));
    assert!(message(sim.set_time_step(JsValue::UNDEFINED).err().unwrap()).starts_with("h: expected a number"));
    assert!(message(sim.replay_timeline(js(1)).err().unwrap()).starts_with("timeline:"));
    // The simulation still works.
    assert_eq!(sim.step(js(3)).unwrap(), 3);
    assert_eq!(sim.steps(), 3.0);
}

#[wasm_bindgen_test]
fn step_counts_are_whole_numbers_in_a_documented_range() {
    let mut sim = Simulation::preset(js("block-pull"), JsValue::UNDEFINED).unwrap();
    for bad in [js(-1), js(1e12), js(f64::NAN), js(2.5), js("10"), JsValue::UNDEFINED] {
        let e = sim.step(bad).err().unwrap();
        assert!(message(e).starts_with("n: "), "refused with the argument named");
    }
    assert_eq!(sim.steps(), 0.0, "a refused call takes no step");
    assert_eq!(sim.step(js(0)).unwrap(), 0);
    // One call never runs much past its budget: it returns the steps it took.
    let start = js_sys::Date::now();
    let taken = sim.step(js(100_000)).unwrap();
    let elapsed = js_sys::Date::now() - start;
    assert!((1..=100_000).contains(&taken));
    assert_eq!(sim.steps(), f64::from(taken));
    assert!(
        elapsed < contactlab::wasm::STEP_BUDGET_MS + 500.0,
        "{taken} steps took {elapsed} ms"
    );
}

#[wasm_bindgen_test]
fn a_run_with_changes_replays_to_the_same_digest() {
    let mut sim = Simulation::preset(js("block-pull"), JsValue::UNDEFINED).unwrap();
    sim.step(js(100)).unwrap();
    sim.set_parameter(js("u"), js(25.0)).unwrap();
    sim.step(js(50)).unwrap();
    sim.set_time_step(js(5e-4)).unwrap();
    sim.set_push(js("block"), js(1.5), js(-2.0), js(0.0)).unwrap();
    sim.step(js(50)).unwrap();
    sim.set_stepper(js("moreau-jean")).unwrap();
    sim.step(js(100)).unwrap();
    let digest = sim.digest();
    let timeline = sim.timeline();
    assert!(sim.timeline_exact());
    assert_eq!(timeline.split(';').count(), 4, "{timeline}");

    let mut replay = Simulation::preset(js("block-pull"), JsValue::UNDEFINED).unwrap();
    replay.replay_timeline(js(timeline.as_str())).unwrap();
    replay.step(js(300)).unwrap();
    assert_eq!(replay.digest(), digest);
    assert_eq!(replay.timeline(), timeline, "the replay records the same changes");

    // Without the timeline the same step count gives another run.
    let mut plain = Simulation::preset(js("block-pull"), JsValue::UNDEFINED).unwrap();
    plain.step(js(300)).unwrap();
    assert_ne!(plain.digest(), digest);
}

#[wasm_bindgen_test]
fn trace_csv_of_a_sphere_scene_is_aligned() {
    let mut sim = Simulation::preset(js("sphere-slide"), JsValue::UNDEFINED).unwrap();
    sim.start_recording();
    sim.step(js(10)).unwrap();
    let csv = sim.trace_csv();
    let mut lines = csv.lines();
    let width = lines.next().unwrap().split(',').count();
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 10);
    assert!(rows.iter().all(|r| r.split(',').count() == width));
    assert!(csv.starts_with("t [s],sphere.x [m],sphere.y [m],sphere.z [m],sphere.qw [1]"), "{}", &csv[..80]);
}

#[wasm_bindgen_test]
fn unconverged_steps_are_counted_for_the_readout() {
    let mut sim = Simulation::preset(js("stacked-boxes"), JsValue::UNDEFINED).unwrap();
    sim.step(js(3)).unwrap();
    assert_eq!(sim.unconverged_steps(), 0.0);
    assert_eq!(sim.solver(), "lemke");
    // The same scene with PGS capped at 10 sweeps (it needs ≈ 13,800 for 1 kg under 1000 kg).
    let mut scene: serde_json::Value = serde_json::from_str(&sim.scene_json()).unwrap();
    scene["stepper"]["solver"] = "pgs".into();
    scene["stepper"]["pgs_max_iterations"] = 10.into();
    let mut capped = Simulation::from_scene(js(scene.to_string().as_str())).unwrap();
    capped.step(js(3)).unwrap();
    assert_eq!(capped.unconverged_steps(), 3.0);
    assert!(!capped.converged());
    assert!(capped.worst_residual() > 1e-6);
    assert_eq!(capped.solver(), "pgs");
}

include!("../digests/pinned.rs");

#[wasm_bindgen_test]
fn fixed_runs_give_the_pinned_native_digests() {
    for (preset, stepper, steps, pinned) in PINNED_DIGESTS {
        let mut sim = Simulation::preset(js(preset), JsValue::UNDEFINED).unwrap();
        if !stepper.is_empty() {
            sim.set_stepper(js(stepper)).unwrap();
        }
        let mut taken = 0;
        while taken < steps {
            taken += sim.step(js(steps - taken)).unwrap();
        }
        assert_eq!(sim.digest(), pinned, "{preset} {stepper} {steps}");
    }
}

/// The block-sparse solver gives the native bits in wasm too (its `max` is written out for
/// wasm, `linalg/float.rs`; its square roots are std's).
#[wasm_bindgen_test]
fn piles_solved_block_sparse_give_the_pinned_native_digests() {
    for (preset, n, stepper, steps, pinned) in PINNED_PILE_DIGESTS {
        let mut sim = Simulation::preset(js(preset), params(&[("N", n)])).unwrap();
        sim.set_stepper(js(stepper)).unwrap();
        let mut taken = 0;
        while taken < steps {
            taken += sim.step(js(steps - taken)).unwrap();
        }
        assert_eq!(sim.digest(), pinned, "{preset} N = {n} {stepper} {steps}");
    }
}

#[wasm_bindgen_test]
fn layout_describes_every_array_the_api_returns() {
    let layout = Simulation::layout();
    let field = |path: &[&str]| -> Vec<String> {
        let mut v = layout.clone();
        for key in path {
            v = js_sys::Reflect::get(&v, &JsValue::from_str(key)).unwrap();
        }
        serde_wasm_bindgen::from_value(v).unwrap()
    };
    let contact = field(&["contact"]);
    assert_eq!(contact.len(), CONTACT_STRIDE);
    assert_eq!(contact[2], "normal [N]");
    let mut sim = Simulation::preset(js("sphere-slide"), JsValue::UNDEFINED).unwrap();
    sim.step(js(1)).unwrap();
    let bodies = 2;
    assert_eq!(sim.body_poses3().len(), bodies * field(&["spatial", "positions"]).len());
    assert_eq!(sim.body_velocities3().len(), bodies * field(&["spatial", "velocities"]).len());
    assert_eq!(sim.contact_data().len(), contact.len());
    assert_eq!(sim.law_data().len(), field(&["law"]).len());
    let planar = Simulation::preset(js("block-pull"), JsValue::UNDEFINED).unwrap();
    assert_eq!(planar.body_poses().len(), 2 * field(&["planar", "positions"]).len());
}

#[wasm_bindgen_test]
fn seed_001_in_space_through_wasm() {
    for (u, normal, accel, state) in [(5.0, 14.62, 0.0, 2.0), (19.62, 0.0, 0.0, 1.0), (25.0, 0.0, 2.69, 0.0)] {
        let mut sim = Simulation::preset(js("block-pull-3d"), params(&[("u", u)])).unwrap();
        assert!(sim.spatial());
        sim.step(js(1)).unwrap();
        let c = sim.contact_data();
        assert!((c[2] - normal).abs() < 1e-12, "u = {u}: N = {}", c[2]);
        assert!((sim.acceleration()[2] - accel).abs() < 1e-12, "u = {u}: d̈");
        assert_eq!(c[5], state, "u = {u}: state");
    }
}

/// One theory-panel line as the page reads it (NaN arrives as null).
#[derive(serde::Deserialize, Debug)]
struct Line {
    label: String,
    predicted: f64,
    simulated: Option<f64>,
}

/// Steps `sim` until its time reaches `until` (the API returns early after its budget).
fn run_until(sim: &mut Simulation, until: f64) {
    while sim.time() < until - 1e-12 {
        let left = ((until - sim.time()) / sim.time_step()).round().max(1.0);
        sim.step(js(left.min(10_000.0))).unwrap();
    }
}

#[wasm_bindgen_test]
fn pendulum_holds_its_pin_and_swings_with_the_elliptic_period_through_wasm() {
    let mut sim = Simulation::preset(js("pendulum"), JsValue::UNDEFINED).unwrap();
    run_until(&mut sim, 2.5);
    let lines: Vec<Line> = serde_wasm_bindgen::from_value(sim.theory()).unwrap();
    let period = &lines[0];
    let measured = period.simulated.expect("a full swing was measured");
    // NSGA carries the pin's reaction in its predictor: second order, within 1e-4 at the
    // preset's 1 ms (issue 13; 2.8e-6 natively).
    assert!((measured / period.predicted - 1.0).abs() < 1e-4, "{period:?}");
    for joint in &lines[2..4] {
        assert!(joint.simulated.unwrap() <= 1e-10, "{joint:?}");
    }
}

#[wasm_bindgen_test]
fn elastic_rod_strikes_the_wall_for_2l_over_c_through_wasm() {
    let mut sim = Simulation::preset(js("elastic-rod-impact"), JsValue::UNDEFINED).unwrap();
    run_until(&mut sim, 5e-3);
    let lines: Vec<Line> = serde_wasm_bindgen::from_value(sim.theory()).unwrap();
    let (duration, force, rebound) = (&lines[0], &lines[1], &lines[2]);
    assert!(duration.label.contains("2L/c"));
    assert!((duration.simulated.unwrap() - duration.predicted).abs() <= sim.time_step(), "{duration:?}");
    assert!((force.simulated.unwrap() / force.predicted - 1.0).abs() <= 1e-3, "{force:?}");
    assert!((rebound.simulated.unwrap() / rebound.predicted - 1.0).abs() <= 0.01, "{rebound:?}");
}

#[wasm_bindgen_test]
fn a_ball_resting_on_the_bridge_deflects_it_by_pl3_over_48ei_through_wasm() {
    // 1 kg at rest at midspan, implicit penalty steps of 10 ms (their damping settles the drop
    // within 5 s): the linearly implicit step rests at the exact static equilibrium, 6e-6 from
    // linear theory (the co-rotational beam's geometric stiffening); the loaded first mode
    // within 1e-3 of the modal series (20 elements: the beam's mass model, docs/beams.md).
    let values = params(&[("x0", 0.5), ("v0", 0.0), ("m", 1.0)]);
    let mut sim = Simulation::preset(js("sphere-on-bridge"), values).unwrap();
    sim.set_time_step(js(0.01)).unwrap();
    run_until(&mut sim, 5.0);
    let lines: Vec<Line> = serde_wasm_bindgen::from_value(sim.theory()).unwrap();
    let (midspan, mode) = (&lines[1], &lines[2]);
    assert!(midspan.label.contains("PL³/(48EI)"), "{midspan:?}");
    assert!((midspan.simulated.unwrap() / midspan.predicted - 1.0).abs() <= 2e-5, "{midspan:?}");
    assert!((mode.simulated.unwrap() / mode.predicted - 1.0).abs() <= 1e-3, "{mode:?}");
}
