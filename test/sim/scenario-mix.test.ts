// The CI seeds cover what the issue asks for: ≥ 200 runs of 4–7 validators and ≥ 30 heights,
// every fault mix, crashes, partitions, and each Byzantine behaviour; and a scenario is a
// function of its seed.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SCENARIO_KINDS, scenarioFromSeed } from "./scenario.js";
import { CI_SEEDS } from "./seed-batch.js";

describe("simulation: the CI scenario mix", () => {
  const scenarios = Array.from({ length: CI_SEEDS }, (_, i) => scenarioFromSeed(i + 1));

  it("is at least 200 runs of 4 to 7 validators and 30 heights, every size and kind present", () => {
    assert.ok(scenarios.length >= 200);
    assert.ok(scenarios.every((s) => s.validators >= 4 && s.validators <= 7 && s.heights >= 30));
    assert.deepEqual([...new Set(scenarios.map((s) => s.validators))].sort(), [4, 5, 6, 7]);
    assert.deepEqual([...new Set(scenarios.map((s) => s.kind))].sort(), [...SCENARIO_KINDS].sort());
  });

  it("has drops, duplicates, partitions, crash-restarts and every Byzantine behaviour", () => {
    assert.ok(scenarios.filter((s) => s.network.drop >= 0.1).length >= 30);
    assert.ok(scenarios.filter((s) => s.network.duplicate > 0).length >= 100);
    assert.ok(scenarios.filter((s) => s.partitions.length > 0).length >= 30);
    assert.ok(scenarios.filter((s) => s.crashes.length > 0).length >= 30);
    const behaviours = new Set(scenarios.flatMap((s) => s.byzantine.flatMap((b) => b.behaviours)));
    for (const b of [
      "double-prevote",
      "double-precommit",
      "split-prevote",
      "split-precommit",
      "double-proposal",
      "silence",
    ])
      assert.ok(behaviours.has(b as never), `some run has a ${b} validator`);
  });

  it("runs v0.34's timing options: skip_timeout_commit, create_empty_blocks = false and its interval", () => {
    assert.ok(scenarios.filter((s) => s.config.skipTimeoutCommit === true).length >= 10);
    assert.ok(scenarios.filter((s) => s.config.createEmptyBlocks === false).length >= 5);
    assert.ok(scenarios.filter((s) => (s.config.createEmptyBlocksIntervalMs ?? 0) > 0).length >= 3);
  });

  it("keeps Byzantine power below a third in every run", () => {
    for (const s of scenarios) {
      const total = s.powers.reduce((a, b) => a + b, 0n);
      const byzantine = s.byzantine.reduce((a, b) => a + s.powers[b.node]!, 0n);
      assert.ok(byzantine * 3n < total, `seed ${s.seed}: ${byzantine} of ${total}`);
    }
  });

  it("is the same scenario for the same seed", () => {
    assert.deepEqual(scenarioFromSeed(77), scenarioFromSeed(77));
    assert.notDeepEqual(scenarioFromSeed(77), scenarioFromSeed(78));
  });
});
