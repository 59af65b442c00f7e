//! Events of a run measured as they happen (first impact, last impact, first lift-off, end of slip, stop), for the theory panel beside the closed forms.
//!
//! Each event is recorded at the end time of the step in which it is first seen, so a
//! measured time lies within one step h after the true one: a test or the page compares
//! with the closed form to h.

use crate::integrators::{ContactState, StepReport};
use crate::model::System;

/// Speeds below this count as stopped (m/s, rad/s): the set-valued laws stop a body exactly.
const STOPPED: f64 = 1e-9;

/// What happened so far in a run (since creation or the last reset).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Events {
    /// The first step with an impact impulse, s.
    pub first_impact: Option<f64>,
    /// Body velocities (linear, world axes) at the end of that step, m/s.
    pub first_impact_velocities: Vec<[f64; 3]>,
    /// The latest step with an impact impulse, s.
    pub last_impact: Option<f64>,
    /// Steps since the latest impact.
    pub steps_since_impact: u64,
    /// The first step in which a contact that carried load carries none, s.
    pub first_liftoff: Option<f64>,
    /// Body positions at the end of that step (x, y, z each), for angles at lift-off.
    pub liftoff_positions: Vec<[f64; 3]>,
    /// The first step at whose end no contact slips after one did, s.
    pub slip_end: Option<f64>,
    /// The first step at whose end every moving body is at rest after moving, s.
    pub stop: Option<f64>,
    /// Turning points of the first moving planar body's rotation: times at which its angular
    /// velocity changes sign, interpolated linearly within the step, s (the first
    /// [`MAX_TURNS`]). A pendulum released at rest turns at T/2, T, 3T/2, …
    pub turns: Vec<f64>,
    /// The largest |g| of any joint equation at the end of any step so far, m.
    pub joint_violation: f64,
    /// The largest |ġ| of any joint equation at the end of any step so far, m/s.
    pub joint_rate: f64,
    /// The work done on the system by its driven joints, Σ τ Ω h over the steps, J (τ the
    /// step's mean drive torque on body A, Ω the prescribed θ̇_A − θ̇_B).
    pub drive_work: f64,
    /// The mechanical energy at the start of the first step, J (kept for systems with a
    /// driven joint, whose work it balances).
    pub start_energy: Option<f64>,
    /// The largest total contact force so far, N.
    pub peak_force: f64,
    /// (t, total contact force) from the step before the first loaded one to the end of
    /// that first pulse (the force back at zero), at most [`MAX_PULSE`] samples.
    first_pulse: Vec<(f64, f64)>,
    /// The first pulse has ended.
    pulse_over: bool,
    /// State of the previous step: a contact was loaded, a contact slipped, a body moved.
    was_loaded: Vec<crate::contact::ContactKey>,
    /// The contacts carrying load this step, sorted (kept for its storage).
    carrying: Vec<crate::contact::ContactKey>,
    was_slipping: bool,
    was_moving: bool,
    /// (t, ω) of the first moving planar body at the end of the previous step.
    last_spin: Option<(f64, f64)>,
}

/// Most samples of the first force pulse kept.
pub const MAX_PULSE: usize = 100_000;

/// Most turning points kept.
pub const MAX_TURNS: usize = 16;

impl Events {
    /// Nothing measured yet, with room for every turning point (so that recording one
    /// within the step loop allocates nothing).
    pub fn new() -> Self {
        Self {
            turns: Vec::with_capacity(MAX_TURNS),
            ..Self::default()
        }
    }

    /// Takes in one step's report, the state it ended in, and its length `h`.
    pub fn record(&mut self, report: &StepReport, system: &System, h: f64) {
        let t = system.t;
        if report
            .contacts
            .iter()
            .any(|c| c.state == ContactState::Impact)
        {
            if self.first_impact.is_none() {
                self.first_impact = Some(t);
                self.first_impact_velocities = system
                    .bodies
                    .iter()
                    .map(|b| b.twist3(&system.v).0.to_array())
                    .collect();
            }
            self.last_impact = Some(t);
            self.steps_since_impact = 0;
        } else {
            self.steps_since_impact += 1;
        }
        // Lift-off: a contact loaded in the previous step carries no load now (N = 0: it
        // touches unloaded, has opened, or is gone).
        // (Only until the first lift-off: afterwards nothing here costs a step anything.)
        if self.first_liftoff.is_none() {
            let carrying = &mut self.carrying;
            carrying.clear();
            carrying.extend(
                report
                    .contacts
                    .iter()
                    .filter(|c| matches!(c.state, ContactState::Loaded | ContactState::Impact))
                    .map(|c| c.key),
            );
            carrying.sort_unstable();
            let lifted = self
                .was_loaded
                .iter()
                .any(|key| carrying.binary_search(key).is_err());
            if lifted {
                self.first_liftoff = Some(t);
                self.liftoff_positions = system
                    .bodies
                    .iter()
                    .map(|b| b.position3(&system.q).to_array())
                    .collect();
            }
        }
        if self.first_liftoff.is_none() {
            self.was_loaded.clear();
            self.was_loaded.extend(
                report
                    .contacts
                    .iter()
                    .filter(|c| c.state == ContactState::Loaded)
                    .map(|c| c.key),
            );
        }
        let slipping = report
            .contacts
            .iter()
            .any(|c| c.laws.as_ref().is_some_and(|l| l.case == "slip"));
        if self.was_slipping && !slipping {
            self.slip_end.get_or_insert(t);
        }
        self.was_slipping = slipping;
        let moving = system.bodies.iter().filter(|b| !b.is_fixed()).any(|b| {
            let (v, w) = b.twist3(&system.v);
            v.length() > STOPPED || w.length() > STOPPED
        });
        if self.was_moving && !moving {
            self.stop.get_or_insert(t);
        }
        self.was_moving = moving;
        for joint in &report.joints {
            // ∫ τ φ̇ dt with the step's mean torque and φ̇ at mid-step.
            if let Some(drive) = system.joints.get(joint.joint).and_then(|j| j.drive()) {
                self.drive_work += joint.torque * drive.at(t - 0.5 * h).1 * h;
            }
            for (g, rate) in joint.constraint.iter().zip(&joint.rate) {
                self.joint_violation = self.joint_violation.max(g.abs());
                self.joint_rate = self.joint_rate.max(rate.abs());
            }
        }
        self.record_turn(system);
        self.record_pulse(t, report.contacts.iter().map(|c| c.normal).sum());
    }

    /// Records the total contact force `force` at time `t` for the first pulse.
    fn record_pulse(&mut self, t: f64, force: f64) {
        self.peak_force = self.peak_force.max(force);
        if self.pulse_over {
            return;
        }
        let started = self.first_pulse.iter().any(|s| s.1 > 0.0);
        if !started && force <= 0.0 {
            // Keep only the last zero sample before the pulse.
            self.first_pulse.clear();
        }
        self.first_pulse.push((t, force));
        self.pulse_over = (started && force <= 0.0) || self.first_pulse.len() >= MAX_PULSE;
    }

    /// The first contact-force pulse: the times its total force rose through and fell
    /// back through half its peak, interpolated within the step, s. Its width is a contact
    /// duration (a rod on a wall: 2L/c) with the ramps at either end (a discrete wave
    /// front's) counted half. None until the pulse has risen and fallen.
    pub fn pulse(&self) -> Option<(f64, f64)> {
        let peak = self.first_pulse.iter().map(|s| s.1).fold(0.0f64, f64::max);
        let half = 0.5 * peak;
        let at = |a: (f64, f64), b: (f64, f64)| a.0 + (half - a.1) / (b.1 - a.1) * (b.0 - a.0);
        let pairs = || self.first_pulse.windows(2);
        let rise = pairs().find(|w| w[0].1 < half && w[1].1 >= half)?;
        let fall = pairs().rev().find(|w| w[0].1 >= half && w[1].1 < half)?;
        (half > 0.0).then(|| (at(rise[0], rise[1]), at(fall[0], fall[1])))
    }

    /// Notes a sign change of the first moving planar body's angular velocity, at the time
    /// where the straight line between the two step ends crosses zero.
    fn record_turn(&mut self, system: &System) {
        let Some(body) = system
            .bodies
            .iter()
            .find(|b| !b.is_fixed() && !b.is_spatial())
        else {
            return;
        };
        let (t, omega) = (system.t, body.twist(&system.v).1);
        if let Some((t0, w0)) = self.last_spin
            && self.turns.len() < MAX_TURNS
            && ((w0 < 0.0 && omega >= 0.0) || (w0 > 0.0 && omega <= 0.0))
        {
            self.turns.push(t0 + (t - t0) * w0 / (w0 - omega));
        }
        self.last_spin = Some((t, omega));
    }
}
