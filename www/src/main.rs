//! The playground's entry point (built by Trunk).

#[cfg(target_arch = "wasm32")]
fn main() {
    quotasim_playground::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The playground runs in a browser: build it with `trunk build --release` or `trunk serve`.");
}
