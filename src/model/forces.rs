//! Applied loads other than gravity: constant pulls, pulls that ramp in time, user pushes.

use glam::DVec2;
use nalgebra::DVector;

use super::System;

/// How an applied load depends on time.
#[derive(Debug, Clone, PartialEq)]
pub enum ForceLaw {
    /// F and τ constant in time.
    Constant {
        /// Force through the centre of mass, N.
        force: DVec2,
        /// Torque, N·m.
        torque: f64,
    },
    /// F(t) = rate · max(0, t − start), capped in magnitude at `max` (the load-cell pull).
    Ramp {
        /// Rate of increase, N/s.
        rate: DVec2,
        /// Time the ramp begins, s.
        start: f64,
        /// Largest magnitude reached, N.
        max: f64,
    },
}

/// A load on one body.
#[derive(Debug, Clone, PartialEq)]
pub struct AppliedForce {
    /// Index of the body it acts on.
    pub body: usize,
    /// Its time law.
    pub law: ForceLaw,
}

impl AppliedForce {
    /// Force (N) and torque (N·m) at time `t`.
    pub fn value(&self, t: f64) -> (DVec2, f64) {
        match self.law {
            ForceLaw::Constant { force, torque } => (force, torque),
            ForceLaw::Ramp { rate, start, max } => {
                let f = rate * (t - start).max(0.0);
                let len = f.length();
                if len > max && len > 0.0 {
                    (f * (max / len), 0.0)
                } else {
                    (f, 0.0)
                }
            }
        }
    }

    /// Adds this load's generalized force to `f`.
    pub fn add_to(
        &self,
        system: &System,
        _q: &DVector<f64>,
        _v: &DVector<f64>,
        t: f64,
        f: &mut DVector<f64>,
    ) {
        let body = &system.bodies[self.body];
        if body.is_fixed() {
            return;
        }
        let (force, torque) = self.value(t);
        let o = body.dof_offset;
        f[o] += force.x;
        f[o + 1] += force.y;
        f[o + 2] += torque;
    }
}
