//! Banded matrices (a beam's tangent couples each node to its neighbours only): storage of the band and O(n w²) elimination inside it.

use nalgebra::DVector;

/// A square matrix that is zero outside |i − j| ≤ w, stored row by row as its band.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    n: usize,
    w: usize,
    data: Vec<f64>,
}

impl Band {
    /// The n × n zero matrix of half-bandwidth `w`.
    pub fn zeros(n: usize, w: usize) -> Self {
        Self {
            n,
            w,
            data: vec![0.0; n * (2 * w + 1)],
        }
    }

    fn at(&self, i: usize, j: usize) -> usize {
        debug_assert!(i.abs_diff(j) <= self.w);
        i * (2 * self.w + 1) + (j + self.w - i)
    }

    /// Adds `x` at (i, j), which must lie in the band.
    pub fn add(&mut self, i: usize, j: usize, x: f64) {
        let k = self.at(i, j);
        self.data[k] += x;
    }

    /// The entry at (i, j) (zero outside the band).
    pub fn get(&self, i: usize, j: usize) -> f64 {
        if i.abs_diff(j) > self.w {
            0.0
        } else {
            self.data[self.at(i, j)]
        }
    }

    /// Solves A x = b by Gaussian elimination inside the band, without pivoting (for the
    /// predictor's M − K, symmetric and weighted to its diagonal by M). None when a pivot
    /// falls below 1e-13 of the largest diagonal entry (the caller then pivots densely).
    pub fn solve(mut self, b: &DVector<f64>) -> Option<DVector<f64>> {
        let (n, w) = (self.n, self.w);
        let mut x = b.clone();
        let scale = (0..n).map(|i| self.get(i, i).abs()).fold(0.0f64, f64::max);
        for k in 0..n {
            let pivot = self.get(k, k);
            if pivot.is_nan() || pivot.abs() <= 1e-13 * scale {
                return None;
            }
            let end = (k + w + 1).min(n);
            for i in k + 1..end {
                let factor = self.get(i, k) / pivot;
                if factor == 0.0 {
                    continue;
                }
                for j in k..end {
                    let a = self.get(k, j);
                    self.add(i, j, -factor * a);
                }
                x[i] -= factor * x[k];
            }
        }
        for k in (0..n).rev() {
            let end = (k + w + 1).min(n);
            let mut s = x[k];
            for j in k + 1..end {
                s -= self.get(k, j) * x[j];
            }
            x[k] = s / self.get(k, k);
        }
        Some(x)
    }
}
