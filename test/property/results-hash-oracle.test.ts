// LastResultsHash (reference §7.6) against an oracle written from the definition alone: each
// result reduced to a ResponseDeliverTx with only code, data, gas_wanted and gas_used, encoded by
// the generated protobuf codec, hashed as an RFC 6962 leaf, and the recursive merkle tree over
// those leaves, with plain createHash. Guards the direct encoder and the leaf/subtree reuse of
// src/wire/hashes.ts: identical results (the usual case), runs of them, negative gas (10-byte
// varints), the largest code, data needing multi-byte lengths, and large data.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import { ResponseDeliverTx } from "../../src/wire/generated/tendermint/abci/types.js";
import { type DeterministicTxResult, lastResultsHash } from "../../src/wire/hashes.js";

const sha = (...parts: Uint8Array[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return new Uint8Array(h.digest());
};

function oracleRoot(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return sha();
  if (leaves.length === 1) return sha(Uint8Array.of(0), leaves[0]!);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha(Uint8Array.of(1), oracleRoot(leaves.slice(0, k)), oracleRoot(leaves.slice(k)));
}

function oracle(results: readonly DeterministicTxResult[]): string {
  const leaves = results.map((r) =>
    ResponseDeliverTx.encode({
      code: r.code,
      data: r.data,
      log: "",
      info: "",
      gasWanted: r.gasWanted,
      gasUsed: r.gasUsed,
      events: [],
      codespace: "",
    }).finish(),
  );
  return Buffer.from(oracleRoot(leaves)).toString("hex");
}

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const EMPTY = new Uint8Array(0);
const ok = (): DeterministicTxResult => ({ code: 0, data: EMPTY, gasWanted: 0n, gasUsed: 0n });

const int64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });
const result = fc.record({
  code: fc.oneof(fc.constant(0), fc.constant(0xffffffff), fc.integer({ min: 0, max: 0xffffffff })),
  data: fc.oneof(fc.constant(EMPTY), fc.uint8Array({ maxLength: 300 })),
  gasWanted: fc.oneof(fc.constant(0n), int64),
  gasUsed: fc.oneof(fc.constant(0n), int64),
});

describe("last results hash against the definition", () => {
  it("random lists of results, with repeats", () => {
    fc.assert(
      fc.property(
        fc.array(result, { maxLength: 12 }),
        fc.array(fc.nat(40), { maxLength: 60 }),
        (pool, picks) => {
          const list = pool.length === 0 ? [] : picks.map((i) => pool[i % pool.length]!);
          assert.equal(hex(lastResultsHash(list)), oracle(list));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("many identical results, as separate objects and as one shared object", () => {
    for (const n of [1, 2, 3, 5, 8, 9, 100, 1000, 1025]) {
      const separate = Array.from({ length: n }, ok);
      const shared = ok();
      const same = Array.from({ length: n }, () => shared);
      assert.equal(hex(lastResultsHash(separate)), oracle(separate), `n=${n} separate`);
      assert.equal(hex(lastResultsHash(same)), oracle(same), `n=${n} shared`);
    }
  });

  it("runs of identical results broken by different ones", () => {
    const a = { code: 0, data: EMPTY, gasWanted: 1n, gasUsed: 1n };
    const b = { code: 5, data: Uint8Array.of(1, 2), gasWanted: -1n, gasUsed: 0n };
    const list = [
      ...Array.from({ length: 37 }, () => ({ ...a })),
      b,
      ...Array.from({ length: 64 }, () => ({ ...a })),
      { ...b },
      ...Array.from({ length: 3 }, () => ({ ...a })),
    ];
    assert.equal(hex(lastResultsHash(list)), oracle(list));
  });

  it("large data (multi-byte length, bigger than any scratch buffer)", () => {
    const big = new Uint8Array(70_000).map((_, i) => i & 0xff);
    const list = [
      { code: 1, data: big, gasWanted: 7n, gasUsed: 3n },
      ok(),
      { code: 1, data: big.subarray(5, 200), gasWanted: 7n, gasUsed: 3n },
    ];
    assert.equal(hex(lastResultsHash(list)), oracle(list));
  });

  it("many distinct results, then repeats of early ones (past the point remembering stops)", () => {
    const distinct = Array.from({ length: 600 }, (_, i) => ({
      code: i % 5,
      data: Uint8Array.of(i & 0xff, i >> 8),
      gasWanted: BigInt(i),
      gasUsed: 1n,
    }));
    const list = [...distinct, ...distinct.slice(0, 50).map((r) => ({ ...r })), distinct[3]!, distinct[3]!];
    assert.equal(hex(lastResultsHash(list)), oracle(list));
  });

  it("data that differs only in bytes is not mistaken for a repeat", () => {
    const list = [
      { code: 0, data: Uint8Array.of(1), gasWanted: 0n, gasUsed: 0n },
      { code: 0, data: Uint8Array.of(2), gasWanted: 0n, gasUsed: 0n },
      { code: 0, data: Uint8Array.of(1), gasWanted: 0n, gasUsed: 0n },
    ];
    assert.equal(hex(lastResultsHash(list)), oracle(list));
  });
});
