// Node, ES module: the worked example, printed as the result JSON.
import { Simulation } from "quotasim";
import { readFileSync } from "node:fs";

const scenario = readFileSync(process.argv[2] ?? "notebook.json", "utf8");
const sim = new Simulation(scenario);
try {
  sim.run();
  process.stdout.write(sim.resultJson()); // the same bytes as `quotasim run`
} finally {
  sim.free();
}
