//! A running simulation: scene, system, stepper and the latest step report, behind one small API.
//!
//! The CLI, the tests and the wasm bindings all drive this type; it holds no physics of its own.

use nalgebra::DVector;

use crate::contact::{
    Contact, ContactKey, census_of, contact_capacity, contact_census, detect_contacts,
};
use crate::error::{Error, Result, check_each, check_range, fmt_number};
use crate::geometry::Shape;
use crate::integrators::acceleration::acceleration_lcp;
use crate::integrators::{ContactSettings, StepReport, Stepped, Stepper, StepperKind};
use crate::lcp::Lcp;
use crate::model::{AppliedForce, ForceLaw, System};
use crate::modes::{self, ModalAnalysis};
use crate::presets::{self, Preset};
use crate::scene::{Scene, limits};
use crate::sleep::Sleep;
use crate::timeline::{Change, Timeline};
use crate::trace::{BodyLayout, BodySample, ContactSample, JointSample, Sample, Trace};
use serde::Serialize;

/// Largest system (generalized coordinates) whose modes every sample carries and the page
/// draws every frame. The analysis is dense: an eigenproblem over the compressed contacts
/// (or a structure's coordinates), the rank of their n_c × n Jacobian, and, for the modal
/// energies, a pseudo-inverse over all n coordinates, O(n³). A settled planar pile of 300
/// disks (900 coordinates) under NSGA has 126 contacts at rounding-level negative gaps,
/// "compressed": its modes took 12.5 ms and a sample with them 1.2 s, natively; a pile of
/// 1000 in space, minutes a sample. Larger systems give their modes when asked
/// ([`Simulation::modes`]).
pub const SAMPLED_MODES_DOFS: usize = 128;

/// A scene being stepped.
pub struct Simulation {
    scene: Scene,
    preset: Option<(&'static Preset, Vec<(String, f64)>)>,
    system: System,
    settings: ContactSettings,
    kind: StepperKind,
    stepper: Box<dyn Stepper>,
    dt: f64,
    last: StepReport,
    acceleration: DVector<f64>,
    digest: u64,
    /// True when the scene could exceed [`limits::ISLAND_CONTACTS`] (then each step counts first).
    count_contacts: bool,
    /// Steps taken since creation or the last reset.
    steps: u64,
    /// Steps since then whose solves did not converge, and the worst residual among them.
    unconverged: (u64, f64),
    /// The smallest gap at the end of any step since then, m (+∞ before the first contact).
    deepest_gap: f64,
    /// Which bodies rest and sleep (when the scene switches sleeping on).
    sleep: Sleep,
    /// Events measured so far (first impact, lift-off, end of slip, stop).
    events: crate::events::Events,
    /// The settings the run started from, and the changes made since.
    start: StartSettings,
    timeline: Timeline,
    /// The contacts at the current positions, detected by the last step (the pipeline's
    /// hand-over to the next step and to queries); dropped whenever the system is rebuilt.
    detected: Option<Detected>,
    /// Vectors whose storage is kept from step to step.
    spare: SpareVectors,
    /// Bumped whenever the system is rebuilt or its loads change: with q, what the modes
    /// were computed at.
    generation: u64,
    /// The last modal analysis and the (generation, q and sleeping bodies) it was computed at.
    modes: ModesCache,
}

/// The last modes: the page asks for them several times a frame (frequencies, stability
/// limit, the modes panel, the theory lines), and a structure's are a dense eigenproblem
/// (a bridge of 100 elements drew at 2 frames a second when each ask solved it again).
#[derive(Default)]
struct ModesCache(std::sync::Mutex<Option<(u64, Vec<u64>, ModalAnalysis)>>);

/// The step's vectors kept between steps for their storage (no allocation a step).
struct SpareVectors {
    /// The positions a failed step returns to.
    q_before: DVector<f64>,
    /// The velocities a failed step returns to.
    v_before: DVector<f64>,
    /// The positions the next hand-over of contacts ([`Detected`]) records.
    detected_q: DVector<f64>,
}

impl Default for SpareVectors {
    fn default() -> Self {
        Self {
            q_before: DVector::zeros(0),
            v_before: DVector::zeros(0),
            detected_q: DVector::zeros(0),
        }
    }
}

/// Contacts detected at positions `q` within `margin`.
struct Detected {
    q: DVector<f64>,
    margin: f64,
    contacts: Vec<Contact>,
}

impl Detected {
    /// True when these contacts were detected at exactly this state (bit for bit).
    fn holds_for(&self, system: &System, margin: f64) -> bool {
        self.margin.to_bits() == margin.to_bits()
            && self.q.len() == system.q.len()
            && self
                .q
                .iter()
                .zip(system.q.iter())
                .all(|(a, b)| a.to_bits() == b.to_bits())
    }
}

/// The settings a run starts from (with its scene): what a share link carries besides the
/// timeline of changes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StartSettings {
    /// Stepper name.
    pub stepper: String,
    /// Time step h, s.
    pub dt: f64,
    /// Every preset parameter's value (empty for a scene file).
    pub parameters: Vec<(String, f64)>,
    /// The LCP solver as `NAME,MAX_ITERATIONS,TOLERANCE` (`lemke,1000,0.0000000001` by default).
    pub solver: String,
}

/// Largest |force| or |torque| component of a push, N or N·m.
pub const PUSH_LIMIT: f64 = 1e12;

/// A state component beyond this (m, rad, m/s or rad/s) means the motion diverged.
pub const DIVERGED: f64 = 1e8;

/// FNV-1a offset basis: the digest of an empty trace.
const DIGEST_SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// Folds the bits of `values` into an FNV-1a hash.
fn fold_digest(mut hash: u64, values: &[f64]) -> u64 {
    for v in values {
        for byte in v.to_bits().to_le_bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

/// The step's state and outputs are finite and bounded, or the error says what went wrong.
fn check_outcome(system: &crate::model::System, report: &StepReport) -> Result<()> {
    let worst = system.q.iter().chain(system.v.iter()).fold(0.0f64, |a, x| {
        if x.is_finite() {
            a.max(x.abs())
        } else {
            f64::INFINITY
        }
    });
    if !worst.is_finite() {
        return Err(Error::Solver(
            "the state became non-finite (is the time step above the stability limit?); the step was not taken"
                .into(),
        ));
    }
    if worst > DIVERGED {
        return Err(Error::Solver(format!(
            "the motion diverged (a coordinate or velocity reached {}, beyond {}): is the time step above the stability limit? The step was not taken",
            fmt_number(worst),
            fmt_number(DIVERGED)
        )));
    }
    let finite = report.contacts.iter().all(|c| {
        [c.gap, c.gap_rate, c.normal, c.impulse, c.friction]
            .iter()
            .all(|x| x.is_finite())
    }) && report.residual.is_finite();
    if !finite {
        return Err(Error::Solver(
            "a contact force, gap or residual of the step is not finite; the step was not taken"
                .into(),
        ));
    }
    Ok(())
}

/// `NAME,MAX_ITERATIONS,TOLERANCE` of a stepper spec's LCP solver.
fn solver_text(spec: &crate::scene::StepperSpec) -> String {
    let name = match spec.solver {
        crate::lcp::LcpSolverKind::Lemke => "lemke",
        crate::lcp::LcpSolverKind::Pgs => "pgs",
    };
    format!("{name},{},{}", spec.pgs_max_iterations, spec.pgs_tolerance)
}

/// Refuses bodies that start inside each other beyond the tolerance, naming the pair and depth.
fn check_initial_overlap(scene: &Scene, system: &crate::model::System) -> Result<()> {
    let list = if scene.is_spatial() {
        "spatial_bodies"
    } else {
        "bodies"
    };
    // Coincident round bodies have no contact normal, so detection does not see them.
    let round = |i: usize| match system.bodies[i].shape {
        Shape::Disk { radius } | Shape::Sphere { radius } => Some(radius),
        _ => None,
    };
    let mut overlaps: Vec<(usize, usize, f64)> = Vec::new();
    let bounds: Vec<crate::geometry::broad_phase::Bounds> = system
        .bodies
        .iter()
        .map(|b| crate::geometry::broad_phase::Bounds {
            centre: b.position3(&system.q),
            radius: b.shape.bounding_radius(),
            fixed: b.is_fixed(),
        })
        .collect();
    for (i, j) in crate::geometry::broad_phase::candidate_pairs(&bounds, 0.0) {
        if !system.jointed(i, j)
            && let (Some(ri), Some(rj)) = (round(i), round(j))
        {
            let d = (system.bodies[i].position3(&system.q) - system.bodies[j].position3(&system.q))
                .length();
            if d <= 1e-12 * (ri + rj) {
                overlaps.push((i, j, ri + rj - d));
            }
        }
    }
    overlaps.extend(
        detect_contacts(system, &system.q, 0.0)
            .into_iter()
            .filter(|c| !c.bilateral && c.gap < 0.0)
            .map(|c| {
                let (a, b, _) = c.key.point_body_first();
                (a, b, -c.gap)
            }),
    );
    for (a, b, depth) in overlaps {
        let (body_a, body_b) = (&system.bodies[a], &system.bodies[b]);
        let extent = body_a
            .shape
            .smallest_extent()
            .min(body_b.shape.smallest_extent());
        let allowed = limits::INITIAL_OVERLAP * extent;
        if depth > allowed {
            let moving = if body_a.is_fixed() { b } else { a };
            return Err(Error::field(
                format!("{list}[{moving}].position"),
                format!(
                    "'{}' starts {} m inside '{}', more than {} % of the smaller body's extent ({} m); move them apart",
                    body_a.name,
                    fmt_number(depth),
                    body_b.name,
                    fmt_number(100.0 * limits::INITIAL_OVERLAP),
                    fmt_number(extent)
                ),
            ));
        }
    }
    Ok(())
}

impl Simulation {
    /// A simulation of a validated scene; bodies that start overlapping by more than
    /// [`limits::INITIAL_OVERLAP`] of the smaller one's extent are refused.
    pub fn from_scene(scene: Scene) -> Result<Self> {
        let (system, settings, kind) = scene.build()?;
        check_initial_overlap(&scene, &system)?;
        let dt = scene.stepper.dt;
        let acceleration = DVector::zeros(system.dofs());
        Ok(Self {
            acceleration,
            digest: DIGEST_SEED,
            count_contacts: contact_capacity(&system) > limits::ISLAND_CONTACTS,
            steps: 0,
            unconverged: (0, 0.0),
            deepest_gap: f64::INFINITY,
            events: crate::events::Events::new(),
            sleep: Sleep::new(
                scene.stepper.sleep,
                system.bodies.len(),
                scene.stepper.sleep_thresholds()?,
            ),
            start: StartSettings {
                stepper: kind.name().to_string(),
                dt,
                parameters: vec![],
                solver: solver_text(&scene.stepper),
            },
            timeline: Timeline::default(),
            detected: None,
            spare: SpareVectors::default(),
            generation: 0,
            modes: ModesCache::default(),
            stepper: kind.build(),
            scene,
            preset: None,
            system,
            settings,
            kind,
            dt,
            last: StepReport::default(),
        })
    }

    /// A simulation of a scene given as JSON.
    pub fn from_json(json: &str) -> Result<Self> {
        Self::from_scene(Scene::from_json(json)?)
    }

    /// A simulation of the preset `name` with parameter `overrides`.
    pub fn from_preset(name: &str, overrides: &[(String, f64)]) -> Result<Self> {
        let preset = presets::find(name)?;
        let values = preset.values(overrides)?;
        let mut sim = Self::from_scene(preset.scene(&values)?)?;
        sim.preset = Some((preset, overrides.to_vec()));
        sim.start = sim.settings_now();
        Ok(sim)
    }

    /// The scene being run.
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The preset this simulation came from, if any.
    pub fn preset(&self) -> Option<&'static Preset> {
        self.preset.as_ref().map(|p| p.0)
    }

    /// The current value of each preset parameter (empty for a scene file).
    pub fn parameter_values(&self) -> Vec<(&'static str, f64)> {
        match &self.preset {
            Some((p, o)) => p.values(o).map(|v| v.iter().collect()).unwrap_or_default(),
            None => vec![],
        }
    }

    /// The mechanical system (state, bodies).
    pub fn system(&self) -> &System {
        &self.system
    }

    /// Contact settings (material, margin).
    pub fn contact_settings(&self) -> &ContactSettings {
        &self.settings
    }

    /// Time, s.
    pub fn time(&self) -> f64 {
        self.system.t
    }

    /// Time step h, s.
    pub fn time_step(&self) -> f64 {
        self.dt
    }

    /// The stepper's name.
    pub fn stepper_name(&self) -> &'static str {
        self.kind.name()
    }

    /// The last step's report.
    pub fn last_report(&self) -> &StepReport {
        &self.last
    }

    /// Advances one step of h. On error (q, v, t) are unchanged; a step refused because the
    /// state became non-finite or diverged (a component beyond [`DIVERGED`]), or because a
    /// reported force or gap is not finite, also clears the stepper's warm start and active set.
    pub fn step(&mut self) -> Result<&StepReport> {
        while let Some(change) = self.timeline.due(self.steps) {
            self.apply(change)?;
        }
        // A drive's work is balanced against the energy gained since the first step.
        if self.events.start_energy.is_none() && self.system.has_drives() {
            self.events.start_energy = Some(self.energy());
        }
        // Stage 1, detect: the contacts the last step found at these positions, or afresh.
        let cached = self.detected.take().and_then(|d| {
            let holds = d.holds_for(&self.system, self.settings.margin);
            self.spare.detected_q = d.q;
            holds.then_some(d.contacts)
        });
        if self.count_contacts {
            let (n, island) = match &cached {
                Some(contacts) => census_of(&self.system, contacts),
                None => contact_census(&self.system, &self.system.q, self.settings.margin),
            };
            if n > limits::CONTACTS {
                return Err(Error::Solver(format!(
                    "{n} contacts are within the contact margin ({} m); at most {} are allowed at once: lower contact_margin or use fewer bodies",
                    fmt_number(self.settings.margin),
                    limits::CONTACTS
                )));
            }
            if island > limits::ISLAND_CONTACTS && !self.stepper.solves_large_islands() {
                return Err(Error::Solver(format!(
                    "{island} contacts within the contact margin ({} m) form one island; at most {} are solved together by this stepper (nsga and moreau-jean solve larger islands block-sparsely): lower contact_margin, spread the bodies or change the stepper",
                    fmt_number(self.settings.margin),
                    limits::ISLAND_CONTACTS
                )));
            }
        }
        let mut start = cached
            .unwrap_or_else(|| detect_contacts(&self.system, &self.system.q, self.settings.margin));
        // A sleeping island within the margin of a moving body wakes before the step, and
        // its contacts (not looked for while it slept) are found.
        if self.sleep.wake_touched(&mut self.system, &start) {
            self.stepper.wake();
            start = detect_contacts(&self.system, &self.system.q, self.settings.margin);
        }
        // The state to return to if the step fails, in storage kept from the last step.
        let (mut q_before, mut v_before) = (
            std::mem::replace(&mut self.spare.q_before, DVector::zeros(0)),
            std::mem::replace(&mut self.spare.v_before, DVector::zeros(0)),
        );
        crate::linalg::buffers::copy_vector(&mut q_before, &self.system.q);
        crate::linalg::buffers::copy_vector(&mut v_before, &self.system.v);
        let t_before = self.system.t;
        // M(q) of bodies with unequal principal inertias turns with them.
        self.system.refresh_mass();
        // Stages 2–5 (islands, assemble, solve, integrate) are the stepper's; it reports the
        // contacts at the positions it ended on.
        let Stepped {
            report,
            end_contacts,
        } = self
            .stepper
            .step(&mut self.system, start, &self.settings, self.dt)?;
        if let Err(e) = check_outcome(&self.system, &report) {
            std::mem::swap(&mut self.system.q, &mut q_before);
            std::mem::swap(&mut self.system.v, &mut v_before);
            self.system.t = t_before;
            self.spare.q_before = q_before;
            self.spare.v_before = v_before;
            self.stepper.reset();
            return Err(e);
        }
        self.deepest_gap = end_contacts
            .iter()
            .map(|c| c.gap)
            .fold(self.deepest_gap, f64::min);
        let slept_or_woke =
            self.sleep
                .update(&mut self.system, &end_contacts, self.dt, &mut *self.stepper);
        // Falling asleep or waking changes which contacts are looked for: detect afresh.
        self.detected = (!slept_or_woke).then(|| {
            let mut q = std::mem::replace(&mut self.spare.detected_q, DVector::zeros(0));
            crate::linalg::buffers::copy_vector(&mut q, &self.system.q);
            Detected {
                q,
                margin: self.settings.margin,
                contacts: end_contacts,
            }
        });
        // (v_{k+1} − v_k)/h entry by entry, into the vector of the last step.
        crate::linalg::buffers::sized_vector(&mut self.acceleration, v_before.len());
        for ((a, v), v0) in self
            .acceleration
            .iter_mut()
            .zip(&self.system.v)
            .zip(&v_before)
        {
            *a = (v - v0) / self.dt;
        }
        self.spare.q_before = q_before;
        self.spare.v_before = v_before;
        self.digest = fold_digest(self.digest, &[self.system.t]);
        self.digest = fold_digest(self.digest, self.system.q.as_slice());
        self.digest = fold_digest(self.digest, self.system.v.as_slice());
        if !report.converged {
            self.unconverged.0 += 1;
            self.unconverged.1 = self.unconverged.1.max(report.residual);
        }
        self.events.record(&report, &self.system, self.dt);
        std::mem::replace(&mut self.last, report).recycle();
        self.steps += 1;
        Ok(&self.last)
    }

    /// Steps taken since creation or the last reset.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Steps since creation or the last reset whose solves did not reach their tolerance,
    /// with the worst relative residual among them.
    pub fn unconverged_steps(&self) -> (u64, f64) {
        self.unconverged
    }

    /// Bodies asleep now (always 0 unless the scene's `stepper.sleep` is on).
    pub fn sleeping_bodies(&self) -> usize {
        Sleep::sleeping(&self.system)
    }

    /// Events measured since creation or the last reset.
    pub fn events(&self) -> &crate::events::Events {
        &self.events
    }

    /// The smallest gap of any contact at the end of any step since creation or the last
    /// reset, m: −(the deepest penetration); +∞ when no contact has been within the margin.
    pub fn deepest_gap(&self) -> f64 {
        self.deepest_gap
    }

    /// The settings this run started from (at creation, the last reset, or the last change
    /// made before the first step).
    pub fn start_settings(&self) -> &StartSettings {
        &self.start
    }

    /// The changes made during this run as text (see [`crate::timeline`]); empty when none.
    pub fn timeline(&self) -> String {
        self.timeline.encode()
    }

    /// True when the timeline holds every change of the run (a replay is then exact).
    pub fn timeline_is_exact(&self) -> bool {
        self.timeline.is_exact()
    }

    /// Queues a recorded timeline to replay: each change is applied when the run reaches its
    /// step. Give it to a fresh simulation built from the run's [`StartSettings`].
    pub fn replay_timeline(&mut self, text: &str) -> Result<()> {
        let changes = Timeline::parse(text)?;
        self.timeline.replay(changes);
        Ok(())
    }

    fn settings_now(&self) -> StartSettings {
        StartSettings {
            stepper: self.kind.name().to_string(),
            solver: solver_text(&self.scene.stepper),
            dt: self.dt,
            parameters: self
                .parameter_values()
                .into_iter()
                .map(|(n, v)| (n.to_string(), v))
                .collect(),
        }
    }

    /// Remembers a change: part of the start before the first step, on the timeline after.
    fn note(&mut self, change: Change) {
        if self.steps == 0 {
            self.start = self.settings_now();
        } else {
            self.timeline.record(self.steps, change);
        }
    }

    fn apply(&mut self, change: Change) -> Result<()> {
        match change {
            Change::Stepper(name) => self.set_stepper(&name),
            Change::TimeStep(h) => self.set_time_step(h),
            Change::Parameter(name, value) => self.set_parameter(&name, value),
            Change::Push {
                body,
                force,
                torque,
            } => self.set_push(&body, force, torque),
            Change::Push3 { body, force } => self.set_push3(&body, force),
            Change::Solver {
                name,
                max_iterations,
                tolerance,
            } => self.set_lcp_solver(&name, max_iterations, tolerance),
        }
    }

    /// A 64-bit FNV-1a hash of (t, q, v) after every step since the start or the last reset:
    /// the same scene, parameters, stepper and step count give the same digest, bit for bit.
    pub fn digest(&self) -> u64 {
        self.digest
    }

    /// Generalized acceleration over the last step, (v_{k+1} − v_k)/h (m/s², rad/s²).
    pub fn acceleration(&self) -> &DVector<f64> {
        &self.acceleration
    }

    /// The CSV column layout of each moving body, from its kind.
    pub fn body_layouts(&self) -> Vec<BodyLayout> {
        self.system
            .bodies
            .iter()
            .filter(|b| !b.is_fixed())
            .map(|b| {
                let (q, v) = b.coordinate_names();
                BodyLayout {
                    name: b.name.clone(),
                    columns: q.into_iter().chain(v).collect(),
                }
            })
            .collect()
    }

    /// An empty trace with this system's moving bodies laid out (for CSV columns).
    pub fn empty_trace(&self) -> Trace {
        Trace {
            bodies: self.body_layouts(),
            samples: Vec::new(),
        }
    }

    /// Runs `steps` steps, recording every `every`-th sample with its modes.
    pub fn run(&mut self, steps: usize, every: usize) -> Result<Trace> {
        let every = every.max(1);
        let mut trace = self.empty_trace();
        for k in 1..=steps {
            self.step()?;
            if k % every == 0 {
                trace.samples.push(self.sample_with_modes());
            }
        }
        Ok(trace)
    }

    /// Number of steps that cover `duration` seconds.
    pub fn steps_for(&self, duration: f64) -> usize {
        (duration / self.dt - 1e-9).ceil().max(0.0) as usize
    }

    /// The sample of the current state and the last step, without the modal analysis (cheap:
    /// what CSV recordings take every step).
    pub fn sample(&self) -> Sample {
        let bodies = self
            .system
            .bodies
            .iter()
            .filter(|b| !b.is_fixed())
            .map(|b| {
                let (qo, vo) = (b.q_offset, b.v_offset);
                BodySample {
                    q: self.system.q.as_slice()[qo..qo + b.positions()].to_vec(),
                    v: self.system.v.as_slice()[vo..vo + b.dofs()].to_vec(),
                }
            })
            .collect();
        let contacts = self
            .last
            .contacts
            .iter()
            .map(|c| ContactSample {
                id: self.contact_id(c.key),
                gap: c.gap,
                gap_rate: c.gap_rate,
                normal: c.normal,
                impulse: c.impulse,
                friction: c.friction,
                state: c.state,
                penetration: (-c.gap).max(0.0),
                laws: c.laws.clone(),
            })
            .collect();
        let joints = self
            .last
            .joints
            .iter()
            .map(|r| JointSample {
                name: self.system.joints[r.joint].name.clone(),
                reaction: r.reaction[..if self.system.is_spatial() { 3 } else { 2 }].to_vec(),
                torque: r.torque,
                violation: r.constraint.iter().fold(0.0, |m, g| m.max(g.abs())),
                rate: r.rate.iter().fold(0.0, |m, g| m.max(g.abs())),
            })
            .collect();
        Sample {
            t: self.system.t,
            bodies,
            contacts,
            joints,
            modes: None,
            h_omega_bound: None,
            energy: self.energy(),
            iterations: self.last.iterations,
            residual: self.last.residual,
            converged: self.last.converged,
            solver: self.last.solver,
        }
    }

    /// True when the system is small enough for its modes to be sampled with every recorded
    /// step and drawn every frame ([`SAMPLED_MODES_DOFS`]).
    pub fn modes_sampled(&self) -> bool {
        self.system.dofs() <= SAMPLED_MODES_DOFS
    }

    /// The sample with the modal analysis of the compressed contacts (an eigen-decomposition:
    /// ask for it when it is shown, not for every recorded step); for a system too large to
    /// sample its modes ([`Self::modes_sampled`]), under a penalty stepper, the bound on
    /// h·ω_max instead.
    pub fn sample_with_modes(&self) -> Sample {
        if !self.modes_sampled() {
            // A penalty stepper's large system carries the cheap bound on h·ω_max instead.
            let penalty = self.stepper_name().starts_with("penalty");
            return Sample {
                h_omega_bound: penalty.then(|| self.dt * self.omega_max_bound()),
                ..self.sample()
            };
        }
        let (analysis, modal_energy) = self.modes_with_energy();
        Sample {
            modes: Some(crate::trace::SampleModes {
                h_omega_max: self.dt * analysis.omega_max(),
                frequencies: analysis.omega,
                modal_energy,
            }),
            ..self.sample()
        }
    }

    /// `A/B#feature` with the bodies' names, the point body A first.
    pub fn contact_id(&self, key: ContactKey) -> String {
        let name = |i: usize| {
            self.system
                .bodies
                .get(i)
                .map(|b| b.name.as_str())
                .unwrap_or("?")
        };
        let (a, b, f) = key.point_body_first();
        format!("{}/{}#{}", name(a), name(b), f)
    }

    /// Mechanical energy T + V_gravity + V_contact, J.
    pub fn energy(&self) -> f64 {
        let [kinetic, potential, contact] = self.energy_parts();
        kinetic + potential + contact
    }

    /// The mechanical energy's parts, J: kinetic ½vᵀMv, gravity's potential, and the energy
    /// stored in penalty contacts (zero for rigid contact).
    pub fn energy_parts(&self) -> [f64; 3] {
        let contact_energy = match &self.detected {
            Some(d) if d.holds_for(&self.system, self.settings.margin) => {
                self.stepper.contact_energy(&d.contacts, &self.settings)
            }
            _ => self.stepper.contact_energy(
                &detect_contacts(&self.system, &self.system.q, self.settings.margin),
                &self.settings,
            ),
        };
        [
            self.system.kinetic_energy(&self.system.v),
            self.system.potential_energy(&self.system.q),
            contact_energy,
        ]
    }

    /// The acceleration-level contact LCP (W, b) over the contacts that are closed now
    /// (|d| ≤ 1e-9 m, |ḋ| ≤ 1e-9 m/s), in the order of [`Simulation::closed_contact_ids`].
    pub fn acceleration_lcp(&self) -> Result<Lcp> {
        let contacts = self.closed_contacts();
        let refs: Vec<&Contact> = contacts.iter().collect();
        let f = self
            .system
            .generalized_forces(&self.system.q, &self.system.v, self.system.t);
        let free = self.system.mass().apply_inverse(&f);
        Ok(acceleration_lcp(&self.system, &refs, &free, None)?.0)
    }

    /// Ids of the contacts [`Simulation::acceleration_lcp`] is written over.
    pub fn closed_contact_ids(&self) -> Vec<String> {
        self.closed_contacts()
            .iter()
            .map(|c| self.contact_id(c.key))
            .collect()
    }

    fn closed_contacts(&self) -> Vec<Contact> {
        detect_contacts(&self.system, &self.system.q, self.settings.margin)
            .into_iter()
            .filter(|c| c.gap.abs() <= 1e-9 && c.gap_rate(&self.system.v).abs() <= 1e-9)
            .collect()
    }

    /// Contacts compressed now (d < 0): the ones a penalty law loads.
    pub fn compressed_contacts(&self) -> Vec<Contact> {
        detect_contacts(&self.system, &self.system.q, self.settings.margin)
            .into_iter()
            .filter(|c| !c.bilateral && c.gap < 0.0)
            .collect()
    }

    /// Coupled penalty-contact modes of the compressed contacts at the current state (kept
    /// until the positions, the system or its loads change).
    pub fn modes(&self) -> ModalAnalysis {
        if let Some(analysis) = self.cached_modes() {
            return analysis;
        }
        let contacts = self.compressed_contacts();
        let refs: Vec<&Contact> = contacts.iter().collect();
        self.analyse_modes(&refs)
    }

    /// What the modes are cached under: the generation, q and the sleeping bodies (they
    /// leave the structure's tangent).
    fn modes_key(&self) -> Vec<u64> {
        (self.system.q.iter().map(|x| x.to_bits()))
            .chain(self.system.asleep.iter().map(|&a| u64::from(a)))
            .collect()
    }

    /// The cached modes when they are for the state now.
    fn cached_modes(&self) -> Option<ModalAnalysis> {
        let cache = self.modes.0.lock().unwrap_or_else(|e| e.into_inner());
        match cache.as_ref() {
            Some((generation, at, analysis))
                if *generation == self.generation && *at == self.modes_key() =>
            {
                Some(analysis.clone())
            }
            _ => None,
        }
    }

    /// The modes of the compressed contacts `refs` now, kept in the cache.
    fn analyse_modes(&self, refs: &[&Contact]) -> ModalAnalysis {
        let k = vec![self.settings.material.stiffness; refs.len()];
        let analysis = modes::analyse(&self.system, refs, &k);
        let mut cache = self.modes.0.lock().unwrap_or_else(|e| e.into_inner());
        *cache = Some((self.generation, self.modes_key(), analysis.clone()));
        analysis
    }

    /// Largest stable h of the current stepper for the compressed contacts now (with the
    /// material's stiffness and damping), s; None when the stepper has no such limit.
    pub fn time_step_limit(&self) -> Option<f64> {
        let m = &self.settings.material;
        modes::time_step_limit(
            self.stepper_name(),
            &self.modes().omega,
            m.stiffness,
            m.damping,
        )
    }

    /// An upper bound on ω_max of the compressed contacts now (with the beams' own), rad/s,
    /// at any size and in O(contacts) ([`crate::frequency_bound`]): what a system too large
    /// for its modes ([`Self::modes_sampled`]) is checked against; 0 with nothing compressed.
    pub fn omega_max_bound(&self) -> f64 {
        let contacts = self.compressed_contacts();
        let refs: Vec<&Contact> = contacts.iter().collect();
        let k = vec![self.settings.material.stiffness; refs.len()];
        crate::frequency_bound::omega_max_bound(&self.system, &refs, &k)
    }

    /// A step the current stepper is sure to be stable at for the compressed contacts now:
    /// the limit of a mode at [`Self::omega_max_bound`] (the limit falls as ω grows, so it is
    /// below every mode's), s; None when the stepper has no such limit or nothing oscillates.
    pub fn time_step_limit_bound(&self) -> Option<f64> {
        let bound = self.omega_max_bound();
        if bound == 0.0 {
            return None;
        }
        let m = &self.settings.material;
        modes::time_step_limit(self.stepper_name(), &[bound], m.stiffness, m.damping)
    }

    /// The modes with the energy in each, J.
    pub fn modes_with_energy(&self) -> (ModalAnalysis, Vec<f64>) {
        let contacts = self.compressed_contacts();
        let refs: Vec<&Contact> = contacts.iter().collect();
        let k = vec![self.settings.material.stiffness; refs.len()];
        // The contacts are found once, for the modes (unless cached) and their energies.
        let analysis = self
            .cached_modes()
            .unwrap_or_else(|| self.analyse_modes(&refs));
        let energy = modes::modal_energies(&self.system, &refs, &k, &analysis);
        (analysis, energy)
    }

    /// Restarts from the scene's initial state.
    pub fn reset(&mut self) -> Result<()> {
        let (system, settings, _) = self.scene.build()?;
        let sleep_thresholds = self.scene.stepper.sleep_thresholds()?;
        self.detected = None;
        self.generation += 1;
        self.acceleration = DVector::zeros(system.dofs());
        self.digest = DIGEST_SEED;
        self.system = system;
        self.settings = settings;
        self.stepper = self.kind.build();
        self.last = StepReport::default();
        self.steps = 0;
        self.unconverged = (0, 0.0);
        self.deepest_gap = f64::INFINITY;
        self.events = crate::events::Events::new();
        self.sleep = Sleep::new(
            self.scene.stepper.sleep,
            self.system.bodies.len(),
            sleep_thresholds,
        );
        self.timeline.clear();
        self.start = self.settings_now();
        Ok(())
    }

    /// Changes a preset parameter; the state (q, v, t) is kept when the body layout allows.
    pub fn set_parameter(&mut self, name: &str, value: f64) -> Result<()> {
        let Some((preset, overrides)) = &self.preset else {
            return Err(Error::field(
                name,
                "this simulation comes from a scene file, which has no parameters",
            ));
        };
        let preset = *preset;
        let mut next = overrides.clone();
        next.retain(|(n, _)| n != name);
        next.push((name.to_string(), value));
        let values = preset.values(&next)?;
        let scene = preset.scene(&values)?;
        let (mut system, settings, kind) = scene.build()?;
        check_initial_overlap(&scene, &system)?;
        // Everything that can fail comes first: after it, nothing is lost.
        let sleep_thresholds = scene.stepper.sleep_thresholds()?;
        let kind = if kind.name() != self.kind.name() {
            // Keep the user's stepper choice, with the new scene's settings for it.
            let mut spec = scene.stepper.clone();
            spec.kind = self.kind.name().into();
            spec.to_kind()?
        } else {
            kind
        };
        self.kind = kind;
        self.count_contacts = contact_capacity(&system) > limits::ISLAND_CONTACTS;
        if system.q.len() == self.system.q.len() {
            system.q = self.system.q.clone();
            system.v = self.system.v.clone();
            system.t = self.system.t;
        }
        system.pushes = std::mem::take(&mut self.system.pushes);
        if system.dofs() != self.acceleration.len() {
            self.acceleration = DVector::zeros(system.dofs());
        }
        self.sleep = Sleep::new(scene.stepper.sleep, system.bodies.len(), sleep_thresholds);
        self.scene = scene;
        self.system = system;
        self.settings = settings;
        self.detected = None;
        self.generation += 1;
        self.stepper = self.kind.build();
        self.preset = Some((preset, next));
        self.note(Change::Parameter(name.to_string(), value));
        Ok(())
    }

    /// The preset's suggested plots (`Y~X` quantity names), a beam's `{tip}`, `{last}` and
    /// `{half}` (its middle node's number) filled in.
    pub fn suggested_plots(&self) -> Vec<String> {
        let elements = self
            .system
            .bodies
            .iter()
            .find_map(|b| match &b.kind {
                crate::model::BodyKind::Beam(beam) => Some(beam.nodes() - 1),
                crate::model::BodyKind::SpatialBeam(beam) => Some(beam.nodes() - 1),
                _ => None,
            })
            .unwrap_or_default();
        let (last, half) = (elements.to_string(), (elements / 2).to_string());
        let tip = format!("n{last}");
        self.preset()
            .map(|p| crate::presets::suggested_plots(p.name))
            .unwrap_or_default()
            .iter()
            .map(|s| {
                s.replace("{tip}", &tip)
                    .replace("{last}", &last)
                    .replace("{half}", &half)
            })
            .collect()
    }

    /// Every stepper as offered for this scene: available or not, and what it leaves out.
    pub fn steppers_for(&self) -> Vec<crate::integrators::StepperOffer> {
        let mut offers = crate::integrators::offers(&self.settings.material, self.system.held_by());
        // Moreau–Jean and the explicit penalty stepper take a beam's elastic forces
        // explicitly: not at a step above its limit. NSGA takes them at the end of the step,
        // and so does the implicit penalty stepper unless the beam has joints or springs.
        let implicit_penalty = self.system.beams_implicit_under_penalty();
        if let Some(limit) = self.system.explicit_step_limit()
            && self.time_step() > limit
        {
            for offer in offers.iter_mut().filter(|o| {
                o.available
                    && o.name != "nsga"
                    && !(o.name == "penalty-implicit" && implicit_penalty)
            }) {
                offer.available = false;
                offer.note = format!(
                    "explicit in the beam's elastic forces: needs dt below 2/ω_max = {limit:.2e} s (dt is {:.2e} s)",
                    self.time_step()
                );
            }
        }
        offers
    }

    /// Switches to the stepper called `name` (its default settings, the scene's solver).
    pub fn set_stepper(&mut self, name: &str) -> Result<()> {
        if let Some(what) = self.system.held_by()
            && !crate::integrators::takes(name, Some(what))
        {
            return Err(Error::field(
                "stepper",
                format!("this scene has {what}, which {name} does not take yet"),
            ));
        }
        let mut spec = self.scene.stepper.clone();
        spec.kind = name.to_string();
        self.kind = spec.to_kind().map_err(|e| match e {
            Error::InvalidField { reason, .. } => Error::field("stepper", reason),
            other => other,
        })?;
        self.scene.stepper.kind = name.to_string();
        self.stepper = self.kind.build();
        self.note(Change::Stepper(name.to_string()));
        Ok(())
    }

    /// Sets the LCP solver (`lemke` or `pgs`) and the PGS cap and tolerance.
    pub fn set_lcp_solver(
        &mut self,
        name: &str,
        max_iterations: u64,
        tolerance: f64,
    ) -> Result<()> {
        let mut spec = self.scene.stepper.clone();
        spec.solver = crate::lcp::LcpSolverKind::parse(name)?;
        spec.pgs_max_iterations = max_iterations;
        spec.pgs_tolerance = tolerance;
        self.kind = spec.to_kind()?;
        self.scene.stepper = spec;
        self.stepper = self.kind.build();
        self.note(Change::Solver {
            name: name.to_string(),
            max_iterations,
            tolerance,
        });
        Ok(())
    }

    /// Sets the time step h, s (1e-7 ≤ h ≤ 0.1).
    pub fn set_time_step(&mut self, h: f64) -> Result<()> {
        self.dt = check_range("dt", h, 1e-7, 0.1)?;
        self.note(Change::TimeStep(h));
        Ok(())
    }

    /// Sets a constant push (force through the centre, N, and torque, N·m) on a moving body,
    /// replacing any earlier push on it; a zero push removes it.
    pub fn set_push(&mut self, body: &str, force: [f64; 2], torque: f64) -> Result<()> {
        check_each("push.force", &force, -PUSH_LIMIT, PUSH_LIMIT)?;
        check_range("push.torque", torque, -PUSH_LIMIT, PUSH_LIMIT)?;
        let law = ForceLaw::Constant {
            force: glam::DVec2::from(force).extend(0.0),
            torque: glam::DVec3::new(0.0, 0.0, torque),
        };
        let change = Change::Push {
            body: body.to_string(),
            force,
            torque,
        };
        self.push(body, law, change)
    }

    /// Sets a constant push in space (force through the centre, N, along x, y, z) on a moving
    /// body, replacing any earlier push on it; a zero push removes it.
    pub fn set_push3(&mut self, body: &str, force: [f64; 3]) -> Result<()> {
        check_each("push.force", &force, -PUSH_LIMIT, PUSH_LIMIT)?;
        let law = ForceLaw::Constant {
            force: glam::DVec3::from(force),
            torque: glam::DVec3::ZERO,
        };
        let change = Change::Push3 {
            body: body.to_string(),
            force,
        };
        self.push(body, law, change)
    }

    /// Puts `law` on `body` as its push (a zero one removes it) and notes `change`.
    fn push(&mut self, body: &str, law: ForceLaw, change: Change) -> Result<()> {
        let index = self.system.body_index(body).ok_or_else(|| {
            let names: Vec<&str> = self.system.bodies.iter().map(|b| b.name.as_str()).collect();
            Error::unknown("body", body, &names)
        })?;
        if self.system.bodies[index].is_fixed() {
            return Err(Error::field("push.body", format!("'{body}' is fixed")));
        }
        let zero = matches!(law, ForceLaw::Constant { force, torque } if force == glam::DVec3::ZERO && torque == glam::DVec3::ZERO);
        let pushes = &mut self.system.pushes;
        let unchanged = match pushes.iter().find(|p| p.body == index) {
            Some(p) => p.law == law,
            None => zero,
        };
        if unchanged {
            return Ok(()); // nothing changes, nothing to record
        }
        pushes.retain(|p| p.body != index);
        if !zero {
            pushes.push(AppliedForce { body: index, law });
        }
        // A push moves what it touches: everything wakes (contacts must be found again).
        if self.sleep.wake_all(&mut self.system) {
            self.stepper.wake();
            self.detected = None;
            self.generation += 1;
        }
        self.note(change);
        Ok(())
    }
}
