// TypeScript: typical use, type-checked with moduleResolution node16 and bundler.
import init, { Simulation, validate, type Scenario, type SimResult, type Problem } from "quotasim";

export async function run(scenario: Scenario | string): Promise<SimResult> {
  await init();
  const problems: Problem[] = validate(scenario);
  if (problems.some((p) => p.severity === "error")) throw new Error(problems[0].message);
  const sim = new Simulation(scenario);
  try {
    sim.run();
    return sim.result();
  } finally {
    sim.free();
  }
}

// @ts-expect-error: a misspelt field is caught
export const bad: Scenario = { serviceEnvironment: { capacityLimits: [] }, jobz: [] };
