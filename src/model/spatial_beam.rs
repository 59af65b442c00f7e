//! A flexible beam in space: n co-rotational elements on n + 1 nodes (x, R), rotations on SO(3) by the exponential map, supports held, constant mass.
//!
//! Each node carries a position x and a rotation R (a unit quaternion, the section's frame),
//! and its velocities are (ẋ, ω) with ω in world axes, as a spatial rigid body's; the
//! position update is x ← x + Δx, R ← exp(Δθ) R. The elements are those of
//! [`super::corotational_spatial`]; their internal forces and exact tangent come through
//! [`BodyModel::add_forces`] and [`BodyModel::add_force_tangent`], so the steppers integrate
//! the beam like any body. A pinned end holds its position, a clamped end also its rotation.
//!
//! **Mass.** Constant, so no gyroscopic term arises:
//!
//! - translations: `lumped` m/2 at each node, or `consistent`, the Hermite element's
//!   transverse mass m/420 [156 54; 54 156] in each direction (the part of the consistent mass
//!   that does not depend on the configuration, as in the plane);
//! - rotations: an isotropic rotary inertia from the polar moment ρI_p (I_p = I_y + I_z):
//!   ρI_p l₀/2 per node (lumped) or ρI_p l₀/6 [2 1; 1 2] (consistent, the exact mass of a
//!   linearly interpolated twist). About the axis this is the section's exact torsional
//!   inertia; about the section's axes it stands for the Rayleigh rotary inertia ρI l₀ with
//!   I_p in place of I, whose effect on the bending frequencies is O((n r/L)²), r the
//!   section's radius of gyration. Being isotropic, it does not turn with the node.
//!
//! Gravity is the work of ρA g on the elements' Hermite centrelines (in the element's energy).
//! Rayleigh damping C = a M + b K_t(q) is optional. The reference point (the body's
//! `position`, where loads act and what the trace follows) is the last node, the tip.
//!
//! **Material points** lie on the deformed centreline, the elements' cubic Hermite curves
//! ([`super::hermite_spatial`]); a point moves as that curve's point at fixed ξ plus the
//! section's spin there (interpolated linearly between the nodes' spins, exact at the nodes)
//! carrying its offset from the curve.

use glam::{DQuat, DVec3};
use nalgebra::{DMatrix, DVector, SMatrix};

use super::Pose;
use super::beam::{BeamMass, Support};
use super::corotational_spatial::{ElementLoad, NodeFrame, SpatialElement, SpatialStiffness};
use super::hermite_spatial::SpatialSegment;
use super::kind::BodyModel;
use crate::contact::RowEntries;

/// Half-bandwidth of a spatial beam's matrices over its free coordinates: an element couples
/// two consecutive nodes' six velocities, at most 11 places apart.
const BAND: usize = 11;

/// The beam's material and section.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpatialBeamSection {
    /// EA, GJ, EI_y, EI_z.
    pub stiffness: SpatialStiffness,
    /// Mass per length ρA, kg/m.
    pub mass_per_length: f64,
    /// Rotary inertia per length ρI_p, kg·m.
    pub rotary_per_length: f64,
    /// The contact surface's distance from the centreline (a tube), m.
    pub half_thickness: f64,
}

/// A flexible beam in space.
#[derive(Debug, Clone, PartialEq)]
pub struct SpatialBeam {
    /// Section and material.
    pub section: SpatialBeamSection,
    /// Rayleigh damping C = a M + b K_t: (a in 1/s, b in s).
    pub damping: (f64, f64),
    supports: (Support, Support),
    frequency_bound: f64,
    elements: Vec<SpatialElement>,
    /// Every node's initial frame: held parts keep it.
    nodes0: Vec<NodeFrame>,
    velocity0: Vec<(DVec3, DVec3)>,
    /// Per node, the offsets in q of its position (3) and quaternion (4) when free.
    q_at: Vec<[Option<usize>; 2]>,
    /// Per node, the offsets in v of its velocity (3) and spin (3) when free.
    v_at: Vec<[Option<usize>; 2]>,
    positions: usize,
    dofs: usize,
    /// Node-by-node translational and rotational mass: diagonal and next-node coupling.
    mass_nodes: NodeMass,
    mass_free: DMatrix<f64>,
    total_mass: f64,
    /// The elements' tangents at the last positions asked for.
    tangents: TangentCache,
}

/// The elements' tangents at one configuration, kept for the next ask at the same positions:
/// an implicit step solves with the same tangent once per loaded contact (Woodbury's
/// columns), and each element's Hessian by dual numbers costs ~60 gradients.
#[derive(Debug, Default)]
struct TangentCache(std::sync::Mutex<Option<TangentsAt>>);

/// Positions and the elements' tangents there.
type TangentsAt = (Vec<f64>, Vec<SMatrix<f64, 12, 12>>);

impl Clone for TangentCache {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl PartialEq for TangentCache {
    /// A cache is not part of the beam's value.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The mass over the nodes, the same in each direction: tridiagonal.
#[derive(Debug, Clone, PartialEq)]
struct NodeMass {
    translation: (Vec<f64>, Vec<f64>),
    rotation: (Vec<f64>, Vec<f64>),
}

impl NodeMass {
    fn assemble(elements: &[SpatialElement], section: SpatialBeamSection, model: BeamMass) -> Self {
        let n = elements.len() + 1;
        let mut t = (vec![0.0; n], vec![0.0; n - 1]);
        let mut r = (vec![0.0; n], vec![0.0; n - 1]);
        for (e, el) in elements.iter().enumerate() {
            let m = section.mass_per_length * el.length;
            let j = section.rotary_per_length * el.length;
            let (td, to, rd, ro) = match model {
                BeamMass::Lumped => (0.5 * m, 0.0, 0.5 * j, 0.0),
                BeamMass::Consistent => (156.0 * m / 420.0, 54.0 * m / 420.0, j / 3.0, j / 6.0),
            };
            for k in [e, e + 1] {
                t.0[k] += td;
                r.0[k] += rd;
            }
            t.1[e] += to;
            r.1[e] += ro;
        }
        Self {
            translation: t,
            rotation: r,
        }
    }

    /// The entry between nodes a and b (|a − b| ≤ 1) for translations (`part` 0) or rotations.
    fn entry(&self, part: usize, a: usize, b: usize) -> f64 {
        let (d, o) = if part == 0 {
            &self.translation
        } else {
            &self.rotation
        };
        match a.abs_diff(b) {
            0 => d[a],
            1 => o[a.min(b)],
            _ => 0.0,
        }
    }
}

impl SpatialBeam {
    /// A straight beam from `start` to `end` in `elements` equal elements, its sections' second
    /// axis along the part of `height_axis` across the beam, its ends held by `supports`
    /// (start, end), all nodes moving at `velocity`.
    pub fn straight(
        (start, end): (DVec3, DVec3),
        height_axis: DVec3,
        elements: usize,
        section: SpatialBeamSection,
        supports: (Support, Support),
        mass: BeamMass,
        velocity: DVec3,
    ) -> Self {
        let n = elements.max(1);
        let axis = (end - start).normalize();
        let second = (height_axis - axis * axis.dot(height_axis)).normalize();
        let rotation = DQuat::from_mat3(&glam::DMat3::from_cols(axis, second, axis.cross(second)));
        let nodes0: Vec<NodeFrame> = (0..=n)
            .map(|k| (start + (end - start) * (k as f64 / n as f64), rotation))
            .collect();
        let velocity0 = vec![(velocity, DVec3::ZERO); n + 1];
        Self::from_nodes(nodes0, velocity0, section, supports, mass)
    }

    /// A beam through the given reference node frames with initial node velocities (ẋ, ω).
    pub fn from_nodes(
        nodes0: Vec<NodeFrame>,
        velocity0: Vec<(DVec3, DVec3)>,
        section: SpatialBeamSection,
        supports: (Support, Support),
        mass: BeamMass,
    ) -> Self {
        let count = nodes0.len();
        let elements: Vec<SpatialElement> = nodes0
            .windows(2)
            .map(|w| SpatialElement::new(w[0], w[1]))
            .collect();
        let held = |node: usize| -> [bool; 2] {
            let mut h = [false; 2];
            for (end, s) in [(0, supports.0), (count - 1, supports.1)] {
                if node == end {
                    let holds = match s {
                        Support::Free => [false, false],
                        Support::Pinned | Support::Roller => [true, false],
                        Support::Clamped => [true, true],
                    };
                    h[0] |= holds[0];
                    h[1] |= holds[1];
                }
            }
            h
        };
        let (mut q_at, mut v_at) = (Vec::with_capacity(count), Vec::with_capacity(count));
        let (mut positions, mut dofs) = (0, 0);
        for node in 0..count {
            let h = held(node);
            let mut qa = [None; 2];
            let mut va = [None; 2];
            for part in 0..2 {
                if !h[part] {
                    qa[part] = Some(positions);
                    va[part] = Some(dofs);
                    positions += if part == 0 { 3 } else { 4 };
                    dofs += 3;
                }
            }
            q_at.push(qa);
            v_at.push(va);
        }
        let mass_nodes = NodeMass::assemble(&elements, section, mass);
        let mut mass_free = DMatrix::zeros(dofs, dofs);
        for a in 0..count {
            for b in a.saturating_sub(1)..(a + 2).min(count) {
                for (part, (at_a, at_b)) in v_at[a].iter().zip(&v_at[b]).enumerate() {
                    if let (Some(i), Some(j)) = (at_a, at_b) {
                        let m = mass_nodes.entry(part, a, b);
                        for k in 0..3 {
                            mass_free[(i + k, j + k)] = m;
                        }
                    }
                }
            }
        }
        let total_mass = elements
            .iter()
            .map(|e| e.length * section.mass_per_length)
            .sum();
        Self {
            section,
            damping: (0.0, 0.0),
            supports,
            frequency_bound: Self::element_frequency_bound(&elements, section, mass),
            elements,
            nodes0,
            velocity0,
            q_at,
            v_at,
            positions,
            dofs,
            mass_nodes,
            mass_free,
            total_mass,
            tangents: TangentCache::default(),
        }
    }

    /// Sets Rayleigh damping C = a M + b K_t.
    pub fn with_damping(mut self, a: f64, b: f64) -> Self {
        self.damping = (a, b);
        self
    }

    /// An upper bound on the beam's highest angular frequency, rad/s: the largest of its
    /// elements' own (Irons), from each element's unstrained tangent and its share of the mass.
    pub fn frequency_bound(&self) -> f64 {
        self.frequency_bound
    }

    fn element_frequency_bound(
        elements: &[SpatialElement],
        section: SpatialBeamSection,
        model: BeamMass,
    ) -> f64 {
        let load = ElementLoad {
            stiffness: section.stiffness,
            weight_per_length: DVec3::ZERO,
        };
        let mut bound = 0.0f64;
        for el in elements {
            let (a, b) = (
                (DVec3::ZERO, DQuat::IDENTITY),
                (DVec3::new(el.length, 0.0, 0.0), DQuat::IDENTITY),
            );
            let straight = SpatialElement::new(a, b);
            let k = straight.derivatives(&load, a, b, true).tangent();
            let k = DMatrix::from_fn(12, 12, |i, j| k[(i, j)]);
            let one = NodeMass::assemble(&[straight], section, model);
            let m = DMatrix::from_fn(12, 12, |i, j| {
                let (na, nb) = (i / 6, j / 6);
                let (pa, pb) = ((i % 6) / 3, (j % 6) / 3);
                if pa == pb && i % 3 == j % 3 {
                    one.entry(pa, na, nb)
                } else {
                    0.0
                }
            });
            if let Some(omega) = super::mass::highest_frequency(k, m) {
                bound = bound.max(omega);
            }
        }
        bound
    }

    /// How the start and the end are held.
    pub fn supports(&self) -> (Support, Support) {
        self.supports
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.nodes0.len()
    }

    /// Undeformed length, m.
    pub fn length(&self) -> f64 {
        self.elements.iter().map(|e| e.length).sum()
    }

    /// Every node's frame at generalized positions `q` (held parts at their reference).
    pub fn node_frames(&self, q: &[f64]) -> Vec<NodeFrame> {
        (0..self.nodes()).map(|k| self.node_frame(q, k)).collect()
    }

    /// Node `k`'s frame at generalized positions `q` (held parts at their reference).
    fn node_frame(&self, q: &[f64], k: usize) -> NodeFrame {
        let ((x, r), at) = (self.nodes0[k], self.q_at[k]);
        let x = at[0].map_or(x, |o| DVec3::new(q[o], q[o + 1], q[o + 2]));
        let r = at[1].map_or(r, |o| DQuat::from_xyzw(q[o + 1], q[o + 2], q[o + 3], q[o]));
        (x, r)
    }

    /// Every node's velocity and spin at generalized velocities `v` (held: zero).
    pub fn node_velocities(&self, v: &[f64]) -> Vec<(DVec3, DVec3)> {
        self.v_at
            .iter()
            .map(|at| {
                let part =
                    |p: usize| at[p].map_or(DVec3::ZERO, |o| DVec3::new(v[o], v[o + 1], v[o + 2]));
                (part(0), part(1))
            })
            .collect()
    }

    fn load(&self, gravity: DVec3) -> ElementLoad {
        ElementLoad {
            stiffness: self.section.stiffness,
            weight_per_length: gravity * self.section.mass_per_length,
        }
    }

    /// Each element's tangent (∂ of its gradient, without gravity) at positions `q`, from the
    /// cache when `q` is the last configuration asked for.
    fn element_tangents(&self, q: &[f64]) -> Vec<SMatrix<f64, 12, 12>> {
        let mut cache = self.tangents.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, k)) = cache.as_ref()
            && at.as_slice() == q
        {
            return k.clone();
        }
        let frames = self.node_frames(q);
        let load = self.load(DVec3::ZERO);
        let k: Vec<_> = (self.elements.iter().enumerate())
            .map(|(e, el)| {
                el.derivatives(&load, frames[e], frames[e + 1], true)
                    .tangent()
            })
            .collect();
        *cache = Some((q.to_vec(), k.clone()));
        k
    }

    /// The place in v of element `e`'s local coordinate `k` (0..12: δx₁, δθ₁, δx₂, δθ₂).
    fn slot(&self, e: usize, k: usize) -> Option<usize> {
        self.v_at[e + k / 6][(k % 6) / 3].map(|o| o + k % 3)
    }

    /// M v over the free coordinates.
    fn mass_times(&self, v: &[f64]) -> DVector<f64> {
        &self.mass_free * DVector::from_column_slice(v)
    }

    /// Adds the elastic forces −∂V/∂q and, when `c` is not zero, c·K_t v (the damping's
    /// stiffness share, by the elements' tangent–vector products) to `out`.
    fn add_elastic(
        &self,
        frames: &[NodeFrame],
        gravity: DVec3,
        v: &[f64],
        c: f64,
        out: &mut [f64],
    ) {
        let load = self.load(gravity);
        for (e, el) in self.elements.iter().enumerate() {
            let (a, b) = (frames[e], frames[e + 1]);
            let (gradient, kv) = if c == 0.0 {
                (el.derivatives(&load, a, b, false).gradient, None)
            } else {
                let w: [f64; 12] = std::array::from_fn(|k| self.slot(e, k).map_or(0.0, |s| v[s]));
                let (g, kw) = el.gradient_and_tangent_times(&load, a, b, &w);
                (g, Some(kw))
            };
            for k in 0..12 {
                if let Some(s) = self.slot(e, k) {
                    out[s] -= gradient[k];
                    if let Some(kw) = &kv {
                        out[s] += c * kw[k];
                    }
                }
            }
        }
    }

    /// The deformed centreline's segments, element by element.
    pub fn segments(&self, frames: &[NodeFrame]) -> Vec<SpatialSegment> {
        self.elements
            .iter()
            .enumerate()
            .map(|(e, el)| SpatialSegment::new(frames[e], frames[e + 1], el.offset))
            .collect()
    }

    /// The nearest point of the deformed centreline to `p`: element, ξ, the point and the
    /// element's segment. The chord polyline picks the element; it and its neighbours are
    /// then searched on their Hermite curves.
    pub fn locate(&self, frames: &[NodeFrame], p: DVec3) -> (usize, f64, DVec3, SpatialSegment) {
        let mut nearest_chord = (0, f64::INFINITY);
        for e in 0..self.elements.len() {
            let (a, b) = (frames[e].0, frames[e + 1].0);
            let d = b - a;
            let s = ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
            let dist = (p - a - d * s).length_squared();
            if dist < nearest_chord.1 {
                nearest_chord = (e, dist);
            }
        }
        let e0 = nearest_chord.0;
        let mut best: Option<(usize, f64, f64, SpatialSegment)> = None;
        for e in e0.saturating_sub(1)..=(e0 + 1).min(self.elements.len() - 1) {
            let segment = SpatialSegment::new(frames[e], frames[e + 1], self.elements[e].offset);
            let (xi, dist) = segment.nearest(p);
            if best.is_none_or(|b| dist < b.2) {
                best = Some((e, xi, dist, segment));
            }
        }
        let (e, xi, _, segment) = best.expect("a beam has at least one element");
        (e, xi, segment.point(xi), segment)
    }

    /// The deformed centreline: `per_element` points along each element and the last node.
    pub fn centreline(&self, q: &[f64], per_element: usize) -> Vec<DVec3> {
        let segments = self.segments(&self.node_frames(q));
        let mut out = Vec::with_capacity(per_element * segments.len() + 1);
        for (e, segment) in segments.iter().enumerate() {
            let count = if e + 1 == segments.len() {
                per_element + 1
            } else {
                per_element
            };
            for k in 0..count {
                out.push(segment.point(k as f64 / per_element as f64));
            }
        }
        out
    }

    fn push_element(&self, e: usize, row: &[f64; 12], out: &mut RowEntries) {
        for (k, &x) in row.iter().enumerate() {
            if x != 0.0
                && let Some(s) = self.slot(e, k)
            {
                out.push((s, x));
            }
        }
    }

    fn tip(&self, q: &[f64]) -> NodeFrame {
        self.node_frame(q, self.nodes() - 1)
    }
}

impl BodyModel for SpatialBeam {
    fn dofs(&self) -> usize {
        self.dofs
    }
    fn positions(&self) -> usize {
        self.positions
    }
    fn is_spatial(&self) -> bool {
        true
    }
    fn mass(&self) -> f64 {
        self.total_mass
    }
    fn initial_q(&self) -> Vec<f64> {
        let mut q = vec![0.0; self.positions];
        for ((x, r), at) in self.nodes0.iter().zip(&self.q_at) {
            if let Some(o) = at[0] {
                q[o..o + 3].copy_from_slice(&x.to_array());
            }
            if let Some(o) = at[1] {
                q[o..o + 4].copy_from_slice(&[r.w, r.x, r.y, r.z]);
            }
        }
        q
    }
    fn initial_v(&self) -> Vec<f64> {
        let mut v = vec![0.0; self.dofs];
        for ((u, w), at) in self.velocity0.iter().zip(&self.v_at) {
            for (part, x) in [u, w].into_iter().enumerate() {
                if let Some(o) = at[part] {
                    v[o..o + 3].copy_from_slice(&x.to_array());
                }
            }
        }
        v
    }
    fn mass_block(&self, _q: &[f64]) -> Option<DMatrix<f64>> {
        Some(self.mass_free.clone())
    }
    /// The tip (last node).
    fn position(&self, q: &[f64]) -> DVec3 {
        self.tip(q).0
    }
    fn orientation(&self, q: &[f64]) -> DQuat {
        self.tip(q).1
    }
    fn pose(&self, q: &[f64]) -> Pose {
        Pose::new(self.position(q).truncate(), 0.0)
    }
    fn twist(&self, v: &[f64]) -> (DVec3, DVec3) {
        self.node_velocities(v)[self.nodes() - 1]
    }
    /// A force and torque at the tip.
    fn jacobian(&self, linear: DVec3, angular: DVec3, out: &mut RowEntries) {
        let at = self.v_at[self.nodes() - 1];
        for (part, x) in [linear, angular].into_iter().enumerate() {
            if let Some(o) = at[part] {
                for k in 0..3 {
                    out.push((o + k, x[k]));
                }
            }
        }
    }
    /// The material point at tip + `arm`: its nearest centreline point (element e, ξ) moving
    /// as the Hermite curve's point at fixed ξ, and the section's spin there carrying the
    /// offset from it.
    fn point_jacobian(&self, q: &[f64], arm: DVec3, d: DVec3, out: &mut RowEntries) {
        let frames = self.node_frames(q);
        let p = frames[self.nodes() - 1].0 + arm;
        let (e, xi, foot, segment) = self.locate(&frames, p);
        let mut row = segment.row(xi, d);
        let turn = (p - foot).cross(d);
        for (k, w) in [(3, 1.0 - xi), (9, xi)] {
            for c in 0..3 {
                row[k + c] += w * turn[c];
            }
        }
        self.push_element(e, &row, out);
    }
    fn rotation_jacobian(&self, q: &[f64], arm: DVec3, axis: DVec3, out: &mut RowEntries) {
        let frames = self.node_frames(q);
        let p = frames[self.nodes() - 1].0 + arm;
        let (e, xi, _, _) = self.locate(&frames, p);
        let mut row = [0.0; 12];
        for c in 0..3 {
            row[3 + c] = (1.0 - xi) * axis[c];
            row[9 + c] = xi * axis[c];
        }
        self.push_element(e, &row, out);
    }
    /// Gravity and the elastic forces −∂V/∂q, and Rayleigh damping −(a M + b K_t) v.
    fn add_forces(&self, q: &[f64], v: &[f64], gravity: DVec3, f: &mut [f64]) {
        let frames = self.node_frames(q);
        let (a, b) = self.damping;
        self.add_elastic(&frames, gravity, v, -b, f);
        if a != 0.0 {
            for (fi, m) in f.iter_mut().zip(self.mass_times(v).iter()) {
                *fi -= a * m;
            }
        }
    }
    fn forces_depend_on_state(&self) -> bool {
        true
    }
    /// kq ∂f/∂q + kv ∂f/∂v with ∂f/∂q = −K_t (the elements' exact tangents; the damping's
    /// dependence on q is left out) and ∂f/∂v = −(a M + b K_t).
    fn add_force_tangent(
        &self,
        q: &[f64],
        _v: &[f64],
        kq: f64,
        kv: f64,
        out: &mut DMatrix<f64>,
    ) -> bool {
        // Gravity's share (the end moments' dependence on the rotations, of order ρA g l₀²)
        // is left out, as in the plane.
        let (a, b) = self.damping;
        for (e, k) in self.element_tangents(q).iter().enumerate() {
            for i in 0..12 {
                let Some(r) = self.slot(e, i) else { continue };
                for j in 0..12 {
                    if let Some(c) = self.slot(e, j) {
                        out[(r, c)] -= (kq + kv * b) * k[(i, j)];
                    }
                }
            }
        }
        if a != 0.0 {
            *out -= &self.mass_free * (kv * a);
        }
        true
    }
    /// (M − kq ∂f/∂q − kv ∂f/∂v) assembled element by element into its band and eliminated
    /// there: O(n) in the nodes.
    fn solve_tangent(
        &self,
        q: &[f64],
        _v: &[f64],
        (kq, kv): (f64, f64),
        r: &DVector<f64>,
    ) -> Option<DVector<f64>> {
        let mut band = super::banded::Band::zeros(self.dofs, BAND);
        let (a, b) = self.damping;
        let count = self.nodes();
        for na in 0..count {
            for nb in na.saturating_sub(1)..(na + 2).min(count) {
                for part in 0..2 {
                    if let (Some(i), Some(j)) = (self.v_at[na][part], self.v_at[nb][part]) {
                        let m = self.mass_nodes.entry(part, na, nb) * (1.0 + kv * a);
                        for k in 0..3 {
                            band.add(i + k, j + k, m);
                        }
                    }
                }
            }
        }
        for (e, k) in self.element_tangents(q).iter().enumerate() {
            for i in 0..12 {
                let Some(row) = self.slot(e, i) else { continue };
                for j in 0..12 {
                    if let Some(col) = self.slot(e, j) {
                        band.add(row, col, (kq + kv * b) * k[(i, j)]);
                    }
                }
            }
        }
        band.solve(r)
    }
    fn potential_energy(&self, q: &[f64], gravity: DVec3) -> f64 {
        let frames = self.node_frames(q);
        let load = self.load(gravity);
        self.elements
            .iter()
            .enumerate()
            .map(|(e, el)| el.energy(&load, frames[e], frames[e + 1]))
            .sum()
    }
    fn node_frame3(&self, q: &[f64], node: usize) -> Option<(DVec3, DQuat)> {
        (node < self.nodes()).then(|| self.node_frame(q, node))
    }
    /// Positions add; each node's rotation turns by the exponential map, R ← exp(Δθ) R.
    fn displace(&self, q: &[f64], delta: &[f64], out: &mut [f64]) {
        for (qa, va) in self.q_at.iter().zip(&self.v_at) {
            if let (Some(o), Some(d)) = (qa[0], va[0]) {
                for k in 0..3 {
                    out[o + k] = q[o + k] + delta[d + k];
                }
            }
            if let (Some(o), Some(d)) = (qa[1], va[1]) {
                let r = DQuat::from_xyzw(q[o + 1], q[o + 2], q[o + 3], q[o]);
                let turn = DVec3::new(delta[d], delta[d + 1], delta[d + 2]);
                let r = (DQuat::from_scaled_axis(turn) * r).normalize();
                out[o..o + 4].copy_from_slice(&[r.w, r.x, r.y, r.z]);
            }
        }
    }
    fn coordinate_names(&self) -> (Vec<String>, Vec<String>) {
        let (mut pos, mut vel) = (Vec::new(), Vec::new());
        for (n, (qa, va)) in self.q_at.iter().zip(&self.v_at).enumerate() {
            if qa[0].is_some() {
                pos.extend(["x [m]", "y [m]", "z [m]"].map(|u| format!("n{n}.{u}")));
                vel.extend(["vx [m/s]", "vy [m/s]", "vz [m/s]"].map(|u| format!("n{n}.{u}")));
            }
            if qa[1].is_some() {
                pos.extend(["qw [1]", "qx [1]", "qy [1]", "qz [1]"].map(|u| format!("n{n}.{u}")));
            }
            if va[1].is_some() {
                vel.extend(["wx [rad/s]", "wy [rad/s]", "wz [rad/s]"].map(|u| format!("n{n}.{u}")));
            }
        }
        (pos, vel)
    }
}
