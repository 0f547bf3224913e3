// Every merkle proof verifies against its root, and flipping any bit of the leaf, the leaf hash,
// an aunt or the root makes it fail.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  innerHash,
  leafHash,
  leafHashOfHashInto,
  merkleProofs,
  merkleRoot,
  sha256HexInto,
  splitPoint,
} from "../../src/crypto/merkle.js";
import { merkleProofVerifies, rootFromAunts } from "../../src/crypto/merkle-proof.js";

const items = fc.array(fc.uint8Array({ maxLength: 24 }), { minLength: 1, maxLength: 40 });

function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  if (copy.length === 0) return Uint8Array.of(1);
  const at = bit % (copy.length * 8);
  copy[at >> 3]! ^= 1 << (at & 7);
  return copy;
}

/** The recursive definition, written independently of merkle.ts, as an oracle. */
function oracle(list: Uint8Array[]): Uint8Array {
  if (list.length === 1) return leafHash(list[0]!);
  let k = 1;
  while (k * 2 < list.length) k *= 2;
  return innerHash(oracle(list.slice(0, k)), oracle(list.slice(k)));
}

describe("merkle properties", () => {
  it("the root matches the recursive definition and merkleProofs' root", () => {
    fc.assert(
      fc.property(items, (list) => {
        assert.deepEqual(merkleRoot(list), oracle(list));
        assert.deepEqual(merkleProofs(list).root, oracle(list));
      }),
      { numRuns: 150 },
    );
  });

  it("every proof verifies", () => {
    fc.assert(
      fc.property(items, (list) => {
        const { root, proofs } = merkleProofs(list);
        list.forEach((item, i) => {
          assert.ok(merkleProofVerifies(proofs[i]!, root, item), `proof ${i} of ${list.length}`);
        });
      }),
      { numRuns: 150 },
    );
  });

  it("a flipped bit in leaf, leaf hash, an aunt or the root fails", () => {
    fc.assert(
      fc.property(items, fc.nat(), fc.nat(), fc.nat(), (list, pick, bit, which) => {
        const { root, proofs } = merkleProofs(list);
        const i = pick % list.length;
        const proof = proofs[i]!;
        const item = list[i]!;
        const choice = which % 4;
        if (choice === 0) assert.ok(!merkleProofVerifies(proof, root, flipBit(item, bit)));
        if (choice === 1)
          assert.ok(!merkleProofVerifies({ ...proof, leafHash: flipBit(proof.leafHash, bit) }, root, item));
        if (choice === 2) assert.ok(!merkleProofVerifies(proof, flipBit(root, bit), item));
        if (choice === 3 && proof.aunts.length > 0) {
          const a = bit % proof.aunts.length;
          const aunts = proof.aunts.map((x, j) => (j === a ? flipBit(x, bit) : x));
          assert.ok(!merkleProofVerifies({ ...proof, aunts }, root, item));
        }
      }),
      { numRuns: 300 },
    );
  });

  // (The total alone is not bound: a left-edge proof of 3 leaves also fits 4. Go behaves the same;
  // part sets compare the proof's total with the header's.)
  it("a proof moved to another index or another leaf fails", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 8 }), { minLength: 2, maxLength: 30 }),
        fc.nat(),
        (list, pick) => {
          const distinct = new Set(list.map((x) => Buffer.from(x).toString("hex")));
          fc.pre(distinct.size === list.length);
          const { root, proofs } = merkleProofs(list);
          const i = pick % list.length;
          const proof = proofs[i]!;
          const j = (i + 1) % list.length;
          assert.ok(!merkleProofVerifies({ ...proof, index: BigInt(j) }, root, list[i]!));
          assert.ok(!merkleProofVerifies(proof, root, list[j]!));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("rootFromAunts refuses an aunt list of the wrong length", () => {
    const { proofs } = merkleProofs([Uint8Array.of(1), Uint8Array.of(2), Uint8Array.of(3)]);
    const p = proofs[0]!;
    assert.equal(rootFromAunts(p.index, p.total, p.leafHash, [...p.aunts, p.leafHash]), undefined);
    assert.equal(rootFromAunts(p.index, p.total, p.leafHash, p.aunts.slice(1)), undefined);
    assert.equal(splitPoint(2), 1);
    assert.equal(splitPoint(1025), 1024);
  });

  it("hashes written into a slab are sha256 and leafHash, byte for byte, and the hex returned is the hash's", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 0, max: 64 }),
        fc.nat(40),
        (data, at, viewAt) => {
          // The slab a view into a larger buffer, as a digests slot is: `at` counts from the view's start.
          const whole = new Uint8Array(240).fill(0xee);
          const slab = whole.subarray(viewAt, viewAt + 160);
          const hex = sha256HexInto(data, slab, at);
          const expected = createHash("sha256").update(data).digest();
          assert.equal(Buffer.from(slab.subarray(at, at + 32)).toString("hex"), expected.toString("hex"));
          assert.equal(hex, expected.toString("hex"));
          leafHashOfHashInto(slab.subarray(at, at + 32), slab, at + 32);
          assert.deepEqual(slab.subarray(at + 32, at + 64), leafHash(new Uint8Array(expected)));
          assert.ok(
            slab.subarray(0, at).every((b) => b === 0xee),
            "nothing written before the slot",
          );
          assert.ok(
            slab.subarray(at + 64).every((b) => b === 0xee),
            "nothing written after the slot",
          );
          assert.ok(
            whole.subarray(0, viewAt).every((b) => b === 0xee) &&
              whole.subarray(viewAt + 160).every((b) => b === 0xee),
            "nothing written outside the view",
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});
