//! Applied loads other than gravity: constant pulls, pulls that ramp in time, user pushes.

use glam::DVec3;
use nalgebra::DVector;

use super::System;
use crate::contact::RowEntries;

/// How an applied load depends on time.
#[derive(Debug, Clone, PartialEq)]
pub enum ForceLaw {
    /// F and τ constant in time.
    Constant {
        /// Force through the centre of mass, N (planar bodies use x and y).
        force: DVec3,
        /// Torque, N·m (planar bodies use z).
        torque: DVec3,
    },
    /// A linear spring-damper from the centre to a fixed anchor: F = −k (x − anchor) − c v.
    Spring {
        /// Anchor point, m.
        anchor: DVec3,
        /// Stiffness k, N/m.
        stiffness: f64,
        /// Damping c, N·s/m.
        damping: f64,
    },
    /// F(t) = rate · max(0, t − start), capped in magnitude at `max` (the load-cell pull).
    Ramp {
        /// Rate of increase, N/s.
        rate: DVec3,
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
    /// Force (N) and torque (N·m) at time `t` on a centre at `x` moving at `u`.
    pub fn value(&self, t: f64, x: DVec3, u: DVec3) -> (DVec3, DVec3) {
        match self.law {
            ForceLaw::Constant { force, torque } => (force, torque),
            ForceLaw::Spring {
                anchor,
                stiffness,
                damping,
            } => (-(x - anchor) * stiffness - u * damping, DVec3::ZERO),
            ForceLaw::Ramp { rate, start, max } => {
                let f = rate * (t - start).max(0.0);
                let len = f.length();
                if len > max && len > 0.0 {
                    (f * (max / len), DVec3::ZERO)
                } else {
                    (f, DVec3::ZERO)
                }
            }
        }
    }

    /// True when the load does not depend on positions or velocities (a spring does).
    pub fn is_constant_in_state(&self) -> bool {
        !matches!(self.law, ForceLaw::Spring { .. })
    }

    /// Adds this load's generalized force to `f`.
    pub fn add_to(
        &self,
        system: &System,
        q: &DVector<f64>,
        v: &DVector<f64>,
        t: f64,
        f: &mut DVector<f64>,
    ) {
        let body = &system.bodies[self.body];
        let (force, torque) = self.value(t, body.position3(q), body.twist3(v).0);
        // A force through the origin and a torque: the body's point Jacobian transposed.
        let mut entries = RowEntries::new();
        body.model().jacobian(force, torque, &mut entries);
        for (k, x) in entries {
            f[body.v_offset + k] += x;
        }
    }
}
