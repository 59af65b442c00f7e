//! The wasm API in headless Chromium: seed 001's numbers and the error behaviour (`wasm-pack test --headless --chrome`).
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

include!("wasm_api/cases.rs");
