// Part sets reassemble any byte string, whatever the order parts arrive in, and the assembler
// refuses duplicates, out-of-range indices and tampered parts without changing its state.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { TypesError } from "../../src/types/errors.js";
import {
  addPart,
  BLOCK_PART_SIZE_BYTES,
  emptyPartSet,
  missingParts,
  partSetBytes,
  partSetIsComplete,
  splitIntoParts,
} from "../../src/types/part-set.js";
import { Block } from "../../src/wire/generated/tendermint/types/block.js";
import * as arb from "./codec-arbitraries.js";

const data = fc
  .tuple(fc.integer({ min: 1, max: 5 * BLOCK_PART_SIZE_BYTES + 1000 }), fc.integer({ min: 0, max: 255 }))
  .map(([length, seed]) => {
    const bytes = new Uint8Array(length);
    for (let i = 0; i < length; i++) bytes[i] = (i * 31 + seed) & 0xff;
    return bytes;
  });

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof TypesError) return error.code;
    throw error;
  }
  return "none";
}

describe("part set properties", () => {
  it("reassembles any block, in any part order, to the same bytes and block", () => {
    const blockWithBulk = fc
      .tuple(arb.block, fc.integer({ min: 0, max: 3 * BLOCK_PART_SIZE_BYTES }))
      .map(([b, bulk]) => ({ ...b, data: { txs: [...b.data.txs, new Uint8Array(bulk).fill(0x5a)] } }));
    fc.assert(
      fc.property(
        blockWithBulk.chain((b) => {
          const n = Math.ceil(Block.encode(b).finish().length / BLOCK_PART_SIZE_BYTES);
          return fc.tuple(
            fc.constant(b),
            fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
          );
        }),
        ([b, order]) => {
          const bytes = Block.encode(b).finish();
          const { header, parts } = splitIntoParts(bytes);
          let set = emptyPartSet(header, bytes.length);
          for (const i of order) set = addPart(set, parts[i]!);
          const back = Block.decode(partSetBytes(set));
          assert.equal(
            Buffer.from(Block.encode(back).finish()).toString("hex"),
            Buffer.from(bytes).toString("hex"),
          );
          assert.deepEqual(arb.normalise(back), arb.normalise(b));
        },
      ),
      { numRuns: 15 },
    );
  });

  it("reassembles any data from its parts in any order", () => {
    fc.assert(
      fc.property(
        data.chain((bytes) => {
          const n = Math.ceil(bytes.length / BLOCK_PART_SIZE_BYTES);
          return fc.tuple(
            fc.constant(bytes),
            fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
          );
        }),
        ([bytes, order]) => {
          const { header, parts } = splitIntoParts(bytes);
          assert.equal(header.total, Math.ceil(bytes.length / BLOCK_PART_SIZE_BYTES));
          let set = emptyPartSet(header);
          for (const [k, index] of order.entries()) {
            assert.equal(partSetIsComplete(set), false);
            assert.equal(
              code(() => partSetBytes(set)),
              "TYPES_PART_SET_INCOMPLETE",
            );
            set = addPart(set, parts[index]!);
            assert.equal(set.count, k + 1);
          }
          assert.ok(partSetIsComplete(set));
          assert.deepEqual(missingParts(set), []);
          assert.deepEqual(partSetBytes(set), bytes);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("refuses duplicates, out-of-range indices and tampered bytes or proofs", () => {
    fc.assert(
      fc.property(data, fc.nat(), fc.nat(), (bytes, pick, bit) => {
        const { header, parts } = splitIntoParts(bytes);
        const i = pick % parts.length;
        const part = parts[i]!;
        const set = emptyPartSet(header);
        const once = addPart(set, part);
        assert.equal(
          code(() => addPart(once, part)),
          "TYPES_PART_DUPLICATE",
        );
        assert.equal(
          code(() => addPart(set, { ...part, index: header.total })),
          "TYPES_PART_INDEX_OUT_OF_RANGE",
        );
        const flipped = Uint8Array.from(part.bytes);
        flipped[bit % flipped.length]! ^= 1 << (bit % 8);
        assert.equal(
          code(() => addPart(set, { ...part, bytes: flipped })),
          "TYPES_PART_INVALID_PROOF",
        );
        if (parts.length > 1) {
          const other = parts[(i + 1) % parts.length]!;
          assert.equal(
            code(() => addPart(set, { ...part, proof: other.proof })),
            "TYPES_PART_INVALID_PROOF",
          );
        }
        // a refused part leaves the state as it was
        assert.equal(set.count, 0);
        assert.equal(once.count, 1);
      }),
      { numRuns: 40 },
    );
  });
});
