//! An upper bound on the highest penalty-contact frequency ω_max at any size, in O(contacts): Gershgorin's theorem on the sparse K^½ J M⁻¹ Jᵀ K^½, plus the beams' own bound.
//!
//! The coupled contact modes (`modes.rs`) solve a dense eigenproblem, too costly every step
//! above [`crate::simulation::SAMPLED_MODES_DOFS`] coordinates; this bound is what a large
//! system's explicit step is checked against. With A = J M⁻¹ Jᵀ over the compressed contacts'
//! normal rows and K = diag(kᵢ), the squared contact frequencies are the eigenvalues of the
//! symmetric S = K^½ A K^½ (`modes.rs`), and by Gershgorin
//!
//! ```text
//!     ω_max² = λ_max(S) ≤ maxⱼ Σᵢ |Sᵢⱼ| = maxⱼ √kⱼ Σᵢ √kᵢ |Jᵢ · M⁻¹ Jⱼᵀ|.
//! ```
//!
//! M is block-diagonal, so Aᵢⱼ is zero unless rows i and j share a body: column j scatters
//! M⁻¹ Jⱼᵀ and visits only the rows that touch its entries, O(contacts × neighbours) in all.
//! The value is the dense analysis's `omega_max_bound` to rounding. For rigid spheres it is
//! within a small factor of ω_max: a sphere under n others and on the floor has a row sum
//! (1 + n)/m-ish against an eigenvalue of up to about that.
//!
//! With beams, the structure's own stiffness adds to the contacts': by Weyl's inequality
//! λ_max(M⁻¹(K_s + Jᵀ K J)) ≤ λ_max(M⁻¹K_s) + λ_max(S), and λ_max(M⁻¹K_s) is bounded element
//! by element (Irons: an assembled ω_max never exceeds its largest element's), from each
//! element's unstrained tangent, as the beams' explicit limit already is.

use crate::contact::{Contact, JacobianRow};
use crate::model::System;

/// Gershgorin's bound on λ_max(K^½ J M⁻¹ Jᵀ K^½) for the rows `rows` with stiffnesses
/// `stiffness` (N/m), 1/s².
fn contact_eigenvalue_bound(system: &System, rows: &[&JacobianRow], stiffness: &[f64]) -> f64 {
    let mass = system.mass();
    let dofs = mass.dofs();
    // Which rows touch each generalized velocity.
    let mut touching: Vec<Vec<u32>> = vec![Vec::new(); dofs];
    for (i, row) in rows.iter().enumerate() {
        for &(d, _) in row.entries.iter() {
            let list = &mut touching[d];
            if list.last() != Some(&(i as u32)) {
                list.push(i as u32);
            }
        }
    }
    let mut scattered = vec![0.0; dofs];
    let mut visited = vec![usize::MAX; rows.len()];
    let mut bound = 0.0f64;
    for (j, row) in rows.iter().enumerate() {
        let column = mass.inverse_times_row(row);
        for &(d, a) in column.entries.iter() {
            scattered[d] += a;
        }
        let mut sum = 0.0;
        for &(d, _) in column.entries.iter() {
            for &i in &touching[d] {
                let i = i as usize;
                if visited[i] != j {
                    visited[i] = j;
                    sum += stiffness[i].sqrt() * rows[i].dot_slice(&scattered).abs();
                }
            }
        }
        bound = bound.max(stiffness[j].sqrt() * sum);
        for &(d, _) in column.entries.iter() {
            scattered[d] = 0.0;
        }
    }
    bound
}

/// An upper bound on ω_max of the penalty contacts `contacts` (stiffnesses `stiffness`, N/m)
/// at the system's configuration, with the beams' own frequencies, rad/s; 0 with nothing
/// to oscillate.
pub fn omega_max_bound(system: &System, contacts: &[&Contact], stiffness: &[f64]) -> f64 {
    let rows: Vec<&JacobianRow> = contacts.iter().map(|c| &c.normal_row).collect();
    let contacts_bound = contact_eigenvalue_bound(system, &rows, stiffness);
    let structure_bound = system
        .explicit_step_limit()
        .map_or(0.0, |limit| (2.0 / limit).powi(2));
    (contacts_bound + structure_bound).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulation::Simulation;

    /// The bound of `sim`'s compressed contacts and the dense analysis of the same.
    fn both(sim: &Simulation) -> (f64, crate::modes::ModalAnalysis) {
        let contacts = sim.compressed_contacts();
        let refs: Vec<&Contact> = contacts.iter().collect();
        let k = vec![sim.contact_settings().material.stiffness; refs.len()];
        (
            omega_max_bound(sim.system(), &refs, &k),
            crate::modes::analyse(sim.system(), &refs, &k),
        )
    }

    #[test]
    fn one_disk_on_the_floor_is_bounded_by_its_own_frequency_exactly() {
        // A 1×1 S: Gershgorin is exact, ω = √(k/m) (the normal through the centre).
        let (m, k): (f64, f64) = (2.0, 1e5);
        let scene = format!(
            r#"{{"bodies": [{{"name": "floor", "fixed": true, "shape": {{"type": "half_plane"}}}},
                {{"name": "disk", "mass": {m}, "position": [0.0, 0.0999],
                  "shape": {{"type": "disk", "radius": 0.1}}}}],
              "material": {{"stiffness": {k}}},
              "stepper": {{"kind": "penalty-explicit", "dt": 0.001}}}}"#
        );
        let sim = Simulation::from_json(&scene).unwrap();
        let (bound, dense) = both(&sim);
        assert_eq!(dense.omega.len(), 1);
        let exact = (k / m).sqrt();
        assert!(
            (bound - exact).abs() <= 1e-12 * exact,
            "{bound} against {exact}"
        );
        assert!((dense.omega_max() - exact).abs() <= 1e-12 * exact);
    }

    #[test]
    fn a_pile_s_bound_is_the_dense_gershgorin_bound_and_above_every_mode() {
        let mut sim = Simulation::from_preset("pile", &[("N".into(), 30.0)]).unwrap();
        sim.set_stepper("penalty-implicit").unwrap();
        for _ in 0..240 {
            sim.step().unwrap();
        }
        let (bound, dense) = both(&sim);
        assert!(dense.omega.len() > 20, "{} modes", dense.omega.len());
        assert!(
            (bound - dense.omega_max_bound).abs() <= 1e-12 * bound,
            "sparse {bound} against dense {}",
            dense.omega_max_bound
        );
        assert!(bound >= dense.omega_max());
    }

    #[test]
    fn a_flexible_bar_s_bound_is_above_its_coupled_modes() {
        // Weyl's inequality with Irons's element bound: the structure's and the contacts'
        // bounds add, and together stay above the dense analysis's ω_max.
        for preset in ["flexible-bar-on-supports", "sphere-on-bridge"] {
            let mut sim = Simulation::from_preset(preset, &[]).unwrap();
            sim.set_stepper("penalty-implicit").unwrap();
            for _ in 0..100 {
                sim.step().unwrap();
            }
            let (bound, dense) = both(&sim);
            assert!(!dense.omega.is_empty(), "{preset}: nothing compressed");
            assert!(
                bound >= dense.omega_max(),
                "{preset}: {bound} < {}",
                dense.omega_max()
            );
        }
    }
}
