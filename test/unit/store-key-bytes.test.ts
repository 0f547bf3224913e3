// The stores' fixed-width integers (src/store/key-bytes.ts) are big-endian, so LevelDB's byte
// order is numeric order: written byte by byte, they must equal DataView's big-endian encoding
// for every width of value, and read back the same.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  heightIndexKey,
  readUint32,
  readUint64,
  writeUint32,
  writeUint64,
} from "../../src/store/key-bytes.js";

const heights = [
  0n,
  1n,
  255n,
  256n,
  2n ** 31n,
  2n ** 32n - 1n,
  2n ** 32n,
  2n ** 32n + 1n,
  2n ** 53n - 1n,
  2n ** 53n,
  2n ** 53n + 12345n,
  2n ** 63n - 1n,
  2n ** 64n - 1n,
];

describe("key bytes", () => {
  it("writes and reads uint64 as DataView's big-endian, for every magnitude", () => {
    for (const height of heights) {
      const ours = new Uint8Array(11);
      writeUint64(ours, 2, height);
      const reference = new Uint8Array(11);
      new DataView(reference.buffer).setBigUint64(2, height, false);
      assert.deepEqual(ours, reference, `height ${height}`);
      assert.equal(readUint64(ours, 2), height);
    }
  });

  it("writes and reads uint32 as DataView's big-endian", () => {
    for (const value of [0, 1, 255, 256, 65535, 2 ** 24, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1]) {
      const ours = new Uint8Array(6);
      writeUint32(ours, 1, value);
      const reference = new Uint8Array(6);
      new DataView(reference.buffer).setUint32(1, value, false);
      assert.deepEqual(ours, reference, `value ${value}`);
      assert.equal(readUint32(ours, 1), value);
    }
  });

  it("keys sort as their heights do", () => {
    const keys = heights.map((h) => heightIndexKey(2, h, 7));
    const sorted = [...keys].sort(Buffer.compare);
    assert.deepEqual(sorted, keys);
  });

  it("refuses heights outside uint64 and offsets past the end", () => {
    assert.throws(() => writeUint64(new Uint8Array(8), 0, -1n), /outside the storable range/);
    assert.throws(() => writeUint64(new Uint8Array(8), 0, 2n ** 64n), /outside the storable range/);
    assert.throws(() => writeUint64(new Uint8Array(8), 1, 1n), RangeError);
    assert.throws(() => readUint64(new Uint8Array(7), 0), RangeError);
    assert.throws(() => readUint32(new Uint8Array(4), 1), RangeError);
  });
});
