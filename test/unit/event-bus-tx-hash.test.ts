// A committed block's Tx events carry each tx's own hash under `tx.hash` (what tx.hash
// subscriptions and broadcast_tx_commit's waiter match on), whether the block's data hash
// remembered the hashes (read, not recomputed) or not (computed). Three txs, so a hash read from
// the wrong index, or in lower case, is caught.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { BlockEvents } from "../../src/abci/execute-block.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import { dataHash, rememberedTxHashes } from "../../src/wire/hashes.js";
import type { NodeEvent } from "../../streams/node-handle.js";
import { EventBus, txHashHex } from "../../streams/projections/event-bus.js";

const tx = (s: string) => new TextEncoder().encode(s);

function txEventHashes(txs: Uint8Array[]): string[] {
  const bus = new EventBus();
  const seen: NodeEvent[] = [];
  const sub = bus.events$.subscribe((e) => seen.push(e));
  const block = { header: { height: 3n }, data: { txs } } as unknown as Block;
  const events: BlockEvents = {
    height: 3n,
    beginBlock: [],
    endBlock: [],
    validatorUpdates: [],
    txs: txs.map((t, index) => ({ height: 3n, index, tx: t, result: { code: 0, events: [] } as never })),
  };
  bus.publishBlock(block, events, { events: [] }, { events: [] } as never, []);
  sub.unsubscribe();
  return seen.filter((e) => e.type === "Tx").map((e) => e.events["tx.hash"]![0]!);
}

test("Tx events carry each tx's hash, read from the block's remembered hashes", () => {
  const txs = [tx("a=1"), tx("b=2"), tx("c=3")];
  dataHash(txs);
  assert.ok(rememberedTxHashes(txs));
  assert.deepEqual(txEventHashes(txs), txs.map(txHashHex));
});

test("Tx events carry each tx's hash when none is remembered", () => {
  const txs = [tx("a=1"), tx("b=2"), tx("c=3")];
  assert.equal(rememberedTxHashes(txs), undefined);
  assert.deepEqual(txEventHashes(txs), txs.map(txHashHex));
});
