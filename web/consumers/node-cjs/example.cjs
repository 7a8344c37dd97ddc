// Node, CommonJS: the worked example, printed as the result JSON.
const { Simulation } = require("quotasim");
const { readFileSync } = require("node:fs");

const scenario = readFileSync(process.argv[2] ?? "notebook.json", "utf8");
const sim = new Simulation(scenario);
try {
  sim.run();
  process.stdout.write(sim.resultJson()); // the same bytes as `quotasim run`
} finally {
  sim.free();
}
