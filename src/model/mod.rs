//! The mechanical system in generalized coordinates: bodies, their state (q, v), M and f(q, v, t).
//!
//! Every stepper sees the system only through this module: the generalized positions q and
//! velocities v (one block per body, fixed bodies have none), the block-diagonal mass matrix
//! ([`mass::BlockDiagonalMass`]), the generalized force vector f(q, v, t) ([`forces`]) and a
//! position update q ← q ⊕ h v that each body kind defines for itself. A new body kind
//! (a flexible element next) is one file implementing [`BodyModel`] and a [`BodyKind`]
//! variant; the solvers do not change. Spatial bodies (x, y, z and a unit quaternion, with
//! velocities (v, ω) in world axes) are such a kind: their q block has seven entries and their
//! v block six, and the position update uses the exponential map on the quaternion.

pub mod banded;
pub mod beam;
pub mod body;
pub mod corotational;
pub mod corotational_spatial;
pub mod fixed;
pub mod forces;
pub mod hermite;
pub mod hermite_spatial;
pub mod joint;
pub mod kind;
pub mod mass;
pub mod planar;
pub mod spatial;
pub mod spatial_beam;

pub use beam::{BeamMass, BeamSection, PlanarBeam, Support};
pub use body::{Body, BodyKind, Pose};
pub use fixed::FixedBody;
pub use forces::{AppliedForce, ForceLaw};
pub use joint::{Drive, Hinge, Joint, JointKind, Lock, wrap_angle};
pub use kind::BodyModel;
pub use mass::BlockDiagonalMass;
pub use planar::PlanarRigid;
pub use spatial::SpatialRigid;
pub use spatial_beam::{SpatialBeam, SpatialBeamSection};

use glam::{DVec2, DVec3};
use nalgebra::DVector;

/// The bodies, the applied loads and the generalized state of the whole system.
#[derive(Debug, Clone)]
pub struct System {
    /// All bodies in scene order; fixed bodies carry no degrees of freedom.
    pub bodies: Vec<Body>,
    /// Gravitational acceleration, m/s² ((0, −9.81, 0) in the plane, (0, 0, −9.81) in space).
    pub gravity: DVec3,
    /// Loads other than gravity, from the scene.
    pub forces: Vec<AppliedForce>,
    /// Loads set while running (a user dragging or pushing a body).
    pub pushes: Vec<AppliedForce>,
    /// Bilateral joints (their equations enter every step as rows held at zero).
    pub joints: Vec<Joint>,
    /// Generalized positions (x, y, θ per planar body), m and rad.
    pub q: DVector<f64>,
    /// Generalized velocities (vx, vy, ω per planar body), m/s and rad/s.
    pub v: DVector<f64>,
    /// Time, s.
    pub t: f64,
    /// Per body: asleep (see [`crate::sleep`]): no forces, positions held, no contacts with
    /// other sleeping or fixed bodies. All false unless sleeping is switched on.
    pub asleep: Vec<bool>,
    mass: BlockDiagonalMass,
}

impl System {
    /// Assembles a system; each moving body is given its slices of q and v in order.
    pub fn new(mut bodies: Vec<Body>, gravity: DVec3, forces: Vec<AppliedForce>) -> Self {
        let mut q = Vec::new();
        let mut v = Vec::new();
        for body in bodies.iter_mut() {
            body.q_offset = q.len();
            body.v_offset = v.len();
            q.extend_from_slice(&body.initial_q());
            v.extend_from_slice(&body.initial_v());
        }
        let q = DVector::from_vec(q);
        let mass = Self::assemble_mass(&bodies, &q, v.len());
        Self {
            asleep: vec![false; bodies.len()],
            bodies,
            gravity,
            forces,
            pushes: Vec::new(),
            joints: Vec::new(),
            q,
            v: DVector::from_vec(v),
            t: 0.0,
            mass,
        }
    }

    fn assemble_mass(bodies: &[Body], q: &DVector<f64>, dofs: usize) -> BlockDiagonalMass {
        let blocks = bodies
            .iter()
            .filter_map(|b| b.mass_block(q).map(|m| (b.v_offset, m)))
            .collect();
        BlockDiagonalMass::new(dofs, blocks)
    }

    /// Re-evaluates M(q) at the current positions (only spatial bodies with unequal principal
    /// inertias have a configuration-dependent mass matrix).
    pub fn refresh_mass(&mut self) {
        if self.bodies.iter().any(|b| !b.is_isotropic()) {
            self.mass = Self::assemble_mass(&self.bodies, &self.q, self.v.len());
        }
    }

    /// M(q) at positions `q` (the current M when no body's inertia depends on q).
    pub fn mass_at(&self, q: &DVector<f64>) -> std::borrow::Cow<'_, BlockDiagonalMass> {
        if self.bodies.iter().all(|b| b.is_isotropic()) {
            std::borrow::Cow::Borrowed(&self.mass)
        } else {
            std::borrow::Cow::Owned(Self::assemble_mass(&self.bodies, q, self.v.len()))
        }
    }

    /// True when the bodies live in space (spheres), false for a planar scene.
    pub fn is_spatial(&self) -> bool {
        self.bodies.iter().any(|b| b.is_spatial())
    }

    /// True when a joint links bodies `i` and `j` (they are then not checked for contact).
    pub fn jointed(&self, i: usize, j: usize) -> bool {
        self.joints.iter().any(|joint| joint.links(i, j))
    }

    /// Number of generalized velocities.
    pub fn dofs(&self) -> usize {
        self.v.len()
    }

    /// The mass matrix M (constant for planar bodies).
    pub fn mass(&self) -> &BlockDiagonalMass {
        &self.mass
    }

    /// Pose of body `i` at the generalized positions `q`.
    pub fn pose(&self, i: usize, q: &DVector<f64>) -> Pose {
        self.bodies[i].pose(q)
    }

    /// Velocity (v, ω) of body `i` at generalized velocities `v` (zero for fixed bodies).
    pub fn twist(&self, i: usize, v: &DVector<f64>) -> (DVec2, f64) {
        self.bodies[i].twist(v)
    }

    /// Generalized force f(q, v, t): gravity, the gyroscopic term −ω × (I ω) of spatial
    /// bodies, and every applied load, N and N·m.
    pub fn generalized_forces(&self, q: &DVector<f64>, v: &DVector<f64>, t: f64) -> DVector<f64> {
        let mut f = DVector::zeros(0);
        self.generalized_forces_into(q, v, t, &mut f);
        f
    }

    /// [`Self::generalized_forces`] into `f` (resized; its storage kept when it fits).
    pub fn generalized_forces_into(
        &self,
        q: &DVector<f64>,
        v: &DVector<f64>,
        t: f64,
        f: &mut DVector<f64>,
    ) {
        crate::linalg::buffers::zeroed_vector(f, self.dofs());
        for (body, _) in self.bodies.iter().zip(&self.asleep).filter(|(_, a)| !**a) {
            let (o, n) = (body.v_offset, body.dofs());
            body.model().add_forces(
                body.q_of(q),
                body.v_of(v),
                self.gravity,
                &mut f.as_mut_slice()[o..o + n],
            );
        }
        for load in self.forces.iter().chain(&self.pushes) {
            load.add_to(self, q, v, t, f);
        }
    }

    /// Position update q ⊕ h·v for the velocity `v` held over a step of length `h`.
    pub fn integrate_positions(&self, q: &DVector<f64>, v: &DVector<f64>, h: f64) -> DVector<f64> {
        self.displace(q, &(v * h))
    }

    /// q ⊕ Δ for a displacement Δ in velocity coordinates (translation and rotation vector).
    ///
    /// Planar coordinates (x, y, θ) add. A spatial orientation turns by the exponential map,
    /// R ← exp(Δθ) R with Δθ in world axes, so the quaternion stays unit to rounding (no
    /// renormalised Euler step).
    pub fn displace(&self, q: &DVector<f64>, delta: &DVector<f64>) -> DVector<f64> {
        let mut out = DVector::zeros(0);
        self.displace_into(q, delta, &mut out);
        out
    }

    /// [`Self::displace`] into `out` (resized; its storage kept when it fits).
    pub fn displace_into(&self, q: &DVector<f64>, delta: &DVector<f64>, out: &mut DVector<f64>) {
        crate::linalg::buffers::copy_vector(out, q);
        // A sleeping body keeps its coordinates bit for bit.
        for (body, _) in self.bodies.iter().zip(&self.asleep).filter(|(_, a)| !**a) {
            let (qo, vo) = (body.q_offset, body.v_offset);
            let (np, nv) = (body.positions(), body.dofs());
            body.model().displace(
                &q.as_slice()[qo..qo + np],
                &delta.as_slice()[vo..vo + nv],
                &mut out.as_mut_slice()[qo..qo + np],
            );
        }
    }

    /// Kinetic energy ½ vᵀ M v, J.
    pub fn kinetic_energy(&self, v: &DVector<f64>) -> f64 {
        0.5 * v.dot(&self.mass.apply(v))
    }

    /// Potential energy, J: gravity's −Σ m g·x (zero at the origin) and the elastic energy
    /// of flexible bodies.
    pub fn potential_energy(&self, q: &DVector<f64>) -> f64 {
        self.bodies
            .iter()
            .map(|b| b.model().potential_energy(b.q_of(q), self.gravity))
            .sum()
    }

    /// `kq`·∂f/∂q + `kv`·∂f/∂v of the generalized forces from the bodies' own tangents, or
    /// None when some body or load gives none (the caller differentiates numerically).
    pub fn force_tangent(
        &self,
        q: &DVector<f64>,
        v: &DVector<f64>,
        kq: f64,
        kv: f64,
    ) -> Option<nalgebra::DMatrix<f64>> {
        let loads_constant = self
            .forces
            .iter()
            .chain(&self.pushes)
            .all(|l| l.is_constant_in_state());
        if !loads_constant {
            return None;
        }
        let n = self.dofs();
        let mut k = nalgebra::DMatrix::zeros(n, n);
        for (body, _) in self.bodies.iter().zip(&self.asleep).filter(|(_, a)| !**a) {
            if !body.model().forces_depend_on_state() {
                continue;
            }
            let (o, d) = (body.v_offset, body.dofs());
            let mut block = nalgebra::DMatrix::zeros(d, d);
            if !body
                .model()
                .add_force_tangent(body.q_of(q), body.v_of(v), kq, kv, &mut block)
            {
                return None;
            }
            k.view_mut((o, o), (d, d)).copy_from(&block);
        }
        Some(k)
    }

    /// The largest step an explicit treatment of the bodies' elastic forces allows,
    /// 2/ω_max (ω_max bounded element by element), s; None without flexible bodies.
    pub fn explicit_step_limit(&self) -> Option<f64> {
        self.bodies
            .iter()
            .filter_map(|b| match &b.kind {
                BodyKind::Beam(beam) => Some(2.0 / beam.frequency_bound()),
                BodyKind::SpatialBeam(beam) => Some(2.0 / beam.frequency_bound()),
                _ => None,
            })
            .reduce(f64::min)
    }

    /// Refuses a step `h` above [`Self::explicit_step_limit`] for `stepper`, which takes the
    /// elastic forces explicitly (symplectic Euler in them).
    pub fn check_explicit_step(&self, h: f64, stepper: &str) -> crate::error::Result<()> {
        match self.explicit_step_limit() {
            Some(limit) if h > limit => Err(crate::error::Error::field(
                "stepper.dt",
                format!(
                    "{stepper} takes a beam's elastic forces explicitly, stable for dt < 2/ω_max = {limit:.3e} s; got {h:.3e} s (take a smaller step, or nsga)"
                ),
            )),
            _ => Ok(()),
        }
    }

    /// True when some joint is driven (a prescribed relative angle).
    pub fn has_drives(&self) -> bool {
        self.joints.iter().any(|j| j.drive().is_some())
    }

    /// True when some body is a flexible beam.
    pub fn has_beams(&self) -> bool {
        self.bodies
            .iter()
            .any(|b| matches!(b.kind, BodyKind::Beam(_) | BodyKind::SpatialBeam(_)))
    }

    /// True when the implicit penalty stepper takes this system's beams implicitly (their
    /// forces at the end of the step, with their tangent): beams, no joint (whose reactions it
    /// would solve against the mass alone) and only constant loads (a spring gives no tangent).
    pub fn beams_implicit_under_penalty(&self) -> bool {
        self.has_beams()
            && self.joints.is_empty()
            && self
                .forces
                .iter()
                .chain(&self.pushes)
                .all(|l| l.is_constant_in_state())
    }

    /// What restricts this system to the steppers that hold constraints and flexible bodies
    /// (see [`crate::integrators::takes`]): "flexible beams" (the narrower), "joints", or None.
    pub fn held_by(&self) -> Option<&'static str> {
        if self.has_beams() {
            Some("flexible beams")
        } else if !self.joints.is_empty() {
            Some("joints")
        } else {
            None
        }
    }

    /// Solves (M − K) d = r with K = `kq`·∂f/∂q + `kv`·∂f/∂v from the bodies' own tangents,
    /// body by body (their forces do not couple them) and within each block's band (a beam's
    /// nodes couple to their neighbours only): O(n) for a beam where a dense LU is O(n³).
    /// None when some body or load gives no tangent (the caller differentiates numerically).
    pub fn solve_force_tangent(
        &self,
        q: &DVector<f64>,
        v: &DVector<f64>,
        (kq, kv): (f64, f64),
        r: &DVector<f64>,
    ) -> Option<DVector<f64>> {
        if !self
            .forces
            .iter()
            .chain(&self.pushes)
            .all(|l| l.is_constant_in_state())
        {
            return None;
        }
        let mut out = self.mass().apply_inverse(r);
        for (body, _) in self.bodies.iter().zip(&self.asleep).filter(|(_, a)| !**a) {
            if !body.model().forces_depend_on_state() {
                continue;
            }
            let (o, d) = (body.v_offset, body.dofs());
            let rhs = r.rows(o, d).into_owned();
            let fast = body
                .model()
                .solve_tangent(body.q_of(q), body.v_of(v), (kq, kv), &rhs);
            let x = match fast {
                Some(x) => x,
                None => {
                    let mut block = body.mass_block(q)?;
                    let mut k = nalgebra::DMatrix::zeros(d, d);
                    if !body
                        .model()
                        .add_force_tangent(body.q_of(q), body.v_of(v), kq, kv, &mut k)
                    {
                        return None;
                    }
                    block -= k;
                    block.lu().solve(&rhs)?
                }
            };
            out.rows_mut(o, d).copy_from(&x);
        }
        Some(out)
    }

    /// True when some body's own forces depend on the state (a flexible body, a gyroscopic
    /// one).
    pub fn has_state_forces(&self) -> bool {
        self.bodies
            .iter()
            .any(|b| b.model().forces_depend_on_state())
    }

    /// Index of the body called `name`.
    pub fn body_index(&self, name: &str) -> Option<usize> {
        self.bodies.iter().position(|b| b.name == name)
    }
}
