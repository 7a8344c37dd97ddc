#!/usr/bin/env bash
# Builds the one npm package `quotasim` into web/pkg (or OUT_DIR):  web/build.sh [OUT_DIR]
#
# Layout (web/README.md, "One package for every runtime"): wasm-pack's `web` target gives the
# ES module glue (quotasim.js) and the one .wasm file; small entries load it for Node without
# an init call: node.mjs (ESM) and node.cjs (CommonJS, with quotasim.cjs, the same glue
# converted to CommonJS by esbuild). The exports map serves each runtime. wasm-opt (from the
# npm registry's binaryen) optimises the .wasm. Tools come from web/tools/package-lock.json.
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$HOME/.cargo/bin:$PATH"
out="${1:-pkg}"
if [ ! -d tools/node_modules ] || [ tools/package-lock.json -nt tools/node_modules/.package-lock.json ]; then
  (cd tools && npm ci --no-audit --no-fund)
fi
rm -rf "$out"
wasm-pack build . --release --target web --out-dir "$out" --out-name quotasim
before=$(wc -c <"$out/quotasim_bg.wasm")
tools/node_modules/.bin/wasm-opt "$out/quotasim_bg.wasm" -O3 \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
  -o "$out/quotasim_bg.wasm"
echo "wasm-opt -O3: $before -> $(wc -c <"$out/quotasim_bg.wasm") bytes"
tools/node_modules/.bin/esbuild "$out/quotasim.js" --format=cjs --platform=node --log-level=error \
  --outfile="$out/quotasim.cjs"
cp entries/node.mjs entries/node.cjs "$out/"
node entries/types.cjs "$out"
cp ../LICENSE "$out/LICENSE"
rm -f "$out/.gitignore" "$out/quotasim_bg.wasm.d.ts"
node entries/package-json.cjs "$out"
test -f "$out/README.md" || { echo "build.sh: README.md was not copied into $out" >&2; exit 1; }
