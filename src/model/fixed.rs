//! A body that never moves: a floor, an incline, a support — no coordinates, a pose.

use glam::{DQuat, DVec2, DVec3};
use nalgebra::DMatrix;

use super::Pose;
use super::kind::BodyModel;
use crate::contact::RowEntries;

/// A fixed body with its pose: in the plane (position and angle) or in space.
#[derive(Debug, Clone, PartialEq)]
pub struct FixedBody {
    /// Position, m.
    pub position: DVec3,
    /// Orientation.
    pub orientation: DQuat,
    /// The pose in the plane (its angle exactly as given, for planar geometry).
    pub pose: Pose,
    /// True for a body of a spatial scene.
    pub spatial: bool,
}

impl FixedBody {
    /// A fixed body of a planar scene.
    pub fn planar(pose: Pose) -> Self {
        Self {
            position: pose.position.extend(0.0),
            orientation: DQuat::from_rotation_z(pose.angle),
            pose,
            spatial: false,
        }
    }

    /// A fixed body of a spatial scene.
    pub fn spatial(position: DVec3, orientation: DQuat) -> Self {
        Self {
            position,
            orientation,
            pose: Pose::new(DVec2::new(position.x, position.y), 0.0),
            spatial: true,
        }
    }
}

impl BodyModel for FixedBody {
    fn dofs(&self) -> usize {
        0
    }
    fn positions(&self) -> usize {
        0
    }
    fn is_spatial(&self) -> bool {
        self.spatial
    }
    fn mass(&self) -> f64 {
        0.0
    }
    fn initial_q(&self) -> Vec<f64> {
        vec![]
    }
    fn initial_v(&self) -> Vec<f64> {
        vec![]
    }
    fn mass_block(&self, _q: &[f64]) -> Option<DMatrix<f64>> {
        None
    }
    fn position(&self, _q: &[f64]) -> DVec3 {
        self.position
    }
    fn orientation(&self, _q: &[f64]) -> DQuat {
        self.orientation
    }
    fn pose(&self, _q: &[f64]) -> Pose {
        self.pose
    }
    fn twist(&self, _v: &[f64]) -> (DVec3, DVec3) {
        (DVec3::ZERO, DVec3::ZERO)
    }
    fn jacobian(&self, _linear: DVec3, _angular: DVec3, _out: &mut RowEntries) {}
    fn add_forces(&self, _q: &[f64], _v: &[f64], _gravity: DVec3, _f: &mut [f64]) {}
    fn displace(&self, _q: &[f64], _delta: &[f64], _out: &mut [f64]) {}
    fn coordinate_names(&self) -> (Vec<String>, Vec<String>) {
        (Vec::new(), Vec::new())
    }
}
