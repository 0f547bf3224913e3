import assert from "node:assert/strict";
import { test } from "node:test";
import { WalError } from "../../src/wal/errors.js";
import { decodeRecord, encodeRecord, MAX_DEPTH } from "../../src/wal/record-codec.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const code = (c: string) => (e: unknown) => e instanceof WalError && e.code === c;

test("a vote-like input round-trips with bigint, bytes, nested objects and undefined fields", () => {
  const input = {
    type: "VoteReceived",
    peer: "a1b2",
    vote: {
      type: 2,
      height: 12345n,
      round: 0,
      blockId: { hash: new Uint8Array([1, 2, 3]), partSetHeader: { total: 1, hash: new Uint8Array(32) } },
      timestamp: { seconds: -62135596800n, nanos: 999_999_999 },
      signature: new Uint8Array(64).fill(7),
      extension: undefined,
    },
    parts: [1, -1, 2.5, null, true, false, ""],
  };
  const bytes = encodeRecord(input);
  assert.deepEqual(decodeRecord(bytes), input);
  assert.equal(hex(encodeRecord(decodeRecord(bytes))), hex(bytes));
});

test("key order does not change the encoding", () => {
  assert.equal(hex(encodeRecord({ a: 1, b: 2n })), hex(encodeRecord({ b: 2n, a: 1 })));
});

test("keys created in any order are written sorted, within the insertion sort's bound and past it", () => {
  // Integer-like keys come first from Object.keys; sort()'s order puts "10" before "9" and "Z"
  // before "a". The decoder accepts only sorted keys, so a wrong order fails the round trip.
  const names = ["b", "a", "10", "9", "Z", "é", "ab", "_", "0", "aa"];
  for (const count of [2, 5, 10, 33, 40]) {
    const keys = Array.from({ length: count }, (_, i) => `${names[i % names.length]}${i >= 10 ? i : ""}`);
    for (const order of [keys, [...keys].reverse(), [...keys.slice(3), ...keys.slice(0, 3)]]) {
      const input: Record<string, number> = {};
      for (const [i, k] of order.entries()) input[k] = i;
      const bytes = encodeRecord(input);
      assert.deepEqual(decodeRecord(bytes), input);
      const sorted: Record<string, number> = {};
      for (const k of [...order].sort()) sorted[k] = input[k]!;
      assert.equal(hex(bytes), hex(encodeRecord(sorted)));
    }
  }
});

test("the encoding of small values is fixed (a file format)", () => {
  assert.equal(hex(encodeRecord({ h: 1n, t: "x" })), "0a0201680602017407017" + "8");
  assert.equal(hex(encodeRecord([undefined, null, false, true, -1, 64])), "0906000102030401048001");
  assert.equal(hex(encodeRecord(new Uint8Array([0xab]))), "0801ab");
  assert.equal(hex(encodeRecord(-0)), "050000000000000080");
});

test("numbers that are not small integers round-trip exactly: -0, NaN, ±Infinity, fractions, 2^53", () => {
  for (const n of [
    -0,
    Number.NaN,
    Infinity,
    -Infinity,
    0.1,
    -1e300,
    2 ** 53,
    -(2 ** 53 - 1),
    2 ** 51,
    -(2 ** 51),
  ]) {
    const back = decodeRecord(encodeRecord(n));
    assert.ok(Object.is(back, n), `${n} came back as ${back}`);
  }
});

test("bigints of any sign and up to about 1100 bits round-trip; larger ones are refused", () => {
  for (const n of [0n, -1n, 1n, (1n << 63n) - 1n, -(1n << 63n), (1n << 200n) + 12345n, -(1n << 1000n)]) {
    assert.equal(decodeRecord(encodeRecord(n)), n);
  }
  assert.throws(() => encodeRecord(1n << 2000n), code("WAL_UNENCODABLE"));
});

test("values outside the model are refused naming where they are", () => {
  assert.throws(() => encodeRecord({ a: { when: new Date(0) } }), /Date at \$\.a\.when/);
  assert.throws(() => encodeRecord({ f: () => 1 }), code("WAL_UNENCODABLE"));
  assert.throws(() => encodeRecord({ s: Symbol("x") }), code("WAL_UNENCODABLE"));
  assert.throws(() => encodeRecord({ m: new Map() }), code("WAL_UNENCODABLE"));
  assert.throws(() => encodeRecord({ s: "\ud800" }), /lone surrogate at \$\.s/);
  let deep: unknown = 1;
  for (let i = 0; i <= MAX_DEPTH; i++) deep = [deep];
  assert.throws(() => encodeRecord(deep), /nesting deeper/);
});

test("a '__proto__' key is kept as an own property, not turned into a prototype", () => {
  const value = JSON.parse('{"__proto__": {"polluted": 1}, "b": 2}');
  const back = decodeRecord(encodeRecord(value)) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(back), Object.prototype);
  assert.deepEqual(Object.keys(back), ["__proto__", "b"]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test("the decoder accepts only canonical encodings", () => {
  const bad: Array<[string, RegExp]> = [
    ["048100", /minimal form/], // varint with a trailing zero group
    ["05000000000000f03f", /small integer written as a float/], // 1.0 as a float
    ["068100", /not in minimal form/],
    ["0a02016202016102", /not sorted/], // keys b, a
    ["0a02016102016102", /not sorted/], // duplicate key a
    ["0702c3", /needed/], // string runs past the end
    ["0701ff", /not valid UTF-8/],
    ["0b", /unknown tag/],
    ["0203", /trailing bytes/],
    ["09ffffffff0f", /needed/], // an array count beyond the payload, refused before allocation
    ["04808080808080808001", /varint/],
  ];
  for (const [h, why] of bad) {
    assert.throws(
      () => decodeRecord(Buffer.from(h, "hex")),
      (e: unknown) => {
        return e instanceof WalError && e.code === "WAL_UNDECODABLE" && why.test(e.message);
      },
      h,
    );
  }
});

test("decoding deep nesting stops at the depth bound instead of overflowing the stack", () => {
  const bytes = new Uint8Array(100_000).fill(0x09);
  for (let i = 1; i < bytes.length; i += 2) bytes[i] = 1;
  assert.throws(() => decodeRecord(bytes), /nesting deeper/);
});
