// Split double votes (docs/simulation.md): a Byzantine validator sends one version of its vote to
// some peers and a conflicting version to the others. The vote keeper counts each version toward
// its own value (the validator's power once toward the "any" thresholds), so a polka or decision
// that needs the version a validator got second is still seen. Safety and liveness both hold;
// seed 43 is the run that used to stall for good when only the first version counted.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { describeScenario, scenarioFromSeed } from "./scenario.js";
import { runSimulation } from "./simulation.js";

describe("simulation: split double votes", () => {
  it("never break safety or liveness, every double voter named by evidence (seeds 1-12)", () => {
    for (let seed = 1; seed <= 12; seed++) {
      const scenario = scenarioFromSeed(seed, { kind: "byzantine", splitVotes: true, heights: 15 });
      const outcome = runSimulation(scenario);
      assert.deepEqual(outcome.failures, [], describeScenario(scenario));
    }
  });

  it("seed 43: 4 validators, one splitting its prevotes and precommits, still reach 30 heights", () => {
    const scenario = scenarioFromSeed(43, { kind: "byzantine", splitVotes: true });
    assert.ok(scenario.byzantine.some((b) => b.behaviours.includes("split-precommit")));
    const outcome = runSimulation(scenario);
    assert.deepEqual(outcome.failures, [], describeScenario(scenario));
    assert.equal(outcome.ok, true);
  });

  it("seeds 3 and 31: a validator left behind gets the committed version it lacked, and catches up", () => {
    for (const seed of [3, 31]) {
      const scenario = scenarioFromSeed(seed, { kind: "byzantine", splitVotes: true });
      const outcome = runSimulation(scenario);
      assert.deepEqual(outcome.failures, [], describeScenario(scenario));
    }
  });
});
