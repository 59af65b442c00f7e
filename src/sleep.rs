//! Sleeping: an island of bodies at rest stops being integrated and solved until a moving body comes within the contact margin of it.
//!
//! With `stepper.sleep` on, after every step each moving body's speed |v| + |ω| r (r its
//! bounding radius) is compared with a threshold ([`SLEEP_SPEED`] unless the scene sets
//! `stepper.sleep_speed`); a body below it for a time ([`SLEEP_TIME`], `stepper.sleep_time`)
//! is at rest. (Rapier's defaults are far looser, 0.4 m/s and 0.5 rad/s for 2 s: a sphere
//! rolling at 5 mm/s on the floor of a pile sleeps there and stops, where here it rolls on,
//! as the laws say it should, unless the scene asks for a looser threshold.) The bodies
//! linked by contacts (within the margin) form islands, and an island whose bodies are all
//! at rest falls asleep together: velocities set to zero, no forces, positions held bit for
//! bit, no contact looked for between two sleeping (or fixed) bodies, and the stepper's own
//! state for them cleared ([`Stepper::freeze`]; it is told when they wake,
//! [`Stepper::wake`]). Before every step, a sleeping island within the margin of an awake
//! moving body wakes whole; a sleeping body that was given a velocity anyway (a contact
//! found only at a stepper's predicted positions) wakes after the step. Everything is decided in body order from the
//! state alone, so a run with sleeping is as deterministic as one without; a scene with
//! applied loads or pushes never sleeps.
//!
//! [`Stepper::freeze`]: crate::integrators::Stepper::freeze
//! [`Stepper::wake`]: crate::integrators::Stepper::wake

use crate::contact::Contact;
use crate::integrators::Stepper;
use crate::model::System;

/// Speed below which a body counts as at rest, m/s (|v| + |ω| r): the default of
/// `stepper.sleep_speed`.
pub const SLEEP_SPEED: f64 = 1e-3;
/// Time a body must stay at rest before its island may sleep, s: the default of
/// `stepper.sleep_time`.
pub const SLEEP_TIME: f64 = 0.5;

/// When a body counts as at rest, and for how long it must be before its island sleeps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SleepThresholds {
    /// Speed |v| + |ω| r below which a body is at rest, m/s.
    pub speed: f64,
    /// Time at rest before the island may sleep, s.
    pub time: f64,
}

impl Default for SleepThresholds {
    fn default() -> Self {
        Self {
            speed: SLEEP_SPEED,
            time: SLEEP_TIME,
        }
    }
}

/// No sleeping group.
const NONE: usize = usize::MAX;

/// The sleeping state of a run.
#[derive(Debug, Clone, Default)]
pub struct Sleep {
    enabled: bool,
    thresholds: SleepThresholds,
    /// Per body: seconds spent at rest.
    rest: Vec<f64>,
    /// Per body: the sleeping island it belongs to ([`NONE`] when awake).
    group: Vec<usize>,
    next_group: usize,
}

impl Sleep {
    /// Sleeping on or off for a system of `bodies` bodies, with the given thresholds.
    pub fn new(enabled: bool, bodies: usize, thresholds: SleepThresholds) -> Self {
        Self {
            enabled,
            thresholds,
            rest: vec![0.0; bodies],
            group: vec![NONE; bodies],
            next_group: 0,
        }
    }

    /// True when sleeping is switched on.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Number of sleeping bodies.
    pub fn sleeping(system: &System) -> usize {
        system.asleep.iter().filter(|a| **a).count()
    }

    fn wake_group(&mut self, system: &mut System, group: usize) {
        for i in 0..self.group.len() {
            if self.group[i] == group {
                self.group[i] = NONE;
                self.rest[i] = 0.0;
                system.asleep[i] = false;
            }
        }
    }

    /// Wakes every sleeping body; true if there was one.
    pub fn wake_all(&mut self, system: &mut System) -> bool {
        let any = system.asleep.iter().any(|a| *a);
        system.asleep.iter_mut().for_each(|a| *a = false);
        self.group.iter_mut().for_each(|g| *g = NONE);
        self.rest.iter_mut().for_each(|r| *r = 0.0);
        any
    }

    /// Before a step: wakes each sleeping island that an awake moving body is within the
    /// margin of (`contacts` are those detected at the current positions). True if any woke:
    /// the contacts must then be detected again.
    pub fn wake_touched(&mut self, system: &mut System, contacts: &[Contact]) -> bool {
        if !system.asleep.iter().any(|a| *a) {
            return false;
        }
        let mut woke = false;
        for c in contacts {
            let (a, b) = (c.key.first, c.key.second);
            for (sleeper, other) in [(a, b), (b, a)] {
                let awake_moving = !system.bodies[other].is_fixed() && !system.asleep[other];
                if system.asleep[sleeper] && awake_moving {
                    let g = self.group[sleeper];
                    self.wake_group(system, g);
                    woke = true;
                }
            }
        }
        woke
    }

    /// After a step of `h` seconds ending with `contacts`: wakes sleeping bodies that were set
    /// moving, counts rest, and puts islands at rest to sleep. True if any body fell asleep
    /// or woke (the contacts handed to the next step must then be detected again).
    pub fn update(
        &mut self,
        system: &mut System,
        contacts: &[Contact],
        h: f64,
        stepper: &mut dyn Stepper,
    ) -> bool {
        if !self.enabled {
            return false;
        }
        if !system.forces.is_empty() || !system.pushes.is_empty() {
            let woke = self.wake_all(system);
            if woke {
                stepper.wake();
            }
            return woke;
        }
        let n = system.bodies.len();
        let mut changed = false;
        // Sleeping bodies set moving wake (with their island).
        for i in 0..n {
            let b = &system.bodies[i];
            if system.asleep[i] && b.v_of(&system.v).iter().any(|x| *x != 0.0) {
                let g = self.group[i];
                self.wake_group(system, g);
                changed = true;
            }
        }
        if changed {
            stepper.wake();
        }
        // Rest time of the awake moving bodies.
        for i in 0..n {
            let b = &system.bodies[i];
            if b.is_fixed() || system.asleep[i] {
                continue;
            }
            let (v, w) = b.twist3(&system.v);
            let speed = v.length() + w.length() * b.shape.bounding_radius();
            self.rest[i] = if speed < self.thresholds.speed {
                self.rest[i] + h
            } else {
                0.0
            };
        }
        // Islands of moving bodies linked by contacts (sleeping ones included, so an island
        // that touches a sleeping one joins its group).
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        for c in contacts {
            let (a, b) = (c.key.first, c.key.second);
            if system.bodies[a].is_fixed() || system.bodies[b].is_fixed() {
                continue;
            }
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            if ra != rb {
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
        // An island sleeps when every awake member has rested long enough.
        let mut ready = vec![true; n];
        let mut has_awake = vec![false; n];
        for i in 0..n {
            if system.bodies[i].is_fixed() {
                continue;
            }
            let r = root(&mut parent, i);
            if !system.asleep[i] {
                has_awake[r] = true;
                ready[r] &= self.rest[i] >= self.thresholds.time;
            }
        }
        let mut new_group = vec![NONE; n];
        let mut frozen = Vec::new();
        for i in 0..n {
            if system.bodies[i].is_fixed() {
                continue;
            }
            let r = root(&mut parent, i);
            if !(has_awake[r] && ready[r]) {
                continue;
            }
            if new_group[r] == NONE {
                new_group[r] = self.next_group;
                self.next_group += 1;
            }
            let old = self.group[i];
            if system.asleep[i] && old != NONE && old != new_group[r] {
                // A sleeping island this one touches joins the new group.
                for g in self.group.iter_mut().filter(|g| **g == old) {
                    *g = new_group[r];
                }
            }
            self.group[i] = new_group[r];
            if !system.asleep[i] {
                system.asleep[i] = true;
                let b = &system.bodies[i];
                let range = b.v_offset..b.v_offset + b.dofs();
                system.v.as_mut_slice()[range.clone()].fill(0.0);
                frozen.push(range);
                changed = true;
            }
        }
        if !frozen.is_empty() {
            stepper.freeze(&frozen);
        }
        changed
    }
}
