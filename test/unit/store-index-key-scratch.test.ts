// KeyScratch (src/store/indexer/index-keys.ts) builds the tx index's keys in one reused buffer:
// its bytes must be the plain key functions' bytes, and its memory bounded whatever sizes it sees.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  entryKey,
  KeyScratch,
  PREFIX_TX_BODY,
  PREFIX_TX_EVENT,
  PREFIX_TX_HOMES,
  txBodyKey,
  txHomesKey,
} from "../../src/store/indexer/index-keys.js";

const heightBytes = (height: bigint) => {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, height);
  return out;
};

test("the scratch's position, result and entry keys are the plain key functions' bytes", () => {
  const scratch = new KeyScratch();
  for (const [height, index] of [
    [1n, 0],
    [255n, 256],
    [2n ** 40n + 7n, 2 ** 32 - 1],
  ] as const) {
    assert.deepEqual(
      Buffer.from(scratch.positionKey(PREFIX_TX_BODY, heightBytes(height), index)),
      Buffer.from(txBodyKey(height, index)),
    );
  }
  const hash = Uint8Array.from({ length: 32 }, (_, i) => i * 7);
  assert.deepEqual(
    Buffer.from(scratch.prefixed(PREFIX_TX_HOMES, hash.subarray(0, 8))),
    Buffer.from(txHomesKey(hash)),
  );
  const key = new TextEncoder().encode("app.key");
  const value = new TextEncoder().encode("k42");
  assert.deepEqual(
    Buffer.from(scratch.entryKey(PREFIX_TX_EVENT, key, value, heightBytes(9n), 3, 1)),
    Buffer.from(entryKey(PREFIX_TX_EVENT, key, value, 9n, 3, 1)),
  );
});

test("an entry above the shared limit gets its own array; values of many sizes share one buffer", () => {
  const scratch = new KeyScratch();
  const big = scratch.take(KeyScratch.SHARED_LIMIT + 1);
  const small = scratch.take(40);
  assert.notEqual(big.buffer, small.buffer, "the large entry is not the scratch's buffer");
  assert.ok(small.buffer.byteLength <= KeyScratch.SHARED_LIMIT);
  const buffers = new Set<ArrayBufferLike>();
  for (let length = 2000; length < 60_000; length += 997) buffers.add(scratch.take(length).buffer);
  assert.ok(buffers.size <= 6, `grown by doubling only: ${buffers.size} buffers`);
  assert.ok(scratch.take(60_000).buffer.byteLength <= KeyScratch.SHARED_LIMIT);
});
