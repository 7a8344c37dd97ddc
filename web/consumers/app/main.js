// A bundled app (Vite, webpack): no plugin and no copy step; the bundler emits the .wasm
// that the package names with `new URL(..., import.meta.url)`.
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
