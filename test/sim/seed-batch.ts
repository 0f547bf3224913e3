// Runs a range of seeds as node:test cases, one case per seed, so a failure names its seed. A
// failed run keeps its logs (test/sim/failures/<seed>/) and the assertion message carries the
// scenario, the failures and the command that reruns it.
import assert from "node:assert/strict";
import { it } from "node:test";
import { runCheckedSimulation } from "./checked-run.js";
import { keepFailedRun } from "./failure-log.js";
import { describeScenario, type ScenarioOptions, scenarioFromSeed } from "./scenario.js";

/** The seeds CI runs: 1..CI_SEEDS, split over files so the runner can use both cores. */
export const CI_SEEDS = 204;

export function simulateSeeds(first: number, last: number, options: ScenarioOptions = {}): void {
  for (let seed = first; seed <= last; seed++) {
    const scenario = scenarioFromSeed(seed, options);
    it(`seed ${seed}: ${scenario.kind}, ${scenario.validators} validators, ${scenario.heights} heights`, () => {
      // Checked: a run that used real time or the event loop fails (checked-run.ts).
      const outcome = runCheckedSimulation(scenario);
      if (outcome.ok) return;
      const rerun = `npm run sim -- --runs 1 --seed ${seed} --heights ${scenario.heights}`;
      const dir = keepFailedRun(outcome, rerun);
      assert.fail(
        [
          `simulation failed: ${describeScenario(scenario)}`,
          ...outcome.failures.map((f) => `  ${f}`),
          `  logs kept in ${dir}`,
          `  rerun: ${rerun}`,
        ].join("\n"),
      );
    });
  }
}
