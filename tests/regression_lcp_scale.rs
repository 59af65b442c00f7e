//! Regression: LCP answers that depended on the problem's units.
//!
//! What went wrong: Lemke's pivot tolerance grew with |b|, so W = [[1]], b = [−1e13] gave
//! `no_solution` and W = [[2, 1], [1, 2]], b = (−1e13, −1e13) gave `solved` with a residual
//! of 5e12; PGS on W = [[1e-9]], b = [−1e300] said `solved` with a residual of 1e300. Lemke now
//! runs on the equilibrated problem, every `solved` has a relative residual ≤ 1e-10, and an
//! answer that rounding spoiled is `inaccurate`.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::Rng;
use contactlab::lcp::{Lcp, LcpStatus, PgsOptions, solve_lemke, solve_pgs};
use nalgebra::{DMatrix, DVector};

fn lcp(rows: &[&[f64]], b: &[f64]) -> Lcp {
    let rows: Vec<Vec<f64>> = rows.iter().map(|r| r.to_vec()).collect();
    Lcp::from_rows(&rows, b).unwrap()
}

/// The relative residual written out independently of the library: for each row,
/// |min(Wᵢᵢ zᵢ, wᵢ)| over |bᵢ| + Σⱼ |Wᵢⱼ zⱼ| (Wᵢᵢ > 0 in these tests).
fn relative_residual(p: &Lcp, z: &[f64]) -> f64 {
    (0..p.len())
        .map(|i| {
            let w: f64 = p.q[i] + (0..p.len()).map(|j| p.m[(i, j)] * z[j]).sum::<f64>();
            let size: f64 = p.q[i].abs()
                + (0..p.len())
                    .map(|j| (p.m[(i, j)] * z[j]).abs())
                    .sum::<f64>();
            let violation = (p.m[(i, i)] * z[i]).min(w).abs();
            if violation == 0.0 {
                0.0
            } else {
                violation / size
            }
        })
        .fold(0.0, f64::max)
}

#[test]
fn a_large_load_is_solved_not_declared_impossible() {
    let p = lcp(&[&[1.0]], &[-1e13]);
    let s = solve_lemke(&p);
    assert_eq!(s.status, LcpStatus::Solved);
    assert!((s.z[0] - 1e13).abs() <= 1e-15 * 1e13);
}

#[test]
fn the_seed_pair_scaled_by_1e13_is_the_seed_answer_scaled() {
    // W = [[2, 1], [1, 2]], b = (−3, −3) has N = (1, 1); scaling b scales N.
    let p = lcp(&[&[2.0, 1.0], &[1.0, 2.0]], &[-1e13, -1e13]);
    let s = solve_lemke(&p);
    assert_eq!(s.status, LcpStatus::Solved);
    for z in &s.z {
        assert!((z - 1e13 / 3.0).abs() <= 1e-14 * 1e13, "z = {z}");
    }
    assert!(relative_residual(&p, &s.z) <= 1e-14);
}

#[test]
fn an_overflowing_pgs_answer_is_never_called_solved() {
    // z = 1e300/1e-9 = 1e309 overflows: no finite answer exists in f64.
    let p = lcp(&[&[1e-9]], &[-1e300]);
    let s = solve_pgs(&p, &PgsOptions::default());
    assert_ne!(s.status, LcpStatus::Solved);
    assert_eq!(s.status, LcpStatus::Inaccurate);
    // Lemke scales the problem, but the answer itself does not fit in f64 either.
    assert_ne!(solve_lemke(&p).status, LcpStatus::Solved);
}

#[test]
fn random_p_matrix_lcps_over_24_decades_are_solved_to_1e_10_or_flagged() {
    // W = D (A Aᵀ + I) D with Dᵢᵢ spread over 1e-6…1e6 (entries over 1e-12…1e12), b = D c
    // with c spread over six decades: a positive-definite W, so the LCP has one solution and
    // Lemke must reach it.
    let mut rng = Rng(0x5eed_1ca1e);
    let mut solved = 0;
    let trials = 400;
    for _ in 0..trials {
        let n = 1 + ((rng.next() + 1.0) * 6.0) as usize;
        let a = DMatrix::from_fn(n, n, |_, _| rng.next());
        let d = DVector::from_fn(n, |_, _| 10f64.powf(6.0 * rng.next()));
        let core = &a * a.transpose() + DMatrix::identity(n, n);
        let w = DMatrix::from_fn(n, n, |i, j| d[i] * core[(i, j)] * d[j]);
        let b = DVector::from_fn(n, |i, _| d[i] * rng.next() * 10f64.powf(3.0 * rng.next()));
        let p = Lcp::new(w, b).unwrap();
        let s = solve_lemke(&p);
        let r = relative_residual(&p, &s.z);
        match s.status {
            LcpStatus::Solved => {
                assert!(r <= 1e-10, "solved with relative residual {r}");
                assert!(s.z.iter().all(|&z| z >= 0.0));
                solved += 1;
            }
            LcpStatus::Inaccurate | LcpStatus::NotConverged => {}
            LcpStatus::NoSolution => panic!("a positive-definite LCP always has a solution"),
        }
    }
    // Flagging is the exception, not the rule, for these well-posed problems.
    assert!(solved >= trials * 99 / 100, "{solved} of {trials} solved");
}
