// A large height's ABCI responses record is encoded a piece at a time before its save
// (encodeAbciResponsesInPieces, src/store/deliver-tx-bytes.ts): the bytes stored must be the
// one-piece bytes exactly, whatever the results, the piece size and the end/begin block, and the
// save (encodeAbciResponses) must write those very bytes rather than encoding again.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { encodeAbciResponses, encodeAbciResponsesInPieces } from "../../src/store/deliver-tx-bytes.js";
import type { Event, ResponseDeliverTx } from "../../src/wire/generated/tendermint/abci/types.js";
import { ABCIResponses } from "../../src/wire/generated/tendermint/state/types.js";
import { bytes, text } from "./codec-arbitraries.js";

const event: fc.Arbitrary<Event> = fc.record({
  type: fc.oneof(text, fc.constant("transfer")),
  attributes: fc.array(fc.record({ key: bytes(12), value: bytes(40), index: fc.boolean() }), {
    maxLength: 3,
  }),
});

const gas = fc.oneof(
  fc.bigInt({ min: 0n, max: 1000n }),
  fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
);

const result: fc.Arbitrary<ResponseDeliverTx> = fc.record({
  code: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffffffff })),
  data: bytes(20),
  log: text,
  info: text,
  gasWanted: gas,
  gasUsed: gas,
  events: fc.array(event, { maxLength: 3 }),
  codespace: fc.oneof(fc.constant(""), text),
});

const responses: fc.Arbitrary<ABCIResponses> = fc.record({
  deliverTxs: fc.array(result, { maxLength: 40 }),
  beginBlock: fc.option(fc.record({ events: fc.array(event, { maxLength: 2 }) }), { nil: undefined }),
  endBlock: fc.option(
    fc.record({
      validatorUpdates: fc.constant([]),
      consensusParamUpdates: fc.constant(undefined),
      events: fc.array(event, { maxLength: 2 }),
    }),
    { nil: undefined },
  ),
});

/** Byte equality, whatever the array's class (the generated encoder gives a Buffer). */
const sameBytes = (actual: Uint8Array, expected: Uint8Array, message?: string) =>
  assert.equal(Buffer.from(actual).toString("hex"), Buffer.from(expected).toString("hex"), message);

describe("the ABCI responses record in pieces", () => {
  it("is the one-piece record byte for byte, paused between pieces, and is what the save writes", async () => {
    await fc.assert(
      fc.asyncProperty(responses, fc.integer({ min: 1, max: 9 }), async (r, piece) => {
        let pauses = 0;
        const pieces = await encodeAbciResponsesInPieces(
          r,
          async () => {
            pauses++;
          },
          piece,
        );
        const onePiece = ABCIResponses.encode(r).finish();
        sameBytes(pieces, onePiece);
        const n = r.deliverTxs.length;
        // Once between each two pieces of the encoding, and again of the copy.
        assert.equal(pauses, 2 * Math.max(0, Math.ceil(n / piece) - 1));
        assert.equal(encodeAbciResponses(r), pieces, "the save writes the bytes made in pieces");
        sameBytes(encodeAbciResponses(r), onePiece, "taken once, then encoded afresh");
      }),
      { numRuns: 200 },
    );
  });

  it("is not used for a responses object whose results were replaced after it was made", async () => {
    const r: ABCIResponses = {
      deliverTxs: [
        {
          code: 0,
          data: Uint8Array.of(1),
          log: "",
          info: "",
          gasWanted: 1n,
          gasUsed: 1n,
          events: [],
          codespace: "",
        },
      ],
      beginBlock: undefined,
      endBlock: undefined,
    };
    await encodeAbciResponsesInPieces(r, async () => {}, 1);
    r.deliverTxs = [{ ...r.deliverTxs[0]!, code: 7 }];
    sameBytes(encodeAbciResponses(r), ABCIResponses.encode(r).finish());
  });
});
