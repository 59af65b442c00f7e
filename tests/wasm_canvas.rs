//! The library's canvas drawing in headless Chromium (`wasm-pack test --headless --chrome`):
//! the pixels of known scenes, read back from the canvas, have the colours the geometry says
//! they must have (box, floor, empty sky, force arrow of the computed length; a sphere and its
//! floor in both projections).
#![cfg(target_arch = "wasm32")]

use contactlab::wasm::Simulation;
use contactlab::wasm_canvas::SceneCanvas;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

wasm_bindgen_test_configure!(run_in_browser);

const BODY: [u8; 3] = [0xc9, 0xda, 0xf8];
const GROUND: [u8; 3] = [0xe9, 0xe4, 0xdc];
const FLOOR_TOP: [u8; 3] = [0xf4, 0xf1, 0xec];
const FORCE: [u8; 3] = [0xd1, 0x24, 0x2f];
const INK: [u8; 3] = [0x1d, 0x23, 0x30];

fn canvas(width: u32, height: u32) -> HtmlCanvasElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let canvas: HtmlCanvasElement = document.create_element("canvas").unwrap().unchecked_into();
    canvas.set_width(width);
    canvas.set_height(height);
    document.body().unwrap().append_child(&canvas).unwrap();
    canvas
}

/// The canvas's 2-D context (the one the view draws on: a canvas has one).
fn context(canvas: &HtmlCanvasElement) -> CanvasRenderingContext2d {
    canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .unchecked_into::<CanvasRenderingContext2d>()
}

/// RGBA of the canvas pixel holding the point (x, y) px.
fn pixel(ctx: &CanvasRenderingContext2d, at: &[f64]) -> [u8; 4] {
    let data = ctx
        .get_image_data(at[0].floor(), at[1].floor(), 1.0, 1.0)
        .unwrap()
        .data();
    [data[0], data[1], data[2], data[3]]
}

fn is(colour: [u8; 4], expected: [u8; 3]) -> bool {
    colour[3] == 255 && colour[..3] == expected
}

fn scene(json: &str) -> Simulation {
    Simulation::from_scene(JsValue::from_str(json)).unwrap()
}

#[wasm_bindgen_test]
fn a_resting_box_its_floor_and_its_support_arrows_are_drawn_where_the_solver_puts_them() {
    let mut sim = scene(
        r#"{"bodies": [
            {"name": "floor", "fixed": true, "shape": {"type": "half_plane"}},
            {"name": "box", "mass": 2, "position": [0, 0.1], "shape": {"type": "box", "width": 0.4, "height": 0.2}}],
          "stepper": {"kind": "acceleration", "dt": 0.001}}"#,
    );
    sim.step(JsValue::from_f64(1.0)).unwrap();
    let element = canvas(400, 250);
    let mut view = SceneCanvas::new(element.clone()).unwrap();
    let ctx = context(&element);
    view.frame(&sim);
    view.draw(&sim, 1.0).unwrap();
    let at = |x: f64, y: f64| view.world_to_pixels(x, y);
    assert!(is(pixel(&ctx, &at(0.1, 0.1)), BODY), "inside the box");
    assert!(is(pixel(&ctx, &at(0.0, -0.02)), GROUND), "under the floor");
    assert_eq!(pixel(&ctx, &at(0.0, 0.35))[3], 0, "empty above the box");
    assert_eq!(pixel(&ctx, &at(0.35, 0.1))[3], 0, "empty beside the box");
    // The box's right side is outlined: the 1.5 px ink line covers at least three quarters of
    // the pixel the line x = 0.2 passes through (halfway up), so that pixel is dark.
    let side = at(0.2, 0.1);
    let p = pixel(&ctx, &side);
    let dark =
        |c: usize| f64::from(p[c]) < 0.3 * f64::from(BODY[c]) + 0.7 * f64::from(INK[c]) + 8.0;
    assert!(p[3] > 180 && (0..3).all(dark), "outline at {side:?}: {p:?}");
    // Each loaded corner carries an arrow up of N / (N per px) pixels, N = m g / 2 = 9.81 N:
    // red at 40 % of its length, over the box, and nothing red a head-length beyond its tip.
    let per_px = view.force_for_pixels(1.0);
    let length = 9.81 / per_px;
    assert!(length > 20.0, "arrow {length} px");
    let corner = at(0.2, 0.0);
    assert!(is(
        pixel(&ctx, &[corner[0], corner[1] - 0.4 * length]),
        FORCE
    ));
    assert!(!is(
        pixel(&ctx, &[corner[0], corner[1] - length - 12.0]),
        FORCE
    ));
    // A scale that reads the weight off the two arrows is the legend's.
    assert!((2.0 * length * per_px - 19.62).abs() < 1e-9);
}

#[wasm_bindgen_test]
fn a_sphere_on_a_plane_shows_in_the_side_and_the_top_view() {
    let mut sim = scene(
        r#"{"spatial_bodies": [
            {"name": "plane", "fixed": true, "shape": {"type": "plane"}},
            {"name": "ball", "mass": 1, "position": [0, 0, 0.1], "shape": {"type": "sphere", "radius": 0.1}}],
          "stepper": {"kind": "nsga", "dt": 0.001}}"#,
    );
    sim.step(JsValue::from_f64(1.0)).unwrap();
    let element = canvas(600, 300);
    let mut view = SceneCanvas::new(element.clone()).unwrap();
    let ctx = context(&element);
    view.draw(&sim, 1.0).unwrap();
    // Side view (x–z): the ball's body, the floor under it.
    let at = |x: f64, z: f64| view.world_to_pixels(x, z);
    assert!(
        is(pixel(&ctx, &at(-0.05, 0.15)), BODY),
        "ball in the side view"
    );
    assert!(
        is(pixel(&ctx, &at(-0.05, -0.02)), GROUND),
        "floor in the side view"
    );
    // Top view: the right 42 % of the canvas, its floor as background; the ball at the same
    // scale and x, centred in y in the panel.
    let scale = view.pixels_per_metre();
    let ball = at(0.0, 0.1);
    let panel_left = 0.58 * 600.0 + 6.0;
    let top_centre = [panel_left + 0.5 * (0.42 * 600.0 - 6.0), 150.0];
    assert!(is(
        pixel(
            &ctx,
            &[top_centre[0] - 0.03 * scale, top_centre[1] + 0.03 * scale]
        ),
        BODY
    ));
    assert!(is(
        pixel(&ctx, &[top_centre[0], top_centre[1] + 0.15 * scale]),
        FLOOR_TOP
    ));
    assert!(ball[0] < panel_left);
}

#[wasm_bindgen_test]
fn bad_arguments_are_errors_not_traps() {
    let sim = scene(
        r#"{"bodies": [{"name": "floor", "fixed": true, "shape": {"type": "half_plane"}},
            {"name": "disk", "mass": 1, "position": [0, 0.1], "shape": {"type": "disk", "radius": 0.1}}]}"#,
    );
    let mut view = SceneCanvas::new(canvas(100, 100)).unwrap();
    assert!(view.draw(&sim, f64::NAN).is_err(), "dpr NaN");
    assert!(view.set_drag(1, f64::INFINITY, 0.0).is_err(), "x ∞");
    assert_eq!(view.hit(&sim, f64::NAN, 0.0), -1);
    assert!(
        view.pointer_to_world(0.0, 0.0)[0].is_nan(),
        "nothing drawn yet"
    );
    view.draw(&sim, 1.0).unwrap();
    assert_eq!(view.hit(&sim, 0.0, 0.1), 1, "the disk under its centre");
    // A canvas already holding a WebGL context has no 2-D one: an error, not a trap.
    let webgl = canvas(10, 10);
    if webgl.get_context("webgl").ok().flatten().is_some() {
        assert!(SceneCanvas::new(webgl).is_err());
    }
}
