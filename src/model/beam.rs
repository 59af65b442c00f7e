//! A flexible beam in the plane: n co-rotational Euler–Bernoulli elements on n + 1 nodes (x, y, θ), supports held, constant mass.
//!
//! The beam is one body whose generalized coordinates are its nodes' (x, y, θ), θ the
//! angle of the centreline tangent, less the coordinates its supports hold (a pinned end
//! holds x and y, a clamped end also θ, a roller y). Its elements are the co-rotational
//! element of [`super::corotational`]; their internal forces and exact tangent come through
//! [`BodyModel::add_forces`] and [`BodyModel::add_force_tangent`], so the steppers integrate
//! it like any body.
//!
//! **Mass.** Constant, so the steppers need no inertial terms beyond M a:
//!
//! - `lumped` (HRZ lumping of the Hermite element): m/2 at each node in x and y, and a
//!   rotary inertia m l₀²/78 (the consistent 4l²/420 scaled as the translations are);
//! - `consistent`: the Hermite element's transverse mass m/420 [156 54; 54 156] in both x and
//!   y, and its rotary block m l₀²/420 [4 −3; −3 4]. The translation–rotation coupling of the
//!   Hermite element (the 22l, 13l terms) turns with the chord, so it is left out: what stays
//!   is the part of the consistent mass that does not depend on the configuration.
//!
//! Gravity is the work of ρA g on the deformed centreline, the elements' Hermite curves:
//! ρA l₀ g·∫p dξ = ρA l₀ g·[(x₁ + x₂)/2 + (θ₁ − θ₂) Δ⊥/12] per element, so its load is M·g
//! at the nodes plus the end moments ±ρA g l₀²/12 of a level element (the Hermite element's
//! consistent load, without which a uniform load's nodal deflections are short by O(l₀²)). Rayleigh damping
//! C = a M + b K_t(q) is optional. The reference point (the body's `position`, where loads
//! act and what the trace's x, y follow) is the last node, the tip.
//!
//! **Material points.** A point of the beam is located by its nearest point on the deformed
//! centreline, the elements' cubic Hermite curves (element e, ξ ∈ [0, 1]; module
//! [`super::hermite`]); it moves as that curve's point at fixed ξ, plus the section's rotation
//! there about it. Contacts use the same curve, so a gap and its rate are exact between nodes
//! as at them.

use glam::{DQuat, DVec2, DVec3};
use nalgebra::DMatrix;

use super::Pose;
use super::corotational::{Element, ElementState, SectionStiffness};
use super::hermite::Segment;
use super::kind::BodyModel;
use crate::contact::RowEntries;

/// Half-bandwidth of a beam's matrices over its free coordinates: an element couples two
/// consecutive nodes' (x, y, θ), at most 5 places apart.
const BAND: usize = 5;

/// How an end of the beam is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// Nothing held.
    Free,
    /// x and y held, free to turn.
    Pinned,
    /// x, y and θ held.
    Clamped,
    /// y held (a roller on a horizontal surface).
    Roller,
}

impl Support {
    /// The name scene files use.
    pub fn name(self) -> &'static str {
        match self {
            Support::Free => "free",
            Support::Pinned => "pinned",
            Support::Clamped => "clamped",
            Support::Roller => "roller",
        }
    }

    /// Which of the node's (x, y, θ) the support holds.
    fn holds(self) -> [bool; 3] {
        match self {
            Support::Free => [false; 3],
            Support::Pinned => [true, true, false],
            Support::Clamped => [true; 3],
            Support::Roller => [false, true, false],
        }
    }
}

/// How the beam's mass is distributed over its nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BeamMass {
    /// Diagonal (HRZ lumping).
    Lumped,
    /// The configuration-independent part of the Hermite consistent mass.
    Consistent,
}

/// The beam's material and section.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BeamSection {
    /// EA and EI.
    pub stiffness: SectionStiffness,
    /// Mass per length ρA, kg/m.
    pub mass_per_length: f64,
    /// Half the section's height: the contact surface lies this far from the centreline, m.
    pub half_thickness: f64,
}

/// A flexible beam in the plane.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanarBeam {
    /// Section and material.
    pub section: BeamSection,
    /// Rayleigh damping C = a M + b K_t: (a in 1/s, b in s).
    pub damping: (f64, f64),
    supports: (Support, Support),
    /// [`PlanarBeam::frequency_bound`].
    frequency_bound: f64,
    elements: Vec<Element>,
    /// Every node's initial (x, y, θ): held coordinates keep these values.
    nodes0: Vec<[f64; 3]>,
    velocity0: Vec<[f64; 3]>,
    /// Indices (3·node + k) of the coordinates that are generalized coordinates.
    free: Vec<usize>,
    /// For each node coordinate, its place in q (None when held).
    slot: Vec<Option<usize>>,
    /// The mass matrix over all node coordinates.
    mass_full: DMatrix<f64>,
    /// Its rows and columns of the free coordinates: the body's mass block.
    mass_free: DMatrix<f64>,
    /// M·(1, 0, 0, 1, 0, 0, …) and M·(0, 1, 0, 0, 1, 0, …): gravity's consistent load per m/s².
    weight: [Vec<f64>; 2],
    total_mass: f64,
}

impl PlanarBeam {
    /// A straight beam from `start` to `end` in `elements` equal elements, its ends held by
    /// `supports` (start, end), moving as a rigid body: the start at `velocity`, turning at
    /// `omega` about it.
    pub fn straight(
        (start, end): (DVec2, DVec2),
        elements: usize,
        section: BeamSection,
        supports: (Support, Support),
        mass: BeamMass,
        (velocity, omega): (DVec2, f64),
    ) -> Self {
        let n = elements.max(1);
        let axis = end - start;
        let angle = libm::atan2(axis.y, axis.x);
        let nodes0: Vec<[f64; 3]> = (0..=n)
            .map(|k| {
                let p = start + axis * (k as f64 / n as f64);
                [p.x, p.y, angle]
            })
            .collect();
        let velocity0 = (0..=n)
            .map(|k| {
                let u = velocity + (axis * (k as f64 / n as f64)).perp() * omega;
                [u.x, u.y, omega]
            })
            .collect();
        Self::from_nodes(nodes0, velocity0, section, supports, mass)
    }

    /// A beam through the given reference nodes (x, y, θ) with initial node velocities.
    pub fn from_nodes(
        nodes0: Vec<[f64; 3]>,
        velocity0: Vec<[f64; 3]>,
        section: BeamSection,
        supports: (Support, Support),
        mass: BeamMass,
    ) -> Self {
        let count = nodes0.len();
        let elements: Vec<Element> = nodes0
            .windows(2)
            .map(|w| Element::new(w[0], w[1]))
            .collect();
        let mut held = vec![false; 3 * count];
        for (node, support) in [(0, supports.0), (count - 1, supports.1)] {
            for (k, h) in support.holds().iter().enumerate() {
                held[3 * node + k] |= *h;
            }
        }
        let free: Vec<usize> = (0..3 * count).filter(|&i| !held[i]).collect();
        let mut slot = vec![None; 3 * count];
        for (k, &i) in free.iter().enumerate() {
            slot[i] = Some(k);
        }
        let mass_full = Self::assemble_mass(&elements, section.mass_per_length, mass, count);
        let column = |k: usize| -> Vec<f64> {
            (0..3 * count)
                .map(|i| (0..count).map(|n| mass_full[(i, 3 * n + k)]).sum())
                .collect()
        };
        let weight = [column(0), column(1)];
        let mass_free =
            DMatrix::from_fn(free.len(), free.len(), |a, b| mass_full[(free[a], free[b])]);
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
            free,
            slot,
            mass_full,
            mass_free,
            weight,
            total_mass,
        }
    }

    fn assemble_mass(
        elements: &[Element],
        rho_a: f64,
        model: BeamMass,
        nodes: usize,
    ) -> DMatrix<f64> {
        let mut m = DMatrix::zeros(3 * nodes, 3 * nodes);
        for (e, el) in elements.iter().enumerate() {
            let me = rho_a * el.length;
            let l2 = el.length * el.length;
            let (i, j) = (3 * e, 3 * (e + 1));
            match model {
                BeamMass::Lumped => {
                    for base in [i, j] {
                        m[(base, base)] += 0.5 * me;
                        m[(base + 1, base + 1)] += 0.5 * me;
                        m[(base + 2, base + 2)] += me * l2 / 78.0;
                    }
                }
                BeamMass::Consistent => {
                    let (d, o) = (156.0 * me / 420.0, 54.0 * me / 420.0);
                    let (rd, ro) = (4.0 * me * l2 / 420.0, -3.0 * me * l2 / 420.0);
                    for k in 0..2 {
                        m[(i + k, i + k)] += d;
                        m[(j + k, j + k)] += d;
                        m[(i + k, j + k)] += o;
                        m[(j + k, i + k)] += o;
                    }
                    m[(i + 2, i + 2)] += rd;
                    m[(j + 2, j + 2)] += rd;
                    m[(i + 2, j + 2)] += ro;
                    m[(j + 2, i + 2)] += ro;
                }
            }
        }
        m
    }

    /// Sets Rayleigh damping C = a M + b K_t.
    pub fn with_damping(mut self, a: f64, b: f64) -> Self {
        self.damping = (a, b);
        self
    }

    /// An upper bound on the beam's highest angular frequency, rad/s: the largest of its
    /// elements' own (Irons: an assembled ω_max never exceeds the largest element's), each
    /// from its unstrained tangent and its share of the mass (computed once, at construction).
    pub fn frequency_bound(&self) -> f64 {
        self.frequency_bound
    }

    fn element_frequency_bound(
        elements: &[Element],
        section: BeamSection,
        mass_model: BeamMass,
    ) -> f64 {
        let mut bound = 0.0f64;
        for el in elements {
            let straight = Element {
                length: el.length,
                rotation0: [0.0; 2],
            };
            let st = straight.state(section.stiffness, [0.0; 3], [el.length, 0.0, 0.0]);
            let kt = st.tangent(section.stiffness, el.length);
            let k = DMatrix::from_fn(6, 6, |i, j| kt[i][j]);
            let one = Self::assemble_mass(&[straight], section.mass_per_length, mass_model, 2);
            if let Some(omega) = super::mass::highest_frequency(k, one) {
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

    /// The elements (reference lengths and rotations).
    pub fn elements(&self) -> &[Element] {
        &self.elements
    }

    /// Undeformed length, m.
    pub fn length(&self) -> f64 {
        self.elements.iter().map(|e| e.length).sum()
    }

    /// Every node's (x, y, θ) at generalized positions `q` (held ones at their values).
    pub fn node_coordinates(&self, q: &[f64]) -> Vec<[f64; 3]> {
        let mut out = self.nodes0.clone();
        for (k, &i) in self.free.iter().enumerate() {
            out[i / 3][i % 3] = q[k];
        }
        out
    }

    /// Every node's velocity (ẋ, ẏ, θ̇) at generalized velocities `v` (held: zero).
    fn node_velocities(&self, v: &[f64]) -> Vec<[f64; 3]> {
        let mut out = vec![[0.0; 3]; self.nodes()];
        for (k, &i) in self.free.iter().enumerate() {
            out[i / 3][i % 3] = v[k];
        }
        out
    }

    /// The element states at positions `q`.
    fn states(&self, nodes: &[[f64; 3]]) -> Vec<ElementState> {
        self.elements
            .iter()
            .enumerate()
            .map(|(e, el)| el.state(self.section.stiffness, nodes[e], nodes[e + 1]))
            .collect()
    }

    /// Strain energy Σ V_e at positions `q`, J.
    pub fn strain_energy(&self, q: &[f64]) -> f64 {
        let nodes = self.node_coordinates(q);
        self.elements
            .iter()
            .zip(self.states(&nodes))
            .map(|(el, st)| el.energy(self.section.stiffness, &st))
            .sum()
    }

    /// The assembled tangent stiffness K_t over all node coordinates.
    fn tangent_full(&self, states: &[ElementState]) -> DMatrix<f64> {
        let n = 3 * self.nodes();
        let mut k = DMatrix::zeros(n, n);
        for (e, (el, st)) in self.elements.iter().zip(states).enumerate() {
            let ke = st.tangent(self.section.stiffness, el.length);
            for (a, row) in ke.iter().enumerate() {
                for (b, x) in row.iter().enumerate() {
                    k[(3 * e + a, 3 * e + b)] += x;
                }
            }
        }
        k
    }

    /// The element segments (their Hermite centrelines) with the nodes at `nodes`.
    pub fn segments(&self, nodes: &[[f64; 3]]) -> Vec<Segment> {
        nodes.windows(2).map(|w| Segment::new(w[0], w[1])).collect()
    }

    /// The nearest point of the deformed centreline to `p`: element, ξ along it, the point
    /// and the element's segment. The chord polyline picks the element (the curve lies
    /// within its sagitta κ l₀²/8 of it); that element and its neighbours are then searched
    /// on their Hermite curves.
    pub fn locate(&self, nodes: &[[f64; 3]], p: DVec2) -> (usize, f64, DVec2, Segment) {
        let mut nearest_chord = (0, f64::INFINITY);
        for e in 0..self.elements.len() {
            let a = DVec2::new(nodes[e][0], nodes[e][1]);
            let b = DVec2::new(nodes[e + 1][0], nodes[e + 1][1]);
            let d = b - a;
            let s = ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
            let dist = (p - a - d * s).length_squared();
            if dist < nearest_chord.1 {
                nearest_chord = (e, dist);
            }
        }
        let e0 = nearest_chord.0;
        let mut best: Option<(usize, f64, f64, Segment)> = None;
        for e in e0.saturating_sub(1)..=(e0 + 1).min(self.elements.len() - 1) {
            let segment = Segment::new(nodes[e], nodes[e + 1]);
            let (xi, dist) = segment.nearest(p);
            if best.is_none_or(|b| dist < b.2) {
                best = Some((e, xi, dist, segment));
            }
        }
        let (e, xi, _, segment) = best.expect("a beam has at least one element");
        (e, xi, segment.point(xi), segment)
    }

    /// A material point's element, ξ, centreline point and segment, from its world position
    /// tip + `arm`.
    fn material_point(&self, q: &[f64], arm: DVec3) -> (usize, f64, DVec2, Segment) {
        let nodes = self.node_coordinates(q);
        let tip = nodes[self.nodes() - 1];
        self.locate(&nodes, DVec2::new(tip[0] + arm.x, tip[1] + arm.y))
    }

    /// Pushes an element's six coefficients onto its nodes' free coordinates.
    fn push_element(&self, e: usize, row: [f64; 6], out: &mut RowEntries) {
        for (k, x) in row.into_iter().enumerate() {
            if x != 0.0 {
                self.push(3 * e + k, x, out);
            }
        }
    }

    /// The deformed centreline drawn from the elements' shape functions: `per_element`
    /// points along each element (and the last node), each with the unit normal there (the
    /// curve of [`super::hermite`]).
    pub fn centreline(&self, q: &[f64], per_element: usize) -> Vec<(DVec2, DVec2)> {
        let segments = self.segments(&self.node_coordinates(q));
        let mut out = Vec::with_capacity(per_element * segments.len() + 1);
        for (e, segment) in segments.iter().enumerate() {
            let count = if e + 1 == segments.len() {
                per_element + 1
            } else {
                per_element
            };
            for k in 0..count {
                let xi = k as f64 / per_element as f64;
                out.push((segment.point(xi), segment.normal(xi)));
            }
        }
        out
    }

    /// For element `e` between nodes `a` and `b`: c = ρA l₀/12, d = θ_a − θ_b and
    /// s = g·Δ⊥ (Δ = x_b − x_a), whose product is the share of gravity's work on the
    /// element's Hermite curve beyond M g (module docs).
    fn gravity_moment_terms(
        &self,
        e: usize,
        a: [f64; 3],
        b: [f64; 3],
        g: DVec2,
    ) -> (f64, f64, f64) {
        let c = self.section.mass_per_length * self.elements[e].length / 12.0;
        let chord = DVec2::new(b[0] - a[0], b[1] - a[1]);
        (c, a[2] - b[2], g.dot(chord.perp()))
    }

    /// Adds the gradient of gravity's work c d s on each element's Hermite curve beyond M g:
    /// the end moments ±c s (±q l²/12 across a level element) and, through Δ⊥, the small
    /// forces c d (∓g_y, ±g_x) at its ends. (Their q-derivative, of order c g, is left out of
    /// the tangent: 1e-5 of the bending terms for a steel beam.)
    fn add_gravity_moments(&self, nodes: &[[f64; 3]], g: DVec2, full: &mut [f64]) {
        if g == DVec2::ZERO {
            return;
        }
        for (e, w) in nodes.windows(2).enumerate() {
            let (c, d, s) = self.gravity_moment_terms(e, w[0], w[1], g);
            let o = 3 * e;
            full[o] -= c * d * g.y;
            full[o + 1] += c * d * g.x;
            full[o + 2] += c * s;
            full[o + 3] += c * d * g.y;
            full[o + 4] -= c * d * g.x;
            full[o + 5] -= c * s;
        }
    }

    /// Pushes `coefficient` onto node coordinate `index` when it is free.
    fn push(&self, index: usize, coefficient: f64, out: &mut RowEntries) {
        if let Some(k) = self.slot[index] {
            out.push((k, coefficient));
        }
    }

    fn restrict(&self, full: &[f64], f: &mut [f64]) {
        for (k, &i) in self.free.iter().enumerate() {
            f[k] += full[i];
        }
    }
}

impl BodyModel for PlanarBeam {
    fn dofs(&self) -> usize {
        self.free.len()
    }
    fn positions(&self) -> usize {
        self.free.len()
    }
    fn is_spatial(&self) -> bool {
        false
    }
    fn mass(&self) -> f64 {
        self.total_mass
    }
    fn initial_q(&self) -> Vec<f64> {
        self.free
            .iter()
            .map(|&i| self.nodes0[i / 3][i % 3])
            .collect()
    }
    fn initial_v(&self) -> Vec<f64> {
        self.free
            .iter()
            .map(|&i| self.velocity0[i / 3][i % 3])
            .collect()
    }
    fn mass_block(&self, _q: &[f64]) -> Option<DMatrix<f64>> {
        Some(self.mass_free.clone())
    }
    /// The tip (last node).
    fn position(&self, q: &[f64]) -> DVec3 {
        let tip = self.node_coordinates(q)[self.nodes() - 1];
        DVec3::new(tip[0], tip[1], 0.0)
    }
    fn orientation(&self, q: &[f64]) -> DQuat {
        DQuat::from_rotation_z(self.pose(q).angle)
    }
    fn pose(&self, q: &[f64]) -> Pose {
        let tip = self.node_coordinates(q)[self.nodes() - 1];
        Pose::new(DVec2::new(tip[0], tip[1]), tip[2])
    }
    fn twist(&self, v: &[f64]) -> (DVec3, DVec3) {
        let tip = self.node_velocities(v)[self.nodes() - 1];
        (
            DVec3::new(tip[0], tip[1], 0.0),
            DVec3::new(0.0, 0.0, tip[2]),
        )
    }
    /// A force and torque at the tip.
    fn jacobian(&self, linear: DVec3, angular: DVec3, out: &mut RowEntries) {
        let base = 3 * (self.nodes() - 1);
        self.push(base, linear.x, out);
        self.push(base + 1, linear.y, out);
        self.push(base + 2, angular.z, out);
    }
    /// The material point at tip + `arm`: its nearest centreline point (element e, ξ) moving
    /// as the Hermite curve's point at fixed ξ (exactly: [`super::hermite`]), and the
    /// section's rotation there carrying the offset from it.
    fn point_jacobian(&self, q: &[f64], arm: DVec3, d: DVec3, out: &mut RowEntries) {
        let (e, xi, foot, segment) = self.material_point(q, arm);
        let offset = self.pose(q).position + arm.truncate() - foot;
        let mut row = segment.row(xi, d.truncate());
        // (ω ẑ × offset)·d = ω (offset × d)_z.
        let turn = offset.perp_dot(d.truncate());
        if turn != 0.0 {
            for (r, x) in row.iter_mut().zip(segment.rotation_row(xi)) {
                *r += turn * x;
            }
        }
        self.push_element(e, row, out);
    }
    fn rotation_jacobian(&self, q: &[f64], arm: DVec3, axis: DVec3, out: &mut RowEntries) {
        let (e, xi, _, segment) = self.material_point(q, arm);
        self.push_element(e, segment.rotation_row(xi).map(|x| x * axis.z), out);
    }
    /// Gravity (M g and the elements' end moments), the elastic forces −f_int and Rayleigh
    /// damping −(a M + b K_t) v.
    fn add_forces(&self, q: &[f64], v: &[f64], gravity: DVec3, f: &mut [f64]) {
        let nodes = self.node_coordinates(q);
        let states = self.states(&nodes);
        let n = 3 * self.nodes();
        let mut full: Vec<f64> = (0..n)
            .map(|i| self.weight[0][i] * gravity.x + self.weight[1][i] * gravity.y)
            .collect();
        self.add_gravity_moments(&nodes, gravity.truncate(), &mut full);
        for (e, st) in states.iter().enumerate() {
            for (k, x) in st.internal_force().iter().enumerate() {
                full[3 * e + k] -= x;
            }
        }
        let (a, b) = self.damping;
        if a != 0.0 || b != 0.0 {
            let vel: Vec<f64> = self.node_velocities(v).concat();
            let vel = nalgebra::DVector::from_vec(vel);
            let mut cv = &self.mass_full * &vel * a;
            if b != 0.0 {
                cv += self.tangent_full(&states) * &vel * b;
            }
            for (i, x) in cv.iter().enumerate() {
                full[i] -= x;
            }
        }
        self.restrict(&full, f);
    }
    fn forces_depend_on_state(&self) -> bool {
        true
    }
    /// kq ∂f/∂q + kv ∂f/∂v with ∂f/∂q = −K_t (the damping's dependence on q through K_t is
    /// left out of the tangent: Newton then converges a little slower, to the same answer)
    /// and ∂f/∂v = −(a M + b K_t).
    fn add_force_tangent(
        &self,
        q: &[f64],
        _v: &[f64],
        kq: f64,
        kv: f64,
        out: &mut DMatrix<f64>,
    ) -> bool {
        let nodes = self.node_coordinates(q);
        let (a, b) = self.damping;
        // Element by element: each couples its two nodes' six coordinates only.
        for (e, (el, st)) in self.elements.iter().zip(self.states(&nodes)).enumerate() {
            let ke = st.tangent(self.section.stiffness, el.length);
            for (i, row) in ke.iter().enumerate() {
                let Some(r) = self.slot[3 * e + i] else {
                    continue;
                };
                for (j, x) in row.iter().enumerate() {
                    if let Some(c) = self.slot[3 * e + j] {
                        out[(r, c)] -= (kq + kv * b) * x;
                    }
                }
            }
        }
        if a != 0.0 {
            *out -= &self.mass_free * (kv * a);
        }
        true
    }
    /// (M − kq ∂f/∂q − kv ∂f/∂v) assembled element by element into its band (a node's
    /// coordinates couple to its neighbours' only: half-bandwidth 5) and eliminated there.
    fn solve_tangent(
        &self,
        q: &[f64],
        _v: &[f64],
        (kq, kv): (f64, f64),
        r: &nalgebra::DVector<f64>,
    ) -> Option<nalgebra::DVector<f64>> {
        let n = self.free.len();
        let mut band = super::banded::Band::zeros(n, BAND);
        for (a, &i) in self.free.iter().enumerate() {
            for (b, &j) in self
                .free
                .iter()
                .enumerate()
                .skip(a.saturating_sub(BAND))
                .take(2 * BAND + 1)
            {
                if a.abs_diff(b) <= BAND {
                    band.add(a, b, self.mass_full[(i, j)]);
                }
            }
        }
        let nodes = self.node_coordinates(q);
        let (a, b) = self.damping;
        if a != 0.0 {
            for r_ in 0..n {
                for c in r_.saturating_sub(BAND)..(r_ + BAND + 1).min(n) {
                    band.add(r_, c, kv * a * self.mass_free[(r_, c)]);
                }
            }
        }
        for (e, (el, st)) in self.elements.iter().zip(self.states(&nodes)).enumerate() {
            let ke = st.tangent(self.section.stiffness, el.length);
            for (i, row) in ke.iter().enumerate() {
                let Some(r_) = self.slot[3 * e + i] else {
                    continue;
                };
                for (j, x) in row.iter().enumerate() {
                    if let Some(c) = self.slot[3 * e + j] {
                        band.add(r_, c, (kq + kv * b) * x);
                    }
                }
            }
        }
        band.solve(r)
    }
    fn node_pose(&self, q: &[f64], node: usize) -> Option<Pose> {
        let [x, y, theta] = *self.node_coordinates(q).get(node)?;
        Some(Pose::new(DVec2::new(x, y), theta))
    }
    fn potential_energy(&self, q: &[f64], gravity: DVec3) -> f64 {
        let nodes = self.node_coordinates(q);
        let mut v = self.strain_energy(q);
        // V = −(M g)·q over every node coordinate (f = M g is constant), and the end
        // moments' share −(ρA l₀/12)(θ₁ − θ₂)(g·Δ⊥) element by element.
        for (i, x) in nodes.iter().flatten().enumerate() {
            v -= (self.weight[0][i] * gravity.x + self.weight[1][i] * gravity.y) * x;
        }
        let g = gravity.truncate();
        for (e, w) in nodes.windows(2).enumerate() {
            let (c, d, s) = self.gravity_moment_terms(e, w[0], w[1], g);
            v -= c * d * s;
        }
        v
    }
    fn displace(&self, q: &[f64], delta: &[f64], out: &mut [f64]) {
        for k in 0..q.len() {
            out[k] = q[k] + delta[k];
        }
    }
    fn coordinate_names(&self) -> (Vec<String>, Vec<String>) {
        let (pos, vel) = (
            ["x [m]", "y [m]", "theta [rad]"],
            ["vx [m/s]", "vy [m/s]", "omega [rad/s]"],
        );
        let names = |units: [&str; 3]| {
            self.free
                .iter()
                .map(|&i| format!("n{}.{}", i / 3, units[i % 3]))
                .collect()
        };
        (names(pos), names(vel))
    }
}
