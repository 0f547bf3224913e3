// A run is a function of its seed (and of the code, code-version.ts): the same seed gives the same
// logs on every validator, byte for byte, whatever ran before it in the process, whatever the
// clocks read, however warm the JIT or the process-wide memo, after a garbage collection. And a
// validator's kept log folds again, through the reducer and the node's restart rule, to the same
// decisions (what `rxbft replay` rests on).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { DEFAULT_CONSENSUS_CONFIG } from "../../src/consensus/config.js";
import { processVerifiedSignatures } from "../../src/crypto/verified-signatures.js";
import { runCheckedSimulation } from "./checked-run.js";
import { codeVersion } from "./code-version.js";
import { type KeptRun, keepFailedRun } from "./failure-log.js";
import { replayLog } from "./replay-failure.js";
import { logBytes, runFingerprint } from "./run-fingerprint.js";
import { type Scenario, scenarioFromSeed } from "./scenario.js";
import type { SimOutcome } from "./simulation.js";

const fingerprintOf = (o: SimOutcome) => runFingerprint(o.nodes.map((n) => n.log));

/** Same logs on every validator, byte for byte (the first differing validator is named). */
function assertSameLogs(a: SimOutcome, b: SimOutcome): void {
  assert.equal(a.nodes.length, b.nodes.length);
  a.nodes.forEach((node, i) => {
    const x = logBytes(node.log);
    const y = logBytes(b.nodes[i]!.log);
    assert.ok(x.equals(y), `v${i}'s log differs: ${x.length} vs ${y.length} bytes`);
  });
  assert.equal(fingerprintOf(a), fingerprintOf(b));
  assert.deepEqual(a.decisions, b.decisions);
  assert.equal(a.virtualMs, b.virtualMs);
  assert.deepEqual(a.stats, b.stats);
}

/** A full collection (the flag is set for this process, the function got from a fresh context). */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/** Everything a process carries from one run to the next, stirred: other runs, the memo, the heap. */
function disturbProcess(): void {
  for (const seed of [3, 8]) runCheckedSimulation(scenarioFromSeed(seed, { heights: 4 }));
  // The process-wide verified-signature memo full of other triples, then emptied.
  for (let i = 0; i < 1000; i++)
    processVerifiedSignatures.remember(
      new Uint8Array(32).fill(i),
      new Uint8Array([i]),
      new Uint8Array(64).fill(i),
      true,
    );
  processVerifiedSignatures.clear();
  collectGarbage();
}

describe("simulation: determinism and replay", () => {
  const dir = mkdtempSync(join(tmpdir(), "rxbft-sim-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const seed of [5, 11]) {
    it(`seed ${seed} (mixed faults) twice: the same logs on every validator, byte for byte`, () => {
      const scenario = scenarioFromSeed(seed, { heights: 12 });
      const a = runCheckedSimulation(scenario);
      const b = runCheckedSimulation(scenario);
      assert.ok(a.ok, a.failures.join("; "));
      assertSameLogs(a, b);
      assert.ok(a.decisions.some((d) => d.length >= 12));
    });
  }

  // The campaign kind of seeds 10573 and 11434 (7 validators, a partition, a crash-restart, a
  // double proposer): a first run in a cold process against one after other runs, a full memo,
  // a collection, with clocks hours ahead and Math.random drawing another sequence.
  it("a mixed run with a restart is the same after other runs, a GC and with the clocks moved", () => {
    const scenario: Scenario = scenarioFromSeed(11434, { kind: "mixed", heights: 8 });
    assert.ok(scenario.crashes.length > 0 && scenario.byzantine.length > 0);
    const a = runCheckedSimulation(scenario);
    assert.ok(a.ok, a.failures.join("; "));
    assert.ok(a.stats.restarts > 0);
    disturbProcess();
    const b = runCheckedSimulation(scenario, { perturb: true });
    assert.ok(b.ok, b.failures.join("; "));
    assertSameLogs(a, b);
  });

  it("another seed gives another run", () => {
    const a = runCheckedSimulation(scenarioFromSeed(6, { heights: 5 }));
    const b = runCheckedSimulation(scenarioFromSeed(12, { heights: 5 }));
    assert.notDeepEqual(a.decisions[0], b.decisions[0]);
    assert.notEqual(fingerprintOf(a), fingerprintOf(b));
  });

  it("the kept logs of a run with crash-restarts fold again to the same decisions", async () => {
    // Seed 4 crashes two validators mid-run: their logs hold two ConsensusStarted records each.
    const scenario = scenarioFromSeed(4, { kind: "crash", heights: 20 });
    const outcome = runCheckedSimulation(scenario);
    assert.equal(outcome.stats.restarts, 2);
    const kept = keepFailedRun(outcome, "(test)", dir);
    // The kept run names its fingerprint and the code that ran it, so a replay at other code
    // can say so (replay-failure.ts) instead of showing a difference nobody can explain.
    const saved = JSON.parse(readFileSync(join(kept, "scenario.json"), "utf8")) as KeptRun;
    assert.equal(saved.fingerprint, fingerprintOf(outcome));
    assert.equal(saved.code?.fingerprint, codeVersion().fingerprint);
    const config = { ...DEFAULT_CONSENSUS_CONFIG, ...scenario.config };
    for (const node of outcome.nodes) {
      assert.ok(readFileSync(join(kept, `v${node.index}`, "wal.000000000000")).equals(logBytes(node.log)));
      const replay = await replayLog(join(kept, `v${node.index}`), node.address, config);
      const recorded = outcome.decisions[node.index]!;
      assert.ok(recorded.length >= 20);
      recorded.forEach((hash, slot) => {
        assert.equal(replay.decided.get(BigInt(slot + 1)), hash, `v${node.index} height ${slot + 1}`);
      });
    }
  });
});
