// Node, as CommonJS (`require("quotasim")`): the same glue converted to CommonJS, with the
// WebAssembly read from the package and instantiated synchronously on require. `init()` is
// there for code shared with the browser; here it resolves at once.
"use strict";
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const glue = require("./quotasim.cjs");

glue.initSync({ module: readFileSync(join(__dirname, "quotasim_bg.wasm")) });

module.exports = { ...glue, init: async () => {}, default: async () => {} };
