//! The step loop allocates nothing once its buffers have grown: a settled pile of spheres or of boxes steps without a single allocation, under NSGA and Moreau–Jean, in space and in the plane, its small islands' singular Newton steps and fallbacks included (issue 11).
//!
//! This test binary counts every allocation its own thread makes (a global allocator that
//! forwards to the system's and counts per thread, so the harness's other threads do not
//! disturb it). A pile of 30 lands within its first second (its top layer starts
//! 0.1 + 0.12 = 0.22 m up, and even a free fall of that whole height takes
//! √(2·0.22/9.81) = 0.21 s) and is settled by 600 steps (2.5 s); from then on every
//! vector, list and report a step needs is one a step before it used, so the count over
//! the next steps must be exactly zero.
//!
//! Native only: in WebAssembly the library sets its own allocator (Talc).
#![cfg(not(target_arch = "wasm32"))]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use contactlab::Simulation;
use contactlab::laws::{dense_fallbacks, least_squares_directions};

struct Counting;

thread_local! {
    /// Allocations (and reallocations) made on this thread.
    static MADE: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // (During a thread's teardown the counter may be gone; that allocation is not ours.)
    let _ = MADE.try_with(|m| m.set(m.get() + 1));
}

// SAFETY: every call is forwarded unchanged to the system allocator; the count is a
// thread-local increment beside it (a const-initialised Cell, which never allocates).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc` is passed on as is.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract for `alloc_zeroed` is passed on as is.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: the caller's contract for `realloc` is passed on as is.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn made() -> u64 {
    MADE.with(Cell::get)
}

/// Steps a pile of 30 for 600 steps, then counts the allocations of each of the next 100.
/// Returns the steps that allocated, with their counts, and how often the small islands'
/// Newton took its rare paths in those steps.
fn allocating_steps(
    preset: &str,
    stepper: &str,
    resistance: bool,
    boxes: bool,
) -> (Vec<(usize, u64)>, Rare) {
    let mut set = vec![("N".to_string(), 30.0)];
    if boxes {
        set.push(("shape".into(), 1.0));
    }
    if resistance {
        set.push(("rho".into(), 1e-3));
        set.push(("gamma".into(), 1e-3));
    }
    let mut sim = Simulation::from_preset(preset, &set).unwrap();
    sim.set_stepper(stepper).unwrap();
    for _ in 0..600 {
        sim.step().unwrap();
    }
    let mut allocating = Vec::new();
    let (directions_before, fallbacks_before) = (least_squares_directions(), dense_fallbacks());
    for k in 0..100 {
        let before = made();
        sim.step().unwrap();
        let n = made() - before;
        if n > 0 {
            allocating.push((600 + k, n));
        }
    }
    // The pile is at rest and whole: the count was not taken over an empty scene.
    assert!(sim.last_report().contacts.len() >= 30, "{preset} {stepper}");
    let rare_paths = Rare {
        least_squares: least_squares_directions() - directions_before,
        fallbacks: dense_fallbacks() - fallbacks_before,
    };
    (allocating, rare_paths)
}

/// How often the small islands' dense Newton took its rare paths in the counted steps.
#[derive(Default)]
struct Rare {
    /// Least-squares directions (a singular Jacobian).
    least_squares: u64,
    /// Fallbacks to block Gauss–Seidel and Lemke's polygon (Newton did not converge).
    fallbacks: u64,
}

#[test]
fn a_settled_pile_steps_without_allocating() {
    let mut rare = Rare::default();
    for (preset, stepper, resistance) in [
        ("pile", "nsga", false),
        ("pile", "moreau-jean", false),
        ("pile-2d", "nsga", false),
        ("pile-2d", "moreau-jean", false),
        ("pile", "nsga", true),
        ("pile", "moreau-jean", true),
        ("pile-2d", "moreau-jean", true),
    ] {
        let (allocating, paths) = allocating_steps(preset, stepper, resistance, false);
        assert!(
            allocating.is_empty(),
            "{preset} {stepper} resistance {resistance}: (step, allocations) {allocating:?}"
        );
        rare.least_squares += paths.least_squares;
        rare.fallbacks += paths.fallbacks;
    }
    // Some of the settled piles' small (densely solved) problems have redundant rows, so
    // their stick-case Jacobian is singular, and some stall Newton: the counted steps
    // include least-squares directions and fallbacks to block Gauss–Seidel and Lemke, so
    // those paths are measured, not assumed.
    assert!(
        rare.least_squares > 0,
        "no counted step took a least-squares direction"
    );
    assert!(rare.fallbacks > 0, "no counted step fell back from Newton");
}

/// A settled pile of boxes (cubes in space, squares in the plane) steps without allocating
/// too: their corners are found on the stack, and block Gauss–Seidel's local solves of
/// contacts that are not round (a corner on a face) reuse their small matrices. Their
/// redundant corners send every island of more than one box to the proximal-point rounds,
/// whose buffers grow with the dense problems.
#[test]
fn a_settled_pile_of_boxes_steps_without_allocating() {
    for (preset, stepper) in [
        ("pile", "nsga"),
        ("pile", "moreau-jean"),
        ("pile-2d", "nsga"),
        ("pile-2d", "moreau-jean"),
    ] {
        let (allocating, _) = allocating_steps(preset, stepper, false, true);
        assert!(
            allocating.is_empty(),
            "{preset} {stepper} boxes: (step, allocations) {allocating:?}"
        );
    }
}

/// The counter counts: a step of a fresh pile allocates (its first lists), so a zero above
/// is a measurement.
#[test]
fn the_counter_sees_a_first_step_allocate() {
    let mut sim = Simulation::from_preset("pile", &[("N".to_string(), 30.0)]).unwrap();
    let before = made();
    sim.step().unwrap();
    assert!(made() > before);
}
