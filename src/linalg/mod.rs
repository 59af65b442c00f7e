//! Dense linear-algebra helpers for solvers that keep their work buffers from one problem to the next (the small islands' Newton, Lemke).

pub(crate) mod buffers;
pub(crate) mod float;
pub(crate) mod reusable_lu;
