//! Contacts between spheres and planes in space: gaps, frames and the normal, tangent, rolling and spinning rows.
//!
//! For sphere A (centre c_A, radius R_A) against a surface of B with unit normal n (from B to
//! A) and the contact point p_A = c_A − R_A n on A, p_B on B:
//!
//! ```text
//!     ġ_N = n·(v_A − v_B)                         J_N = [ n, 0 | −n, 0 ]   (rows through the centres)
//!     ġ_Tk = t_k·(v_A + ω_A×(p_A − c_A) − v_B − ω_B×(p_B − c_B))
//!                                                 J_Tk = [ t_k, (p_A − c_A)×t_k | −t_k, −(p_B − c_B)×t_k ]
//!     ω_Rk = t_k·(ω_A − ω_B)                      J_Rk = [ 0, t_k | 0, −t_k ]   (rolling)
//!     ω_S  = n·(ω_A − ω_B)                        J_S  = [ 0, n | 0, −n ]       (spinning)
//! ```
//!
//! using t·(ω × r) = ω·(r × t). The tangents t₁, t₂ complete n to a right-handed frame chosen
//! the same way every time (t₁ = x̂, t₂ = ŷ on a level floor).

use glam::DVec3;
use nalgebra::DVector;

use super::{ContactKey, JacobianRow};
use crate::geometry::Shape;
use crate::model::System;

/// One sphere contact with its rows.
#[derive(Debug, Clone, PartialEq)]
pub struct SpatialContact {
    /// Stable identity (feature 0; the sphere is the point body A).
    pub key: ContactKey,
    /// The sphere.
    pub body_a: usize,
    /// The plane or other sphere.
    pub body_b: usize,
    /// Signed gap, m.
    pub gap: f64,
    /// Unit normal from B to A.
    pub normal: DVec3,
    /// Tangent frame (t₁, t₂).
    pub tangents: [DVec3; 2],
    /// Contact point on B's surface, m.
    pub point: DVec3,
    /// J_N.
    pub normal_row: JacobianRow,
    /// J_T1, J_T2.
    pub tangent_rows: [JacobianRow; 2],
    /// J_R1, J_R2 (relative angular velocity along the tangents).
    pub rolling_rows: [JacobianRow; 2],
    /// J_S (relative angular velocity about the normal).
    pub spin_row: JacobianRow,
}

/// A right-handed tangent frame for normal `n`, deterministic (x̂, ŷ for n = ẑ).
pub fn tangent_frame(n: DVec3) -> [DVec3; 2] {
    let helper = if n.y.abs() < 0.9 { DVec3::Y } else { DVec3::Z };
    let t1 = helper.cross(n).normalize();
    [t1, n.cross(t1)]
}

fn push_spatial(row: &mut JacobianRow, offset: usize, linear: DVec3, angular: DVec3) {
    for k in 0..3 {
        row.entries.push((offset + k, linear[k]));
    }
    for k in 0..3 {
        row.entries.push((offset + 3 + k, angular[k]));
    }
}

/// Every sphere–plane and sphere–sphere contact at positions `q` with gap ≤ `margin`.
pub fn detect_spatial_contacts(
    system: &System,
    q: &DVector<f64>,
    margin: f64,
) -> Vec<SpatialContact> {
    let mut out = Vec::new();
    let n = system.bodies.len();
    for i in 0..n {
        for j in (i + 1)..n {
            let (bi, bj) = (&system.bodies[i], &system.bodies[j]);
            if bi.is_fixed() && bj.is_fixed() {
                continue;
            }
            // (sphere A, surface B): a sphere against a plane, or the first sphere against the second.
            let (a, b) = match (&bi.shape, &bj.shape) {
                (Shape::Sphere { .. }, _) => (i, j),
                (Shape::Plane, Shape::Sphere { .. }) => (j, i),
                _ => continue,
            };
            if let Some(c) = sphere_contact(system, q, a, b, (i, j), margin) {
                out.push(c);
            }
        }
    }
    out
}

fn sphere_contact(
    system: &System,
    q: &DVector<f64>,
    a: usize,
    b: usize,
    (first, second): (usize, usize),
    margin: f64,
) -> Option<SpatialContact> {
    let (body_a, body_b) = (&system.bodies[a], &system.bodies[b]);
    let Shape::Sphere { radius: ra } = body_a.shape else {
        return None;
    };
    let ca = body_a.position3(q);
    let cb = body_b.position3(q);
    let (normal, gap, rb) = match body_b.shape {
        Shape::Plane => {
            let n = body_b.orientation(q) * DVec3::Z;
            (n, n.dot(ca - cb) - ra, 0.0)
        }
        Shape::Sphere { radius: rb } => {
            let d = ca - cb;
            let len = d.length();
            if len <= 1e-12 * (ra + rb) {
                return None;
            }
            (d / len, len - ra - rb, rb)
        }
        _ => return None,
    };
    if gap > margin {
        return None;
    }
    let tangents = tangent_frame(normal);
    let arm_a = -ra * normal; // p_A − c_A
    let point_b = ca + arm_a - gap * normal;
    let arm_b = match body_b.shape {
        Shape::Sphere { .. } => rb * normal, // p_B − c_B
        _ => point_b - cb,
    };
    let mut normal_row = JacobianRow::default();
    let mut tangent_rows = [JacobianRow::default(), JacobianRow::default()];
    let mut rolling_rows = [JacobianRow::default(), JacobianRow::default()];
    let mut spin_row = JacobianRow::default();
    for (body, sign, arm) in [(body_a, 1.0, arm_a), (body_b, -1.0, arm_b)] {
        if body.is_fixed() {
            continue;
        }
        let o = body.v_offset;
        push_spatial(&mut normal_row, o, sign * normal, sign * arm.cross(normal));
        for k in 0..2 {
            push_spatial(
                &mut tangent_rows[k],
                o,
                sign * tangents[k],
                sign * arm.cross(tangents[k]),
            );
            push_spatial(&mut rolling_rows[k], o, DVec3::ZERO, sign * tangents[k]);
        }
        push_spatial(&mut spin_row, o, DVec3::ZERO, sign * normal);
    }
    Some(SpatialContact {
        key: ContactKey {
            first,
            second,
            feature: if a == first {
                0
            } else {
                crate::geometry::SECOND_SIDE_FEATURES
            },
        },
        body_a: a,
        body_b: b,
        gap,
        normal,
        tangents,
        point: point_b,
        normal_row,
        tangent_rows,
        rolling_rows,
        spin_row,
    })
}
