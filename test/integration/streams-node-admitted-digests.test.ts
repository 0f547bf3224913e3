// The admitted digests' memo on a node that is its chain's only validator (streams/node.ts,
// src/state/other-proposers.ts): every block is its own, so no tx's digests are kept for other
// proposers' blocks while it runs; the process keeps them again once the node stops.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, describe, it } from "node:test";
import { firstValueFrom } from "rxjs";
import { filter } from "rxjs/operators";
import { admittedTxDigestsKept, keepAdmittedTxDigests, TxDigests } from "../../src/wire/hashes.js";
import { startNode } from "../../streams/node.js";
import { freshHome, prepare } from "./streams-node-helpers.js";

const home = freshHome("rxbft-digests-");
after(() => rmSync(home, { recursive: true, force: true }));

describe("streams: the admitted digests' memo on a one-validator chain", () => {
  it("keeps no admitted tx's digests while the node runs, and keeps them again after it stops", async () => {
    keepAdmittedTxDigests(true);
    TxDigests.of(new TextEncoder().encode("before=start"));
    assert.ok(admittedTxDigestsKept() > 0);
    const prepared = prepare(home);
    try {
      const node = await startNode(prepared, { verifyWorkers: 0, rpc: false });
      try {
        assert.equal(admittedTxDigestsKept(), 0, "the memo kept entries on a one-validator node");
        for (let i = 0; i < 20; i++) {
          const admitted = await node.mempool.submit(new TextEncoder().encode(`k${i}=v${i}`));
          assert.equal(admitted.outcome.kind, "added");
        }
        const height = node.chainState().lastBlockHeight;
        await firstValueFrom(node.consensusState$.pipe(filter((s) => s.height > height + 1n)));
        assert.equal(admittedTxDigestsKept(), 0, "admitted txs' digests were kept");
      } finally {
        await node.stop();
      }
    } finally {
      prepared.lock.release();
    }
    TxDigests.of(new TextEncoder().encode("after=stop"));
    assert.equal(admittedTxDigestsKept(), 1);
  });
});
