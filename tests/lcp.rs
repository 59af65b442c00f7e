//! LCP solvers: every answer checked, Lemke against brute force, PGS honesty (reference F4).
#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::needless_range_loop)] // index loops read like the maths here

use contactlab::Simulation;
use contactlab::lcp::{
    Lcp, LcpSolution, LcpStatus, PgsOptions, complementarity_residual, solve_lemke,
    solve_lemke_capped_into, solve_pgs,
};
use nalgebra::{DMatrix, DVector};

mod common;
use common::Rng;

/// A random P-matrix: symmetric positive definite plus a skew part (still a P-matrix).
fn random_p_matrix(rng: &mut Rng, n: usize, symmetric: bool) -> DMatrix<f64> {
    let a = DMatrix::from_fn(n, n, |_, _| rng.next());
    let mut m = &a * a.transpose() + DMatrix::identity(n, n) * 0.1;
    if !symmetric {
        let s = DMatrix::from_fn(n, n, |_, _| rng.next());
        m += &s - s.transpose();
    }
    m
}

/// Every complementary basis: solve M_SS z_S = −q_S and keep the feasible one.
fn brute_force(lcp: &Lcp) -> Option<Vec<f64>> {
    let n = lcp.len();
    for mask in 0u32..(1 << n) {
        let s: Vec<usize> = (0..n).filter(|i| mask & (1 << i) != 0).collect();
        let mut z = DVector::zeros(n);
        if !s.is_empty() {
            let mss = DMatrix::from_fn(s.len(), s.len(), |a, b| lcp.m[(s[a], s[b])]);
            let rhs = DVector::from_fn(s.len(), |a, _| -lcp.q[s[a]]);
            let Some(zs) = mss.lu().solve(&rhs) else {
                continue;
            };
            for (a, &i) in s.iter().enumerate() {
                z[i] = zs[a];
            }
        }
        let w = lcp.slack(&z);
        if z.iter().all(|&x| x >= -1e-12) && w.iter().all(|&x| x >= -1e-10) {
            return Some(z.as_slice().to_vec());
        }
    }
    None
}

fn assert_complementary(lcp: &Lcp, z: &[f64], w: &[f64]) {
    let scale = 1.0 + lcp.q.amax() + lcp.m.amax() * z.iter().fold(0.0f64, |a, b| a.max(b.abs()));
    for i in 0..z.len() {
        assert!(z[i] >= 0.0, "z[{i}] = {}", z[i]);
        assert!(w[i] >= -1e-10 * scale, "w[{i}] = {}", w[i]);
    }
    let zw: f64 = z.iter().zip(w).map(|(a, b)| a * b).sum();
    assert!(zw.abs() <= 1e-10 * scale * scale, "z·w = {zw}");
}

#[test]
fn lemke_matches_brute_force_on_random_p_matrices() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for trial in 0..400 {
        let n = 1 + trial % 6;
        let m = random_p_matrix(&mut rng, n, trial % 2 == 0);
        let q = DVector::from_fn(n, |_, _| 3.0 * rng.next());
        let lcp = Lcp::new(m, q).unwrap();
        let sol = solve_lemke(&lcp);
        assert_eq!(sol.status, LcpStatus::Solved, "trial {trial}");
        assert_complementary(&lcp, &sol.z, &sol.w);
        // A P-matrix LCP has exactly one solution.
        let exact = brute_force(&lcp).expect("P-matrix LCPs are solvable");
        for i in 0..n {
            assert!(
                (sol.z[i] - exact[i]).abs() <= 1e-9 * (1.0 + exact[i].abs()),
                "trial {trial}"
            );
        }
    }
}

#[test]
fn lemke_survives_degenerate_ties() {
    // Equal entries of q and a singular W (three supports under one rigid bar).
    let m = DMatrix::from_row_slice(3, 3, &[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]);
    let lcp = Lcp::new(m, DVector::from_vec(vec![-1.0, -1.0, -1.0])).unwrap();
    let sol = solve_lemke(&lcp);
    assert_eq!(sol.status, LcpStatus::Solved);
    assert_complementary(&lcp, &sol.z, &sol.w);
    assert!((sol.z.iter().sum::<f64>() - 1.0).abs() < 1e-12);
}

#[test]
fn lemke_reports_no_solution_on_a_ray() {
    // w = −z − 1 can never be ≥ 0 for z ≥ 0.
    let lcp = Lcp::new(
        DMatrix::from_element(1, 1, -1.0),
        DVector::from_element(1, -1.0),
    )
    .unwrap();
    assert_eq!(solve_lemke(&lcp).status, LcpStatus::NoSolution);
    // Two contacts that pull each other: no solution either.
    let m = DMatrix::from_row_slice(2, 2, &[0.0, -1.0, -1.0, 0.0]);
    let lcp = Lcp::new(m, DVector::from_vec(vec![-1.0, -1.0])).unwrap();
    assert_eq!(solve_lemke(&lcp).status, LcpStatus::NoSolution);
}

/// A pivot cap is a cap: Lemke given the pivots its path takes finds the same answer as
/// without a cap, and given one fewer stops and says it did not converge (no z, which is
/// not an answer). The path takes more pivots than the z that end positive: each entered
/// the basis, and the artificial variable left it.
#[test]
fn lemke_stops_at_its_pivot_cap_and_says_so() {
    let mut rng = Rng(11);
    let n = 12;
    let m = random_p_matrix(&mut rng, n, true);
    let q = DVector::from_fn(n, |_, _| -1.5 + 0.5 * rng.next());
    let lcp = Lcp::new(m, q).unwrap();
    let free = solve_lemke(&lcp);
    assert_eq!(free.status, LcpStatus::Solved);
    let positive = free.z.iter().filter(|&&z| z > 0.0).count();
    assert!(free.iterations > positive, "{} pivots", free.iterations);
    let mut capped = LcpSolution::empty();
    solve_lemke_capped_into(&lcp, free.iterations, &mut capped);
    assert_eq!(capped.status, LcpStatus::Solved);
    assert_eq!(capped.z, free.z);
    solve_lemke_capped_into(&lcp, free.iterations - 1, &mut capped);
    assert_eq!(capped.status, LcpStatus::NotConverged);
    assert_eq!(capped.iterations, free.iterations - 1);
    assert!(capped.z.iter().all(|&z| z == 0.0));
}

#[test]
fn pgs_agrees_with_lemke_on_symmetric_positive_definite_problems() {
    let mut rng = Rng(42);
    for trial in 0..100 {
        let n = 1 + trial % 8;
        let m = random_p_matrix(&mut rng, n, true) + DMatrix::identity(n, n);
        let q = DVector::from_fn(n, |_, _| rng.next());
        let lcp = Lcp::new(m, q).unwrap();
        let exact = solve_lemke(&lcp);
        let it = solve_pgs(
            &lcp,
            &PgsOptions {
                max_iterations: 100_000,
                tolerance: 1e-13,
            },
        );
        assert_eq!(it.status, LcpStatus::Solved, "trial {trial}");
        assert_complementary(&lcp, &it.z, &it.w);
        for i in 0..n {
            assert!((it.z[i] - exact.z[i]).abs() < 1e-8 * (1.0 + exact.z[i].abs()));
        }
    }
}

fn stacked_lcp() -> Lcp {
    let sim = Simulation::from_preset("stacked-boxes", &[]).unwrap();
    assert_eq!(
        sim.closed_contact_ids(),
        vec!["lower/floor#0", "upper/lower#0"]
    );
    sim.acceleration_lcp().unwrap()
}

#[test]
fn f4_lemke_is_exact_on_the_heavy_stack() {
    let lcp = stacked_lcp();
    let sol = solve_lemke(&lcp);
    assert_eq!(sol.status, LcpStatus::Solved);
    // N₁ = (m₁ + m₂) g, N₂ = m₂ g.
    assert!(
        (sol.z[0] - 1001.0 * 9.81).abs() < 1e-9 * 9819.81,
        "N = {:?}",
        sol.z
    );
    assert!((sol.z[1] - 1000.0 * 9.81).abs() < 1e-9 * 9810.0);
    assert!((sol.z[0] - 9819.81).abs() < 1e-8 && (sol.z[1] - 9810.0).abs() < 1e-8);
    assert!(sol.residual < 1e-9);
}

#[test]
fn f4_pgs_converges_at_the_predicted_rate_and_says_when_it_has_not() {
    let lcp = stacked_lcp();
    let exact = [9819.81, 9810.0];
    let rate: f64 = 1000.0 / 1001.0;
    let error_after = |sweeps: usize| {
        let s = solve_pgs(
            &lcp,
            &PgsOptions {
                max_iterations: sweeps,
                tolerance: 0.0,
            },
        );
        (s.z[1] - exact[1]).abs() / exact[1]
    };
    // The error contracts by m₂/(m₁+m₂) per sweep.
    let ratio = error_after(2000) / error_after(1000);
    assert!(
        (ratio - rate.powi(1000)).abs() < 0.01 * rate.powi(1000),
        "ratio {ratio}"
    );
    // Six digits need ln(1e-6)/ln(1000/1001) ≈ 13,800 sweeps.
    let needed = (1e-6f64).ln() / rate.ln();
    assert!((needed - 13_822.0).abs() < 1.0);
    assert!(error_after((0.97 * needed) as usize) > 1e-6);
    assert!(error_after((1.03 * needed) as usize) < 1e-6);
    // A capped solve says so and its residual shows the violation.
    let capped = solve_pgs(
        &lcp,
        &PgsOptions {
            max_iterations: 1000,
            tolerance: 1e-10,
        },
    );
    assert_eq!(capped.status, LcpStatus::NotConverged);
    assert!(capped.residual > 1.0);
    assert_eq!(
        complementarity_residual(&capped.z, &capped.w),
        capped.residual
    );
}

#[test]
fn f4_the_stepper_reports_an_unconverged_pgs_solve() {
    let mut sim = Simulation::from_preset("stacked-boxes", &[]).unwrap();
    sim.set_lcp_solver("pgs", 1000, 1e-10).unwrap();
    sim.step().unwrap();
    let s = sim.sample();
    assert!(!s.converged);
    // After 1000 sweeps (1000/1001)^1000 ≈ 37 % of the initial (relative, ≈ 1) error remains;
    // the row-scaled residual sees one sweep's correction, (1 − 1000/1001) × 0.37 ≈ 3.7e-4,
    // six decades above the tolerance.
    assert!(
        s.residual > 1e-4 && s.residual < 1e-3,
        "relative residual {}",
        s.residual
    );
    let mut sim = Simulation::from_preset("stacked-boxes", &[]).unwrap();
    sim.step().unwrap();
    let s = sim.sample();
    assert!(s.converged);
    assert!((s.contacts[0].normal - 9819.81).abs() < 1e-8);
}

#[test]
fn residual_is_zero_exactly_at_solutions_and_positive_otherwise() {
    assert_eq!(complementarity_residual(&[1.0, 0.0], &[0.0, 2.0]), 0.0);
    assert_eq!(complementarity_residual(&[-0.5, 0.0], &[0.0, 0.0]), 0.5);
    assert_eq!(complementarity_residual(&[0.0], &[-0.25]), 0.25);
    assert_eq!(complementarity_residual(&[1.5, 1.5], &[1.5, 1.5]), 1.5);
}

#[test]
fn matrix_free_pgs_equals_the_dense_solve() {
    use contactlab::contact::{Delassus, detect_contacts};
    use contactlab::lcp::pgs::RowBound;
    use contactlab::lcp::solve_pgs_operator;
    // The coupled pair: W from J and M⁻¹ without forming it, against Lemke on the dense W.
    let sim = Simulation::from_preset("coupled-pair", &[]).unwrap();
    let system = sim.system();
    let contacts = detect_contacts(system, &system.q, 1e-6);
    let rows: Vec<_> = contacts.iter().map(|c| c.normal_row.clone()).collect();
    let delassus = Delassus::new(system.mass(), rows);
    let lcp = sim.acceleration_lcp().unwrap();
    let exact = solve_lemke(&lcp);
    let bounds = vec![RowBound::NonNegative; lcp.len()];
    let options = PgsOptions {
        max_iterations: 10_000,
        tolerance: 1e-14,
    };
    let free = solve_pgs_operator(&delassus, lcp.q.as_slice(), &bounds, None, &options);
    assert_eq!(free.status, LcpStatus::Solved);
    for i in 0..lcp.len() {
        assert!(
            (free.z[i] - exact.z[i]).abs() < 1e-12,
            "{:?} vs {:?}",
            free.z,
            exact.z
        );
    }
}
