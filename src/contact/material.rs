//! Contact material: friction, restitution and the penalty law's stiffness and damping.

use serde::{Deserialize, Serialize};

use crate::error::{Result, check_range};

/// Material parameters of a contact (scene-wide in this version).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ContactMaterial {
    /// Coulomb friction coefficient μ (dimensionless, ≥ 0).
    pub friction: f64,
    /// Newton's coefficient of restitution e ∈ [0, 1]: ḋ⁺ = −e ḋ⁻.
    pub restitution: f64,
    /// Penalty stiffness k, N/m (penalty steppers only).
    pub stiffness: f64,
    /// Penalty damping c, N·s/m (penalty steppers only).
    pub damping: f64,
    /// Rolling resistance length ρ, m: the rolling torque is bounded by ρ N (spheres).
    pub rolling_resistance: f64,
    /// Spinning resistance length γ, m: the torque about the normal is bounded by γ N (spheres).
    pub spinning_resistance: f64,
    /// Penalty steppers: the slip speed v_ε below which their regularised Coulomb friction
    /// is viscous, F_T = −μN u_T / max(|u_T|, v_ε), m/s.
    pub slip_regularization: f64,
}

impl Default for ContactMaterial {
    fn default() -> Self {
        Self {
            friction: 0.0,
            restitution: 0.0,
            stiffness: 1e5,
            damping: 0.0,
            rolling_resistance: 0.0,
            spinning_resistance: 0.0,
            slip_regularization: 1e-2,
        }
    }
}

impl ContactMaterial {
    /// Checks every field; the error names it (prefixed by `path`) and the allowed range.
    pub fn validate(&self, path: &str) -> Result<()> {
        check_range(&format!("{path}.friction"), self.friction, 0.0, 100.0)?;
        check_range(&format!("{path}.restitution"), self.restitution, 0.0, 1.0)?;
        check_range(&format!("{path}.stiffness"), self.stiffness, 1e-3, 1e12)?;
        check_range(&format!("{path}.damping"), self.damping, 0.0, 1e9)?;
        check_range(
            &format!("{path}.rolling_resistance"),
            self.rolling_resistance,
            0.0,
            10.0,
        )?;
        check_range(
            &format!("{path}.spinning_resistance"),
            self.spinning_resistance,
            0.0,
            10.0,
        )?;
        check_range(
            &format!("{path}.slip_regularization"),
            self.slip_regularization,
            1e-6,
            10.0,
        )?;
        Ok(())
    }
}
