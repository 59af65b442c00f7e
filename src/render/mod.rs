//! The 2-D drawing of a scene, computed from the solver's own geometry (box corners and feet
//! as the detector tests them, disk rims, sphere and cuboid poses, the contacts of the last
//! step), so the playground and every embedded figure draw the same thing.
//!
//! The drawing is a [`Picture`]: marks in canvas pixels, built natively (and tested natively:
//! where a corner lands, how long an arrow is) and replayed on a `CanvasRenderingContext2d` by
//! `canvas` (wasm only) in the browser. Planar scenes are drawn as they are ([`planar`]); scenes in
//! space as a side and a top projection ([`projections`]); the 3-D view is three.js's.

pub mod camera;
#[cfg(target_arch = "wasm32")]
pub mod canvas;
pub mod picture;
pub mod planar;
pub mod projections;

use glam::DVec2;

pub use camera::{Viewport, WorldBox};
pub use picture::{Mark, Picture, Style};

use crate::Simulation;
use crate::model::System;
use projections::SpaceBox;

/// What a view was framed on when its scene was set.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Home {
    Plane(WorldBox),
    Space(SpaceBox),
}

/// A scene's drawing state: its home framing, force scale, and the dragged body.
#[derive(Debug, Clone, PartialEq)]
pub struct Renderer {
    home: Home,
    /// Force scale, N per metre of arrow.
    newtons_per_metre: f64,
    drag: Option<(usize, DVec2)>,
    /// The map of the last planar view (or side panel) drawn.
    view: Option<Viewport>,
}

/// A force that draws as a quarter of the view's height: the weight of the moving bodies
/// (Σ m |g|), or 10 N when there is none (no gravity, nothing moving).
pub fn representative_force(system: &System) -> f64 {
    let g = system.gravity.length();
    let weight: f64 = system.bodies.iter().map(|b| b.mass() * g).sum();
    if weight > 0.0 && weight.is_finite() {
        weight
    } else {
        10.0
    }
}

impl Renderer {
    /// A renderer framed on the scene as it stands now.
    pub fn new(sim: &Simulation) -> Self {
        let system = sim.system();
        let force = representative_force(system);
        let (home, height) = if system.is_spatial() {
            let b = projections::framed(system, &system.q);
            (Home::Space(b), b.max.z - b.min.z)
        } else {
            let b = planar::framed(system, &system.q, false);
            (Home::Plane(b), b.y1 - b.y0)
        };
        Self {
            home,
            newtons_per_metre: force / (0.25 * height),
            drag: None,
            view: None,
        }
    }

    /// The picture of `sim` now on a canvas of `width` × `height` px at device pixel ratio
    /// `dpr`.
    pub fn picture(&mut self, sim: &Simulation, width: f64, height: f64, dpr: f64) -> Picture {
        let system = sim.system();
        let q = &system.q;
        let contacts = &sim.last_report().contacts;
        let mut picture = Picture::new(width, height);
        match self.home {
            Home::Plane(home) => {
                let now = planar::framed(system, q, false);
                let moving = planar::framed(system, q, true);
                let shown = camera::follow(&home, &now, &moving);
                let view = Viewport::fit(&shown, [0.0, 0.0, width, height]);
                let frame = planar::PlanarFrame {
                    q,
                    contacts,
                    view,
                    newtons_per_metre: self.newtons_per_metre,
                    dpr,
                    drag: self.drag.filter(|(i, _)| *i < system.bodies.len()),
                };
                planar::draw(&mut picture, system, &frame);
                self.view = Some(view);
            }
            Home::Space(home) => {
                let mut world = home.union(&projections::framed(system, q));
                world.min.z = home.min.z;
                let frame = projections::ProjectionFrame {
                    q,
                    contacts,
                    world,
                    newtons_per_metre: self.newtons_per_metre,
                    dpr,
                };
                self.view = projections::draw(&mut picture, system, &frame);
            }
        }
        picture
    }

    /// Shows a drag line from body `index` to the world point `target` (planar scenes), or
    /// none.
    pub fn set_drag(&mut self, drag: Option<(usize, DVec2)>) {
        self.drag = drag;
    }

    /// The world point under canvas pixel `px` in the planar view last drawn (None for
    /// projections, where dragging is not offered, or before the first drawing).
    pub fn to_world(&self, px: [f64; 2]) -> Option<DVec2> {
        match self.home {
            Home::Plane(_) => self.view.map(|v| v.world(px)),
            Home::Space(_) => None,
        }
    }

    /// The moving planar body under world point `p`, if any.
    pub fn hit(&self, sim: &Simulation, p: DVec2) -> Option<usize> {
        match self.home {
            Home::Plane(_) => planar::hit(sim.system(), &sim.system().q, p),
            Home::Space(_) => None,
        }
    }

    /// The world ↔ pixel map of the last drawing: the planar view, or the side panel of the
    /// projections (None before the first drawing).
    pub fn viewport(&self) -> Option<Viewport> {
        self.view
    }

    /// The force, N, that an arrow of `pixels` canvas pixels shows in the last drawing.
    pub fn force_for_pixels(&self, pixels: f64) -> Option<f64> {
        self.view.map(|v| pixels / v.scale * self.newtons_per_metre)
    }
}
