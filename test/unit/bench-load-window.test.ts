// The network bench's load window: it ends at the last block holding a LOAD tx, so blocks that
// only the time-to-finality clients filled after the offer ended neither stretch the span nor
// count as load; and a block's load txs are told from the others by their prefix.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { countWithPrefix, loadWindow } from "../bench/load-window.js";

const b64 = (s: string) => Buffer.from(s).toString("base64");

describe("loadWindow", () => {
  it("ends at the last block with load txs, not at a later one holding only finality txs", () => {
    const blocks = [
      { time: 10_000, loadTxs: 0, txs: 0 }, // the block before the load
      { time: 11_000, loadTxs: 5_500, txs: 5_502 },
      { time: 12_000, loadTxs: 5_500, txs: 5_502 },
      { time: 13_000, loadTxs: 0, txs: 2 }, // finality clients only, wrk idling out
      { time: 14_000, loadTxs: 0, txs: 2 },
      { time: 15_000, loadTxs: 0, txs: 0 },
    ];
    const w = loadWindow(blocks);
    assert.equal(w.blocks.length, 3);
    assert.equal(w.loadTxs, 11_000);
    assert.equal(w.spanSeconds, 2);
    assert.equal(w.txPerSecond, 5_500);
  });

  it("keeps a gap of empty blocks inside the load", () => {
    const w = loadWindow([
      { time: 0, loadTxs: 0, txs: 0 },
      { time: 1_000, loadTxs: 100, txs: 100 },
      { time: 2_000, loadTxs: 0, txs: 0 },
      { time: 3_000, loadTxs: 100, txs: 101 },
    ]);
    assert.equal(w.blocks.length, 4);
    assert.equal(w.txPerSecond, 200 / 3);
  });

  it("gives 0 tx/s when no block carried the load", () => {
    const w = loadWindow([
      { time: 0, loadTxs: 0, txs: 0 },
      { time: 1_000, loadTxs: 0, txs: 2 },
    ]);
    assert.equal(w.blocks.length, 1);
    assert.equal(w.txPerSecond, 0);
  });

  it("refuses an empty list, naming what the first block must be", () => {
    assert.throws(() => loadWindow([]), /the one before the load/);
  });
});

describe("countWithPrefix", () => {
  it("counts the load's txs among the finality clients' ones", () => {
    const txs = [b64("n4-1-17=vvvv"), b64("fin-0-3-1700000000000=1"), b64("n4-1-18=vvvv"), b64("n4-10-1=v")];
    assert.equal(countWithPrefix(txs, "n4-"), 3);
    assert.equal(countWithPrefix(txs, "n4-1-"), 2);
    assert.equal(countWithPrefix(txs, "fin-"), 1);
  });

  it("reads an empty block's null txs as none", () => {
    assert.equal(countWithPrefix(null, "n1-"), 0);
  });
});
