//! Two disks: one contact along the line of centres.

use super::{ContactGeometry, GapKinematics};
use crate::model::Pose;

/// Contact of disk A (`ra`, `a`) with disk B (`rb`, `b`), if d = |x_A − x_B| − R_A − R_B ≤ margin.
pub fn disk_on_disk(ra: f64, a: Pose, rb: f64, b: Pose, margin: f64) -> Option<ContactGeometry> {
    let separation = a.position - b.position;
    // (std's square root: see sphere_sphere.rs.)
    let distance = separation.length_squared().sqrt();
    let gap = distance - ra - rb;
    if gap > margin || distance <= 1e-12 * (ra + rb) {
        return None;
    }
    let n = separation / distance;
    Some(ContactGeometry::planar(
        0,
        gap,
        n,
        (a.position - ra * n, b.position + rb * n),
        (a.position, b.position),
        GapKinematics::centres(separation.extend(0.0)),
    ))
}
