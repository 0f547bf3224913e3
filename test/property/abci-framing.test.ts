// ABCI framing (zigzag varint length prefixes): any payloads, framed and cut anywhere.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { FrameDecoder, frameMessage } from "../../src/abci/framing.js";

describe("abci framing: properties", () => {
  it("any sequence of payloads, framed and cut anywhere, decodes to the same payloads", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (payloads, cuts) => {
          const stream = Buffer.concat(payloads.map((p) => frameMessage(p)));
          const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
          const d = new FrameDecoder();
          const got: Uint8Array[] = [];
          let from = 0;
          for (const p of [...points, stream.length]) {
            got.push(...d.push(stream.subarray(from, p)));
            from = p;
          }
          assert.deepEqual(
            got.map((g) => Buffer.from(g).toString("hex")),
            payloads.map((p) => Buffer.from(p).toString("hex")),
          );
          assert.equal(d.buffered, 0);
        },
      ),
      { numRuns: 200 },
    );
  });
});
