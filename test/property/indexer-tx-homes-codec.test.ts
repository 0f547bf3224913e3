// The key and value of a tx's homes in tx_index.db (index-keys.ts): the key is the homes prefix and
// the hash's first 8 bytes, so two hashes share a key exactly when those bytes are equal; a value
// is any list of 12-byte positions, read back whole and in order, and any other length is refused.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { StoreError } from "../../src/store/errors.js";
import {
  PREFIX_TX_HOMES,
  splitPositions,
  TX_HOME_BYTES,
  TX_HOME_HASH_BYTES,
  txHomesKey,
} from "../../src/store/indexer/index-keys.js";

const hash = fc.uint8Array({ minLength: 32, maxLength: 32 });
const position = fc.uint8Array({ minLength: TX_HOME_BYTES, maxLength: TX_HOME_BYTES });

test("a homes key is the prefix and the hash's first 8 bytes; two hashes share one iff those match", () => {
  fc.assert(
    fc.property(hash, hash, (a, b) => {
      const key = txHomesKey(a);
      assert.deepEqual([...key], [PREFIX_TX_HOMES, ...a.subarray(0, TX_HOME_HASH_BYTES)]);
      const same = Buffer.from(a.subarray(0, 8)).equals(Buffer.from(b.subarray(0, 8)));
      assert.equal(Buffer.from(key).equals(Buffer.from(txHomesKey(b))), same);
    }),
  );
});

test("a hash sharing another's first 8 bytes gets its key", () => {
  fc.assert(
    fc.property(hash, fc.uint8Array({ minLength: 24, maxLength: 24 }), (a, tail) => {
      const b = Uint8Array.of(...a.subarray(0, 8), ...tail);
      assert.deepEqual(txHomesKey(b), txHomesKey(a));
    }),
  );
});

test("a list of positions reads back whole and in order", () => {
  fc.assert(
    fc.property(fc.array(position, { minLength: 1, maxLength: 20 }), (positions) => {
      const value = Uint8Array.from(positions.flatMap((p) => [...p]));
      assert.deepEqual(
        splitPositions(value, "here").map((p) => [...p]),
        positions.map((p) => [...p]),
      );
    }),
  );
});

test("a value that is not a whole, non-empty list of positions is refused, naming where", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 300 }).filter((n) => n === 0 || n % TX_HOME_BYTES !== 0),
      (length) => {
        assert.throws(
          () => splitPositions(new Uint8Array(length), "tx_index.db homes of hash prefix AB"),
          (error: unknown) =>
            error instanceof StoreError &&
            error.code === "STORE_CORRUPT" &&
            error.message.includes("tx_index.db homes of hash prefix AB"),
        );
      },
    ),
  );
});

test("a hash shorter than the key's prefix is refused", () => {
  assert.throws(() => txHomesKey(new Uint8Array(7)), StoreError);
});
