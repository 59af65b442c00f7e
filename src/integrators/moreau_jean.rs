//! Velocity-level time stepping (Moreau–Jean): impulses, Newton's impact law and planar Coulomb friction.
//!
//! One step from (q_k, v_k), after Moreau (1988) and Jean (1999), with θ = 1:
//!
//! ```text
//!     v_free = v_k + h M⁻¹ f(q_k, v_k, t_k)
//!     active: contacts whose predicted gap d_k + h J_N v_free ≤ 0 (they close in the step)
//!     v⁺ = v_free + M⁻¹ (J_Nᵀ P_N + J_Tᵀ P_T)
//!     0 ≤ P_N ⟂ J_N v⁺ + e ḋ⁻ ≥ 0,           ḋ⁻ = min(J_N v_k, 0)   (Newton's impact law)
//!     |P_T| ≤ μ P_N,  P_T opposes J_T v⁺ when it is not zero   (Coulomb, planar: a segment)
//!     q_{k+1} = q_k ⊕ h v⁺
//! ```
//!
//! Every contact that closes in the step takes part at once, so simultaneous impacts are one
//! problem. The problem is an LCP in the Stewart–Trinkle form, with the friction impulse split
//! P_T = β⁺ − β⁻ and a slack λ (the slip speed):
//!
//! ```text
//!     w_N = W_NN P_N + W_NT (β⁺−β⁻) + J_N v_free + e ḋ⁻ ≥ 0 ⟂ P_N ≥ 0
//!     w_+ = W_TN P_N + W_TT (β⁺−β⁻) + J_T v_free + λ   ≥ 0 ⟂ β⁺ ≥ 0
//!     w_− = −(W_TN P_N + W_TT (β⁺−β⁻) + J_T v_free) + λ ≥ 0 ⟂ β⁻ ≥ 0
//!     w_λ = μ P_N − β⁺ − β⁻                              ≥ 0 ⟂ λ  ≥ 0
//! ```
//!
//! solved exactly by Lemke; with PGS the same law is solved as a boxed problem (P_T clamped to
//! [−μ P_N, μ P_N]) on the matrix-free operator. Spheres in space (friction discs, rolling and
//! spinning resistance) use the augmented-Lagrangian laws of [`crate::laws`] instead, the same
//! velocity-level problem as NSGA's, without its position-level correction. Positions are enforced only through
//! velocities, so gaps are first-order accurate: impacts are timed to within a step and a
//! curved contact path leaves a gap of O(h²) per step, which the active-set test corrects.

use nalgebra::{DMatrix, DVector};

use super::law_contacts::{ImpulseSettings, report_contacts, solve_impulses};
use super::{
    ContactReport, ContactSettings, ContactState, FORCE_TOLERANCE, StepReport, StepSolver, Stepper,
};
use crate::contact::{Contact, Delassus, JacobianRow, detect_contacts};
use crate::error::Result;
use crate::laws::NewtonOptions;
use crate::lcp::pgs::RowBound;
use crate::lcp::{Lcp, LcpSolverKind, LcpStatus, PgsOptions, solve_lemke, solve_pgs_operator};
use crate::model::System;

/// Settings of the Moreau–Jean stepper.
#[derive(Debug, Clone, PartialEq)]
pub struct MoreauJeanSettings {
    /// Solver for the contact impulses (Lemke falls back to the boxed PGS problem if rounding keeps
    /// it from a solution).$
    pub solver: LcpSolverKind,
    /// PGS cap and tolerance.
    pub pgs: PgsOptions,
    /// Approach speeds below this report `loaded`/`touching` rather than `impact`, m/s.
    pub impact_velocity: f64,
    /// Semismooth Newton settings for spheres (friction discs, rolling and spinning).
    pub newton: NewtonOptions,
}

impl Default for MoreauJeanSettings {
    fn default() -> Self {
        Self {
            solver: LcpSolverKind::Lemke,
            pgs: PgsOptions::default(),
            impact_velocity: 1e-3,
            newton: NewtonOptions::default(),
        }
    }
}

/// The Moreau–Jean stepper.
pub struct MoreauJeanStepper {
    settings: MoreauJeanSettings,
}

impl MoreauJeanStepper {
    /// A stepper with the given settings.
    pub fn new(settings: MoreauJeanSettings) -> Self {
        Self { settings }
    }
}

/// Normal and tangential impulses on the active contacts, with solver evidence.
struct Impulses {
    normal: Vec<f64>,
    tangent: Vec<f64>,
    iterations: usize,
    residual: f64,
    converged: bool,
    solver: StepSolver,
}

impl MoreauJeanStepper {
    fn solve_impulses(
        &self,
        system: &System,
        active: &[&Contact],
        v_free: &DVector<f64>,
        restitution: f64,
        mu: f64,
    ) -> Result<Impulses> {
        let nc = active.len();
        let with_friction = mu > 0.0;
        let mut rows: Vec<JacobianRow> = active.iter().map(|c| c.normal_row.clone()).collect();
        if with_friction {
            rows.extend(active.iter().map(|c| c.tangent_rows[0].clone()));
        }
        let delassus = Delassus::new(system.mass(), rows);
        let free_normal: Vec<f64> = active
            .iter()
            .map(|c| {
                let pre = c.gap_rate(&system.v).min(0.0);
                c.normal_row.dot(v_free) + restitution * pre
            })
            .collect();
        let free_tangent: Vec<f64> = if with_friction {
            active
                .iter()
                .map(|c| c.tangent_rows[0].dot(v_free))
                .collect()
        } else {
            vec![]
        };
        // The boxed problem by PGS: always an answer inside the laws (z_N ≥ 0, |z_T| ≤ μ z_N).
        let boxed = || {
            let mut q = free_normal.clone();
            q.extend_from_slice(&free_tangent);
            let mut bounds = vec![RowBound::NonNegative; nc];
            if with_friction {
                bounds.extend((0..nc).map(|i| RowBound::Friction { normal: i, mu }));
            }
            let r = solve_pgs_operator(&delassus, &q, &bounds, None, &self.settings.pgs);
            Impulses {
                normal: r.z[..nc].to_vec(),
                tangent: if with_friction {
                    r.z[nc..].to_vec()
                } else {
                    vec![0.0; nc]
                },
                iterations: r.iterations,
                residual: r.residual,
                converged: r.status == LcpStatus::Solved,
                solver: StepSolver::Pgs,
            }
        };
        if self.settings.solver == LcpSolverKind::Pgs {
            return Ok(boxed());
        }
        let w = delassus.dense();
        let (m, q) = if with_friction {
            stewart_trinkle(&w, nc, &free_normal, &free_tangent, mu)
        } else {
            (w, DVector::from_vec(free_normal.clone()))
        };
        let sol = solve_lemke(&Lcp::for_contacts(m, q, "Moreau–Jean impulse")?);
        if sol.status != LcpStatus::Solved {
            // The Stewart–Trinkle LCP of a positive-definite W always has a solution; if
            // rounding kept Lemke from it, the boxed PGS answer (inside the laws) is used and
            // the report says whether it converged.
            let mut fallback = boxed();
            fallback.iterations += sol.iterations;
            return Ok(fallback);
        }
        let normal = sol.z[..nc].to_vec();
        let tangent = if with_friction {
            (0..nc).map(|i| sol.z[nc + i] - sol.z[2 * nc + i]).collect()
        } else {
            vec![0.0; nc]
        };
        Ok(Impulses {
            normal,
            tangent,
            iterations: sol.iterations,
            residual: sol.relative_residual,
            converged: true,
            solver: StepSolver::Lemke,
        })
    }
}

/// The Stewart–Trinkle LCP matrix and vector for unknowns (P_N, β⁺, β⁻, λ).
fn stewart_trinkle(
    w: &DMatrix<f64>,
    nc: usize,
    free_normal: &[f64],
    free_tangent: &[f64],
    mu: f64,
) -> (DMatrix<f64>, DVector<f64>) {
    let n = 4 * nc;
    let mut m = DMatrix::zeros(n, n);
    let mut q = DVector::zeros(n);
    for i in 0..nc {
        for j in 0..nc {
            let (nn, nt) = (w[(i, j)], w[(i, nc + j)]);
            let (tn, tt) = (w[(nc + i, j)], w[(nc + i, nc + j)]);
            m[(i, j)] = nn;
            m[(i, nc + j)] = nt;
            m[(i, 2 * nc + j)] = -nt;
            m[(nc + i, j)] = tn;
            m[(nc + i, nc + j)] = tt;
            m[(nc + i, 2 * nc + j)] = -tt;
            m[(2 * nc + i, j)] = -tn;
            m[(2 * nc + i, nc + j)] = -tt;
            m[(2 * nc + i, 2 * nc + j)] = tt;
        }
        m[(nc + i, 3 * nc + i)] = 1.0;
        m[(2 * nc + i, 3 * nc + i)] = 1.0;
        m[(3 * nc + i, i)] = mu;
        m[(3 * nc + i, nc + i)] = -1.0;
        m[(3 * nc + i, 2 * nc + i)] = -1.0;
        q[i] = free_normal[i];
        q[nc + i] = free_tangent[i];
        q[2 * nc + i] = -free_tangent[i];
    }
    (m, q)
}

impl Stepper for MoreauJeanStepper {
    fn name(&self) -> &'static str {
        "moreau-jean"
    }

    fn step(
        &mut self,
        system: &mut System,
        settings: &ContactSettings,
        h: f64,
    ) -> Result<StepReport> {
        if system.is_spatial() {
            return self.step_with_laws(system, settings, h);
        }
        let contacts = detect_contacts(system, &system.q, settings.margin);
        let f = system.generalized_forces(&system.q, &system.v, system.t);
        let v_free = &system.v + system.mass().apply_inverse(&f) * h;
        let active: Vec<&Contact> = contacts
            .iter()
            .filter(|c| c.gap + h * c.normal_row.dot(&v_free) <= 0.0)
            .collect();
        let mut v_next = v_free.clone();
        let mut report = StepReport::default();
        let mut impulses = Vec::new();
        if !active.is_empty() {
            let sol = self.solve_impulses(
                system,
                &active,
                &v_free,
                settings.material.restitution,
                settings.material.friction,
            )?;
            let mut r = DVector::zeros(system.dofs());
            for (i, c) in active.iter().enumerate() {
                c.normal_row.add_transpose_to(sol.normal[i], &mut r);
                c.tangent_rows[0].add_transpose_to(sol.tangent[i], &mut r);
                impulses.push((c.key, sol.normal[i], sol.tangent[i], c.gap_rate(&system.v)));
            }
            v_next += system.mass().apply_inverse(&r);
            report.record_solve(sol.solver, sol.iterations, sol.residual, sol.converged);
        }
        system.q = system.integrate_positions(&system.q, &v_next, h);
        system.v = v_next;
        system.t += h;

        let after = detect_contacts(system, &system.q, settings.margin);
        report.contacts = after
            .iter()
            .map(|c| {
                let found = impulses.iter().find(|x| x.0 == c.key);
                let (pn, pt, pre) = found.map(|x| (x.1, x.2, x.3)).unwrap_or((0.0, 0.0, 0.0));
                let normal = pn / h;
                let state = if found.is_none() {
                    ContactState::Open
                } else if pn > 0.0 && pre < -self.settings.impact_velocity {
                    ContactState::Impact
                } else if normal > FORCE_TOLERANCE {
                    ContactState::Loaded
                } else if c.gap <= 1e-9 {
                    ContactState::Touching
                } else {
                    ContactState::Open
                };
                ContactReport::new(c, &system.v, (normal, pn, pt / h), state)
            })
            .collect();
        Ok(report)
    }
}

impl MoreauJeanStepper {
    /// Moreau–Jean with the augmented-Lagrangian contact laws (spheres in space).
    fn step_with_laws(
        &mut self,
        system: &mut System,
        settings: &ContactSettings,
        h: f64,
    ) -> Result<StepReport> {
        system.refresh_mass();
        let contacts = detect_contacts(system, &system.q, settings.margin);
        let f = system.generalized_forces(&system.q, &system.v, system.t);
        let v_free = &system.v + system.mass().apply_inverse(&f) * h;
        let active: Vec<&Contact> = contacts
            .iter()
            .filter(|c| c.gap + h * c.normal_row.dot(&v_free) <= 0.0)
            .collect();
        let mut report = StepReport::default();
        let (dv, solved) = if active.is_empty() {
            (DVector::zeros(system.dofs()), Vec::new())
        } else {
            let none = std::collections::BTreeMap::new();
            let laws = ImpulseSettings {
                material: &settings.material,
                newton: &self.settings.newton,
                warm: &none,
            };
            let before = system.v.clone();
            solve_impulses(system, active, (&v_free, &before), &laws, &mut report)
        };
        let v_next = &v_free + dv;
        system.q = system.integrate_positions(&system.q, &v_next, h);
        system.v = v_next;
        system.t += h;
        let after = detect_contacts(system, &system.q, settings.margin);
        report.contacts = report_contacts(
            &after,
            solved.as_ref(),
            &system.v,
            h,
            self.settings.impact_velocity,
        );
        Ok(report)
    }
}
