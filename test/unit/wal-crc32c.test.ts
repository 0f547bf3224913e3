import assert from "node:assert/strict";
import { test } from "node:test";
import { crc32c, crc32cUpdate } from "../../src/wal/crc32c.js";

const ascii = (s: string) => new TextEncoder().encode(s);

test("crc32c of '123456789' is the standard check value 0xE3069283", () => {
  assert.equal(crc32c(ascii("123456789")), 0xe3069283);
});

test("crc32c matches the iSCSI vectors of RFC 3720 B.4", () => {
  assert.equal(crc32c(new Uint8Array(32)), 0x8a9136aa);
  assert.equal(crc32c(new Uint8Array(32).fill(0xff)), 0x62a8ab43);
  assert.equal(crc32c(Uint8Array.from({ length: 32 }, (_, i) => i)), 0x46dd794e);
  assert.equal(crc32c(Uint8Array.from({ length: 32 }, (_, i) => 31 - i)), 0x113fdb5c);
});

test("crc32c of the empty input is 0 and of 'a' is 0xC1D04330", () => {
  assert.equal(crc32c(new Uint8Array(0)), 0);
  assert.equal(crc32c(ascii("a")), 0xc1d04330);
});

test("the slicing loop agrees with a bit-at-a-time reference at every length and alignment", () => {
  const reference = (data: Uint8Array) => {
    let c = 0xffffffff;
    for (const b of data) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    }
    return ~c >>> 0;
  };
  const data = Uint8Array.from({ length: 300 }, (_, i) => (i * 151 + 7) & 0xff);
  for (let start = 0; start < 9; start++) {
    for (let end = start; end <= 70; end++) {
      assert.equal(crc32c(data, start, end), reference(data.subarray(start, end)), `[${start}, ${end})`);
    }
  }
});

test("crc32cUpdate chains: the crc of a whole equals the crc of its parts fed in turn", () => {
  const data = Uint8Array.from({ length: 1000 }, (_, i) => (i * 37) & 0xff);
  for (const cut of [0, 1, 7, 8, 500, 999, 1000]) {
    assert.equal(crc32cUpdate(crc32c(data, 0, cut), data, cut), crc32c(data), `cut at ${cut}`);
  }
});

test("crc32cCombine gives the crc of a concatenation from its parts' crcs, at every split", async () => {
  const { crc32cCombine } = await import("../../src/wal/crc32c.js");
  const data = Uint8Array.from({ length: 700 }, (_, i) => (i * 131 + 7) & 0xff);
  for (const cut of [0, 1, 7, 8, 9, 63, 64, 255, 256, 257, 699, 700]) {
    const a = data.subarray(0, cut);
    const b = data.subarray(cut);
    assert.equal(crc32cCombine(crc32c(a), crc32c(b), b.length), crc32c(data), `cut at ${cut}`);
    // From a running value (a keyed frame's check starts from its key's crc).
    const seed = 0x1234_5678;
    assert.equal(
      crc32cCombine(crc32cUpdate(seed, a), crc32c(b), b.length),
      crc32cUpdate(seed, data),
      `seeded, cut at ${cut}`,
    );
  }
  // A long second part: x^(8n) for n of several MB, through many squarings.
  const long = new Uint8Array(3_000_017).fill(0xa5);
  assert.equal(crc32cCombine(crc32c(data), crc32c(long), long.length), crc32cUpdate(crc32c(data), long));
  assert.throws(() => crc32cCombine(1, 2, -1), RangeError);
});
