#!/usr/bin/env bash
# Every check of the npm package, in order, stopping at the first failure:
#   1. native tests (the TypeScript declarations are up to date) and clippy, native and wasm
#   2. the wasm-bindgen-test suites in Node and in headless Chromium
#   3. the one package `quotasim` in web/pkg
#   4. a TypeScript type check of typical use against web/pkg's .d.ts (web/ts-check)
#   5. the Node API tests (web/js-tests) and the consumer tests of the packed tarball
#      (web/consumers), against the CLI built in release mode
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

say "web: the npm package"
web/build.sh
wasm=web/pkg/quotasim_bg.wasm
printf 'web/pkg: %s bytes of wasm, %s gzipped\n' "$(wc -c <"$wasm")" "$(gzip -9c "$wasm" | wc -c)"

say "web: type-check typical use against the package's declarations (TypeScript from npm)"
(cd web/ts-check && npm ci --no-audit --no-fund && npm run --silent check)

say "web: Node consumer tests"
cargo build --release -p quotasim-cli
export QUOTASIM_BIN="${QUOTASIM_BIN:-$PWD/target/release/quotasim}"
(cd web/js-tests && node --test)
(cd web/consumers && npm ci --no-audit --no-fund && node --test)
