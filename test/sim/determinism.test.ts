// A run is a function of its seed: the same seed gives the same decisions, the same virtual
// time and the same traffic. And a validator's kept log folds again, through the reducer and the
// node's restart rule, to the same decisions (what `rxbft replay` rests on).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { DEFAULT_CONSENSUS_CONFIG } from "../../src/consensus/config.js";
import { keepFailedRun } from "./failure-log.js";
import { replayLog } from "./replay-failure.js";
import { scenarioFromSeed } from "./scenario.js";
import { runSimulation } from "./simulation.js";

describe("simulation: determinism and replay", () => {
  const dir = mkdtempSync(join(tmpdir(), "rxbft-sim-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const seed of [5, 11]) {
    it(`seed ${seed} (mixed faults) twice: identical commit sequences, time and traffic`, () => {
      const scenario = scenarioFromSeed(seed, { heights: 12 });
      const a = runSimulation(scenario);
      const b = runSimulation(scenario);
      assert.ok(a.ok, a.failures.join("; "));
      assert.deepEqual(a.decisions, b.decisions);
      assert.equal(a.virtualMs, b.virtualMs);
      assert.equal(a.inputs, b.inputs);
      assert.deepEqual(a.stats, b.stats);
      assert.ok(a.decisions.some((d) => d.length >= 12));
    });
  }

  it("another seed gives another run", () => {
    const a = runSimulation(scenarioFromSeed(6, { heights: 5 }));
    const b = runSimulation(scenarioFromSeed(12, { heights: 5 }));
    assert.notDeepEqual(a.decisions[0], b.decisions[0]);
  });

  it("the kept logs of a run with crash-restarts fold again to the same decisions", async () => {
    // Seed 4 crashes two validators mid-run: their logs hold two ConsensusStarted records each.
    const scenario = scenarioFromSeed(4, { kind: "crash", heights: 20 });
    const outcome = runSimulation(scenario);
    assert.equal(outcome.stats.restarts, 2);
    const kept = keepFailedRun(outcome, "(test)", dir);
    const config = { ...DEFAULT_CONSENSUS_CONFIG, ...scenario.config };
    for (const node of outcome.nodes) {
      const replay = await replayLog(join(kept, `v${node.index}`), node.address, config);
      const recorded = outcome.decisions[node.index]!;
      assert.ok(recorded.length >= 20);
      recorded.forEach((hash, slot) => {
        assert.equal(replay.decided.get(BigInt(slot + 1)), hash, `v${node.index} height ${slot + 1}`);
      });
    }
  });
});
