// The acceptance of the simulation: a deliberately broken rule is caught. The scripted lock-split
// run (lock-split.ts) leaves two validators locked on a block one validator already committed;
// with the lock honoured every validator ends up committing that block, with the lock ignored
// (config.testOnlyBreakRule = "ignore-lock") the others commit a different block at that height,
// and the checker reports it as a safety violation.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lockSplitScenario } from "./scenario.js";
import { runSimulation } from "./simulation.js";

describe("simulation: a broken rule is caught", () => {
  for (const seed of [1, 2]) {
    it(`seed ${seed}: with the lock honoured, the lock-split run is safe and live`, () => {
      const outcome = runSimulation(lockSplitScenario(seed, { heights: 10 }));
      assert.deepEqual(outcome.failures, []);
      // Every validator decided the same block at height 1, the one decided before the heal.
      assert.equal(new Set(outcome.decisions.map((d) => d[0])).size, 1);
    });

    it(`seed ${seed}: with the lock ignored, the same run commits two blocks at height 1 and fails`, () => {
      const outcome = runSimulation(lockSplitScenario(seed, { heights: 10, breakRule: "ignore-lock" }));
      assert.equal(outcome.ok, false);
      const safety = outcome.failures.filter((f) => f.startsWith("safety: height 1:"));
      assert.ok(safety.length > 0, `a safety violation at height 1, got ${outcome.failures.join("; ")}`);
      assert.equal(new Set(outcome.decisions.map((d) => d[0])).size, 2);
    });
  }
});
