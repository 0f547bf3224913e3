// Split and reassembly at any sizes: whatever messages go in on whichever channels, with any
// max_packet_msg_payload_size, and however TCP cuts the bytes, the receiver gets the same
// messages in the same per-channel order; the same for secret-connection frames.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { ByteQueue } from "../../src/p2p/byte-queue.js";
import { DEFAULT_MCONNECTION_CONFIG, MConnection } from "../../src/p2p/mconnection/mconnection.js";
import { FrameOpener, FrameSealer, SEALED_FRAME_SIZE } from "../../src/p2p/secret-connection/frames.js";
import type { ChannelDescriptor } from "../../src/p2p/types.js";
import { eventually, MemoryTransport } from "../unit/p2p-test-peers.js";

const SEED = 0x5eed_5917;

/** Cuts `bytes` at the given lengths (the rest goes last). */
function cut(bytes: Uint8Array, lengths: number[]): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let at = 0;
  for (const length of lengths) {
    if (at >= bytes.length) break;
    pieces.push(bytes.subarray(at, at + length));
    at += length;
  }
  if (at < bytes.length) pieces.push(bytes.subarray(at));
  return pieces;
}

test("property: sealed frames reassemble to the written bytes under any TCP cuts", () => {
  const key = new Uint8Array(32).fill(3);
  fc.assert(
    fc.property(
      fc.array(fc.uint8Array({ maxLength: 3000 }), { maxLength: 6 }),
      fc.array(fc.integer({ min: 1, max: 3000 }), { maxLength: 10 }),
      (writes, cuts) => {
        const sealer = new FrameSealer(key);
        const wire = Buffer.concat(writes.map((w) => sealer.seal(w)));
        assert.equal(
          wire.length,
          writes.reduce((n, w) => n + Math.ceil(w.length / 1024), 0) * SEALED_FRAME_SIZE,
        );
        const opener = new FrameOpener(key);
        const queue = new ByteQueue();
        const plain: Uint8Array[] = [];
        for (const piece of cut(wire, cuts)) {
          queue.push(piece);
          while (queue.length >= SEALED_FRAME_SIZE) plain.push(opener.open(queue.take(SEALED_FRAME_SIZE)));
        }
        assert.equal(queue.length, 0);
        assert.deepEqual(Buffer.concat(plain), Buffer.concat(writes));
      },
    ),
    { seed: SEED, numRuns: 300 },
  );
});

const channels: ChannelDescriptor[] = [0x10, 0x11, 0x12].map((id, i) => ({
  id,
  priority: i + 1,
  sendQueueCapacity: 1000,
  recvBufferCapacity: 0,
  recvMessageCapacity: 1 << 20,
}));

test("property: messages split into packets reassemble per channel, any payload size and cuts", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.constantFrom(0x10, 0x11, 0x12), fc.uint8Array({ maxLength: 5000 })), {
        maxLength: 12,
      }),
      fc.integer({ min: 1, max: 2048 }),
      fc.array(fc.integer({ min: 1, max: 4000 }), { maxLength: 12 }),
      async (messages, payload, cuts) => {
        const config = {
          ...DEFAULT_MCONNECTION_CONFIG,
          maxPacketMsgPayloadSize: payload,
          flushThrottleMs: 1,
        };
        const out = new MemoryTransport();
        const sender = new MConnection(out, channels, config);
        sender.start();
        for (const [ch, message] of messages) assert.equal(sender.send(ch, message), true);
        await eventually(() => sender.status().channels.every((c) => c.sendQueueSize === 0), 5000);
        sender.close("sent everything"); // flushes the last batch
        const inTransport = new MemoryTransport();
        const receiver = new MConnection(inTransport, channels, config);
        const got: [number, Uint8Array][] = [];
        const closes: string[] = [];
        receiver.onMessage((ch, m) => got.push([ch, m]));
        receiver.onClose((r) => closes.push(r.code));
        receiver.start();
        for (const piece of cut(out.writtenBytes(), cuts)) inTransport.feed(piece);
        assert.deepEqual(closes, []);
        for (const ch of [0x10, 0x11, 0x12]) {
          assert.deepEqual(
            got.filter(([c]) => c === ch).map(([, m]) => Buffer.from(m).toString("hex")),
            messages.filter(([c]) => c === ch).map(([, m]) => Buffer.from(m).toString("hex")),
          );
        }
        receiver.close("checked");
      },
    ),
    { seed: SEED, numRuns: 150 },
  );
});
