// A simulated run that fails when it used real time or real asynchrony (real-time-guard.ts): a
// clock read, Math.random, or work put on the event loop would make the run depend on more than
// its seed (the machine's load, the order in which answers arrive), so it is a failure of the run
// as much as a safety violation is. The campaign (run-sim.ts) and the CI seeds run through here.
import { describeRealTimeUse, type GuardOptions, guardRealTime } from "./real-time-guard.js";
import type { Scenario } from "./scenario.js";
import { runSimulation, type SimOutcome } from "./simulation.js";

export function runCheckedSimulation(scenario: Scenario, options: GuardOptions = {}): SimOutcome {
  const { result, use } = guardRealTime(() => runSimulation(scenario), options);
  const used = describeRealTimeUse(use);
  if (used === undefined) return result;
  return {
    ...result,
    ok: false,
    failures: [
      ...result.failures,
      `determinism: the run used real time or the event loop (${used}); a run must be a function of its seed`,
    ],
  };
}
