// The one npm package, used as its consumers would: `npm pack` makes the tarball, and each
// consumer folder is copied somewhere fresh, gets its own tool from its lock file (TypeScript,
// Vite, webpack, esbuild) and the tarball, and runs the worked example. Every result must be
// the bytes `quotasim run` prints. Needs the package built (web/build.sh), the release CLI
// (QUOTASIM_BIN) and Debian's chromium.
import test, { before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const pkgDir = process.env.QUOTASIM_PKG || path.resolve(here, "..", "pkg");
const notebook = path.join(root, "tests", "fixtures", "notebook.json");

function sh(cmd, args, cwd, env = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: "utf8", maxBuffer: 1 << 28, env: { ...process.env, ...env } });
  assert.equal(r.status, 0, `${cmd} ${args.join(" ")} in ${cwd} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function cliPath() {
  if (process.env.QUOTASIM_BIN) return process.env.QUOTASIM_BIN;
  const dir = process.env.CARGO_TARGET_DIR || path.join(root, "target");
  return path.join(dir, "release", "quotasim");
}

let work;
let tarball;
let expected;
let browser;

before(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "quotasim-consumers-"));
  const packed = JSON.parse(sh("npm", ["pack", "--json", "--pack-destination", work], pkgDir));
  tarball = path.join(work, packed[0].filename);
  expected = sh(cliPath(), ["run", notebook]).replace(/\n$/, "");
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
});

after(async () => {
  await browser?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** A fresh copy of a consumer folder with its locked tools and the tarball installed. */
function consumer(name) {
  const dir = path.join(work, name);
  fs.cpSync(path.join(here, name), dir, { recursive: true, filter: (p) => !p.includes("node_modules") && !p.includes(`${path.sep}dist`) });
  if (fs.existsSync(path.join(dir, "package-lock.json"))) sh("npm", ["ci", "--no-audit", "--no-fund"], dir);
  sh("npm", ["install", "--no-save", "--no-audit", "--no-fund", tarball], dir);
  fs.copyFileSync(notebook, path.join(dir, "notebook.json"));
  return dir;
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json" };

/** Serves `dir` on 127.0.0.1 and returns the page's `#out` text once the module wrote it. */
async function renderIn(dir, page = "index.html") {
  const errors = [];
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (pathname === "/favicon.ico") return res.writeHead(204).end();
    const file = path.join(dir, pathname);
    if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      errors.push(`404 ${pathname}`);
      return res.writeHead(404).end();
    }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
    res.end(fs.readFileSync(file));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const tab = await browser.newPage();
  tab.on("pageerror", (e) => errors.push(String(e)));
  tab.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  try {
    await tab.goto(`http://127.0.0.1:${server.address().port}/${page}`);
    await tab.waitForFunction(() => document.getElementById("out")?.textContent.length > 0, null, { timeout: 30000 });
    assert.deepEqual(errors, []);
    return await tab.$eval("#out", (e) => e.textContent);
  } finally {
    await tab.close();
    await new Promise((r) => server.close(r));
  }
}

test("Node, ES module: import { Simulation } from 'quotasim'", () => {
  const dir = consumer("node-esm");
  assert.equal(sh(process.execPath, ["example.mjs", "notebook.json"], dir), expected);
});

test("Node, ES module: eta() forecasts a live state as quotasim eta does", () => {
  const dir = consumer("node-esm");
  fs.writeFileSync(path.join(dir, "state.json"), sh(cliPath(), ["run", notebook, "--print-state-at", "600"]));
  const report = JSON.parse(sh(cliPath(), ["eta", path.join(dir, "state.json"), "--replicates", "100", "--format", "json"]));
  assert.ok(report.jobs.length > 0, "a job waits at 600");
  const lines = report.jobs.map(({ jobName, start, reason }) =>
    `${jobName}: starts in ${start.p10} / ${start.p50} / ${start.p90} s; waits now: ${reason}\n`);
  assert.equal(sh(process.execPath, ["eta.mjs", "state.json"], dir), lines.join(""));
});

test("Node, CommonJS: require('quotasim')", () => {
  const dir = consumer("node-cjs");
  assert.equal(sh(process.execPath, ["example.cjs", "notebook.json"], dir), expected);
});

test("TypeScript: type-checked with moduleResolution node16 and bundler", () => {
  const dir = consumer("typescript");
  for (const config of ["tsconfig.node16.json", "tsconfig.bundler.json"]) {
    sh(path.join(dir, "node_modules", ".bin", "tsc"), ["-p", config], dir);
  }
});

/**
 * Builds a browser app with a bundler (`npm run build` into dist/) and returns what it shows in
 * Chromium. The app is app/ (main.js and index.html) unless the folder has its own main.js.
 */
async function bundled(name) {
  const dir = consumer(name);
  for (const file of ["index.html", "main.js"]) {
    if (!fs.existsSync(path.join(dir, file))) fs.copyFileSync(path.join(here, "app", file), path.join(dir, file));
  }
  sh("npm", ["run", "--silent", "build"], dir);
  const dist = path.join(dir, "dist");
  if (!fs.existsSync(path.join(dist, "index.html"))) fs.copyFileSync(path.join(dir, "index.html"), path.join(dist, "index.html"));
  const emitted = fs.readdirSync(dist, { recursive: true });
  assert.ok(emitted.some((f) => f.endsWith(".wasm")), `${name} emitted the .wasm: ${emitted}`);
  fs.copyFileSync(notebook, path.join(dist, "notebook.json"));
  return renderIn(dist);
}

test("Vite: a production build runs in Chromium", async () => {
  assert.equal(await bundled("vite"), expected);
});

test("webpack: a production build runs in Chromium", async () => {
  assert.equal(await bundled("webpack"), expected);
});

test("esbuild: a bundle runs in Chromium", async () => {
  assert.equal(await bundled("esbuild"), expected);
});

test("a plain HTML page imports the web entry in Chromium, no bundler", async () => {
  const dir = consumer("html");
  assert.equal(await renderIn(dir), expected);
});

test("the package: metadata, files, LICENSE, and npm publish --dry-run", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8"));
  assert.equal(pkg.name, "quotasim");
  for (const field of ["keywords", "engines", "license", "exports", "types"]) {
    assert.ok(pkg[field], `package.json has ${field}`);
  }
  // Where the source lives only the publisher says (QUOTASIM_REPOSITORY when building).
  for (const field of ["repository", "homepage"]) {
    assert.equal(Boolean(pkg[field]), Boolean(process.env.QUOTASIM_REPOSITORY), `package.json's ${field}`);
  }
  if (!process.env.QUOTASIM_REPOSITORY) assert.equal(pkg.bugs, undefined);
  // The oldest Node the package claims is the one these examples ran on.
  assert.equal(pkg.engines.node, `>=${process.versions.node}`, "engines.node is the Node the consumer tests run");
  const files = JSON.parse(sh("npm", ["pack", "--dry-run", "--json"], pkgDir))[0].files.map((f) => f.path).sort();
  assert.deepEqual(files, [
    "LICENSE", "README.md", "node.cjs", "node.mjs", "package.json", "quotasim.cjs", "quotasim.d.cts",
    "quotasim.d.ts", "quotasim.js", "quotasim_bg.wasm",
  ]);
  assert.ok(fs.readFileSync(path.join(pkgDir, "LICENSE"), "utf8").includes("Apache License"));
  sh("npm", ["publish", "--dry-run"], pkgDir);
});

test("the README's examples are the ones these tests run", () => {
  const readme = fs.readFileSync(path.join(here, "..", "README.md"), "utf8");
  for (const file of ["node-esm/example.mjs", "node-esm/eta.mjs", "node-cjs/example.cjs", "app/main.js", "esbuild/main.js", "html/index.html"]) {
    const text = fs.readFileSync(path.join(here, file), "utf8").trimEnd();
    assert.ok(readme.includes(text), `web/README.md shows ${file} as it is`);
  }
});
