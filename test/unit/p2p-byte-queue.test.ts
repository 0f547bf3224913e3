// The receive queue under every layer of a peer connection: exact counts taken or skipped across
// the pieces TCP delivered, the rest left for the next read.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ByteQueue, peekUvarint } from "../../src/p2p/byte-queue.js";

test("skip drops bytes across pieces and leaves the rest in order", () => {
  const queue = new ByteQueue();
  queue.push(Uint8Array.of(1, 2));
  queue.push(Uint8Array.of(3, 4, 5));
  queue.push(Uint8Array.of(6));
  queue.skip(3);
  assert.equal(queue.length, 3);
  assert.deepEqual(queue.take(2), Uint8Array.of(4, 5));
  queue.skip(1);
  assert.equal(queue.length, 0);
  queue.push(Uint8Array.of(7, 8));
  queue.skip(0);
  assert.deepEqual(queue.takeAll(), Uint8Array.of(7, 8));
});

test("skip past what is queued throws and consumes nothing", () => {
  const queue = new ByteQueue();
  queue.push(Uint8Array.of(1, 2));
  assert.throws(() => queue.skip(3), RangeError);
  assert.equal(queue.length, 2);
  assert.deepEqual(queue.takeAll(), Uint8Array.of(1, 2));
});

test("a length prefix read, then skipped, leaves the body at the front", () => {
  const queue = new ByteQueue();
  queue.push(Uint8Array.of(0x80 | 3));
  queue.push(Uint8Array.of(0x01, 9)); // 131, then the body's first byte
  const prefix = peekUvarint(queue);
  assert.deepEqual(prefix, { value: 131, length: 2 });
  queue.skip(2);
  assert.deepEqual(queue.take(1), Uint8Array.of(9));
});
