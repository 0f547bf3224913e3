// A proposal's data hash made ahead of the fold (src/wire/hashes.ts, dataHashAhead): from the
// digests each mempool entry carries and the tree in pieces between pauses
// (src/crypto/merkle.ts, merkleRootOfLeafHashesInPieces), the same root as dataHash's in one go.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { sha256 } from "../../src/crypto/hash.js";
import {
  leafHash,
  merkleRoot,
  merkleRootOfLeafHashes,
  merkleRootOfLeafHashesInPieces,
} from "../../src/crypto/merkle.js";
import {
  dataHash,
  dataHashAhead,
  rememberedTxHashes,
  rememberedTxKeys,
  TxDigests,
  TxSha256,
  txKey,
} from "../../src/wire/hashes.js";

/** Whether two arrays are views of the very same bytes (not equal copies). */
const sameMemory = (a: Uint8Array, b: Uint8Array) =>
  a.buffer === b.buffer && a.byteOffset === b.byteOffset && a.length === b.length;
const txsOf = (n: number) => Array.from({ length: n }, (_, i) => randomBytes(20 + (i % 7)));
const noPause = () => Promise.resolve();

describe("merkleRootOfLeafHashesInPieces", () => {
  it("gives merkleRootOfLeafHashes's root for every size around the pieces' edges", async () => {
    for (const piece of [2, 4, 8, 64]) {
      for (const n of [
        0,
        1,
        2,
        3,
        piece - 1,
        piece,
        piece + 1,
        2 * piece,
        3 * piece + 1,
        5 * piece - 1,
        200,
      ]) {
        const leaves = Array.from({ length: n }, () => leafHash(randomBytes(32)));
        let pauses = 0;
        const root = await merkleRootOfLeafHashesInPieces(
          leaves,
          async () => {
            pauses++;
          },
          piece,
        );
        assert.deepEqual(root, merkleRootOfLeafHashes(leaves), `n ${n} piece ${piece}`);
        // One pause per whole piece, when the tree is larger than one piece.
        assert.equal(pauses, n <= piece ? 0 : Math.floor(n / piece), `pauses, n ${n} piece ${piece}`);
      }
    }
  });

  it("refuses a piece that is not a power of two", async () => {
    await assert.rejects(merkleRootOfLeafHashesInPieces([], noPause, 3), /power of two/);
  });
});

describe("dataHashAhead", () => {
  it("remembers for the array the root dataHash computes, with the carried digests' hashes", async () => {
    const txs = txsOf(5000);
    const digests = txs.map((tx) => TxDigests.of(tx));
    await dataHashAhead(txs, digests, noPause);
    // The carried hashes themselves (no second hash of any tx): views of the digests' own bytes.
    const remembered = rememberedTxHashes(txs);
    assert.ok(remembered !== undefined);
    for (let i = 0; i < txs.length; i++) assert.ok(sameMemory(remembered[i]!, digests[i]!.hash), `tx ${i}`);
    const expected = merkleRoot(txs.map(sha256));
    assert.deepEqual(dataHash(txs), expected);
    assert.deepEqual(dataHash([...txs]), expected);
  });

  it("hashes a tx whose digest belongs to another tx, or is missing", async () => {
    const txs = txsOf(40);
    const digests: (TxDigests | undefined)[] = txs.map((tx) => TxDigests.of(tx));
    digests[3] = TxDigests.of(randomBytes(20));
    digests[7] = undefined;
    // Same bytes, another object: not the tx the digest was made from.
    digests[9] = TxDigests.of(new Uint8Array(txs[9]!));
    await dataHashAhead(txs, digests, noPause);
    assert.deepEqual(dataHash(txs), merkleRoot(txs.map(sha256)));
    assert.ok(!sameMemory(rememberedTxHashes(txs)![9]!, digests[9]!.hash));
  });

  it("answers nothing for an array changed after it was hashed ahead", async () => {
    const txs = txsOf(10);
    await dataHashAhead(txs, [], noPause);
    txs[4] = randomBytes(20);
    assert.equal(rememberedTxHashes(txs), undefined);
    assert.deepEqual(dataHash(txs), merkleRoot(txs.map(sha256)));
  });

  it("remembers each tx's key where its digests were made from the TxSha256 that keyed it, none elsewhere", async () => {
    const txs = txsOf(12);
    const hashed = txs.map((tx) => TxSha256.of(tx));
    const digests: (TxDigests | undefined)[] = txs.map((tx, i) => TxDigests.of(tx, hashed[i]));
    digests[2] = TxDigests.of(txs[2]!); // no TxSha256: no key carried
    digests[5] = TxDigests.of(randomBytes(20), TxSha256.of(txs[5]!)); // made for other bytes
    digests[6] = TxDigests.of(txs[7]!, hashed[7]); // another tx's digests at this index
    digests[8] = undefined;
    await dataHashAhead(txs, digests, noPause);
    const keys = rememberedTxKeys(txs);
    assert.ok(keys !== undefined);
    assert.equal(keys.length, txs.length);
    for (let i = 0; i < txs.length; i++) {
      if ([2, 5, 6, 8].includes(i)) assert.equal(keys[i], undefined, `tx ${i}: no key`);
      else assert.equal(keys[i], txKey(txs[i]!), `tx ${i}: its own key`);
    }
    txs[0] = randomBytes(20);
    assert.equal(rememberedTxKeys(txs), undefined, "nothing for an array changed since");
  });

  it("takes only digests made by TxDigests.of", async () => {
    const txs = txsOf(3);
    const forged = {
      tx: txs[0]!,
      hash: new Uint8Array(32),
      leaf: new Uint8Array(32),
    } as unknown as TxDigests;
    await dataHashAhead(txs, [forged], noPause);
    assert.deepEqual(dataHash(txs), merkleRoot(txs.map(sha256)));
  });
});
