//! One view of every contact for the augmented-Lagrangian steppers: gap, rows and friction-type laws.
//!
//! A planar contact has one tangent row and no rolling or spinning rows; a sphere contact has
//! two tangents, two rolling rows and a spinning row. The steppers and the contact laws see
//! only this, so they work the same in the plane and in space.

use glam::DVec3;
use nalgebra::DVector;

use super::{ContactKey, JacobianRow, detect_contacts, spatial::detect_spatial_contacts};
use crate::model::System;

/// A contact as the contact laws see it.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactRows {
    /// Stable identity.
    pub key: ContactKey,
    /// Signed gap, m.
    pub gap: f64,
    /// Normal row J_N.
    pub normal: JacobianRow,
    /// Tangent rows (one in the plane, two in space).
    pub tangents: Vec<JacobianRow>,
    /// Rolling rows (two for spheres, none in the plane).
    pub rolling: Vec<JacobianRow>,
    /// Spinning row (spheres).
    pub spin: Option<JacobianRow>,
    /// Contact point, m (z = 0 in the plane), for drawing.
    pub point: DVec3,
    /// Unit normal from B to A, for drawing.
    pub direction: DVec3,
}

impl ContactRows {
    /// Number of multipliers: 1 + tangents + rolling + spin.
    pub fn len(&self) -> usize {
        1 + self.tangents.len() + self.rolling.len() + usize::from(self.spin.is_some())
    }

    /// Never empty (a normal row is always there).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// All rows in multiplier order: normal, tangents, rolling, spin.
    pub fn rows(&self) -> impl Iterator<Item = &JacobianRow> {
        std::iter::once(&self.normal)
            .chain(&self.tangents)
            .chain(&self.rolling)
            .chain(self.spin.iter())
    }
}

/// Every contact of the system at `q` within `margin`, planar or spatial, sorted by key.
pub fn contact_rows(system: &System, q: &DVector<f64>, margin: f64) -> Vec<ContactRows> {
    if system.is_spatial() {
        let mut list: Vec<ContactRows> = detect_spatial_contacts(system, q, margin)
            .into_iter()
            .map(|c| ContactRows {
                key: c.key,
                gap: c.gap,
                normal: c.normal_row,
                tangents: c.tangent_rows.to_vec(),
                rolling: c.rolling_rows.to_vec(),
                spin: Some(c.spin_row),
                point: c.point,
                direction: c.normal,
            })
            .collect();
        list.sort_by_key(|c| c.key);
        list
    } else {
        detect_contacts(system, q, margin)
            .into_iter()
            .map(|c| ContactRows {
                key: c.key,
                gap: c.gap(),
                point: c.geometry.point_b.extend(0.0),
                direction: c.geometry.normal.extend(0.0),
                normal: c.normal_row,
                tangents: vec![c.tangent_row],
                rolling: vec![],
                spin: None,
            })
            .collect()
    }
}
