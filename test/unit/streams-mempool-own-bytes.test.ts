// A pending tx owns its bytes (streams/mempool-node.ts): a tx given as a view into a larger
// buffer (a slab of Node's Buffer pool, a request body) is copied, so the pool never keeps the
// larger buffer alive; a tx that already owns its buffer is kept as it is.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ownBytes } from "../../streams/mempool-node.js";

test("a tx that is a view into a larger buffer is copied; one that owns its buffer is kept", () => {
  const pooled = Buffer.from("k=v".padEnd(100, "v")); // from Node's shared 8 KB pool
  assert.ok(pooled.buffer.byteLength > pooled.byteLength, "the test needs a pooled Buffer");
  const own = ownBytes(pooled);
  assert.notEqual(own.buffer, pooled.buffer);
  assert.equal(own.buffer.byteLength, 100);
  assert.deepEqual(Buffer.from(own), pooled);

  const body = new Uint8Array(4096).fill(7);
  const view = body.subarray(100, 200);
  assert.equal(ownBytes(view).buffer.byteLength, 100);

  const exact = new Uint8Array(100).fill(1);
  assert.equal(ownBytes(exact), exact);
});
