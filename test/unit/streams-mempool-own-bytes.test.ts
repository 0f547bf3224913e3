// A pending tx owns its bytes (streams/mempool-node.ts): a tx given as a view into a larger
// buffer (a slab of Node's Buffer pool, a request body) is copied, so the pool never keeps the
// larger buffer alive; a tx that already owns its buffer is kept as it is, and so is a peer's tx,
// a view into a message buffer of its own that holds only a few bytes of framing beside it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeMempoolMessage, encodeMempoolTx } from "../../src/p2p/mempool-wire.js";
import { OWN_BYTES_SLACK, ownBytes } from "../../streams/mempool-node.js";

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

test("a view into a buffer at most OWN_BYTES_SLACK bytes larger is kept (a peer's one-tx message)", () => {
  const tx = Uint8Array.from(Buffer.from("k=v".padEnd(100, "v")));
  const message = encodeMempoolTx(tx); // made per message by the connection: 4 bytes of framing
  const decoded = decodeMempoolMessage(message, 1024);
  assert.equal(decoded.kind, "txs");
  const view = (decoded as { txs: readonly Uint8Array[] }).txs[0]!;
  assert.equal(view.buffer, message.buffer, "the decoded tx is a view into its message");
  assert.equal(ownBytes(view), view);

  const buffer = new Uint8Array(100 + OWN_BYTES_SLACK + 1);
  const within = buffer.subarray(1, 102); // the buffer holds OWN_BYTES_SLACK bytes more
  assert.equal(ownBytes(within), within, "at the slack: kept");
  const over = buffer.subarray(1, 101); // one byte more
  assert.notEqual(ownBytes(over).buffer, buffer.buffer, "one byte over the slack: copied");
  assert.equal(ownBytes(over).buffer.byteLength, 100);
});
