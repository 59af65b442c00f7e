//! Work buffers that outlive one solve: nalgebra vectors and matrices reshaped in place without giving up their allocations, and per-thread pools of a solver's buffer sets.

use nalgebra::{DMatrix, DVector};

/// Makes `v` of length `n` (contents unspecified), reusing its allocation when it can.
pub(crate) fn sized_vector(v: &mut DVector<f64>, n: usize) {
    if v.len() != n {
        let mut data: Vec<f64> = std::mem::replace(v, DVector::zeros(0)).data.into();
        data.resize(n, 0.0);
        *v = DVector::from_vec(data);
    }
}

/// `to` becomes a copy of `from`, in `to`'s storage when the lengths agree.
pub(crate) fn copy_vector(to: &mut DVector<f64>, from: &DVector<f64>) {
    sized_vector(to, from.len());
    to.copy_from(from);
}

/// Makes `v` of length `n`, all zeros, reusing its allocation when it can.
pub(crate) fn zeroed_vector(v: &mut DVector<f64>, n: usize) {
    sized_vector(v, n);
    v.fill(0.0);
}

/// Sets `v` to n zeros, reusing its allocation.
pub(crate) fn zeroed(v: &mut Vec<f64>, n: usize) {
    v.clear();
    v.resize(n, 0.0);
}

/// Makes `m` of shape `rows × cols` (contents unspecified), reusing its allocation when it
/// can.
pub(crate) fn sized_matrix(m: &mut DMatrix<f64>, rows: usize, cols: usize) {
    if m.shape() != (rows, cols) {
        let mut data: Vec<f64> = std::mem::replace(m, DMatrix::zeros(0, 0)).data.into();
        data.resize(rows * cols, 0.0);
        *m = DMatrix::from_vec(rows, cols, data);
    }
}

/// Gives `m` room for `entries` entries without changing its shape or contents, so that a
/// later [`sized_matrix`] up to that many entries does not allocate: the buffers of a rare
/// path (a fallback) grow with the common path's, not at the fallback's first call.
pub(crate) fn reserve_matrix(m: &mut DMatrix<f64>, entries: usize) {
    if m.data.as_vec().capacity() < entries {
        let (rows, cols) = m.shape();
        let mut data: Vec<f64> = std::mem::replace(m, DMatrix::zeros(0, 0)).data.into();
        data.reserve_exact(entries - data.len());
        *m = DMatrix::from_vec(rows, cols, data);
    }
}

/// [`reserve_matrix`] for a vector: room for `entries` entries.
pub(crate) fn reserve_vector(v: &mut DVector<f64>, entries: usize) {
    if v.data.as_vec().capacity() < entries {
        let mut data: Vec<f64> = std::mem::replace(v, DVector::zeros(0)).data.into();
        data.reserve_exact(entries - data.len());
        *v = DVector::from_vec(data);
    }
}

/// A thread's stack of reusable work buffers for one solver: a solve takes a set (or a new
/// one), works in it and puts it back, so the islands of every step reuse the same storage.
/// A stack rather than one set, so that a solve started inside another takes its own.
pub(crate) type ScratchPool<T> = std::cell::RefCell<Vec<T>>;

/// Runs `work` in a set of buffers taken from `pool` and returns the set afterwards.
pub(crate) fn with_scratch<T: Default, R>(
    pool: &'static std::thread::LocalKey<ScratchPool<T>>,
    work: impl FnOnce(&mut T) -> R,
) -> R {
    let mut scratch = take_spare(pool);
    let result = work(&mut scratch);
    pool.with(|p| p.borrow_mut().push(scratch));
    result
}

/// A set of storage from `pool` (one given back earlier on this thread), or a new one.
pub(crate) fn take_spare<T: Default>(pool: &'static std::thread::LocalKey<ScratchPool<T>>) -> T {
    pool.with(|p| p.borrow_mut().pop()).unwrap_or_default()
}

/// Gives `storage` back to `pool` for [`take_spare`], while the pool holds fewer than
/// `limit` sets (a value's `Drop` can hand its storage on this way). During the thread's
/// teardown the pool may already be gone; the storage is then simply freed.
pub(crate) fn give_back<T>(
    pool: &'static std::thread::LocalKey<ScratchPool<T>>,
    storage: T,
    limit: usize,
) {
    let _ = pool.try_with(|p| {
        let mut p = p.borrow_mut();
        if p.len() < limit {
            p.push(storage);
        }
    });
}

/// The storage of `v`, emptied, for elements of another type of the same size and alignment
/// (in practice the same type with another lifetime, such as references into this step's
/// contacts): the standard library collects a mapped `into_iter` in place, so the
/// allocation carries over. A list of references can then be kept from step to step.
pub(crate) fn recycled<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter()
        .map(|_| unreachable!("the vector was emptied"))
        .collect()
}

#[cfg(test)]
mod tests {
    /// An emptied vector of references keeps its allocation when recycled for another
    /// lifetime.
    #[test]
    fn recycling_keeps_the_allocation() {
        let values = [1.0, 2.0, 3.0];
        let mut refs: Vec<&f64> = Vec::with_capacity(100);
        refs.extend(values.iter());
        let pointer = refs.as_ptr() as usize;
        let kept: Vec<&'static f64> = super::recycled(refs);
        assert!(kept.is_empty());
        assert_eq!(kept.capacity(), 100);
        assert_eq!(kept.as_ptr() as usize, pointer);
    }
}
