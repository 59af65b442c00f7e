//! A per-thread list that code deep inside the solvers appends to only while a caller collects it: the recorded problems of `capture.rs`, the solve log of `solve_log.rs`.

use std::cell::RefCell;
use std::thread::LocalKey;

/// The thread-local slot of one such list: `None` while nobody collects.
pub(super) type Slot<T> = RefCell<Option<Vec<T>>>;

/// Runs `run` with `slot` collecting for this thread; returns its result and what was
/// appended meanwhile, in order. A collection inside another keeps its own items, and the
/// outer one resumes after it.
pub(super) fn collect<T: 'static, R>(
    slot: &'static LocalKey<Slot<T>>,
    run: impl FnOnce() -> R,
) -> (R, Vec<T>) {
    let previous = slot.with(|s| s.borrow_mut().replace(Vec::new()));
    let result = run();
    let items = slot.with(|s| std::mem::replace(&mut *s.borrow_mut(), previous));
    (result, items.unwrap_or_default())
}

/// Appends what `make` builds when `slot` is collecting (and never builds it otherwise).
pub(super) fn append<T: 'static>(slot: &'static LocalKey<Slot<T>>, make: impl FnOnce() -> T) {
    slot.with(|s| {
        if let Some(list) = s.borrow_mut().as_mut() {
            list.push(make());
        }
    });
}
