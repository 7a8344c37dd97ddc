#!/usr/bin/env bash
# The JSON readers side by side (bench/parse, outside the workspace): serde_json from a &str
# (what the engine uses), from bytes, simd-json's serde reader and its tape, a Value, a byte
# scan; best of ROUNDS (default 5). A measurement, not a test.
#   scripts/parse-bench.sh [FILE]   (default: the 1,000,000-job benchmark file, generated)
set -euo pipefail
cd "$(dirname "$0")/.."
file="${1:-}"
if [ -z "$file" ]; then
  dir="$(mktemp -d)"
  trap 'rm -rf "$dir"' EXIT
  cargo build --release -q -p quotasim-cli
  "${CARGO_TARGET_DIR:-target}/release/quotasim" generate --jobs 1000000 --shares 20 --instance-types 5 --seed 7 >"$dir/m1.json"
  file="$dir/m1.json"
fi
cargo build --release -q --manifest-path bench/parse/Cargo.toml
"${CARGO_TARGET_DIR:-bench/parse/target}/release/quotasim-parse-bench" "$file"
