//! The same wasm API cases under Node.js (`wasm-pack test --node`).
#![cfg(target_arch = "wasm32")]

include!("wasm_api/cases.rs");
