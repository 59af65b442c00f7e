//! The changes made to a running simulation, by step number, so a shared link replays a run exactly.
//!
//! A run is reproducible to the bit from its start (scene, parameters, stepper, h) and the
//! changes made while it ran: a parameter moved, the stepper or h switched, a body pushed or
//! dragged. Each change is recorded with the number of steps taken before it, and written as
//!
//! ```text
//!     STEP:stepper:NAME ; STEP:dt:H ; STEP:param:NAME=VALUE ; STEP:push:BODY,FX,FY,TORQUE ;
//!     STEP:solver:NAME,MAX_ITERATIONS,TOLERANCE
//! ```
//!
//! joined by `;`, with numbers in Rust's shortest round-trip form (so they read back to the
//! same bits). Replaying applies each change after the same number of steps. At most
//! [`MAX_CHANGES`] are kept; a run with more is marked inexact rather than replayed wrongly.

use crate::error::{Error, Result};

/// Most changes a timeline keeps (a minute of dragging at 60 frames a second is 3,600).
pub const MAX_CHANGES: usize = 10_000;

/// One change to a running simulation.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// The stepper switched to this name.
    Stepper(String),
    /// The time step changed to h, s.
    TimeStep(f64),
    /// A preset parameter changed.
    Parameter(String, f64),
    /// A push on a body: force (N) through its centre and torque (N·m); zeros remove it.
    Push {
        /// Body name.
        body: String,
        /// Force, N.
        force: [f64; 2],
        /// Torque, N·m.
        torque: f64,
    },
    /// A push in space on a body: force (N) through its centre; zeros remove it.
    Push3 {
        /// Body name.
        body: String,
        /// Force along x, y, z, N.
        force: [f64; 3],
    },
    /// The LCP solver and its PGS settings changed.
    Solver {
        /// `lemke` or `pgs`.
        name: String,
        /// PGS sweep cap.
        max_iterations: u64,
        /// PGS tolerance.
        tolerance: f64,
    },
}

impl Change {
    fn encode(&self) -> String {
        match self {
            Change::Stepper(name) => format!("stepper:{name}"),
            Change::TimeStep(h) => format!("dt:{h}"),
            Change::Parameter(name, value) => format!("param:{name}={value}"),
            Change::Push {
                body,
                force,
                torque,
            } => format!("push:{body},{},{},{torque}", force[0], force[1]),
            Change::Push3 { body, force } => {
                format!("push3:{body},{},{},{}", force[0], force[1], force[2])
            }
            Change::Solver {
                name,
                max_iterations,
                tolerance,
            } => format!("solver:{name},{max_iterations},{tolerance}"),
        }
    }

    fn decode(kind: &str, args: &str) -> Option<Change> {
        let number = |t: &str| t.trim().parse::<f64>().ok().filter(|x| x.is_finite());
        match kind {
            "stepper" if !args.is_empty() => Some(Change::Stepper(args.to_string())),
            "dt" => number(args).map(Change::TimeStep),
            "param" => {
                let (name, value) = args.split_once('=')?;
                Some(Change::Parameter(name.to_string(), number(value)?))
            }
            "push" => {
                let parts: Vec<&str> = args.rsplitn(4, ',').collect();
                let [torque, fy, fx, body] = parts.as_slice() else {
                    return None;
                };
                Some(Change::Push {
                    body: body.to_string(),
                    force: [number(fx)?, number(fy)?],
                    torque: number(torque)?,
                })
            }
            "push3" => {
                let parts: Vec<&str> = args.rsplitn(4, ',').collect();
                let [fz, fy, fx, body] = parts.as_slice() else {
                    return None;
                };
                Some(Change::Push3 {
                    body: body.to_string(),
                    force: [number(fx)?, number(fy)?, number(fz)?],
                })
            }
            "solver" => {
                let parts: Vec<&str> = args.split(',').collect();
                let [name, cap, tolerance] = parts.as_slice() else {
                    return None;
                };
                Some(Change::Solver {
                    name: name.to_string(),
                    max_iterations: cap.trim().parse().ok()?,
                    tolerance: number(tolerance)?,
                })
            }
            _ => None,
        }
    }
}

/// The changes of a run, and those still to apply when replaying one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timeline {
    recorded: Vec<(u64, Change)>,
    overflowed: bool,
    pending: std::collections::VecDeque<(u64, Change)>,
}

impl Timeline {
    /// Records a change made after `step` steps (dropped, and the timeline marked inexact,
    /// beyond [`MAX_CHANGES`]).
    pub fn record(&mut self, step: u64, change: Change) {
        if self.recorded.len() >= MAX_CHANGES {
            self.overflowed = true;
        } else {
            self.recorded.push((step, change));
        }
    }

    /// Forgets everything (a reset: the run starts again from the current settings).
    pub fn clear(&mut self) {
        *self = Timeline::default();
    }

    /// True when every change of the run is recorded (a replay reproduces it to the bit).
    pub fn is_exact(&self) -> bool {
        !self.overflowed
    }

    /// The recorded changes as text (empty for a run without changes).
    pub fn encode(&self) -> String {
        self.recorded
            .iter()
            .map(|(step, change)| format!("{step}:{}", change.encode()))
            .collect::<Vec<_>>()
            .join(";")
    }

    /// Parses a timeline to replay; the error names the entry that is not a change.
    pub fn parse(text: &str) -> Result<Vec<(u64, Change)>> {
        let mut out: Vec<(u64, Change)> = Vec::new();
        for (k, entry) in text.split(';').filter(|e| !e.trim().is_empty()).enumerate() {
            let bad = || {
                Error::field(
                    format!("timeline[{k}]"),
                    format!(
                        "'{entry}' is not STEP:stepper|dt|param|push|solver:VALUE (see docs/api.md)"
                    ),
                )
            };
            let (step, rest) = entry.split_once(':').ok_or_else(bad)?;
            let (kind, args) = rest.split_once(':').ok_or_else(bad)?;
            let step: u64 = step.trim().parse().map_err(|_| bad())?;
            if out.last().is_some_and(|(previous, _)| *previous > step) {
                return Err(Error::field(
                    format!("timeline[{k}]"),
                    "steps must not decrease along the timeline",
                ));
            }
            out.push((step, Change::decode(kind.trim(), args).ok_or_else(bad)?));
            if out.len() > MAX_CHANGES {
                return Err(Error::field(
                    "timeline",
                    format!("has more than {MAX_CHANGES} changes"),
                ));
            }
        }
        Ok(out)
    }

    /// Queues parsed changes to apply as the run reaches their steps.
    pub fn replay(&mut self, changes: Vec<(u64, Change)>) {
        self.pending = changes.into();
    }

    /// The next queued change due after `step` steps, if any.
    pub fn due(&mut self, step: u64) -> Option<Change> {
        match self.pending.front() {
            Some((at, _)) if *at <= step => self.pending.pop_front().map(|(_, c)| c),
            _ => None,
        }
    }

    /// Changes still waiting to be replayed.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }
}
