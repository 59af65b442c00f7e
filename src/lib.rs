//! contactlab: rigid bodies in unilateral contact, with impacts, friction and penalty contact.
//!
//! # Units and signs
//!
//! SI units throughout (m, kg, s, N, rad), `f64` everywhere. The signed gap d of a contact is
//! positive when the bodies are apart; the normal n points from the surface body B towards the
//! point body A; the normal reaction N ≥ 0 is compressive — it can push, never pull. Gravity
//! is a scene vector, (0, −9.81) m/s² by default.
//!
//! # The stages of one step
//!
//! 1. [`contact::detect_contacts`]: candidate contacts within a margin, with their Jacobian
//!    rows J_N, J_T and the velocity-product term J̇_N v.
//! 2. A stepper from [`integrators`] assembles the contact problem on the active contacts
//!    (W = J M⁻¹ Jᵀ) and solves it with [`lcp`] or its own law (penalty, NSGA).
//! 3. The stepper updates (q, v, t) and reports per-contact reactions, impulses and states.
//! 4. [`simulation::Simulation`] records the [`trace`] sample of the step.
//!
//! Scenes come from JSON ([`scene`]) or from named [`presets`] that declare their tunable
//! parameters.

pub mod contact;
pub mod error;
pub mod events;
pub mod frequency_bound;
pub mod geometry;
pub mod laws;
pub mod lcp;
mod linalg;
pub mod measure;
pub mod model;
pub mod modes;

pub use error::{Error, Result};
pub mod beam_theory;
pub mod integrators;
pub mod presets;
pub mod presets_beams;
pub mod presets_pile;
pub mod presets_space;
pub mod presets_spatial_beams;
pub mod render;
pub mod scene;
pub mod scene_beams;
pub mod scene_fields;
pub mod scene_joints;
pub mod scene_loads;
pub mod scene_spatial;
pub mod scene_spatial_beams;
pub mod simulation;
pub mod sleep;
pub mod statics;
pub mod theory;
pub mod theory_beams;
pub mod theory_mill;
pub mod theory_spatial_beams;
pub mod timeline;
pub mod trace;

pub use simulation::Simulation;

#[cfg(target_arch = "wasm32")]
pub mod wasm;
#[cfg(target_arch = "wasm32")]
pub mod wasm_canvas;

/// In the browser, Talc instead of Rust's default dlmalloc: a small pile's step makes a few
/// hundred allocations, and under dlmalloc malloc and free took a sixth of its time in
/// WebAssembly; with Talc the piles of 10 step 2–8 % faster (docs/benchmarks.md).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// The README's Rust examples, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExamples;
