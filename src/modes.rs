//! Coupled penalty-contact modes and the time-step limits they set (seed 003).
//!
//! Freeze the configuration and the set of compressed penalty contacts. With gap
//! perturbations ξ = J q, the linearised motion about the preloaded equilibrium is
//!
//! ```text
//!     M q̈ + Jᵀ K J q = 0,         ξ̈ + A K ξ = 0,   A = J M⁻¹ Jᵀ,   K = diag(kᵢ).
//! ```
//!
//! A K is not symmetric but it is similar to S = K^½ A K^½ (z = K^½ ξ), which is symmetric
//! positive semi-definite, so ω² are the eigenvalues of S and its eigenvectors z give
//!
//! - the mode shape in contact space, ξ ∝ K^-½ z (which gaps open and close together);
//! - the mode shape in generalized coordinates, φ ∝ M⁻¹ Jᵀ K^½ z (it solves
//!   Jᵀ K J φ = ω² M φ), normalised here to φᵀ M φ = 1.
//!
//! A zero eigenvalue of S is not an oscillation: it is a combination of gaps the bodies cannot
//! produce (more contacts than independent motions, e.g. a bar on three supports). Free
//! generalized motions with J q = 0 (sliding along the floor) are counted apart, as the
//! dimension of the null space of J.
//!
//! The per-contact ("decoupled") estimate ωᵢ = √(kᵢ Aᵢᵢ) treats each contact as a spring
//! under its own effective mass 1/Aᵢᵢ; for the seed's bar it gives 500 rad/s for both
//! contacts and misses the coupled 316.2 (heave) and 632.5 rad/s (rocking).
//!
//! Stability of central difference (= symplectic Euler on position-dependent forces): one
//! mode follows r² − 2(1 − h²ω²/2) r + 1 = 0, whose roots stay on the unit circle for
//! 0 < hω < 2, so the step must satisfy h < 2/ω_max. Gershgorin's theorem bounds
//! λ_max(S) ≤ maxᵢ Σⱼ |Sᵢⱼ| cheaply for large contact sets.

use nalgebra::{DMatrix, DVector};
use serde::Serialize;

use crate::contact::{Contact, Delassus};
use crate::model::System;

/// Eigenvalues below this fraction of the largest count as zero.
const ZERO_EIGENVALUE: f64 = 1e-9;

/// The same for a structure, whose axial modes stand far above its contact modes (a steel
/// bar of 16 elements on supports: 1e-11 of the largest for its heave). A rigid motion's
/// eigenvalue is rounding, some dofs·ε of the largest.
const STRUCTURE_ZERO_EIGENVALUE: f64 = 1e-13;

/// The coupled modes of a set of compressed penalty contacts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModalAnalysis {
    /// Angular frequencies of the oscillating modes, ascending, rad/s.
    pub omega: Vec<f64>,
    /// Per-contact estimates √(kᵢ Aᵢᵢ), rad/s, in contact order.
    pub decoupled_omega: Vec<f64>,
    /// Zero eigenvalues of K^½ A K^½: redundant gap combinations, not oscillations.
    pub zero_modes: usize,
    /// Free generalized motions (dimension of the null space of J).
    pub free_motions: usize,
    /// Mode shapes in contact space (gap perturbations), one per ω, largest entry +1.
    pub mode_shapes: Vec<Vec<f64>>,
    /// Mode shapes in generalized coordinates, one per ω, with φᵀ M φ = 1.
    pub generalized_shapes: Vec<Vec<f64>>,
    /// Gershgorin bound on ω_max, rad/s (≥ the largest ω).
    pub omega_max_bound: f64,
}

impl ModalAnalysis {
    /// The largest angular frequency, rad/s (0 when nothing oscillates).
    pub fn omega_max(&self) -> f64 {
        self.omega.last().copied().unwrap_or(0.0)
    }

    /// An analysis with no contacts.
    pub fn empty(dofs: usize) -> Self {
        Self {
            omega: vec![],
            decoupled_omega: vec![],
            zero_modes: 0,
            free_motions: dofs,
            mode_shapes: vec![],
            generalized_shapes: vec![],
            omega_max_bound: 0.0,
        }
    }
}

/// The structure's own stiffness K_s = −∂f/∂q at the current positions (v = 0), when some
/// body has one (a beam); None for rigid bodies.
fn structural_stiffness(system: &System) -> Option<DMatrix<f64>> {
    if !system.has_beams() {
        return None;
    }
    let zero = DVector::zeros(system.dofs());
    system.force_tangent(&system.q, &zero, -1.0, 0.0)
}

/// Modes of a structure (beams) with its penalty contacts:
/// (K_s + Jᵀ K_c J) φ = ω² M φ, solved as the symmetric S = L⁻¹ K L⁻ᵀ with M = L Lᵀ.
/// For rigid bodies (K_s = 0) its non-zero eigenvalues are those of K^½ A K^½.
fn analyse_structure(
    system: &System,
    contacts: &[&Contact],
    stiffness: &[f64],
    k_s: DMatrix<f64>,
) -> ModalAnalysis {
    let dofs = system.dofs();
    let mut k = k_s;
    for (c, &kc) in contacts.iter().zip(stiffness) {
        let mut j = DVector::zeros(dofs);
        c.normal_row.add_transpose_to(1.0, &mut j);
        k += &j * j.transpose() * kc;
    }
    let m = system.mass().to_dense();
    let (Some(chol), true) = (m.clone().cholesky(), k.iter().all(|x| x.is_finite())) else {
        return ModalAnalysis::empty(dofs);
    };
    let l = chol.l();
    let Some(l_inv) = l.clone().try_inverse() else {
        return ModalAnalysis::empty(dofs);
    };
    let s = &l_inv * &k * l_inv.transpose();
    let s = (&s + s.transpose()) * 0.5;
    let gershgorin = (0..dofs)
        .map(|i| (0..dofs).map(|j| s[(i, j)].abs()).sum::<f64>())
        .fold(0.0f64, f64::max);
    let eigen = s.symmetric_eigen();
    let largest = eigen.eigenvalues.iter().fold(0.0f64, |m, &x| m.max(x));
    let mut order: Vec<usize> = (0..dofs).collect();
    order.sort_by(|&i, &j| eigen.eigenvalues[i].total_cmp(&eigen.eigenvalues[j]));
    let rows: Vec<_> = contacts.iter().map(|c| c.normal_row.clone()).collect();
    let delassus = Delassus::new(system.mass(), rows);
    let a = delassus.dense();
    let rank = if contacts.is_empty() {
        0
    } else {
        jacobian_rank(&delassus, dofs)
    };
    let mut analysis = ModalAnalysis {
        omega: vec![],
        decoupled_omega: (0..contacts.len())
            .map(|i| (stiffness[i] * a[(i, i)]).sqrt())
            .collect(),
        zero_modes: contacts.len() - rank,
        free_motions: 0,
        mode_shapes: vec![],
        generalized_shapes: vec![],
        omega_max_bound: gershgorin.sqrt(),
    };
    for i in order {
        let lambda = eigen.eigenvalues[i];
        if lambda <= STRUCTURE_ZERO_EIGENVALUE * largest {
            analysis.free_motions += 1;
            continue;
        }
        // φ = L⁻ᵀ y has φᵀ M φ = yᵀ y = 1.
        let mut phi = l_inv.transpose() * eigen.eigenvectors.column(i);
        fix_sign(phi.as_mut_slice());
        let mut xi: Vec<f64> = contacts.iter().map(|c| c.normal_row.dot(&phi)).collect();
        if xi.iter().any(|x| *x != 0.0) {
            normalise_max(&mut xi);
        }
        analysis.omega.push(lambda.sqrt());
        analysis.mode_shapes.push(xi);
        analysis.generalized_shapes.push(phi.as_slice().to_vec());
    }
    analysis
}

/// Modes of `contacts` with stiffnesses `stiffness` (N/m) at the system's configuration;
/// with a structure's own stiffness too when the system has beams.
pub fn analyse(system: &System, contacts: &[&Contact], stiffness: &[f64]) -> ModalAnalysis {
    if let Some(k_s) = structural_stiffness(system) {
        return analyse_structure(system, contacts, stiffness, k_s);
    }
    let n = contacts.len();
    let dofs = system.dofs();
    if n == 0 {
        return ModalAnalysis::empty(dofs);
    }
    let rows: Vec<_> = contacts.iter().map(|c| c.normal_row.clone()).collect();
    let delassus = Delassus::new(system.mass(), rows);
    let a = delassus.dense();
    let root_k = DVector::from_iterator(n, stiffness.iter().map(|k| k.sqrt()));
    let s = DMatrix::from_fn(n, n, |i, j| root_k[i] * a[(i, j)] * root_k[j]);
    // A non-finite entry (from a state that overflowed) would send the eigen-solver into an
    // endless sweep: there are no modes to report then.
    if !s.iter().all(|x| x.is_finite()) {
        return ModalAnalysis::empty(dofs);
    }
    let decoupled_omega = (0..n).map(|i| (stiffness[i] * a[(i, i)]).sqrt()).collect();
    let gershgorin = (0..n)
        .map(|i| (0..n).map(|j| s[(i, j)].abs()).sum::<f64>())
        .fold(0.0f64, f64::max);

    let eigen = s.symmetric_eigen();
    let largest = eigen.eigenvalues.iter().fold(0.0f64, |m, &l| m.max(l));
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| eigen.eigenvalues[i].total_cmp(&eigen.eigenvalues[j]));
    let mut analysis = ModalAnalysis {
        omega: vec![],
        decoupled_omega,
        zero_modes: 0,
        free_motions: dofs - jacobian_rank(&delassus, dofs),
        mode_shapes: vec![],
        generalized_shapes: vec![],
        omega_max_bound: gershgorin.sqrt(),
    };
    for i in order {
        let lambda = eigen.eigenvalues[i];
        if lambda <= ZERO_EIGENVALUE * largest {
            analysis.zero_modes += 1;
            continue;
        }
        let z = eigen.eigenvectors.column(i);
        let mut xi: Vec<f64> = (0..n).map(|k| z[k] / root_k[k]).collect();
        normalise_max(&mut xi);
        // φ = M⁻¹ Jᵀ K^½ z, then φᵀ M φ = 1.
        let mut phi = DVector::zeros(dofs);
        for (k, m_inv_row) in delassus.inverse_mass_rows().iter().enumerate() {
            m_inv_row.add_transpose_to(root_k[k] * z[k], &mut phi);
        }
        let norm = phi.dot(&system.mass().apply(&phi)).sqrt();
        if norm > 0.0 {
            phi /= norm;
        }
        fix_sign(phi.as_mut_slice());
        analysis.omega.push(lambda.sqrt());
        analysis.mode_shapes.push(xi);
        analysis.generalized_shapes.push(phi.as_slice().to_vec());
    }
    analysis
}

/// Rank of the dense J (contacts × dofs) by singular values.
fn jacobian_rank(delassus: &Delassus, dofs: usize) -> usize {
    let rows = delassus.rows();
    let j = DMatrix::from_fn(rows.len(), dofs, |i, k| {
        rows[i]
            .entries
            .iter()
            .filter(|e| e.0 == k)
            .map(|e| e.1)
            .sum::<f64>()
    });
    let svd = j.svd(false, false);
    let largest = svd.singular_values.iter().fold(0.0f64, |m, &s| m.max(s));
    svd.singular_values
        .iter()
        .filter(|&&s| s > 1e-10 * largest.max(1e-300))
        .count()
}

/// Scales so the largest |entry| is 1 and makes it positive (a deterministic sign).
fn normalise_max(v: &mut [f64]) {
    let (mut big, mut sign) = (0.0f64, 1.0);
    for &x in v.iter() {
        if x.abs() > big * (1.0 + 1e-12) {
            big = x.abs();
            sign = x.signum();
        }
    }
    if big > 0.0 {
        for x in v.iter_mut() {
            *x = *x * (sign / big) + 0.0;
        }
    }
}

/// Makes the first entry that is clearly non-zero positive (and −0 into 0).
fn fix_sign(v: &mut [f64]) {
    let big = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let sign = match v.iter().find(|x| x.abs() > 1e-9 * big) {
        Some(first) if *first < 0.0 => -1.0,
        _ => 1.0,
    };
    for x in v.iter_mut() {
        *x = sign * *x + 0.0;
    }
}

/// Largest stable time step of `stepper` for contact modes `omega` (rad/s) of penalty contacts
/// with stiffness `stiffness` (N/m) and damping `damping` (N·s/m); None when the stepper has no
/// such limit (implicit or rigid-contact steppers) or nothing oscillates.
///
/// Central difference (symplectic Euler with the damper at the start of the step) on one mode
/// with Delassus eigenvalue λ = ω²/k follows r² − (2 − h²kλ − hcλ) r + (1 − hcλ) = 0; by
/// Jury's test it is stable when h c λ < 2 and h² k λ + 2 h c λ < 4, i.e. for
/// h < min(2/(cλ), (√(c²λ² + 4ω²) − cλ)/ω²) — 2/ω without damping. The limit is the
/// smallest over the modes.
pub fn time_step_limit(stepper: &str, omega: &[f64], stiffness: f64, damping: f64) -> Option<f64> {
    if stepper != "penalty-explicit" || omega.is_empty() {
        return None;
    }
    omega
        .iter()
        .filter(|&&w| w > 0.0)
        .map(|&w| {
            let cl = damping * w * w / stiffness;
            let oscillation = ((cl * cl + 4.0 * w * w).sqrt() - cl) / (w * w);
            if cl > 0.0 {
                oscillation.min(2.0 / cl)
            } else {
                oscillation
            }
        })
        .reduce(f64::min)
}

/// What each stepper does with a stiff contact mode, in one line (for the page and the CLI).
pub fn stability_note(stepper: &str) -> &'static str {
    match stepper {
        "penalty-explicit" => {
            "central difference: stable only for h·ω_max < 2; beyond it the fastest mode grows every step"
        }
        "penalty-implicit" => {
            "backward Euler: stable for every h, but it damps contact oscillations (strongly once h·ω ≳ 1)"
        }
        _ => "rigid contact: no penalty oscillation, so no contact-stiffness limit on h",
    }
}

/// Angular frequency of a sampled signal from its upward zero crossings (after removing the
/// mean), with linear interpolation between samples; None with fewer than two crossings.
pub fn measure_frequency(t: &[f64], x: &[f64]) -> Option<f64> {
    if t.len() != x.len() || t.len() < 3 {
        return None;
    }
    let mean = x.iter().sum::<f64>() / x.len() as f64;
    let mut crossings = Vec::new();
    for k in 1..x.len() {
        let (a, b) = (x[k - 1] - mean, x[k] - mean);
        if a < 0.0 && b >= 0.0 {
            crossings.push(t[k - 1] + (t[k] - t[k - 1]) * (-a) / (b - a));
        }
    }
    if crossings.len() < 2 {
        return None;
    }
    let periods = (crossings.len() - 1) as f64;
    let span = crossings[crossings.len() - 1] - crossings[0];
    (span > 0.0).then(|| 2.0 * std::f64::consts::PI * periods / span)
}

/// The linearised static equilibrium of the penalty contacts: the displacement Δq that makes
/// f + Jᵀ K (−d − J Δq) = 0 (least squares, so free motions get none), and the gaps there.
pub fn static_equilibrium(
    system: &System,
    contacts: &[&Contact],
    stiffness: &[f64],
) -> (DVector<f64>, Vec<f64>) {
    let dofs = system.dofs();
    let mut g = structural_stiffness(system).unwrap_or_else(|| DMatrix::zeros(dofs, dofs));
    let mut rhs = system.generalized_forces(&system.q, &system.v, system.t);
    for (c, &k) in contacts.iter().zip(stiffness) {
        let mut j = DVector::zeros(dofs);
        c.normal_row.add_transpose_to(1.0, &mut j);
        g += &j * j.transpose() * k;
        rhs += &j * (k * -c.gap);
    }
    let eps = 1e-12 * g.amax().max(1e-300);
    let delta = g
        .pseudo_inverse(eps)
        .map(|p| p * rhs)
        .unwrap_or_else(|_| DVector::zeros(dofs));
    let gaps = contacts
        .iter()
        .map(|c| c.gap + c.normal_row.dot(&delta))
        .collect();
    (delta, gaps)
}

/// Energy in each mode of `analysis`, ½(η̇² + ω²η²) with η = φᵀM(q − q_eq), η̇ = φᵀM v, J.
pub fn modal_energies(
    system: &System,
    contacts: &[&Contact],
    stiffness: &[f64],
    analysis: &ModalAnalysis,
) -> Vec<f64> {
    if analysis.omega.is_empty() {
        return vec![];
    }
    let (delta, _) = static_equilibrium(system, contacts, stiffness);
    let m_delta = system.mass().apply(&delta);
    let m_v = system.mass().apply(&system.v);
    analysis
        .omega
        .iter()
        .zip(&analysis.generalized_shapes)
        .map(|(&w, phi)| {
            let phi = DVector::from_column_slice(phi);
            let eta = -phi.dot(&m_delta);
            let rate = phi.dot(&m_v);
            0.5 * (rate * rate + w * w * eta * eta)
        })
        .collect()
}
