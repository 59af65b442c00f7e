//! A joint's equations as bilateral rows: each scalar g_k(q, t) = 0 becomes a [`Contact`]
//! whose gap is g_k, marked `bilateral` so the laws hold it at zero from both sides (λ of
//! either sign) and give it no friction. A time-dependent equation (a driven joint) carries
//! ∂g/∂t as its `rate_bias`: ġ = G v + ∂g/∂t, and ∂²g/∂t² as its `acceleration_bias`.

use glam::{DVec2, DVec3};
use nalgebra::DVector;
use smallvec::SmallVec;

use super::{Contact, ContactKey, relative_point_row, relative_rotation_row};
use crate::geometry::{GapKinematics, SECOND_SIDE_FEATURES};
use crate::model::{Joint, JointKind, Lock, System};

/// Joint rows' features (after [`ContactKey::point_body_first`]): equation k of joint j is
/// `JOINT_FEATURES + 8j + k`. Jointed bodies are never checked for contact, so no contact
/// shares a joint's pair of bodies.
pub const JOINT_FEATURES: u32 = 500;

/// Room for each joint's equations in the feature numbers (a driven hinge in space has six).
const EQUATIONS: u32 = 8;

/// The rows of every joint of `system` at positions `q` and time `t`, in joint order.
pub fn joint_contacts(system: &System, q: &DVector<f64>, t: f64) -> Vec<Contact> {
    let mut out = Vec::new();
    push_joint_contacts(&mut out, system, q, t);
    out
}

/// [`joint_contacts`] appended to `out`.
pub fn push_joint_contacts(out: &mut Vec<Contact>, system: &System, q: &DVector<f64>, t: f64) {
    for (j, joint) in system.joints.iter().enumerate() {
        out.extend(rows_of(system, q, t, j, joint));
    }
}

/// A joint row with everything but its geometry filled in.
fn row(
    (a, b): (usize, usize),
    (joint, equation): (usize, usize),
    gap: f64,
    normal: DVec3,
    point: DVec3,
    normal_row: super::JacobianRow,
    kinematics: GapKinematics,
) -> Contact {
    Contact {
        // Keyed as a second-side feature of (B, A), so that `point_body_first` gives (A, B).
        key: ContactKey {
            first: b,
            second: a,
            feature: SECOND_SIDE_FEATURES
                + JOINT_FEATURES
                + EQUATIONS * joint as u32
                + equation as u32,
        },
        body_a: a,
        body_b: b,
        gap,
        normal,
        point,
        tangents: SmallVec::new(),
        rolling_axes: SmallVec::new(),
        normal_row,
        tangent_rows: SmallVec::new(),
        rolling_rows: SmallVec::new(),
        spin_row: None,
        kinematics,
        bilateral: true,
        rate_bias: 0.0,
        acceleration_bias: 0.0,
    }
}

fn rows_of(system: &System, q: &DVector<f64>, t: f64, index: usize, joint: &Joint) -> Vec<Contact> {
    if system.is_spatial() {
        return rows_in_space(system, q, t, index, joint);
    }
    let (a, b) = (joint.body_a, joint.body_b);
    // The joint's points and frames (a beam node's on a beam); the arms for the bodies' point
    // Jacobians run from their reference points.
    let ((p_a, pose_a), (p_b, pose_b)) = joint.points(&system.bodies, q);
    let (reference_a, reference_b) = (system.pose(a, q).position, system.pose(b, q).position);
    let arm = (p_a - reference_a).extend(0.0);
    let lever = (p_a - reference_b).extend(0.0);
    // Point equations e · (p_A − p_B) = 0 along directions e fixed in B: A's point against
    // the line of B through p_B normal to e.
    let directions: Vec<DVec2> = match joint.kind {
        // (Ball joints and hinges live in space, validated away in the plane.)
        JointKind::Revolute { .. }
        | JointKind::Weld
        | JointKind::Spherical
        | JointKind::Hinge(_)
        | JointKind::Locked(_)
        | JointKind::Slider { .. } => vec![DVec2::X, DVec2::Y],
        JointKind::Prismatic { axis } => vec![axis.perp()],
        JointKind::Distance { length } => {
            // |p_A − p_B| − L along n = (p_A − p_B)/|p_A − p_B|: both points move.
            let separation = (p_a - p_b).extend(0.0);
            let n = separation.normalize_or(DVec3::X);
            let arm_b = (p_b - reference_b).extend(0.0);
            return vec![row(
                (a, b),
                (index, 0),
                separation.length() - length,
                n,
                p_b.extend(0.0),
                relative_point_row(system, q, (a, b), (arm, arm_b), n),
                GapKinematics::PointToPoint {
                    arm_a: arm,
                    arm_b,
                    separation,
                },
            )];
        }
    };
    let mut out: Vec<Contact> = directions
        .into_iter()
        .enumerate()
        .map(|(k, local)| {
            let n = pose_b.rotate(local).extend(0.0);
            row(
                (a, b),
                (index, k),
                n.truncate().dot(p_a - p_b),
                n,
                p_b.extend(0.0),
                relative_point_row(system, q, (a, b), (arm, lever), n),
                GapKinematics::PointOnSurface { arm, lever },
            )
        })
        .collect();
    // The relative angle θ_A − θ_B − φ(t) = 0, with ∂g/∂t = −φ̇ and ∂²g/∂t² = −φ̈.
    if let Some((angle, rate, acceleration)) = joint.relative_angle(t) {
        let k = out.len();
        let mut r = row(
            (a, b),
            (index, k),
            pose_a.angle - pose_b.angle - angle,
            DVec3::Z,
            p_b.extend(0.0),
            relative_rotation_row(system, q, (a, b), (arm, lever), DVec3::Z),
            GapKinematics::Rotation,
        );
        r.rate_bias = -rate;
        r.acceleration_bias = -acceleration;
        out.push(r);
    }
    out
}

/// A joint's rows in space (the equations of [`crate::model::joint`]'s module docs).
fn rows_in_space(
    system: &System,
    q: &DVector<f64>,
    t: f64,
    index: usize,
    joint: &Joint,
) -> Vec<Contact> {
    let (a, b) = (joint.body_a, joint.body_b);
    let ((p_a, r_a), (p_b, r_b)) = joint.points3(&system.bodies, q);
    let (x_a, x_b) = (system.bodies[a].position3(q), system.bodies[b].position3(q));
    let (arm, lever) = (p_a - x_a, p_a - x_b);
    let mut out = Vec::new();
    if let JointKind::Distance { length } = joint.kind {
        let separation = p_a - p_b;
        let n = separation.normalize_or(DVec3::X);
        let arm_b = p_b - x_b;
        out.push(row(
            (a, b),
            (index, 0),
            separation.length() - length,
            n,
            p_b,
            relative_point_row(system, q, (a, b), (arm, arm_b), n),
            GapKinematics::PointToPoint {
                arm_a: arm,
                arm_b,
                separation,
            },
        ));
        return out;
    }
    // The anchors coincide: e_k · (p_A − p_B) = 0 along B's body axes e_k (a slider: along
    // B's two normals to its direction only).
    let directions: Vec<DVec3> = match joint.kind {
        JointKind::Slider { normals_b, .. } => normals_b.to_vec(),
        _ => vec![DVec3::X, DVec3::Y, DVec3::Z],
    };
    let points = directions.len();
    for (k, local) in directions.into_iter().enumerate() {
        let n = r_b * local;
        out.push(row(
            (a, b),
            (index, k),
            n.dot(p_a - p_b),
            n,
            p_b,
            relative_point_row(system, q, (a, b), (arm, lever), n),
            GapKinematics::PointOnSurface { arm, lever },
        ));
    }
    // A weld's or a slider's orientation: (R_A u_k)·(R_B w_l) = 0 along u × w.
    if let JointKind::Locked(lock) | JointKind::Slider { lock, .. } = joint.kind {
        for (m, (k, l)) in Lock::PAIRS.into_iter().enumerate() {
            let (u, w) = (r_a * lock.axes_a[k], r_b * lock.axes_b[l]);
            let axis = u.cross(w);
            out.push(row(
                (a, b),
                (index, points + m),
                u.dot(w),
                axis,
                p_b,
                relative_rotation_row(system, q, (a, b), (arm, lever), axis),
                GapKinematics::AxisPair { u, w },
            ));
        }
        return out;
    }
    let JointKind::Hinge(hinge) = joint.kind else {
        return out;
    };
    // The axis stays normal to B's two normals: (R_A a)·(R_B b_k) = 0, along u × w.
    let u = r_a * hinge.axis_a;
    for (k, normal) in hinge.normals_b.iter().enumerate() {
        let w = r_b * *normal;
        let axis = u.cross(w);
        out.push(row(
            (a, b),
            (index, 3 + k),
            u.dot(w),
            axis,
            p_b,
            relative_rotation_row(system, q, (a, b), (arm, lever), axis),
            GapKinematics::AxisPair { u, w },
        ));
    }
    // A driven hinge turns as φ(t): θ − φ(t) = 0 (wrapped), ġ = (R_B a_B)·(ω_A − ω_B) − φ̇.
    if let Some(drive) = hinge.drive {
        let (angle, rate, acceleration) = drive.at(t);
        let axis = r_b * hinge.axis_b;
        let mut r = row(
            (a, b),
            (index, 5),
            crate::model::wrap_angle(hinge.turn(r_a, r_b) - angle),
            axis,
            p_b,
            relative_rotation_row(system, q, (a, b), (arm, lever), axis),
            GapKinematics::Rotation,
        );
        r.rate_bias = -rate;
        r.acceleration_bias = -acceleration;
        out.push(r);
    }
    out
}

/// The joint a bilateral row belongs to and its equation number, from the row's key.
pub fn joint_of(key: &ContactKey) -> (usize, usize) {
    let f = (key.point_body_first().2 - JOINT_FEATURES) as usize;
    (f / EQUATIONS as usize, f % EQUATIONS as usize)
}
