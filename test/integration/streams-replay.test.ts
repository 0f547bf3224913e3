// Replaying a node's consensus log reproduces every state and effect of the live run, byte for
// byte: a node runs, stops, restarts (exercising the restart rule), stops again; `replayLog` then
// folds the log offline and must yield the identical sequence of (input, state, effects).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { after, describe, it } from "node:test";
import { initialConsensusState } from "../../src/consensus/state.js";
import { encodeRecord } from "../../src/wal/record-codec.js";
import { consensusConfigOf } from "../../streams/node-config.js";
import { replayLog } from "../../streams/replay-log.js";
import type { FoldStep } from "../../streams/restart-fold.js";
import { freshHome, runUntil } from "./streams-node-helpers.js";

const home = freshHome("rxbft-replay-");
after(() => rmSync(home, { recursive: true, force: true }));

/** A digest of one fold: the encoded input, state and effects (the log's own codec). */
function digest(step: FoldStep): string {
  return createHash("sha256")
    .update(
      encodeRecord({ input: step.input, state: step.state, effects: step.effects, refolded: step.refolded }),
    )
    .digest("hex");
}

function run(steps: string[], untilHeight: bigint, txs: number) {
  return runUntil(home, untilHeight, txs, { onConsensusStep: (s) => steps.push(digest(s)) });
}

describe("streams: rxbft replay reproduces the live run", () => {
  it("gives byte-identical states and effects for every fold, across a restart", async () => {
    const live: string[] = [];
    await run(live, 3n, 5);
    const prepared = await run(live, 6n, 5);
    const replayed: string[] = [];
    const summary = await replayLog(dirname(prepared.paths.walFile), {
      initial: initialConsensusState({
        config: consensusConfigOf(prepared.config),
        ownAddress: prepared.privValidatorKey!.address,
      }),
      onStep: (s) => replayed.push(digest(s)),
    });
    assert.equal(summary.starts, 2);
    assert.ok(summary.heights >= 6, `heights ${summary.heights}`);
    assert.ok(live.length > 20, `live folds ${live.length}`);
    assert.equal(replayed.length, live.length, "same number of folds");
    const firstDiff = live.findIndex((d, i) => replayed[i] !== d);
    assert.equal(firstDiff, -1, `first differing fold: ${firstDiff}`);
  });
});
