// Writes the package's package.json: the name it is published under, the exports map that
// serves each runtime, and the metadata `npm publish` shows.
//
// `repository`, `homepage` and `bugs` name where the source lives, which only the publisher
// knows: they are written only when QUOTASIM_REPOSITORY is set, to the repository's https URL
// (`QUOTASIM_REPOSITORY=https://github.com/OWNER/NAME web/build.sh`), never guessed.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

// The oldest Node the package claims to run on: the version its tests (web/js-tests and the
// consumer tests) run, which both check; raise it when the tests move to a newer Node.
const NODE_FLOOR = "20.20.2";

/** `repository`, `homepage` and `bugs` for the repository URL `url`, checked. */
function whereFrom(url) {
  const fail = (why) => {
    process.stderr.write(`package-json.cjs: QUOTASIM_REPOSITORY=${JSON.stringify(url)} ${why}\n`);
    process.exit(1);
  };
  let u;
  try {
    u = new URL(url);
  } catch {
    fail("is not a URL (expected https://HOST/OWNER/NAME)");
  }
  if (u.protocol !== "https:") fail("must be an https URL");
  if (u.username || u.password || u.search || u.hash) fail("must be a plain https URL, without credentials, query or fragment");
  const home = `${u.origin}${u.pathname.replace(/\.git$/, "").replace(/\/+$/, "")}`;
  if (home === u.origin) fail("names no repository (expected https://HOST/OWNER/NAME)");
  const where = {
    repository: { type: "git", url: `git+${home}.git`, directory: "web" },
    homepage: `${home}#readme`,
  };
  // GitHub's issue tracker has a known address; elsewhere, none is guessed.
  if (u.hostname === "github.com") where.bugs = { url: `${home}/issues` };
  return where;
}

const out = process.argv[2];
const repo = process.env.QUOTASIM_REPOSITORY;
const file = path.join(out, "package.json");
const built = JSON.parse(fs.readFileSync(file, "utf8"));
const pkg = {
  name: "quotasim",
  version: built.version,
  description: built.description,
  license: built.license,
  type: "module",
  ...(repo ? whereFrom(repo) : {}),
  keywords: [...new Set([...(built.keywords || []), "aws", "batch", "quota-management", "scheduler", "webassembly"])],
  engines: { node: `>=${NODE_FLOOR}` },
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
