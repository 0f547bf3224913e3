// The durability order of a height's commit (streams/effects/block-commit.ts commitOne): the
// block's synced save overlaps the app's BeginBlock/DeliverTx/EndBlock and the ABCI responses'
// save, and the app's Commit waits for both; a block save that fails stops the height before
// Commit. With the node's state-save tail, the height's state save and end-of-height marker run
// behind the commit (it resolves before the state's sync ends), and the next height's block save
// waits for the previous state: the block store is never two heights ahead of the state. The
// node's marker is appended without an fsync of its own (the log's next sync carries it).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RESPONSES_PIECE } from "../../src/store/deliver-tx-bytes.js";
import { StateSaveTail } from "../../streams/effects/state-save-tail.js";
import { deferred, recordingCommit } from "./block-commit-fixture.js";

const settle = () => new Promise((r) => setTimeout(r, 10));

describe("block commit: durability order", () => {
  it("runs the block on the app while the block is saved, and commits only once it is saved", async () => {
    const c = recordingCommit();
    const done = c.run();
    await settle();
    assert.deepEqual(c.order, ["block save started", "beginBlock", "endBlock", "responses saved"]);
    c.blockWrite.resolve();
    const state = await done;
    assert.equal(state.lastBlockHeight, 1n);
    assert.deepEqual(c.order.slice(4), [
      "block saved",
      "commit",
      "state save started",
      "state saved",
      "end-of-height 1",
    ]);
  });

  it("a large height's responses, encoded a piece per turn, are still saved before Commit, as the one-piece record", async () => {
    const c = recordingCommit({ txs: RESPONSES_PIECE * 2 + 1 });
    const done = c.run();
    for (let i = 0; i < 200 && !c.order.includes("responses saved"); i++) await settle();
    assert.ok(!c.order.includes("commit"), "no Commit before the block is durable");
    c.blockWrite.resolve();
    await done;
    assert.deepEqual(c.order, [
      "block save started",
      "beginBlock",
      "endBlock",
      "responses saved",
      "block saved",
      "commit",
      "state save started",
      "state saved",
      "end-of-height 1",
    ]);
    assert.equal(c.savedResponses.length, 1);
    const [saved] = c.savedResponses;
    assert.equal(Buffer.from(saved!.bytes).compare(Buffer.from(saved!.expected)), 0);
    assert.ok(!Buffer.isBuffer(saved!.bytes), "the save wrote the record made in pieces");
  });

  it("never commits a block whose save failed", async () => {
    const c = recordingCommit();
    const done = c.run();
    await settle();
    c.blockWrite.reject(new Error("disk full"));
    await assert.rejects(done, /disk full/);
    assert.ok(!c.order.includes("commit"), `no Commit: ${c.order.join(", ")}`);
  });

  it("with the node's tail: ends the height at Commit, saves the state behind it, and holds the next block until that state is durable", async () => {
    const tail = new StateSaveTail();
    const stateWrite = deferred();
    const c = recordingCommit({ tail, stateWrite: stateWrite.promise, markEndHeight: true });
    c.blockWrite.resolve();
    const state = await c.run();
    assert.equal(state.lastBlockHeight, 1n);
    // Resolved (BlockExecuted may be folded) while the state's write is still under way; the
    // end-of-height marker was appended after the block was durable and Commit ran.
    assert.ok(c.order.indexOf("block saved") < c.order.indexOf("commit"), c.order.join(", "));
    assert.deepEqual(c.order.slice(-3), [
      "commit",
      "end-of-height 1 appended, no fsync",
      "state save started",
    ]);
    assert.equal(tail.pending, 1);
    // The next commit on the same tail waits: no block save before the state is saved.
    const next = recordingCommit({ tail });
    const nextDone = next.run();
    await settle();
    assert.deepEqual(next.order, []);
    stateWrite.resolve();
    await tail.settled();
    await settle();
    assert.equal(c.order.at(-1), "state saved");
    assert.equal(next.order[0], "block save started");
    next.blockWrite.resolve();
    await nextDone;
  });

  it("with the node's tail: a failed state save halts and stops the next height before its block", async () => {
    const tail = new StateSaveTail();
    const stateWrite = deferred();
    const c = recordingCommit({ tail, stateWrite: stateWrite.promise });
    const halts: string[] = [];
    c.blockWrite.resolve();
    await c.runWith({ halt: (reason: string) => halts.push(reason) });
    stateWrite.reject(new Error("disk full"));
    await assert.rejects(tail.settled(), /disk full/);
    await settle();
    assert.match(halts[0] ?? "", /block 1's state .* failed: disk full/);
    const next = recordingCommit({ tail });
    await assert.rejects(next.run(), /disk full/);
    assert.deepEqual(next.order, []);
  });
});
