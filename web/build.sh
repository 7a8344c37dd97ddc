#!/usr/bin/env bash
# Builds the npm package `quotasim`:  web/build.sh [TARGET] [OUT_DIR]
#   TARGET   wasm-pack target: bundler (default), nodejs or web
#   OUT_DIR  output folder inside web/ (default: pkg for bundler, pkg-TARGET otherwise)
# wasm-opt is disabled in Cargo.toml, so nothing is downloaded. wasm-pack names the package
# after the crate (quotasim-wasm); the package is published as `quotasim`, set here.
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$HOME/.cargo/bin:$PATH"
target="${1:-bundler}"
case "$target" in bundler) default_out=pkg ;; *) default_out="pkg-$target" ;; esac
out="${2:-$default_out}"
wasm-pack build . --release --target "$target" --out-dir "$out" --out-name quotasim
node -e '
  const fs = require("fs");
  const file = process.argv[1] + "/package.json";
  const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
  pkg.name = "quotasim";
  if (!pkg.files.includes("README.md")) pkg.files.push("README.md");
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
' "$out"
test -f "$out/README.md" || { echo "build.sh: README.md was not copied into $out" >&2; exit 1; }
