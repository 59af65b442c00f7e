//! Contacts of the whole system: detection over all body pairs, Jacobian rows and J̇v.
//!
//! For a contact between a point feature c_A of body A and a surface of body B with unit
//! normal n (from B to A), the gap rate is the normal relative velocity,
//!
//! ```text
//!     ḋ = n · (v_A + ω_A k×a − v_B) + ω_B (k×n)·ℓ = J_N v,      a = c_A − x_A,  ℓ = c_A − x_B,
//!     J_N,A = [nₓ, n_y, a×n],   J_N,B = [−nₓ, −n_y, −ℓ×n],
//! ```
//!
//! (a×n = aₓn_y − a_y nₓ). Differentiating once more, d̈ = J_N v̇ + J̇_N v with the
//! velocity-product term (n fixed in B, so ṅ = ω_B k×n)
//!
//! ```text
//!     J̇_N v = −ω_A² n·a − ω_B² n·ℓ + 2 ω_B (k×n)·ℓ̇,      ℓ̇ = v_A + ω_A k×a − v_B,
//! ```
//!
//! which the acceleration-level LCP needs in b = J M⁻¹ f + J̇v. For two disks
//! (d = |x_A − x_B| − R_A − R_B, r = x_A − x_B, L = |r|): J_N,A = [n, 0], J_N,B = [−n, 0] and
//! J̇_N v = (|ṙ|² − (n·ṙ)²)/L, the centripetal term of the relative motion.
//!
//! The tangent row uses t = k×n at the contact points p_A, p_B:
//! J_T,A = [t, (p_A − x_A)×t], J_T,B = [−t, −(p_B − x_B)×t].

pub mod delassus;
pub mod jacobian;
pub mod material;
pub mod rows;
pub mod spatial;

pub use delassus::Delassus;
pub use jacobian::JacobianRow;
pub use material::ContactMaterial;
pub use rows::{ContactRows, contact_rows};
pub use spatial::{SpatialContact, detect_spatial_contacts};

use glam::DVec2;
use nalgebra::DVector;

use crate::geometry::{Collider, ContactGeometry, GapKinematics, Side, detect_pair};
use crate::model::System;

/// Stable identity of a contact: the pair (in scene order) and the feature within it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ContactKey {
    /// Lower body index of the pair.
    pub first: usize,
    /// Higher body index of the pair.
    pub second: usize,
    /// Feature number within the pair.
    pub feature: u32,
}

impl ContactKey {
    /// (point body A, surface body B, feature number within A's features).
    pub fn point_body_first(&self) -> (usize, usize, u32) {
        if self.feature >= crate::geometry::SECOND_SIDE_FEATURES {
            (
                self.second,
                self.first,
                self.feature - crate::geometry::SECOND_SIDE_FEATURES,
            )
        } else {
            (self.first, self.second, self.feature)
        }
    }
}

/// One candidate contact with its rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Contact {
    /// Stable identity.
    pub key: ContactKey,
    /// Body offering the point feature.
    pub body_a: usize,
    /// Body offering the surface.
    pub body_b: usize,
    /// Gap, normal and points.
    pub geometry: ContactGeometry,
    /// J_N: ḋ = J_N v.
    pub normal_row: JacobianRow,
    /// J_T: tangential slip velocity along t = k×n.
    pub tangent_row: JacobianRow,
}

impl Contact {
    /// Signed gap d, m.
    pub fn gap(&self) -> f64 {
        self.geometry.gap
    }

    /// Gap rate ḋ = J_N v, m/s.
    pub fn gap_rate(&self, v: &DVector<f64>) -> f64 {
        self.normal_row.dot(v)
    }

    /// Tangential slip velocity J_T v, m/s.
    pub fn slip_rate(&self, v: &DVector<f64>) -> f64 {
        self.tangent_row.dot(v)
    }

    /// The velocity-product term J̇_N v of d̈ = J_N v̇ + J̇_N v, m/s².
    pub fn normal_velocity_product(&self, system: &System, v: &DVector<f64>) -> f64 {
        let (va, wa) = system.twist(self.body_a, v);
        let (vb, wb) = system.twist(self.body_b, v);
        let n = self.geometry.normal;
        match self.geometry.kinematics {
            GapKinematics::PointOnSurface { arm, lever } => {
                let lever_rate = va + wa * arm.perp() - vb;
                -wa * wa * n.dot(arm) - wb * wb * n.dot(lever) + 2.0 * wb * n.perp().dot(lever_rate)
            }
            GapKinematics::CentreDistance { separation } => {
                let rate = va - vb;
                let along = n.dot(rate);
                (rate.length_squared() - along * along) / separation.length()
            }
        }
    }
}

/// An upper bound on the contacts the system can ever have at once: over every pair that
/// can touch, the point features each body offers the other.
pub fn contact_capacity(system: &System) -> usize {
    let features: Vec<usize> = system
        .bodies
        .iter()
        .map(|b| b.shape.point_feature_count(b.contact_points.len()))
        .collect();
    let mut total = 0usize;
    for i in 0..system.bodies.len() {
        for j in (i + 1)..system.bodies.len() {
            if system.bodies[i].is_fixed() && system.bodies[j].is_fixed() {
                continue;
            }
            total = total.saturating_add(features[i] + features[j]);
        }
    }
    total
}

/// All candidate contacts at positions `q` with gap ≤ `margin`, sorted by key.
pub fn detect_contacts(system: &System, q: &DVector<f64>, margin: f64) -> Vec<Contact> {
    let mut out = Vec::new();
    let n = system.bodies.len();
    for i in 0..n {
        for j in (i + 1)..n {
            let (bi, bj) = (&system.bodies[i], &system.bodies[j]);
            if bi.is_fixed() && bj.is_fixed() {
                continue;
            }
            let ci = Collider {
                shape: &bi.shape,
                pose: bi.pose(q),
                feet: &bi.contact_points,
            };
            let cj = Collider {
                shape: &bj.shape,
                pose: bj.pose(q),
                feet: &bj.contact_points,
            };
            for (side, g) in detect_pair(&ci, &cj, margin) {
                let (a, b) = match side {
                    Side::First => (i, j),
                    Side::Second => (j, i),
                };
                out.push(build_contact(system, q, a, b, g, (i, j)));
            }
        }
    }
    out.sort_by_key(|c| c.key);
    out
}

fn build_contact(
    system: &System,
    q: &DVector<f64>,
    a: usize,
    b: usize,
    g: ContactGeometry,
    (first, second): (usize, usize),
) -> Contact {
    let n = g.normal;
    let t = n.perp();
    let (body_a, body_b) = (&system.bodies[a], &system.bodies[b]);
    let xa = body_a.pose(q).position;
    let xb = body_b.pose(q).position;
    let mut normal_row = JacobianRow::default();
    let mut tangent_row = JacobianRow::default();
    let (arm, lever) = match g.kinematics {
        GapKinematics::PointOnSurface { arm, lever } => (arm, lever),
        GapKinematics::CentreDistance { .. } => (DVec2::ZERO, DVec2::ZERO),
    };
    if !body_a.is_fixed() {
        normal_row.push_planar(body_a.v_offset, n, arm.perp_dot(n));
        tangent_row.push_planar(body_a.v_offset, t, (g.point_a - xa).perp_dot(t));
    }
    if !body_b.is_fixed() {
        normal_row.push_planar(body_b.v_offset, -n, -lever.perp_dot(n));
        tangent_row.push_planar(body_b.v_offset, -t, -(g.point_b - xb).perp_dot(t));
    }
    Contact {
        key: ContactKey {
            first,
            second,
            feature: g.feature,
        },
        body_a: a,
        body_b: b,
        geometry: g,
        normal_row,
        tangent_row,
    }
}
