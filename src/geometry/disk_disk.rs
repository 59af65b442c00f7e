//! Two disks: one contact along the line of centres.

use super::{ContactGeometry, GapKinematics};
use crate::model::Pose;

/// Contact of disk A (`ra`, `a`) with disk B (`rb`, `b`), if d = |x_A − x_B| − R_A − R_B ≤ margin.
pub fn disk_on_disk(ra: f64, a: Pose, rb: f64, b: Pose, margin: f64) -> Option<ContactGeometry> {
    let separation = a.position - b.position;
    let distance = separation.length();
    let gap = distance - ra - rb;
    if gap > margin || distance <= 1e-12 * (ra + rb) {
        return None;
    }
    let n = separation / distance;
    Some(ContactGeometry {
        feature: 0,
        gap,
        normal: n,
        point_a: a.position - ra * n,
        point_b: b.position + rb * n,
        kinematics: GapKinematics::CentreDistance { separation },
    })
}
