//! The binding tests in a headless browser (Chromium through `CHROMEDRIVER`; its options are
//! in `webdriver.json`).
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;
