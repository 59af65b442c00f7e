//! A joint's equations as bilateral rows: each scalar g_k(q) = 0 becomes a [`Contact`] whose
//! gap is g_k, marked `bilateral` so the laws hold it at zero from both sides (λ of either
//! sign) and give it no friction.

use glam::DVec2;
use nalgebra::DVector;

use super::{Contact, ContactKey, relative_point_row};
use crate::geometry::GapKinematics;
use crate::model::{Joint, JointKind, System};

/// Key features of joint rows: equation k of joint j is feature `JOINT_FEATURES + 2j + k`.
/// (Jointed bodies are never checked for contact, so no contact shares a joint's pair.)
pub const JOINT_FEATURES: u32 = 500;

/// The rows of every joint of `system` at positions `q`, in joint order.
pub fn joint_contacts(system: &System, q: &DVector<f64>) -> Vec<Contact> {
    system
        .joints
        .iter()
        .enumerate()
        .flat_map(|(j, joint)| rows_of(system, q, j, joint))
        .collect()
}

fn rows_of(system: &System, q: &DVector<f64>, index: usize, joint: &Joint) -> Vec<Contact> {
    let (a, b) = (joint.body_a, joint.body_b);
    match joint.kind {
        JointKind::Revolute => {
            let (pose_a, pose_b) = (system.pose(a, q), system.pose(b, q));
            let p_a = pose_a.transform(joint.anchor_a);
            let p_b = pose_b.transform(joint.anchor_b);
            let arm = p_a - pose_a.position;
            let lever = p_a - pose_b.position;
            [DVec2::X, DVec2::Y]
                .into_iter()
                .enumerate()
                .map(|(k, axis)| {
                    // g_k = e_k · (p_A − p_B) with e_k = R_B ê_k: A's point against the line
                    // of B through p_B normal to e_k.
                    let e = pose_b.rotate(axis);
                    let n = e.extend(0.0);
                    let kinematics = GapKinematics::PointOnSurface {
                        arm: arm.extend(0.0),
                        lever: lever.extend(0.0),
                    };
                    Contact {
                        key: ContactKey {
                            first: a,
                            second: b,
                            feature: JOINT_FEATURES + 2 * index as u32 + k as u32,
                        },
                        body_a: a,
                        body_b: b,
                        gap: e.dot(p_a - p_b),
                        normal: n,
                        point: p_b.extend(0.0),
                        tangents: vec![],
                        rolling_axes: vec![],
                        normal_row: relative_point_row(
                            system,
                            q,
                            (a, b),
                            (arm.extend(0.0), lever.extend(0.0)),
                            n,
                        ),
                        tangent_rows: vec![],
                        rolling_rows: vec![],
                        spin_row: None,
                        kinematics,
                        bilateral: true,
                    }
                })
                .collect()
        }
    }
}

/// The joint a bilateral row belongs to and its equation number, from the row's key.
pub fn joint_of(key: &ContactKey) -> (usize, usize) {
    let f = (key.feature - JOINT_FEATURES) as usize;
    (f / 2, f % 2)
}
