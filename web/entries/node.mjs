// Node, as an ES module: the WebAssembly is read from the package and instantiated
// synchronously, so the API is ready on import. `init()` is there for code shared with the
// browser, where it must be awaited once; here it resolves at once.
import { readFileSync } from "node:fs";
import { initSync } from "./quotasim.js";

initSync({ module: readFileSync(new URL("./quotasim_bg.wasm", import.meta.url)) });

export * from "./quotasim.js";
export default async function init() {}
