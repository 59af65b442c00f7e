//! Two spheres: one contact along the line of centres.

use glam::DVec3;

use super::{ContactGeometry, GapKinematics};

/// Contact of sphere A (`ra`, centre `a`) with sphere B (`rb`, centre `b`), if
/// d = |c_A − c_B| − R_A − R_B ≤ `margin` (none for coincident centres, which have no normal).
pub fn sphere_on_sphere(
    ra: f64,
    a: DVec3,
    rb: f64,
    b: DVec3,
    margin: f64,
) -> Option<ContactGeometry> {
    let separation = a - b;
    // (std's square root, one instruction in wasm too; glam's `length` goes through libm,
    // software there. Both are correctly rounded, so the bits are the same.)
    let distance = separation.length_squared().sqrt();
    if distance <= 1e-12 * (ra + rb) {
        return None;
    }
    let n = separation / distance;
    let gap = distance - ra - rb;
    if gap > margin {
        return None;
    }
    let arm_a = -ra * n;
    Some(ContactGeometry {
        feature: 0,
        gap,
        normal: n,
        arm_a,
        arm_b: rb * n,
        point_b: a + arm_a - gap * n,
        kinematics: GapKinematics::centres(separation),
    })
}
