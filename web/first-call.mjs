// The first forecast of a process: node web/first-call.mjs STATE.json [esm|cjs] [REPLICATES]
// Loads the npm package (web/pkg, from `web/build.sh`) through its ES module or CommonJS entry
// in this fresh process, then awaits one `eta(state)`, and prints how long the import and the
// forecast took and the longest stretch the event loop was held during each (a 1 ms interval
// timer's largest gap): what a server or tool feels on its first forecast.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";

const [file, entry = "esm", replicates = "200"] = process.argv.slice(2);
if (!file || !["esm", "cjs"].includes(entry)) {
  console.error("usage: node web/first-call.mjs STATE.json [esm|cjs] [REPLICATES]");
  process.exit(2);
}
const pkg = process.env.QUOTASIM_PKG ?? new URL("./pkg", import.meta.url).pathname;
const state = readFileSync(file, "utf8");

let last = performance.now();
let gap = 0;
const timer = setInterval(() => {
  const now = performance.now();
  gap = Math.max(gap, now - last);
  last = now;
}, 1);
const settle = () => new Promise((r) => setTimeout(r, 20));
const measure = async (what) => {
  await settle();
  last = performance.now();
  gap = 0;
  const t0 = performance.now();
  const value = await what();
  const took = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 2)); // the timer sees the last stretch
  return [value, took, gap];
};

const [q, importMs, importGap] = await measure(async () =>
  entry === "esm" ? import(`${pkg}/node.mjs`) : createRequire(import.meta.url)(`${pkg}/node.cjs`),
);
const [report, etaMs, etaGap] = await measure(() => q.eta(state, { replicates: Number(replicates) }));
clearInterval(timer);
const ms = (v) => `${v.toFixed(0)} ms`;
console.log(
  `${entry}: import ${ms(importMs)} (event loop held at most ${ms(importGap)}); first eta of ` +
    `${report.jobs.length} jobs x ${report.replicates} replicates ${ms(etaMs)} (held at most ${ms(etaGap)})`,
);
