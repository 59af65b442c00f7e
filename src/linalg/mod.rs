//! Linear-algebra helpers: dense ones for solvers that keep their work buffers from one problem to the next (the small islands' Newton, Lemke), and conjugate gradients for large sparse systems given by their products.

pub(crate) mod buffers;
pub(crate) mod conjugate_gradient;
pub(crate) mod float;
pub(crate) mod least_squares;
pub(crate) mod reusable_lu;
pub(crate) mod slices;
