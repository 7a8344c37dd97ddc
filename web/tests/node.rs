//! The binding tests in Node.js (wasm-bindgen-test's default environment).
#![cfg(target_arch = "wasm32")]

mod common;
