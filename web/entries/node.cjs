// Node, as CommonJS (`require("quotasim")`): the same glue converted to CommonJS, with the
// WebAssembly read from the package and instantiated synchronously on require. `init()` is
// there for code shared with the browser; here it resolves at once.
//
// V8 compiles WebAssembly lazily by default, each function when it is first called, so a first
// `eta()` would spend tens of milliseconds compiling in one task before its first yield. The
// module is compiled whole here instead, with lazy compilation off for this one compilation
// (`require` holds the thread a little longer, once, when the process loads it), so every
// Promise of the API yields on time from its first call. Where `node:v8` cannot set flags, the
// module compiles lazily as before. node.mjs does the same on V8's background threads.
"use strict";
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const { setFlagsFromString } = require("node:v8");
const glue = require("./quotasim.cjs");

const lazy = (on) => {
  try {
    setFlagsFromString(on ? "--wasm-lazy-compilation" : "--no-wasm-lazy-compilation");
  } catch {}
};
lazy(false);
let compiled;
try {
  compiled = new WebAssembly.Module(readFileSync(join(__dirname, "quotasim_bg.wasm")));
} finally {
  lazy(true); // V8's default on every Node the package supports (20 and later)
}
glue.initSync({ module: compiled });

module.exports = { ...glue, init: async () => {}, default: async () => {} };
