// Writes the package's package.json: the name it is published under, the exports map that
// serves each runtime, and the metadata `npm publish` shows.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const out = process.argv[2];
const file = path.join(out, "package.json");
const built = JSON.parse(fs.readFileSync(file, "utf8"));
const pkg = {
  name: "quotasim",
  version: built.version,
  description: built.description,
  license: built.license,
  type: "module",
  repository: { type: "git", url: "git+https://github.com/quotasim/quotasim.git", directory: "web" },
  homepage: "https://github.com/quotasim/quotasim#readme",
  bugs: { url: "https://github.com/quotasim/quotasim/issues" },
  keywords: [...new Set([...(built.keywords || []), "aws", "batch", "quota-management", "scheduler", "webassembly"])],
  engines: { node: ">=18" },
  // One .wasm for every runtime. Node gets an entry that instantiates it synchronously (ESM
  // and CommonJS); browsers and bundlers get the ES module glue, whose default export `init()`
  // fetches the .wasm next to it (bundlers such as Vite and webpack resolve that URL).
  exports: {
    ".": {
      node: {
        import: { types: "./quotasim.d.ts", default: "./node.mjs" },
        require: { types: "./quotasim.d.cts", default: "./node.cjs" },
      },
      import: { types: "./quotasim.d.ts", default: "./quotasim.js" },
      default: { types: "./quotasim.d.ts", default: "./quotasim.js" },
    },
    "./web": { types: "./quotasim.d.ts", default: "./quotasim.js" },
    "./quotasim_bg.wasm": "./quotasim_bg.wasm",
    "./package.json": "./package.json",
  },
  main: "./node.cjs",
  module: "./quotasim.js",
  types: "./quotasim.d.ts",
  files: [
    "quotasim_bg.wasm",
    "quotasim.js",
    "quotasim.cjs",
    "quotasim.d.ts",
    "quotasim.d.cts",
    "node.mjs",
    "node.cjs",
    "README.md",
    "LICENSE",
  ],
  sideEffects: ["./node.mjs", "./node.cjs"],
};
fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
