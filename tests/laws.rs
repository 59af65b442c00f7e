//! The augmented-Lagrangian contact laws: solutions satisfy every law, whatever the augmentation.
#![cfg(not(target_arch = "wasm32"))]

use contactlab::laws::{LawBlock, NewtonOptions, solve};
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
