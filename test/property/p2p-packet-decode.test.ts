// decodePacket reads the usual PacketMsg shape (fields 1, 2, 3 in order, short varints) without
// a ProtoReader and hands everything else to the strict general decoder: on valid packets of every
// channel, eof and size, and on those packets mutated, truncated or extended, both must give the
// same packet or fail with the same code. Fixed seed.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { P2pError } from "../../src/p2p/errors.js";
import {
  decodePacket,
  decodePacketGeneral,
  encodePacketMsgDelimited,
} from "../../src/p2p/mconnection/packet.js";

const SEED = 0x5eed_0035;

function outcome(decode: (body: Uint8Array) => unknown, body: Uint8Array): unknown {
  try {
    return decode(body);
  } catch (error) {
    if (!(error instanceof P2pError)) throw error;
    return { error: error.code };
  }
}

/** The body of a delimited packet: its length varint cut off. */
function bodyOf(delimited: Uint8Array): Uint8Array {
  let prefix = 0;
  while (delimited[prefix] >= 0x80) prefix++;
  return delimited.subarray(prefix + 1);
}

/** A packet body as MConnection writes it. */
const validBody = fc
  .tuple(fc.integer({ min: 0, max: 300 }), fc.boolean(), fc.uint8Array({ maxLength: 2100 }))
  .map(([channel, eof, data]) => bodyOf(encodePacketMsgDelimited(channel, eof, data)));

test("the usual-shape reader and the general decoder agree on valid packets", () => {
  fc.assert(
    fc.property(validBody, (body) => {
      assert.deepEqual(outcome(decodePacket, body), outcome(decodePacketGeneral, body));
    }),
    { seed: SEED, numRuns: 3_000 },
  );
});

test("they agree on mutated, truncated and extended packets", () => {
  const edit = fc.oneof(
    fc.record({ kind: fc.constant("set" as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant("cut" as const), at: fc.nat(), value: fc.constant(0) }),
    fc.record({ kind: fc.constant("add" as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  );
  fc.assert(
    fc.property(validBody, fc.array(edit, { minLength: 1, maxLength: 3 }), (valid, edits) => {
      let body = valid.slice();
      for (const e of edits) {
        if (e.kind === "set" && body.length > 0) body[e.at % body.length] = e.value;
        else if (e.kind === "cut") body = body.subarray(0, e.at % (body.length + 1));
        else if (e.kind === "add") body = Uint8Array.from([...body, e.value]);
      }
      assert.deepEqual(outcome(decodePacket, body), outcome(decodePacketGeneral, body));
    }),
    { seed: SEED, numRuns: 20_000 },
  );
});

test("a packet of a full payload on a one-byte channel id is read as written", () => {
  const data = Uint8Array.from({ length: 1024 }, (_, i) => i & 0xff);
  const body = bodyOf(encodePacketMsgDelimited(0x30, true, data));
  assert.deepEqual(decodePacket(body), { type: "msg", channelId: 0x30, eof: true, data });
});
