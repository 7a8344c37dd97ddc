// TypeScript compiled to CommonJS: `require` resolves the package's CommonJS types.
import quotasim = require("quotasim");

export function end(text: string): number {
  const sim = new quotasim.Simulation(text);
  try {
    sim.run();
    return sim.now();
  } finally {
    sim.free();
  }
}
