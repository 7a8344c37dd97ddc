#!/usr/bin/env bash
# Every check of the npm package, in order, stopping at the first failure:
#   1. native tests (the TypeScript declarations are up to date) and clippy, native and wasm
#   2. the wasm-bindgen-test suites in Node and in headless Chromium
#   3. the packages: web/pkg (bundler) and web/pkg-node (nodejs), named `quotasim`
#   4. a TypeScript type check of typical use against web/pkg's .d.ts (web/ts-check)
#   5. the Node consumer tests (web/js-tests), against the CLI built in release mode
# Needs: the wasm32-unknown-unknown target, wasm-bindgen-cli (= the pinned wasm-bindgen),
# wasm-pack, node, chromium and chromedriver (CHROMEDRIVER, default /usr/bin/chromedriver).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

say "web: format, native tests and clippy"
cargo fmt -p quotasim-wasm --check
cargo test -p quotasim-wasm
cargo clippy -p quotasim-wasm --all-targets --no-deps -- -D warnings
cargo clippy -p quotasim-wasm --all-targets --no-deps --target wasm32-unknown-unknown -- -D warnings

say "web: wasm-bindgen-test in Node"
cargo test -p quotasim-wasm --target wasm32-unknown-unknown --test node
say "web: wasm-bindgen-test in headless Chromium"
cargo test -p quotasim-wasm --target wasm32-unknown-unknown --test browser

say "web: npm packages"
web/build.sh nodejs pkg-node
web/build.sh bundler pkg
for dir in web/pkg web/pkg-node; do
  wasm="$dir/quotasim_bg.wasm"
  printf '%s: %s bytes of wasm, %s gzipped\n' "$dir" "$(wc -c <"$wasm")" "$(gzip -9c "$wasm" | wc -c)"
done

say "web: type-check typical use against the package's declarations (TypeScript from npm)"
(cd web/ts-check && npm ci --no-audit --no-fund && npm run --silent check)

say "web: Node consumer tests"
cargo build --release -p quotasim-cli
export QUOTASIM_BIN="${QUOTASIM_BIN:-$PWD/target/release/quotasim}"
(cd web/js-tests && node --test)
