import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { decodeRecord, encodeRecord } from "../../src/wal/record-codec.js";

// Arbitrary plain values of the codec's model, nested.
const leaf = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.maxSafeInteger(),
  fc.bigInt({ min: -(1n << 300n), max: 1n << 300n }),
  fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
  fc.string({ unit: "grapheme" }),
  fc.string({ maxLength: 4 }),
  fc.uint8Array({ maxLength: 64 }),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(fc.string({ maxLength: 6 }), tie("value"), { maxKeys: 5, noNullPrototype: true }),
  ),
}));

test("decode(encode(x)) deep-equals x for arbitrary nested values", () => {
  fc.assert(
    fc.property(value, (x) => {
      assert.deepStrictEqual(decodeRecord(encodeRecord(x)), x);
    }),
    { numRuns: 2000 },
  );
});

test("encode(decode(b)) is byte-identical for every encoding b", () => {
  fc.assert(
    fc.property(value, (x) => {
      const b = encodeRecord(x);
      assert.deepStrictEqual(encodeRecord(decodeRecord(b)), b);
    }),
    { numRuns: 2000 },
  );
});

test("arbitrary bytes either decode to a value that re-encodes to the same bytes, or are refused", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
      let decoded: unknown;
      try {
        decoded = decodeRecord(bytes);
      } catch (error) {
        assert.equal((error as { code?: string }).code, "WAL_UNDECODABLE");
        return;
      }
      assert.deepStrictEqual(encodeRecord(decoded), bytes);
    }),
    { numRuns: 5000 },
  );
});
