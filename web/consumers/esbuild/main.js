// An esbuild app: esbuild does not follow `new URL(..., import.meta.url)`, so the .wasm is
// imported with the `file` loader (`--loader:.wasm=file`, no plugin) and its URL given to init().
import init, { Simulation } from "quotasim";
import wasmUrl from "quotasim/quotasim_bg.wasm";

await init({ module_or_path: wasmUrl });
const scenario = await (await fetch("./notebook.json")).text();
const sim = new Simulation(scenario);
try {
  sim.run();
  document.getElementById("out").textContent = sim.resultJson();
} finally {
  sim.free();
}
