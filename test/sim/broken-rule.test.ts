// The acceptance of the simulation: a deliberately broken rule is caught. The lock-split runs
// (lock-split.ts) leave the validators of a quorum minus one locked on a block one validator
// already committed. With the rules intact every validator ends up committing that block; with a
// rule broken through the test-only switch (config.testOnlyBreakRule) the others commit a
// different block at that height, and the checker reports a safety violation. The same seeds,
// without the switch, are part of CI's mix.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TestOnlyBrokenRule } from "../../src/consensus/config.js";
import { scenarioFromSeed } from "./scenario.js";
import { runSimulation } from "./simulation.js";

// Seeds of the lock-split mix with 7, 4, 5 and 6 validators (split at heights 6, 3, 1 and 4).
const SEEDS = [1, 2, 8, 9];

function run(seed: number, breakRule?: TestOnlyBrokenRule) {
  const scenario = scenarioFromSeed(seed, {
    kind: "lock-split",
    heights: 12,
    ...(breakRule ? { breakRule } : {}),
  });
  return { scenario, outcome: runSimulation(scenario) };
}

describe("simulation: a broken rule is caught", () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: with the rules intact, the lock-split run is safe and live`, () => {
      const { scenario, outcome } = run(seed);
      assert.deepEqual(outcome.failures, []);
      const height = Number(scenario.script!.height);
      assert.equal(new Set(outcome.decisions.map((d) => d[height - 1])).size, 1);
    });

    for (const rule of ["ignore-lock", "precommit-without-polka"] as const) {
      it(`seed ${seed}: with "${rule}", two blocks are committed at the split height and the run fails`, () => {
        const { scenario, outcome } = run(seed, rule);
        const height = scenario.script!.height;
        assert.equal(outcome.ok, false);
        const safety = outcome.failures.filter((f) => f.startsWith(`safety: height ${height}:`));
        assert.ok(
          safety.length > 0,
          `a safety violation at height ${height}, got: ${outcome.failures.join("; ")}`,
        );
        assert.equal(new Set(outcome.decisions.map((d) => d[Number(height) - 1])).size, 2);
      });
    }
  }
});
