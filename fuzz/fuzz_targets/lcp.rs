//! Fuzz target: LCP input (n ≤ 8, arbitrary entries). Lemke and PGS must not panic, and an
//! answer called `solved` must be one: z ≥ 0 and a relative residual within the tolerance,
//! checked here independently of the library's own residual.
#![no_main]

use arbitrary::Arbitrary;
use contactlab::lcp::{Lcp, LcpStatus, PgsOptions, solve_lemke, solve_pgs};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    n: u8,
    entries: Vec<f64>,
    symmetric: bool,
    sweeps: u16,
}

/// max over rows of |min(c z, w)| / (|q| + Σ|M z|), c the diagonal (or the row's largest entry).
fn relative_residual(p: &Lcp, z: &[f64]) -> f64 {
    let n = p.len();
    let mut worst = 0.0f64;
    for i in 0..n {
        let w: f64 = p.q[i] + (0..n).map(|j| p.m[(i, j)] * z[j]).sum::<f64>();
        let size: f64 = p.q[i].abs() + (0..n).map(|j| (p.m[(i, j)] * z[j]).abs()).sum::<f64>();
        let row_max = (0..n).map(|j| p.m[(i, j)].abs()).fold(0.0, f64::max);
        let c = if p.m[(i, i)] > 0.0 {
            p.m[(i, i)]
        } else if row_max > 0.0 {
            row_max
        } else {
            1.0
        };
        let violation = (c * z[i]).min(w).abs();
        if violation > 0.0 {
            worst = worst.max(violation / size);
        }
    }
    worst
}

fuzz_target!(|input: Input| {
    let n = 1 + input.n as usize % 8;
    if input.entries.len() < n * n + n {
        return;
    }
    let mut rows: Vec<Vec<f64>> = (0..n)
        .map(|i| input.entries[i * n..(i + 1) * n].to_vec())
        .collect();
    if input.symmetric {
        for i in 0..n {
            for j in 0..i {
                rows[i][j] = rows[j][i];
            }
        }
    }
    let q = &input.entries[n * n..n * n + n];
    let Ok(problem) = Lcp::from_rows(&rows, q) else {
        return; // non-finite entries are refused with an error
    };
    for solution in [
        solve_lemke(&problem),
        solve_pgs(
            &problem,
            &PgsOptions {
                max_iterations: 1 + input.sweeps as usize,
                tolerance: 1e-10,
            },
        ),
    ] {
        if solution.status == LcpStatus::Solved {
            assert!(solution.z.iter().all(|&x| x >= 0.0 && x.is_finite()));
            let r = relative_residual(&problem, &solution.z);
            assert!(r <= 1e-10, "solved with relative residual {r}");
        }
    }
});
