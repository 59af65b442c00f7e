//! The augmented-Lagrangian contact laws: solutions satisfy every law, whatever the augmentation.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::contact::{Delassus, JacobianRow};
use contactlab::laws::{
    LawBlock, LawSolver, NewtonOptions, Rank, nsgs, polyhedral, solve, solve_with, sparse,
};
use contactlab::model::BlockDiagonalMass;
use nalgebra::{DMatrix, DVector};

mod common;
use common::Rng;

/// One sphere contact (normal, 2 tangents, 2 rolling, 1 spin) with a random SPD W.
fn problem(rng: &mut Rng) -> (DMatrix<f64>, DVector<f64>, Vec<LawBlock>) {
    let a = DMatrix::from_fn(6, 6, |_, _| rng.next());
    let w = &a * a.transpose() + DMatrix::identity(6, 6) * 0.5;
    let u = DVector::from_fn(6, |_, _| 2.0 * rng.next());
    let block = LawBlock {
        offset: 0,
        tangents: 2,
        rolling: 2,
        spin: 1,
        friction: 0.4,
        rolling_resistance: 0.05,
        spinning_resistance: 0.02,
        bilateral: false,
    };
    (w, u, vec![block])
}

fn check_laws(lambda: &DVector<f64>, u: &DVector<f64>, b: &LawBlock) {
    let n = lambda[0];
    assert!(
        n >= -1e-12 && u[0] >= -1e-9 && (n * u[0]).abs() < 1e-9,
        "normal: λ {n}, u {}",
        u[0]
    );
    for (start, len, bound) in [
        (1, 2, b.friction),
        (3, 2, b.rolling_resistance),
        (5, 1, b.spinning_resistance),
    ] {
        let l: Vec<f64> = (start..start + len).map(|k| lambda[k]).collect();
        let v: Vec<f64> = (start..start + len).map(|k| u[k]).collect();
        let norm_l = l.iter().map(|x| x * x).sum::<f64>().sqrt();
        let norm_v = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        assert!(
            norm_l <= bound * n + 1e-9,
            "bound exceeded: {norm_l} > {}",
            bound * n
        );
        if norm_v > 1e-9 {
            // Moving: the multiplier is at its bound and opposes the motion.
            assert!(
                (norm_l - bound * n).abs() < 1e-8,
                "moving but not at the bound"
            );
            let dot: f64 = l.iter().zip(&v).map(|(a, b)| a * b).sum();
            assert!(
                (dot + norm_l * norm_v).abs() < 1e-8 * (1.0 + norm_l * norm_v),
                "not opposing: start {start} λ {l:?} u {v:?}"
            );
        }
    }
}

#[test]
fn solutions_satisfy_every_law_and_do_not_depend_on_the_augmentation() {
    let mut rng = Rng(7);
    for trial in 0..200 {
        let (w, u_free, blocks) = problem(&mut rng);
        let base = NewtonOptions::default();
        let a = solve(&w, &u_free, &blocks, None, &base);
        let b = solve(
            &w,
            &u_free,
            &blocks,
            None,
            &NewtonOptions {
                augmentation: 7.0,
                ..base
            },
        );
        assert!(
            a.converged && b.converged,
            "trial {trial}: {} / {} iterations",
            a.iterations,
            b.iterations
        );
        check_laws(&a.lambda, &a.u, &blocks[0]);
        assert!(
            (&a.lambda - &b.lambda).amax() < 1e-9 * (1.0 + a.lambda.amax()),
            "trial {trial}"
        );
    }
}

/// A bilateral row (a joint's equation) as the laws see it.
fn bilateral(offset: usize) -> LawBlock {
    LawBlock {
        offset,
        tangents: 0,
        rolling: 0,
        spin: 0,
        friction: 0.0,
        rolling_resistance: 0.0,
        spinning_resistance: 0.0,
        bilateral: true,
    }
}

/// Three bilateral rows and a planar frictional contact on a body of 6 dofs with random
/// rows (independent, so W is positive definite): (Delassus, blocks, u_free).
fn joint_and_contact(rng: &mut Rng) -> (Delassus, Vec<LawBlock>, DVector<f64>) {
    let mass = BlockDiagonalMass::new(
        6,
        vec![(
            0,
            DMatrix::from_diagonal(&DVector::from_vec(vec![2.0, 2.0, 2.0, 0.3, 0.7, 0.5])),
        )],
    );
    let rows: Vec<JacobianRow> = (0..5)
        .map(|_| JacobianRow {
            entries: (0..6).map(|j| (j, rng.next())).collect(),
        })
        .collect();
    let contact = LawBlock {
        offset: 3,
        tangents: 1,
        rolling: 0,
        spin: 0,
        friction: 0.5,
        rolling_resistance: 0.0,
        spinning_resistance: 0.0,
        bilateral: false,
    };
    let blocks = vec![bilateral(0), bilateral(1), bilateral(2), contact];
    let u_free = DVector::from_fn(5, |_, _| rng.next());
    (Delassus::new(&mass, rows), blocks, u_free)
}

#[test]
fn bilateral_rows_hold_u_at_zero_with_multipliers_of_either_sign_in_every_solver() {
    let mut rng = Rng(11);
    let options = NewtonOptions::default();
    let mut negative = 0;
    let mut sweeps_converged = 0;
    for _ in 0..40 {
        let (delassus, blocks, u_free) = joint_and_contact(&mut rng);
        let w = delassus.dense();
        // Equalities only: λ = −W⁻¹ u_free, whatever its signs.
        let joint = &blocks[..3];
        let w3 = w.view((0, 0), (3, 3)).into_owned();
        let u3 = u_free.rows(0, 3).into_owned();
        let exact = -w3.clone().lu().solve(&u3).unwrap();
        negative += exact.iter().filter(|x| **x < 0.0).count();
        let scale = exact.amax().max(1.0);
        let newton = solve(&w3, &u3, joint, None, &options);
        let lemke = polyhedral::solve(&w3, &u3, joint).expect("Lemke solves the split problem");
        let pgs = solve_with(
            LawSolver::Pgs(contactlab::lcp::PgsOptions {
                max_iterations: 100_000,
                tolerance: 1e-13,
            }),
            &w3,
            &u3,
            joint,
            None,
            &options,
            Rank::Unknown,
        );
        let gs = nsgs::solve(&w3, &u3, joint, None, &options);
        // Newton and Lemke must solve it; the Gauss–Seidel sweeps converge slowly when W is
        // ill-conditioned and must then say they did not.
        assert!(newton.converged, "{newton:?}");
        for (name, lambda, converged) in [
            ("newton", &newton.lambda, true),
            ("lemke", &lemke.lambda, true),
            ("pgs", &pgs.lambda, pgs.converged),
            ("nsgs", &gs.lambda, gs.converged),
        ] {
            if !converged {
                continue;
            }
            sweeps_converged += usize::from(name == "pgs" || name == "nsgs");
            assert!(
                (lambda - &exact).amax() <= 1e-8 * scale,
                "{name}: {lambda} against {exact}"
            );
        }
        // With the contact: u = 0 on the bilateral rows, the contact's laws hold, and the
        // dense and the block-sparse solvers agree.
        let dense = solve(&w, &u_free, &blocks, None, &options);
        assert!(dense.converged);
        let u = &u_free + &w * &dense.lambda;
        for k in 0..3 {
            assert!(u[k].abs() < 1e-9, "bilateral row {k}: u = {}", u[k]);
        }
        let (n, t) = (dense.lambda[3], dense.lambda[4]);
        assert!(
            n >= 0.0 && u[3] >= -1e-9 && (n * u[3]).abs() < 1e-9,
            "normal {n}, u {}",
            u[3]
        );
        assert!(t.abs() <= 0.5 * n + 1e-12, "friction {t} outside 0.5 × {n}");
        let block_sparse = sparse::solve(
            &delassus,
            &u_free,
            &blocks,
            None,
            &options,
            sparse::SparseOptions {
                max_sweeps: 100_000,
                polish: true,
                ..sparse::SparseOptions::standard(&options)
            },
        );
        assert!(block_sparse.converged, "{block_sparse:?}");
        let us = &u_free + &w * &block_sparse.lambda;
        for k in 0..3 {
            assert!(
                us[k].abs() < 1e-9,
                "sparse, bilateral row {k}: u = {}",
                us[k]
            );
        }
    }
    assert!(
        negative > 10,
        "the problems pull as well as push ({negative} negative)"
    );
    assert!(
        sweeps_converged > 40,
        "PGS and block GS checked on {sweeps_converged} of 80"
    );
}
