#!/usr/bin/env bash
# Builds the bridges module (this crate with its `module` feature) into Trunk's staging folder
# as bridges/bridges.js and bridges/bridges_bg.wasm, which the page loads when the Import /
# Export dialog first needs them (www/start.js). Trunk runs it after its own build
# (`[[hooks]]` in Trunk.toml), for `trunk build` and `trunk serve` alike; a release build is
# optimised like the page's own module (its cargo profile, then wasm-opt -O3).
set -euo pipefail
cd "$(dirname "$0")/../.."
target="${CARGO_TARGET_DIR:-target}"
if [ "${TRUNK_PROFILE:-debug}" = release ]; then
  profile=playground dir=playground
else
  profile=dev dir=debug
fi
cargo build --quiet --target wasm32-unknown-unknown --profile "$profile" \
  -p quotasim-playground-bridges --features module
out="${TRUNK_STAGING_DIR:?run by Trunk}/bridges"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name bridges \
  "$target/wasm32-unknown-unknown/$dir/quotasim_playground_bridges.wasm"
if [ "$profile" = playground ]; then
  wasm-opt "$out/bridges_bg.wasm" -O3 \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
    -o "$out/bridges_bg.wasm"
fi
