//! The wasm-bindgen API: a thin translation of [`crate::Simulation`] for JavaScript (no physics here).
//!
//! Per-frame queries return `Float64Array` copies (`Vec<f64>` across the boundary), so no view
//! into wasm memory can go stale when memory grows and nothing needs freeing per frame. Every
//! failure is a JS `Error` with the library's message; after an error the simulation's
//! state is unchanged and keeps working. The layout of each array is in docs/api.md.
//!
//! Arguments arrive as `JsValue` and are checked here: a number where a string belongs (or
//! `undefined`, or an object) is an `Error` naming the argument, never a trap in the glue
//! code's string conversion. `step(n)` takes whole numbers in [0, [`MAX_STEPS_PER_CALL`]] and
//! returns early, with the count taken, once a call has run for [`STEP_BUDGET_MS`].

use std::collections::BTreeMap;

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::geometry::Shape;
use crate::integrators::STEPPER_NAMES;
use crate::{Error, presets, theory};

/// Numbers per contact in [`Simulation::contact_data`].
pub const CONTACT_STRIDE: usize = crate::trace::CONTACT_FIELDS.len();

/// Numbers per contact in [`Simulation::law_data`].
pub const LAW_STRIDE: usize = crate::trace::LAW_FIELDS.len();

fn js(e: Error) -> JsError {
    JsError::new(&e.to_string())
}

/// Most steps one `step(n)` call accepts.
pub const MAX_STEPS_PER_CALL: u32 = 100_000;

/// Wall-clock time after which `step(n)` returns with the steps taken so far, ms.
pub const STEP_BUDGET_MS: f64 = 1000.0;

/// How a JS value reads in a message: `number 42`, `undefined`, `object`.
fn describe(value: &JsValue) -> String {
    if let Some(x) = value.as_f64() {
        format!("number {}", crate::error::fmt_number(x))
    } else if value.is_undefined() {
        "undefined".into()
    } else if value.is_null() {
        "null".into()
    } else {
        value
            .js_typeof()
            .as_string()
            .unwrap_or_else(|| "a value".into())
    }
}

/// A string argument, or an error naming it.
fn string_arg(value: &JsValue, name: &str) -> Result<String, JsError> {
    value.as_string().ok_or_else(|| {
        JsError::new(&format!(
            "{name}: expected a string, got {}",
            describe(value)
        ))
    })
}

/// A number argument (NaN passes here and is refused by the library's range checks).
fn number_arg(value: &JsValue, name: &str) -> Result<f64, JsError> {
    value.as_f64().ok_or_else(|| {
        JsError::new(&format!(
            "{name}: expected a number, got {}",
            describe(value)
        ))
    })
}

fn to_js<T: Serialize>(value: &T) -> JsValue {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&serializer).unwrap_or(JsValue::NULL)
}

/// One tunable (its declaration's fields, flattened) with its current value.
#[derive(Serialize)]
struct ParameterInfo {
    #[serde(flatten)]
    parameter: &'static presets::Parameter,
    value: f64,
}

/// How to draw one body.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BodyInfo {
    name: String,
    fixed: bool,
    mass: f64,
    shape: &'static str,
    width: f64,
    height: f64,
    /// Edge along z of a box in space (0 otherwise), m.
    depth: f64,
    radius: f64,
    contact_points: Vec<[f64; 3]>,
    /// How a beam in space is held at its start and end ("free", "pinned", "clamped"); empty
    /// for other bodies.
    supports: Vec<&'static str>,
}

/// Most samples a recording keeps (older ones are dropped first).
const RECORDING_CAP: usize = 200_000;

/// Most numbers a recording keeps (about 32 MB): a pile's samples hold hundreds of contacts
/// each, so it keeps fewer of them than a block's.
const RECORDING_VALUES: usize = 4_000_000;

/// A simulation driven from JavaScript.
#[wasm_bindgen(js_name = Simulation)]
pub struct Simulation {
    inner: crate::Simulation,
    recording: Option<std::collections::VecDeque<crate::trace::Sample>>,
}

impl Simulation {
    fn wrap(inner: crate::Simulation) -> Self {
        Self {
            inner,
            recording: None,
        }
    }

    /// The library's simulation inside (for the canvas view).
    pub(crate) fn core(&self) -> &crate::Simulation {
        &self.inner
    }
}

#[wasm_bindgen(js_class = Simulation)]
impl Simulation {
    /// The preset `name` with optional parameter values `{name: number, …}`.
    pub fn preset(name: JsValue, params: JsValue) -> Result<Simulation, JsError> {
        let name = string_arg(&name, "name")?;
        let overrides: Vec<(String, f64)> = if params.is_undefined() || params.is_null() {
            vec![]
        } else {
            let map: BTreeMap<String, f64> =
                serde_wasm_bindgen::from_value(params).map_err(|e| {
                    JsError::new(&format!("params: expected an object of numbers ({e})"))
                })?;
            map.into_iter().collect()
        };
        let inner = crate::Simulation::from_preset(&name, &overrides).map_err(js)?;
        Ok(Simulation::wrap(inner))
    }

    /// A simulation of a scene given as JSON text (see docs/scenes.md).
    #[wasm_bindgen(js_name = fromScene)]
    pub fn from_scene(json: JsValue) -> Result<Simulation, JsError> {
        let json = string_arg(&json, "json")?;
        let inner = crate::Simulation::from_json(&json).map_err(js)?;
        Ok(Simulation::wrap(inner))
    }

    /// Every preset: `[{name, description, parameters: [{name, label, unit, min, max, default}]}]`.
    pub fn presets() -> JsValue {
        to_js(&presets::all())
    }

    /// The layout of every array the API returns, from the one description each has in the
    /// library: `{contact, law, planar: {positions, velocities}, spatial: {positions,
    /// velocities}}`, each a list of field names with units (its length is the stride).
    pub fn layout() -> JsValue {
        #[derive(Serialize)]
        struct Coordinates {
            positions: &'static [&'static str],
            velocities: &'static [&'static str],
        }
        #[derive(Serialize)]
        struct Layout {
            contact: &'static [&'static str],
            law: &'static [&'static str],
            planar: Coordinates,
            spatial: Coordinates,
        }
        let (p, v) = crate::model::body::PLANAR_COORDINATES;
        let (sp, sv) = crate::model::body::SPATIAL_COORDINATES;
        to_js(&Layout {
            contact: &crate::trace::CONTACT_FIELDS,
            law: &crate::trace::LAW_FIELDS,
            planar: Coordinates {
                positions: p,
                velocities: v,
            },
            spatial: Coordinates {
                positions: sp,
                velocities: sv,
            },
        })
    }

    /// The stepper names accepted by `setStepper`.
    pub fn steppers() -> Vec<String> {
        STEPPER_NAMES.iter().map(|s| s.to_string()).collect()
    }

    /// Every stepper as offered for this scene: `[{name, available, note}]` (the page greys
    /// out those not available and shows each note).
    #[wasm_bindgen(js_name = steppersFor)]
    pub fn steppers_for(&self) -> JsValue {
        to_js(&self.inner.steppers_for())
    }

    /// This simulation's tunables with their current values (empty for a scene file).
    pub fn parameters(&self) -> JsValue {
        let Some(preset) = self.inner.preset() else {
            return to_js(&Vec::<ParameterInfo>::new());
        };
        let values = self.inner.parameter_values();
        let list: Vec<ParameterInfo> = preset
            .parameters
            .iter()
            .map(|p| ParameterInfo {
                parameter: p,
                value: values
                    .iter()
                    .find(|(n, _)| *n == p.name)
                    .map(|v| v.1)
                    .unwrap_or(p.default),
            })
            .collect();
        to_js(&list)
    }

    /// The preset's name, or the scene's name for a scene file.
    #[wasm_bindgen(getter)]
    pub fn name(&self) -> String {
        self.inner
            .preset()
            .map(|p| p.name.to_string())
            .unwrap_or_else(|| self.inner.scene().name.clone())
    }

    /// Advances `n` steps (a whole number in [0, 100000]) and returns the number taken: `n`,
    /// or fewer when the call has run for a second (call again for the rest). Stops at the
    /// first error (the state is that of the last good step).
    pub fn step(&mut self, n: JsValue) -> Result<u32, JsError> {
        let count = number_arg(&n, "n")?;
        if count.fract() != 0.0 || !(0.0..=f64::from(MAX_STEPS_PER_CALL)).contains(&count) {
            return Err(JsError::new(&format!(
                "n: must be a whole number in [0, {MAX_STEPS_PER_CALL}], got {}",
                describe(&n)
            )));
        }
        let count = count as u32;
        let start = js_sys::Date::now();
        for taken in 0..count {
            // The clock is read after 1, 2, 4, … 64 steps and then every 64 (a clock read costs
            // about as much as a cheap step), so a call overruns its budget by at most the
            // time of 64 steps or of the steps since the last read.
            let check = taken > 0 && (taken.is_power_of_two() || taken % 64 == 0);
            if check && js_sys::Date::now() - start > STEP_BUDGET_MS {
                return Ok(taken);
            }
            self.inner.step().map_err(js)?;
            if let Some(samples) = &mut self.recording {
                let sample = self.inner.sample();
                // Numbers per sample, roughly: a body's state and a contact's row of the CSV.
                let values = 8 + 13 * sample.bodies.len() + 12 * sample.contacts.len();
                let cap = RECORDING_CAP.min(RECORDING_VALUES / values).max(1);
                while samples.len() >= cap {
                    samples.pop_front();
                }
                samples.push_back(sample);
            }
        }
        Ok(count)
    }

    /// Back to the initial state (parameters kept); clears the digest, step count and recording.
    pub fn reset(&mut self) -> Result<(), JsError> {
        self.inner.reset().map_err(js)?;
        if let Some(samples) = &mut self.recording {
            samples.clear();
        }
        Ok(())
    }

    /// Steps taken since creation or the last reset.
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> f64 {
        self.inner.steps() as f64
    }

    /// The changes made during this run by step (`STEP:KIND:VALUE;…`, see docs/api.md):
    /// with `startSettings()` it reproduces the run exactly. Empty when nothing changed.
    #[wasm_bindgen(getter)]
    pub fn timeline(&self) -> String {
        self.inner.timeline()
    }

    /// False when the run had more changes than a timeline keeps (10,000): a link then
    /// replays only its start.
    #[wasm_bindgen(getter, js_name = timelineExact)]
    pub fn timeline_exact(&self) -> bool {
        self.inner.timeline_is_exact()
    }

    /// The settings this run started from: `{stepper, dt, parameters: [[name, value], …]}`.
    #[wasm_bindgen(js_name = startSettings)]
    pub fn start_settings(&self) -> JsValue {
        to_js(self.inner.start_settings())
    }

    /// Queues a timeline (from `timeline` of another run) to replay as this run steps.
    #[wasm_bindgen(js_name = replayTimeline)]
    pub fn replay_timeline(&mut self, text: JsValue) -> Result<(), JsError> {
        let text = string_arg(&text, "timeline")?;
        self.inner.replay_timeline(&text).map_err(js)
    }

    /// A short digest of the trace so far (16 hex digits of an FNV-1a hash of t, q, v after
    /// every step): equal digests mean bit-identical runs.
    #[wasm_bindgen(getter)]
    pub fn digest(&self) -> String {
        format!("{:016x}", self.inner.digest())
    }

    /// Starts recording one sample per step from now on (for `traceCsv`), dropping any earlier
    /// recording; the latest 200,000 samples are kept, fewer for scenes with many contacts
    /// (about four million numbers in all).
    #[wasm_bindgen(js_name = startRecording)]
    pub fn start_recording(&mut self) {
        self.recording = Some(std::collections::VecDeque::new());
    }

    /// The recorded samples as CSV; the header names each quantity and its unit.
    #[wasm_bindgen(js_name = traceCsv)]
    pub fn trace_csv(&self) -> String {
        let Some(samples) = &self.recording else {
            return String::new();
        };
        let mut trace = self.inner.empty_trace();
        trace.samples = samples.iter().cloned().collect();
        trace.to_csv()
    }

    /// Names (with units) of every quantity [`Simulation::quantity_values`] returns now, for
    /// plots of any quantity against any other: time; each moving body's coordinates and
    /// velocities; each contact within the margin's gap, gap rate, normal force, impulse and
    /// friction; kinetic, potential, contact and total energy. Contacts come and go, so the
    /// list changes; look values up by name.
    #[wasm_bindgen(js_name = quantityNames)]
    pub fn quantity_names(&self) -> Vec<String> {
        let sample = self.inner.sample();
        let layout = self.inner.empty_trace();
        let mut names = vec!["t [s]".to_string()];
        for (b, _) in layout.bodies.iter().zip(&sample.bodies) {
            names.extend(b.columns.iter().map(|c| format!("{}.{c}", b.name)));
        }
        for c in &sample.contacts {
            // The CSV's contact columns but the last (the state, a label).
            for col in &crate::trace::CONTACT_COLUMNS[..5] {
                names.push(format!("{}.{col}", c.id));
            }
        }
        for j in &sample.joints {
            for col in crate::trace::JOINT_COLUMNS {
                names.push(format!("{}.{col}", j.name));
            }
        }
        names.extend(
            [
                "kinetic energy [J]",
                "potential energy [J]",
                "contact energy [J]",
                "energy [J]",
            ]
            .map(String::from),
        );
        names
    }

    /// Plots worth opening with for this preset (`Y~X` entries of quantity names; empty for
    /// most presets and for scene files).
    #[wasm_bindgen(js_name = suggestedPlots)]
    pub fn suggested_plots(&self) -> Vec<String> {
        self.inner.suggested_plots()
    }

    /// The values of [`Simulation::quantity_names`], in its order.
    #[wasm_bindgen(js_name = quantityValues)]
    pub fn quantity_values(&self) -> Vec<f64> {
        let sample = self.inner.sample();
        let layout = self.inner.empty_trace();
        let mut out = vec![sample.t];
        for (b, s) in layout.bodies.iter().zip(&sample.bodies) {
            let values: Vec<f64> = s.q.iter().chain(&s.v).copied().collect();
            out.extend((0..b.columns.len()).map(|k| values.get(k).copied().unwrap_or(f64::NAN)));
        }
        for c in &sample.contacts {
            out.extend([c.gap, c.gap_rate, c.normal, c.impulse, c.friction]);
        }
        for j in &sample.joints {
            let r = |k: usize| j.reaction.get(k).copied().unwrap_or(f64::NAN);
            out.extend([r(0), r(1), j.torque, j.violation, j.rate]);
        }
        let [kinetic, potential, contact] = self.inner.energy_parts();
        out.extend([kinetic, potential, contact, kinetic + potential + contact]);
        out
    }

    /// Time, s.
    #[wasm_bindgen(getter)]
    pub fn time(&self) -> f64 {
        self.inner.time()
    }

    /// Time step h, s.
    #[wasm_bindgen(getter, js_name = timeStep)]
    pub fn time_step(&self) -> f64 {
        self.inner.time_step()
    }

    /// The stepper's name.
    #[wasm_bindgen(getter)]
    pub fn stepper(&self) -> String {
        self.inner.stepper_name().to_string()
    }

    /// The scene's default run length, s.
    #[wasm_bindgen(getter)]
    pub fn duration(&self) -> f64 {
        self.inner.scene().duration
    }

    /// Changes a preset parameter (range-checked); the motion continues from the current state.
    #[wasm_bindgen(js_name = setParameter)]
    pub fn set_parameter(&mut self, name: JsValue, value: JsValue) -> Result<(), JsError> {
        let name = string_arg(&name, "name")?;
        let value = number_arg(&value, "value")?;
        self.inner.set_parameter(&name, value).map_err(js)
    }

    /// Switches stepper (`acceleration`, `moreau-jean`, `penalty-explicit`, `penalty-implicit`,
    /// `nsga`; sphere scenes take `nsga` or `moreau-jean`).
    #[wasm_bindgen(js_name = setStepper)]
    pub fn set_stepper(&mut self, name: JsValue) -> Result<(), JsError> {
        let name = string_arg(&name, "name")?;
        self.inner.set_stepper(&name).map_err(js)
    }

    /// Sets the LCP solver: `lemke` (exact) or `pgs` with its sweep cap (a whole number in
    /// [1, 1000000]) and relative tolerance (in [0, 1]).
    #[wasm_bindgen(js_name = setLcpSolver)]
    pub fn set_lcp_solver(
        &mut self,
        name: JsValue,
        max_iterations: JsValue,
        tolerance: JsValue,
    ) -> Result<(), JsError> {
        let name = string_arg(&name, "name")?;
        let cap = number_arg(&max_iterations, "maxIterations")?;
        let limit = crate::lcp::MAX_PGS_ITERATIONS as f64;
        if cap.fract() != 0.0 || !(1.0..=limit).contains(&cap) {
            return Err(JsError::new(&format!(
                "maxIterations: must be a whole number in [1, {limit}], got {}",
                describe(&max_iterations)
            )));
        }
        let tolerance = number_arg(&tolerance, "tolerance")?;
        self.inner
            .set_lcp_solver(&name, cap as u64, tolerance)
            .map_err(js)
    }

    /// Sets the time step h, s (1e-7 ≤ h ≤ 0.1).
    #[wasm_bindgen(js_name = setTimeStep)]
    pub fn set_time_step(&mut self, h: JsValue) -> Result<(), JsError> {
        let h = number_arg(&h, "h")?;
        self.inner.set_time_step(h).map_err(js)
    }

    /// A constant push on a moving body (force through the centre, N; torque, N·m); zeros remove it.
    #[wasm_bindgen(js_name = setPush)]
    pub fn set_push(
        &mut self,
        body: JsValue,
        fx: JsValue,
        fy: JsValue,
        torque: JsValue,
    ) -> Result<(), JsError> {
        let body = string_arg(&body, "body")?;
        let force = [number_arg(&fx, "fx")?, number_arg(&fy, "fy")?];
        let torque = number_arg(&torque, "torque")?;
        self.inner.set_push(&body, force, torque).map_err(js)
    }

    /// A constant push in space on a moving body (force through the centre along x, y, z, N);
    /// zeros remove it.
    #[wasm_bindgen(js_name = setPush3)]
    pub fn set_push3(
        &mut self,
        body: JsValue,
        fx: JsValue,
        fy: JsValue,
        fz: JsValue,
    ) -> Result<(), JsError> {
        let body = string_arg(&body, "body")?;
        let force = [
            number_arg(&fx, "fx")?,
            number_arg(&fy, "fy")?,
            number_arg(&fz, "fz")?,
        ];
        self.inner.set_push3(&body, force).map_err(js)
    }

    /// How to draw each body (called once per scene, not per frame).
    pub fn bodies(&self) -> JsValue {
        let list: Vec<BodyInfo> = self
            .inner
            .system()
            .bodies
            .iter()
            .map(|b| {
                let (shape, [width, height, depth], radius) = match &b.shape {
                    Shape::HalfPlane => ("half_plane", [0.0; 3], 0.0),
                    Shape::Plane => ("plane", [0.0; 3], 0.0),
                    Shape::Sphere { radius } => ("sphere", [0.0; 3], *radius),
                    Shape::Box { half_extents } => (
                        "box",
                        [2.0 * half_extents.x, 2.0 * half_extents.y, 0.0],
                        0.0,
                    ),
                    Shape::Cuboid { half_extents } => {
                        ("cuboid", (2.0 * *half_extents).to_array(), 0.0)
                    }
                    Shape::Disk { radius } => ("disk", [0.0; 3], *radius),
                    // Drawn from its nodes by the canvas view (`SceneCanvas`).
                    Shape::Beam {
                        half_thickness,
                        length,
                        ..
                    } => ("beam", [*length, 2.0 * half_thickness, 0.0], 0.0),
                    // Drawn from `beamCentreline3` by the 3-D view, by the projections else.
                    Shape::SpatialBeam {
                        half_thickness,
                        length,
                        ..
                    } => (
                        "spatial_beam",
                        [*length, 2.0 * half_thickness, 0.0],
                        *half_thickness,
                    ),
                };
                BodyInfo {
                    name: b.name.clone(),
                    fixed: b.is_fixed(),
                    mass: b.mass(),
                    shape,
                    width,
                    height,
                    depth,
                    radius,
                    contact_points: b.contact_points.iter().map(|p| p.to_array()).collect(),
                    supports: match &b.kind {
                        crate::model::BodyKind::SpatialBeam(beam) => {
                            let (a, z) = beam.supports();
                            [a, z].iter().map(|s| s.name()).collect()
                        }
                        _ => Vec::new(),
                    },
                }
            })
            .collect();
        to_js(&list)
    }

    /// Poses of all bodies in scene order, `[x, y, θ]` each (m, m, rad).
    #[wasm_bindgen(js_name = bodyPoses)]
    pub fn body_poses(&self) -> Vec<f64> {
        let system = self.inner.system();
        (0..system.bodies.len())
            .flat_map(|i| {
                let p = system.pose(i, &system.q);
                [p.position.x, p.position.y, p.angle]
            })
            .collect()
    }

    /// Velocities of all bodies in scene order, `[vx, vy, ω]` each (zeros for fixed bodies).
    #[wasm_bindgen(js_name = bodyVelocities)]
    pub fn body_velocities(&self) -> Vec<f64> {
        let system = self.inner.system();
        (0..system.bodies.len())
            .flat_map(|i| {
                let (v, w) = system.twist(i, &system.v);
                [v.x, v.y, w]
            })
            .collect()
    }

    /// Per contact, the fields of `layout().contact` ([`crate::trace::CONTACT_FIELDS`]): gap
    /// [m], gap rate [m/s], normal reaction [N], friction [N] (signed in the plane, magnitude
    /// in space), impulse [N·s], state code (0 open, 1 touching, 2 loaded, 3 impact), contact
    /// point x, y, z [m], normal direction x, y, z (the direction of the normal force on the
    /// moving body of the pair).
    #[wasm_bindgen(js_name = contactData)]
    pub fn contact_data(&self) -> Vec<f64> {
        let mut out = Vec::with_capacity(CONTACT_STRIDE * self.inner.last_report().contacts.len());
        let bodies = &self.inner.system().bodies;
        for c in &self.inner.last_report().contacts {
            let d = c.direction_on_moving_body(bodies);
            let row: [f64; CONTACT_STRIDE] = [
                c.gap,
                c.gap_rate,
                c.normal,
                c.friction,
                c.impulse,
                f64::from(c.state.code()),
                c.point[0],
                c.point[1],
                c.point[2],
                d[0],
                d[1],
                d[2],
            ];
            out.extend_from_slice(&row);
        }
        out
    }

    /// True for a scene in space (spheres): use `bodyPoses3`, `bodyVelocities3`, `lawData`.
    #[wasm_bindgen(getter)]
    pub fn spatial(&self) -> bool {
        self.inner.system().is_spatial()
    }

    /// Poses in space of all bodies, `[x, y, z, q_w, q_x, q_y, q_z]` each (m; unit quaternion).
    #[wasm_bindgen(js_name = bodyPoses3)]
    pub fn body_poses3(&self) -> Vec<f64> {
        let system = self.inner.system();
        system
            .bodies
            .iter()
            .flat_map(|b| {
                let p = b.position3(&system.q);
                let r = b.orientation(&system.q);
                [p.x, p.y, p.z, r.w, r.x, r.y, r.z]
            })
            .collect()
    }

    /// The deformed centreline of body `body` when it is a beam in space: 8 points per element
    /// along its Hermite curves and the last node, `[x, y, z]` each (m); empty otherwise.
    #[wasm_bindgen(js_name = beamCentreline3)]
    pub fn beam_centreline3(&self, body: usize) -> Vec<f64> {
        let system = self.inner.system();
        match system.bodies.get(body).map(|b| (b, &b.kind)) {
            Some((b, crate::model::BodyKind::SpatialBeam(beam))) => beam
                .centreline(b.q_of(&system.q), 8)
                .iter()
                .flat_map(|p| p.to_array())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Velocities in space of all bodies, `[vx, vy, vz, ωx, ωy, ωz]` each (m/s, rad/s).
    #[wasm_bindgen(js_name = bodyVelocities3)]
    pub fn body_velocities3(&self) -> Vec<f64> {
        let system = self.inner.system();
        system
            .bodies
            .iter()
            .flat_map(|b| {
                let (u, w) = b.twist3(&system.v);
                [u.x, u.y, u.z, w.x, w.y, w.z]
            })
            .collect()
    }

    /// Per contact, the fields of `layout().law` ([`crate::trace::LAW_FIELDS`]) from the
    /// friction-type laws (NSGA and Moreau–Jean; zeros otherwise): slip velocity t₁, t₂ [m/s], slip speed [m/s], rolling speed |ω_R| [rad/s],
    /// spinning rate ω_S [rad/s], friction force |F_T| [N], rolling torque |τ_R| [N·m],
    /// spinning torque τ_S [N·m], case (0 open, 1 stick, 2 slip, 3 rolling, 4 spinning).
    #[wasm_bindgen(js_name = lawData)]
    pub fn law_data(&self) -> Vec<f64> {
        let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
        let mut out = Vec::new();
        for c in &self.inner.last_report().contacts {
            let row: [f64; LAW_STRIDE] = match &c.laws {
                Some(l) => [
                    l.slip.first().copied().unwrap_or(0.0),
                    l.slip.get(1).copied().unwrap_or(0.0),
                    norm(&l.slip),
                    norm(&l.rolling),
                    l.spinning,
                    norm(&l.friction_force),
                    norm(&l.rolling_torque),
                    l.spinning_torque,
                    match l.case {
                        "stick" => 1.0,
                        "slip" => 2.0,
                        "rolling" => 3.0,
                        "spinning" => 4.0,
                        _ => 0.0,
                    },
                ],
                None => [0.0; LAW_STRIDE],
            };
            out.extend_from_slice(&row);
        }
        out
    }

    /// Ids (`A/B#feature`) of the contacts in `contactData`, same order.
    #[wasm_bindgen(js_name = contactIds)]
    pub fn contact_ids(&self) -> Vec<String> {
        self.inner
            .last_report()
            .contacts
            .iter()
            .map(|c| self.inner.contact_id(c.key))
            .collect()
    }

    /// Mechanical energy T + V_gravity + V_contact, J.
    #[wasm_bindgen(getter)]
    pub fn energy(&self) -> f64 {
        self.inner.energy()
    }

    /// Solver iterations of the last step.
    #[wasm_bindgen(getter)]
    pub fn iterations(&self) -> u32 {
        u32::try_from(self.inner.last_report().iterations).unwrap_or(u32::MAX)
    }

    /// Largest complementarity residual of the last step.
    #[wasm_bindgen(getter)]
    pub fn residual(&self) -> f64 {
        self.inner.last_report().residual
    }

    /// False when a solve of the last step did not reach its tolerance.
    #[wasm_bindgen(getter)]
    pub fn converged(&self) -> bool {
        self.inner.last_report().converged
    }

    /// Steps since creation or the last reset whose solves did not reach their tolerance.
    #[wasm_bindgen(getter, js_name = unconvergedSteps)]
    pub fn unconverged_steps(&self) -> f64 {
        self.inner.unconverged_steps().0 as f64
    }

    /// The worst relative residual among those steps (0 when every step converged).
    /// The smallest gap at the end of any step since creation or the last reset, m
    /// (−penetration; `Infinity` before any contact).
    #[wasm_bindgen(getter, js_name = deepestGap)]
    pub fn deepest_gap(&self) -> f64 {
        self.inner.deepest_gap()
    }

    /// Bodies asleep now (0 unless the scene has sleeping on).
    #[wasm_bindgen(getter, js_name = sleepingBodies)]
    pub fn sleeping_bodies(&self) -> u32 {
        self.inner.sleeping_bodies() as u32
    }

    /// For the `pile` presets: `{maxSpeed, escaped}` (the largest speed of a body's centre,
    /// m/s, and how many bodies have left the box).
    #[wasm_bindgen(js_name = pileState)]
    pub fn pile_state(&self) -> JsValue {
        let state = crate::presets_pile::pile_state(self.inner.system());
        to_js(&serde_json::json!({"maxSpeed": state.max_speed, "escaped": state.escaped}))
    }

    #[wasm_bindgen(getter, js_name = worstResidual)]
    pub fn worst_residual(&self) -> f64 {
        self.inner.unconverged_steps().1
    }

    /// The method that produced the last step's contact forces: `none`, `lemke`, `pgs`,
    /// `newton`, `proximal`, `nsgs`, `sparse-nsgs`, `normal-only-correction`,
    /// `lemke-fallback`, `polyhedral` or `failed`.
    #[wasm_bindgen(getter)]
    pub fn solver(&self) -> String {
        self.inner.last_report().solver.label().to_string()
    }

    /// Generalized acceleration over the last step, `[ax, ay, α]` per moving body.
    pub fn acceleration(&self) -> Vec<f64> {
        self.inner.acceleration().as_slice().to_vec()
    }

    /// Theory panel: `[{label, unit, predicted, simulated, wrong}]` (NaN becomes null).
    pub fn theory(&self) -> JsValue {
        to_js(&theory::theory(&self.inner))
    }

    /// Angular frequencies of the coupled modes of the compressed contacts now, rad/s.
    pub fn frequencies(&self) -> Vec<f64> {
        self.inner.modes().omega
    }

    /// Each compressed contact's own frequency √(kᵢ Aᵢᵢ) (on its effective mass), rad/s: how
    /// fast a contact on its own would oscillate, apart from the structure it couples to.
    #[wasm_bindgen(js_name = contactFrequencies)]
    pub fn contact_frequencies(&self) -> Vec<f64> {
        self.inner.modes().decoupled_omega
    }

    /// True when the modes are small enough to draw every frame (at most 128 generalized
    /// coordinates); a larger system's modes come only from `modes()` and `frequencies()`.
    #[wasm_bindgen(getter, js_name = modesLive)]
    pub fn modes_live(&self) -> bool {
        self.inner.modes_sampled()
    }

    /// h·ω_max of the compressed contacts now (the central-difference limit is 2).
    #[wasm_bindgen(getter, js_name = hOmegaMax)]
    pub fn h_omega_max(&self) -> f64 {
        self.inner.time_step() * self.inner.modes().omega_max()
    }

    /// Largest stable h for the current stepper and contacts, s (undefined: no such limit).
    #[wasm_bindgen(getter, js_name = timeStepLimit)]
    pub fn time_step_limit(&self) -> Option<f64> {
        self.inner.time_step_limit()
    }

    /// An upper bound on h·ω_max of the compressed contacts now, at any size and in
    /// O(contacts) (Gershgorin's; what a system without live modes is checked against).
    #[wasm_bindgen(getter, js_name = hOmegaBound)]
    pub fn h_omega_bound(&self) -> f64 {
        self.inner.time_step() * self.inner.omega_max_bound()
    }

    /// A step the current stepper is sure to be stable at by that bound, s (undefined: the
    /// stepper has no such limit, or nothing is compressed).
    #[wasm_bindgen(getter, js_name = timeStepLimitBound)]
    pub fn time_step_limit_bound(&self) -> Option<f64> {
        self.inner.time_step_limit_bound()
    }

    /// The full modal analysis now: `{omega, decoupledOmega, zeroModes, freeMotions,
    /// modeShapes, generalizedShapes, omegaMaxBound, modalEnergy, contacts, stability}`.
    pub fn modes(&self) -> JsValue {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Modes {
            omega: Vec<f64>,
            decoupled_omega: Vec<f64>,
            zero_modes: usize,
            free_motions: usize,
            mode_shapes: Vec<Vec<f64>>,
            generalized_shapes: Vec<Vec<f64>>,
            omega_max_bound: f64,
            modal_energy: Vec<f64>,
            contacts: Vec<String>,
            stability: &'static str,
        }
        let (a, modal_energy) = self.inner.modes_with_energy();
        let contacts = self
            .inner
            .compressed_contacts()
            .iter()
            .map(|c| self.inner.contact_id(c.key))
            .collect();
        to_js(&Modes {
            omega: a.omega,
            decoupled_omega: a.decoupled_omega,
            zero_modes: a.zero_modes,
            free_motions: a.free_motions,
            mode_shapes: a.mode_shapes,
            generalized_shapes: a.generalized_shapes,
            omega_max_bound: a.omega_max_bound,
            modal_energy,
            contacts,
            stability: crate::modes::stability_note(self.inner.stepper_name()),
        })
    }

    /// The scene as JSON text.
    #[wasm_bindgen(js_name = sceneJson)]
    pub fn scene_json(&self) -> String {
        self.inner.scene().to_json()
    }
}
