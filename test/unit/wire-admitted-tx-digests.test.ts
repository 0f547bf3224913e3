// The digests of admitted txs found again by their bytes (src/wire/admitted-tx-digests.ts) and
// dataHash's use of them: another validator's block, decoded into fresh arrays, reuses the
// digests our mempool made instead of hashing its txs again, with the same root; digests are never
// taken for different bytes, even when the 32-bit key collides; the memo keeps its bounds.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { sha256 } from "../../src/crypto/hash.js";
import { merkleRoot } from "../../src/crypto/merkle.js";
import { AdmittedTxDigests, bytesKey } from "../../src/wire/admitted-tx-digests.js";
import { dataHash, rememberedTxHashes, TxDigests } from "../../src/wire/hashes.js";

const sameMemory = (a: Uint8Array, b: Uint8Array) =>
  a.buffer === b.buffer && a.byteOffset === b.byteOffset && a.length === b.length;
const copyOf = (tx: Uint8Array) => new Uint8Array(tx);

/** Two different byte strings with the same 32-bit key (a birthday search over 6-byte strings). */
function collidingPair(): [Uint8Array, Uint8Array] {
  const seen = new Map<number, Uint8Array>();
  for (;;) {
    const b = randomBytes(6);
    const other = seen.get(bytesKey(b));
    if (other !== undefined && !Buffer.from(other).equals(b)) return [other, new Uint8Array(b)];
    seen.set(bytesKey(b), new Uint8Array(b));
  }
}

describe("dataHash over txs our mempool admitted", () => {
  it("takes the admitted digests for equal bytes in fresh arrays, with the root of hashing them", () => {
    const admitted = Array.from({ length: 300 }, (_, i) => new Uint8Array(randomBytes(30 + (i % 9))));
    const digests = admitted.map((tx) => TxDigests.of(tx));
    const fresh = Array.from({ length: 40 }, () => new Uint8Array(randomBytes(33)));
    // A block from a peer: copies of admitted txs (not our objects) and txs never seen here.
    const block = [...admitted.slice(0, 150).map(copyOf), ...fresh, ...admitted.slice(150).map(copyOf)];
    const root = dataHash(block);
    assert.deepEqual(root, merkleRoot(block.map((tx) => sha256(tx))));
    const hashes = rememberedTxHashes(block)!;
    for (let i = 0; i < 150; i++) assert.ok(sameMemory(hashes[i]!, digests[i]!.hash), `tx ${i} hashed again`);
    for (let i = 190; i < block.length; i++)
      assert.ok(sameMemory(hashes[i]!, digests[i - 40]!.hash), `tx ${i} hashed again`);
    for (let i = 150; i < 190; i++) assert.deepEqual(hashes[i], sha256(block[i]!));
  });
});

describe("AdmittedTxDigests", () => {
  it("answers only for the very bytes hashed, also when another tx has the same key", () => {
    const [a, b] = collidingPair();
    assert.equal(bytesKey(a), bytesKey(b));
    const memo = new AdmittedTxDigests(8);
    const digestsA = TxDigests.of(a);
    memo.remember(digestsA);
    assert.equal(memo.of(copyOf(a)), digestsA);
    assert.equal(memo.of(b), undefined, "digests of other bytes were taken for a colliding tx");
    const digestsB = TxDigests.of(b);
    memo.remember(digestsB);
    assert.equal(memo.of(copyOf(b)), digestsB);
    assert.equal(memo.of(a), undefined, "the displaced entry answered for other bytes");
    // dataHash over the colliding pair is still the root of their own hashes.
    assert.deepEqual(dataHash([copyOf(a), copyOf(b)]), merkleRoot([sha256(a), sha256(b)]));
  });

  it("keeps at most maxEntries, the oldest leaving first", () => {
    const memo = new AdmittedTxDigests(4);
    const txs = Array.from({ length: 6 }, () => new Uint8Array(randomBytes(20)));
    const digests = txs.map((tx) => TxDigests.of(tx));
    for (const d of digests) memo.remember(d);
    assert.equal(memo.size, 4);
    assert.equal(memo.of(txs[0]!), undefined);
    assert.equal(memo.of(txs[1]!), undefined);
    for (let i = 2; i < 6; i++) assert.equal(memo.of(copyOf(txs[i]!)), digests[i]);
  });

  it("keeps at most maxBytes of txs, and never a tx larger than that", () => {
    const memo = new AdmittedTxDigests(100, 100);
    const txs = [40, 40, 40].map((n) => new Uint8Array(randomBytes(n)));
    const digests = txs.map((tx) => TxDigests.of(tx));
    for (const d of digests) memo.remember(d);
    assert.equal(memo.of(txs[0]!), undefined, "over the byte bound, the oldest leaves");
    assert.equal(memo.of(txs[1]!), digests[1]);
    assert.equal(memo.of(txs[2]!), digests[2]);
    const big = new Uint8Array(randomBytes(101));
    memo.remember(TxDigests.of(big));
    assert.equal(memo.of(big), undefined);
    assert.equal(memo.of(txs[2]!), digests[2]);
  });

  it("keeps nothing while off, lets go of every entry when turned off, and keeps again when on", () => {
    const memo = new AdmittedTxDigests(8);
    const kept = TxDigests.of(new Uint8Array(randomBytes(20)));
    memo.remember(kept);
    memo.keep(false);
    assert.equal(memo.keeping, false);
    assert.equal(memo.size, 0, "turned off, the memo still held entries");
    assert.equal(memo.of(kept.tx), undefined);
    const whileOff = TxDigests.of(new Uint8Array(randomBytes(20)));
    memo.remember(whileOff);
    assert.equal(memo.of(copyOf(whileOff.tx)), undefined, "a tx admitted while off was kept");
    memo.keep(true);
    const whileOn = TxDigests.of(new Uint8Array(randomBytes(20)));
    memo.remember(whileOn);
    assert.equal(memo.of(copyOf(whileOn.tx)), whileOn);
    // A data hash is the same whether or not the memo answers.
    const txs = [whileOff.tx, whileOn.tx].map(copyOf);
    assert.deepEqual(dataHash(txs), merkleRoot(txs.map((tx) => sha256(tx))));
  });

  it("refuses a bound that is not a positive integer", () => {
    assert.throws(() => new AdmittedTxDigests(0), /maxEntries must be a positive integer, got 0/);
  });
});
