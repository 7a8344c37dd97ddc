// Node, ES module: when will the queued jobs of a live state start? The state is what
// `quotasim run SCENARIO --print-state-at T` writes. The replicates run in slices between
// which the event loop turns, so a timer can abort the forecast (it rejects with an AbortError).
import { eta } from "quotasim";
import { readFileSync } from "node:fs";

const state = readFileSync(process.argv[2] ?? "state.json", "utf8");
const controller = new AbortController();
setTimeout(() => controller.abort(), 60_000).unref(); // give up after a minute
const report = await eta(state, {
  replicates: 100,
  signal: controller.signal,
  onProgress: (done, total) => process.stderr.write(`\r${done}/${total} replicates`),
});
process.stderr.write("\n");
for (const job of report.jobs) {
  const { p10, p50, p90 } = job.start; // seconds after startAt; null: not before the horizon
  console.log(`${job.jobName}: starts in ${p10} / ${p50} / ${p90} s; waits now: ${job.reason}`);
}
