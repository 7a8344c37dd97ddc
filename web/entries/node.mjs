// Node, as an ES module: the WebAssembly is read from the package and compiled before the
// import resolves, so the API is ready on import. `init()` is there for code shared with the
// browser, where it must be awaited once; here it resolves at once.
//
// V8 compiles WebAssembly lazily by default, each function on the main thread when it is first
// called, so a first `eta()` would spend tens of milliseconds compiling in one task before its
// first yield. Compiled asynchronously with lazy compilation off, the whole module is compiled
// on V8's background threads while the event loop goes on; the flag is restored right after, so
// other modules of the process compile as they would have. Where `node:v8` cannot set flags,
// the module compiles lazily as before.
import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { initSync } from "./quotasim.js";

const bytes = readFileSync(new URL("./quotasim_bg.wasm", import.meta.url));
const lazy = (on) => {
  try {
    setFlagsFromString(on ? "--wasm-lazy-compilation" : "--no-wasm-lazy-compilation");
  } catch {}
};
lazy(false);
let module;
try {
  module = await WebAssembly.compile(bytes);
} finally {
  lazy(true); // V8's default on every Node the package supports (20 and later)
}
initSync({ module });

export * from "./quotasim.js";
export default async function init() {}
