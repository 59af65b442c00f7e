//! The canvas view for JavaScript: `new SceneCanvas(canvas)`, `frame(sim)` once per scene,
//! `draw(sim, dpr)` per frame. The drawing is [`crate::render`]'s; this file only holds the
//! canvas and translates arguments.

use glam::DVec2;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::render::{Renderer, canvas::paint};
use crate::wasm::Simulation;

/// A 2-D canvas that draws simulations: planar scenes as they are, scenes in space as side
/// and top projections.
#[wasm_bindgen]
pub struct SceneCanvas {
    canvas: HtmlCanvasElement,
    ctx: CanvasRenderingContext2d,
    renderer: Option<Renderer>,
}

fn finite(value: f64, name: &str) -> Result<f64, JsError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(JsError::new(&format!(
            "{name}: expected a finite number, got {value}"
        )))
    }
}

#[wasm_bindgen]
impl SceneCanvas {
    /// A view drawing on `canvas` (its 2-D context is taken here).
    #[wasm_bindgen(constructor)]
    pub fn new(canvas: HtmlCanvasElement) -> Result<SceneCanvas, JsError> {
        let ctx = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
            .ok_or_else(|| JsError::new("canvas: no 2-D context available"))?;
        Ok(SceneCanvas {
            canvas,
            ctx,
            renderer: None,
        })
    }

    /// Frames the view on `sim` as it stands (call when the scene changes).
    pub fn frame(&mut self, sim: &Simulation) {
        self.renderer = Some(Renderer::new(sim.core()));
    }

    /// Draws `sim` now, at device pixel ratio `dpr` (line widths scale with it); frames it
    /// first if `frame` was never called.
    pub fn draw(&mut self, sim: &Simulation, dpr: f64) -> Result<(), JsError> {
        let dpr = finite(dpr, "dpr")?.clamp(0.25, 8.0);
        let renderer = self
            .renderer
            .get_or_insert_with(|| Renderer::new(sim.core()));
        let picture = renderer.picture(
            sim.core(),
            f64::from(self.canvas.width()),
            f64::from(self.canvas.height()),
            dpr,
        );
        paint(&self.ctx, &picture).map_err(|e| {
            JsError::new(&format!(
                "canvas: drawing failed ({})",
                e.as_string().unwrap_or_default()
            ))
        })
    }

    /// Shows a dashed drag line from body `index` to the world point (x, y).
    #[wasm_bindgen(js_name = setDrag)]
    pub fn set_drag(&mut self, index: u32, x: f64, y: f64) -> Result<(), JsError> {
        let target = DVec2::new(finite(x, "x")?, finite(y, "y")?);
        if let Some(r) = self.renderer.as_mut() {
            r.set_drag(Some((index as usize, target)));
        }
        Ok(())
    }

    /// Removes the drag line.
    #[wasm_bindgen(js_name = clearDrag)]
    pub fn clear_drag(&mut self) {
        if let Some(r) = self.renderer.as_mut() {
            r.set_drag(None);
        }
    }

    /// The world point `[x, y]` (m) under canvas pixel (px, py) of the last planar drawing;
    /// `[NaN, NaN]` for projections or before the first drawing.
    #[wasm_bindgen(js_name = pointerToWorld)]
    pub fn pointer_to_world(&self, px: f64, py: f64) -> Vec<f64> {
        self.renderer
            .as_ref()
            .and_then(|r| r.to_world([px, py]))
            .filter(|p| p.is_finite())
            .map_or(vec![f64::NAN, f64::NAN], |p| vec![p.x, p.y])
    }

    /// Canvas pixel `[px, py]` of the world point (x, y) in the last planar drawing (the side
    /// panel for projections); `[NaN, NaN]` before the first drawing.
    #[wasm_bindgen(js_name = worldToPixels)]
    pub fn world_to_pixels(&self, x: f64, y: f64) -> Vec<f64> {
        self.renderer
            .as_ref()
            .and_then(|r| r.viewport())
            .map_or(vec![f64::NAN, f64::NAN], |v| {
                v.px(DVec2::new(x, y)).to_vec()
            })
    }

    /// Pixels per metre of the last drawing (NaN before one).
    #[wasm_bindgen(getter, js_name = pixelsPerMetre)]
    pub fn pixels_per_metre(&self) -> f64 {
        self.renderer
            .as_ref()
            .and_then(|r| r.viewport())
            .map_or(f64::NAN, |v| v.scale)
    }

    /// Index of the moving planar body under world point (x, y), or −1.
    pub fn hit(&self, sim: &Simulation, x: f64, y: f64) -> i32 {
        if !(x.is_finite() && y.is_finite()) {
            return -1;
        }
        self.renderer
            .as_ref()
            .and_then(|r| r.hit(sim.core(), DVec2::new(x, y)))
            .map_or(-1, |i| i as i32)
    }

    /// Newtons an arrow of `pixels` canvas pixels shows in the last drawing (NaN before one).
    #[wasm_bindgen(js_name = forceForPixels)]
    pub fn force_for_pixels(&self, pixels: f64) -> f64 {
        self.renderer
            .as_ref()
            .and_then(|r| r.force_for_pixels(pixels))
            .unwrap_or(f64::NAN)
    }
}
