//! Linear-algebra helpers: dense ones for solvers that keep their work buffers from one problem to the next (the small islands' Newton, Lemke), and conjugate gradients for large sparse systems given by their products.

pub(crate) mod buffers;
pub(crate) mod conjugate_gradient;
pub(crate) mod float;
pub(crate) mod least_squares;
pub(crate) mod reusable_lu;
pub(crate) mod slices;

/// Deterministic matrix entries in [−1, 1) for the dense solvers' tests: entry k of a
/// sequence that looks random but is the same on every machine.
#[cfg(test)]
pub(crate) fn noise(k: usize) -> f64 {
    let x = ((k as f64 + 1.0) * 12.9898).sin() * 43758.5453;
    2.0 * (x - x.floor()) - 1.0
}
