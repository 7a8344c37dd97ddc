// A Vite app: no plugin and no copy step; Vite bundles the .wasm the package points at.
import init, { Simulation } from "quotasim";

await init();
const scenario = await (await fetch("./notebook.json")).text();
const sim = new Simulation(scenario);
try {
  sim.run();
  document.getElementById("out").textContent = sim.resultJson();
} finally {
  sim.free();
}
