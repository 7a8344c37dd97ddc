// The wasm benchmark: node web/bench.mjs [JOBS,...] [REPEAT]
// Runs the npm package (web/pkg, from `web/build.sh`) in Node on the
// same generated workloads as `quotasim bench`, timing the simulation alone, once with the
// event list recorded and once with events only counted. Memory is the module's linear memory
// high-water mark (it never shrinks), scenario included.
import { createRequire } from "node:module";
import { performance } from "node:perf_hooks";

const require = createRequire(import.meta.url);
const q = require(process.env.QUOTASIM_PKG ?? new URL("./pkg", import.meta.url).pathname);

const sizes = (process.argv[2] ?? "10000,100000,1000000").split(",").map(Number);
const repeat = Number(process.argv[3] ?? 5);
const pad = (v, n) => String(v).padStart(n);
console.log(
  [pad("jobs", 10), pad("events", 8), pad("count", 10), pad("sim ms", 10), pad("jobs/s", 12),
   pad("events/s", 12), pad("preempted", 10), pad("memory MiB", 11)].join(" "),
);
for (const n of sizes) {
  const workload = new q.BenchWorkload(n);
  for (const record of [true, false]) {
    let best = Infinity;
    let run;
    for (let i = 0; i < repeat; i++) {
      const t0 = performance.now();
      run = workload.run(record);
      best = Math.min(best, performance.now() - t0);
    }
    console.log(
      [pad(n, 10), pad(record ? "recorded" : "counted", 8), pad(run.events, 10), pad(best.toFixed(1), 10),
       pad(Math.round(n / (best / 1000)), 12), pad(Math.round(run.events / (best / 1000)), 12),
       pad(((run.preemptedJobs * 100) / n).toFixed(2) + "%", 10),
       pad((q.memoryBytes() / 2 ** 20).toFixed(1), 11)].join(" "),
    );
  }
  workload.free();
}
