//! The implicit penalty step of rigid bodies: the minimiser of a strictly convex potential, found by Newton with a line search, each linear system solved by conjugate gradients on M + Σ w JᵀJ without forming it.
//!
//! *The step as a minimisation.* Backward Euler on the linearised gap, d⁺ = d + h J_N v⁺:
//!
//! ```text
//!     M (v⁺ − v) = h f + h Σ J_Nᵀ N + h Σ J_Tᵀ F_T,
//!     N = max(0, −k d⁺ − c ḋ⁺) = (kh + c) max(0, s − J_N v⁺),   s = −k d / (kh + c),
//!     F_T = −μ N̂ ψ'(J_T v⁺),   ψ'(u) = u / max(‖u‖, v_ε),
//! ```
//!
//! with ψ' the gradient of the convex Huber function ψ(u) = ‖u‖²/(2v_ε) below v_ε,
//! ‖u‖ − v_ε/2 above, and N̂ ≥ 0 a weight held fixed while minimising. So v⁺ is the unique
//! minimiser of the strictly convex
//!
//! ```text
//!     Φ(v) = ½ vᵀ M v − (M v + h f)ᵀ v + ½ h (kh + c) Σ max(0, s − J_N v)² + h μ Σ N̂ ψ(J_T v).
//! ```
//!
//! Newton's method with backtracking on Φ (semismooth: the Hessian M + h(kh + c) Σ_loaded
//! J_NᵀJ_N + h μ Σ N̂ J_Tᵀ ψ'' J_T, ψ'' = I/v_ε while sticking and (I − û ûᵀ)/‖u‖ while
//! sliding, is symmetric positive definite) converges from anywhere, and finds which
//! contacts are loaded as it goes. It runs first without friction (N̂ = 0); then with it,
//! N̂ each time the last answer's N, until N̂ = N (to 1e-10): Coulomb's bound ‖F_T‖ ≤ μN
//! holds for the force the step applies and reports. (One contact's friction can load
//! another: a box's two corners, a sphere in a corner.) Where the rounds do not settle (a
//! wedge whose contacts load each other by more than their own load), the step says so and
//! cuts its friction to the cone (see the end of [`rigid_step`]).
//!
//! For a contact closed at the start of the step (d < 0) the law is the penalty law exactly.
//! One open at the start (0 ≤ d, within the detection margin) starts pushing when
//! J_N v⁺ < s, that is once its end-of-step gap is below d c/(kh + c) (0 without damping,
//! the default): the damper acts from the moment the spring would, so the force is
//! continuous and the potential convex. (The beams' path, `penalty_implicit.rs`, waits for
//! d⁺ < 0.)
//!
//! *Friction.* At the answer ‖F_T‖ ≤ μN and F_T · u_T⁺ ≤ 0: the drag only takes energy out,
//! whatever h and N (each minimisation is dissipative for any N̂ ≥ 0). Taken explicitly instead (from the start-of-step slip, until the 21st
//! sitting), a drag pressed by a large N is a stiff damper stepped forward, stable only for
//! h < 2 m_eff v_ε / (μN); in a corner each contact's friction pushes the body into the other,
//! and a sphere wedged between the floor and a wall under a pile (μ = 1, h = 1/240 s)
//! alternated between them with loads growing by a fifth every two steps until it went
//! through the wall (the pile of 30 reached 1.4e5 J from 18.5 J in 2 s, every step
//! reported converged). Fixed-point iterations on the whole drag ηN (the beams' path)
//! converge linearly, at 0.7 to 0.9 a round in the piles: 85 rounds a step in the pile of
//! 100, and 50 of 240 steps unsettled after 200; with the slips' nonlinearity inside Newton,
//! only N̂ is iterated.
//!
//! *Linear solves.* Conjugate gradients with M as the preconditioner: the eigenvalues of the
//! preconditioned Hessian lie in [1, 1 + h(kh + c) λ_max(J M⁻¹ Jᵀ) + …], so the count of
//! iterations follows the step's stiffness h²k/m and the depth of the stack, not the number
//! of bodies; an iteration costs O(nnz).

use nalgebra::DVector;

use super::penalty::regularised_friction;
use super::penalty_implicit::ImplicitStep;
use crate::contact::{Contact, ContactMaterial};
use crate::error::Result;
use crate::linalg::conjugate_gradient;
use crate::model::System;

/// Newton iterations on Φ before the step says it did not converge.
const NEWTON_ITERATIONS: usize = 50;

/// Newton stops when ‖∇Φ‖ (weighted by M⁻¹) is this fraction of the step's forces,
/// ‖M v + h f‖ + ‖∇Φ‖ at the free motion.
const TOLERANCE: f64 = 1e-12;

/// Rounds of N̂ ← N (each a minimisation from the last answer) before the step says it did
/// not converge.
const NORMAL_ROUNDS: usize = 100;

/// N̂ has settled when no contact's N differs from it by more than this, relative (plus
/// this in newtons): the friction's bound μN̂ is then μN to that precision.
const NORMAL_TOLERANCE: f64 = 1e-10;

/// Its inner solves stop at this fraction of ‖∇Φ‖ (inexact Newton: each step takes at least
/// this much off the linear model's residual).
const NEWTON_FORCING: f64 = 1e-4;

/// The step's potential Φ: the system, its contacts and their laws' constants.
struct Potential<'a> {
    system: &'a System,
    contacts: &'a [Contact],
    /// M v + h f.
    momentum: DVector<f64>,
    /// h(kh + c): the weight of a loaded normal row.
    normal_weight: f64,
    /// (kh + c), N per m/s of J_N v⁺ below s.
    normal_slope: f64,
    /// s = −k d/(kh + c) for each contact.
    threshold: Vec<f64>,
    /// h μ N̂ for each contact (all zero without friction).
    drag: Vec<f64>,
    /// v_ε.
    v_eps: f64,
}

/// A contact's piece of the Hessian at some v.
#[derive(Clone, Copy)]
struct Curvature {
    /// Its normal row is loaded (J_N v < s).
    loaded: bool,
    /// Its friction's curvature, with friction on.
    friction: Option<FrictionCurvature>,
}

/// h μ N̂ ψ''(u) = weight · (I − radial · û ûᵀ): while sticking (‖u‖ ≤ v_ε) weight h μ N̂/v_ε
/// and radial 0; while sliding weight h μ N̂/‖u‖ and radial 1 (the radial part left out).
#[derive(Clone, Copy)]
struct FrictionCurvature {
    direction: [f64; 2],
    weight: f64,
    radial: f64,
}

/// A contact's slip J_T v (one or two components).
fn slip(ct: &Contact, v: &DVector<f64>) -> [f64; 2] {
    let mut u = [0.0; 2];
    for (ui, row) in u.iter_mut().zip(&ct.tangent_rows) {
        *ui = row.dot(v);
    }
    u
}

impl Potential<'_> {
    /// Each contact's normal force at end-of-step velocities `v`.
    fn normals(&self, v: &DVector<f64>) -> Vec<f64> {
        self.contacts
            .iter()
            .zip(&self.threshold)
            .map(|(ct, &s)| self.normal_slope * (s - ct.normal_row.dot(v)).max(0.0))
            .collect()
    }

    /// Φ(v), with ∇Φ(v) into `grad`.
    fn evaluate(&self, v: &DVector<f64>, grad: &mut DVector<f64>) -> f64 {
        self.system.mass().apply_into(v, grad);
        let mut phi = 0.5 * v.dot(grad) - self.momentum.dot(v);
        *grad -= &self.momentum;
        for ((ct, &s), &drag) in self.contacts.iter().zip(&self.threshold).zip(&self.drag) {
            let open = (s - ct.normal_row.dot(v)).max(0.0);
            if open > 0.0 {
                phi += 0.5 * self.normal_weight * open * open;
                ct.normal_row
                    .add_transpose_to(-self.normal_weight * open, grad);
            }
            if drag > 0.0 {
                let u = slip(ct, v);
                let speed = (u[0] * u[0] + u[1] * u[1]).sqrt();
                phi += drag
                    * if speed <= self.v_eps {
                        speed * speed / (2.0 * self.v_eps)
                    } else {
                        speed - 0.5 * self.v_eps
                    };
                let inv = 1.0 / speed.max(self.v_eps);
                for (row, ui) in ct.tangent_rows.iter().zip(u) {
                    row.add_transpose_to(drag * ui * inv, grad);
                }
            }
        }
        phi
    }

    /// The (generalized) Hessian's pieces at `v`: for each contact, whether its normal row
    /// is loaded, and its friction's curvature (direction û, weight, 1 while sliding).
    fn curvature(&self, v: &DVector<f64>) -> Vec<Curvature> {
        self.contacts
            .iter()
            .zip(&self.threshold)
            .zip(&self.drag)
            .map(|((ct, &s), &drag)| {
                let loaded = s - ct.normal_row.dot(v) > 0.0;
                if drag <= 0.0 {
                    return Curvature {
                        loaded,
                        friction: None,
                    };
                }
                let u = slip(ct, v);
                let speed = (u[0] * u[0] + u[1] * u[1]).sqrt();
                // ψ'' = I/v_ε while sticking; (I − ûûᵀ)/‖u‖ while sliding.
                let friction = if speed <= self.v_eps {
                    FrictionCurvature {
                        direction: [0.0; 2],
                        weight: drag / self.v_eps,
                        radial: 0.0,
                    }
                } else {
                    FrictionCurvature {
                        direction: [u[0] / speed, u[1] / speed],
                        weight: drag / speed,
                        radial: 1.0,
                    }
                };
                Curvature {
                    loaded,
                    friction: Some(friction),
                }
            })
            .collect()
    }

    /// out = H p for the pieces of [`Self::curvature`].
    fn apply_hessian(&self, pieces: &[Curvature], p: &DVector<f64>, out: &mut DVector<f64>) {
        self.system.mass().apply_into(p, out);
        for (ct, piece) in self.contacts.iter().zip(pieces) {
            if piece.loaded {
                let w = self.normal_weight * ct.normal_row.dot(p);
                ct.normal_row.add_transpose_to(w, out);
            }
            if let Some(FrictionCurvature {
                direction,
                weight,
                radial,
            }) = piece.friction
            {
                let jp = slip(ct, p);
                let along = direction[0] * jp[0] + direction[1] * jp[1];
                for (i, row) in ct.tangent_rows.iter().enumerate() {
                    row.add_transpose_to(weight * (jp[i] - radial * along * direction[i]), out);
                }
            }
        }
    }

    /// ‖r‖ weighted by M⁻¹.
    fn norm(&self, r: &DVector<f64>) -> f64 {
        let mut z = DVector::zeros(r.len());
        self.system.mass().apply_inverse_into(r, &mut z);
        r.dot(&z).max(0.0).sqrt()
    }

    /// Newton with backtracking from `v`: whether ‖∇Φ‖ reached the tolerance times `scale`,
    /// the Newton iterations taken, and ‖∇Φ‖ / `scale` at the end.
    fn minimise(&self, v: &mut DVector<f64>, scale: f64) -> (bool, usize, f64) {
        let mut grad = DVector::zeros(v.len());
        let mut trial_grad = DVector::zeros(v.len());
        let mut phi = self.evaluate(v, &mut grad);
        let mut iterations = 0;
        loop {
            let residual = self.norm(&grad);
            if residual <= TOLERANCE * scale {
                return (true, iterations, residual / scale);
            }
            if iterations == NEWTON_ITERATIONS {
                return (false, iterations, residual / scale);
            }
            iterations += 1;
            let pieces = self.curvature(v);
            let mass = self.system.mass();
            let minus_grad = -&grad;
            let mut step = DVector::zeros(v.len());
            conjugate_gradient::solve(
                |p, out| self.apply_hessian(&pieces, p, out),
                |r, out| mass.apply_inverse_into(r, out),
                &minus_grad,
                &mut step,
                NEWTON_FORCING,
                10 * v.len().max(10),
            );
            // Backtracking: Φ must fall by a part of what the model promises, or, where Φ's
            // rounding hides the fall, the gradient shrink.
            let slope = grad.dot(&step);
            let mut t = 1.0;
            loop {
                let trial = &*v + &step * t;
                let trial_phi = self.evaluate(&trial, &mut trial_grad);
                let rounding = 1e-14 * (phi.abs() + trial_phi.abs());
                let sufficient = trial_phi <= phi + 1e-4 * t * slope;
                let flat = trial_phi - phi <= rounding && self.norm(&trial_grad) < residual;
                if sufficient || flat || t < 1e-10 {
                    *v = trial;
                    phi = trial_phi;
                    std::mem::swap(&mut grad, &mut trial_grad);
                    break;
                }
                t *= 0.5;
            }
        }
    }
}

/// maxᵢ |nᵢ − mᵢ| / (1 + |nᵢ|): how far two lists of normal forces differ, relative (plus
/// absolute in newtons near 0).
fn largest_relative_difference(n: &[f64], m: &[f64]) -> f64 {
    n.iter()
        .zip(m)
        .map(|(n, m)| (n - m).abs() / (1.0 + n.abs()))
        .fold(0.0, f64::max)
}

/// The implicit step of rigid bodies (no flexible body).
pub(super) fn rigid_step(
    system: &System,
    contacts: &[Contact],
    f: &DVector<f64>,
    material: &ContactMaterial,
    h: f64,
) -> Result<ImplicitStep> {
    let (k, c) = (material.stiffness, material.damping);
    let momentum = system.mass().apply(&system.v) + f * h;
    let mut v = system.mass().apply_inverse(&momentum);
    let normal_slope = k * h + c;
    let mut potential = Potential {
        system,
        contacts,
        momentum,
        normal_weight: h * normal_slope,
        normal_slope,
        threshold: contacts
            .iter()
            .map(|ct| -k * ct.gap / normal_slope)
            .collect(),
        drag: vec![0.0; contacts.len()],
        v_eps: material.slip_regularization,
    };
    // The size of the step's forces: ‖M v + h f‖ and the contacts' pull at the free motion.
    let mut grad = DVector::zeros(v.len());
    potential.evaluate(&v, &mut grad);
    let scale = potential.norm(&potential.momentum) + potential.norm(&grad);
    // Without friction, which gives the first N̂; then with it, N̂ taken again from the
    // answer until it is the answer's N (so ‖F_T‖ ≤ μN holds for the N reported). The map
    // N̂ ↦ N converges linearly (ratios 0.4 to 0.8 a round in the pile of 30); Anderson
    // mixing of depth one (a secant step on the last two rounds) speeds it up, clamped at 0.
    let (mut converged, mut iterations, mut residual) = potential.minimise(&mut v, scale);
    if material.friction > 0.0 {
        let mut n_hat = potential.normals(&v);
        let mut last: Option<(Vec<f64>, Vec<f64>)> = None;
        // The round whose N̂ came closest to its N: (mismatch, its answer, its drag).
        let mut best: Option<(f64, DVector<f64>, Vec<f64>)> = None;
        let mut settled = false;
        let mut rounds = 0;
        while !settled && rounds < NORMAL_ROUNDS {
            rounds += 1;
            potential.drag = n_hat.iter().map(|n| h * material.friction * n).collect();
            let (ok, taken, gradient) = potential.minimise(&mut v, scale);
            converged &= ok;
            iterations += taken;
            let n = potential.normals(&v);
            let mismatch = largest_relative_difference(&n, &n_hat);
            settled = mismatch <= NORMAL_TOLERANCE;
            if best.as_ref().is_none_or(|(m, ..)| mismatch < *m) {
                residual = gradient.max(mismatch);
                best = Some((mismatch, v.clone(), potential.drag.clone()));
            }
            let mut next = n.clone();
            if let Some((last_hat, last_n)) = &last {
                // Residuals r = N − N̂ of this round and the last; γ minimises ‖r − γ Δr‖.
                let (mut num, mut den) = (0.0, 0.0);
                for i in 0..n.len() {
                    let r = n[i] - n_hat[i];
                    let dr = r - (last_n[i] - last_hat[i]);
                    num += r * dr;
                    den += dr * dr;
                }
                if den > 0.0 {
                    let gamma = num / den;
                    for i in 0..n.len() {
                        next[i] = (n[i] - gamma * (n[i] - last_n[i])).max(0.0);
                    }
                }
            }
            last = Some((std::mem::replace(&mut n_hat, next), n));
        }
        converged &= settled;
        if let Some((_, best_v, best_drag)) = best {
            v = best_v;
            potential.drag = best_drag;
        }
    }
    let normals = potential.normals(&v);
    // F_T = −μ N̂ ψ'(u_T⁺), with the N̂ of the minimisation kept (drag = h μ N̂). Where the
    // rounds settled, N̂ = N to 1e-10 (relative, plus 1e-10 N). Where they did not (a wedge at
    // large μ and h ω, whose loads cycle from round to round), N̂ may exceed N, and with it
    // the friction μN. It is then cut to the cone, F_T = −μ N ψ'(u_T⁺), and the velocities
    // take the momentum of the cut, h M⁻¹ J_Tᵀ ΔF_T: the step's forces keep their laws and its
    // momentum balance, and what is left over, the penalty law's N at the new velocities
    // against the N applied, is the reported residual.
    let mut cut = DVector::zeros(v.len());
    let frictions: Vec<Vec<f64>> = contacts
        .iter()
        .zip(&potential.drag)
        .zip(&normals)
        .map(|((ct, &drag), &n)| {
            let n_hat = if drag > 0.0 {
                drag / (h * material.friction)
            } else {
                0.0
            };
            let applied = regularised_friction(
                ct,
                &v,
                n_hat,
                material.friction,
                material.slip_regularization,
            );
            // Within the rounds' tolerance (always, below N) the friction stands as applied.
            if n_hat - n <= NORMAL_TOLERANCE * (1.0 + n) {
                return applied;
            }
            let kept =
                regularised_friction(ct, &v, n, material.friction, material.slip_regularization);
            for ((row, a), k) in ct.tangent_rows.iter().zip(&applied).zip(&kept) {
                row.add_transpose_to(h * (k - a), &mut cut);
            }
            kept
        })
        .collect();
    if cut.iter().any(|x| *x != 0.0) {
        v += system.mass().apply_inverse(&cut);
        let drift = largest_relative_difference(&normals, &potential.normals(&v));
        residual = residual.max(drift);
    }
    Ok(ImplicitStep {
        v,
        normals,
        frictions,
        iterations,
        residual,
        converged,
    })
}
