// A proposal's data hash and Data bytes made ahead over the pool (src/types/data-hash-prefix.ts)
// and finished at the reap over the txs admitted since: the root and the bytes are the ones the
// reaped txs give from scratch, and a reap that does not start with the prefix's very txs gets
// nothing from it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sha256 } from "../../src/crypto/hash.js";
import { merkleRoot } from "../../src/crypto/merkle.js";
import { blockDataBytesTaken } from "../../src/types/block-data-ahead.js";
import { DataHashPrefix, type PooledTx, PREFIX_HASH_PIECE } from "../../src/types/data-hash-prefix.js";
import { Data } from "../../src/wire/generated/tendermint/types/types.js";
import { dataHash, rememberedTxHashes, TxDigests } from "../../src/wire/hashes.js";

const txOf = (i: number) => new TextEncoder().encode(`prefix-${i}=value-${"v".repeat(i % 7)}`);
/** Pool entries as the mempool keeps them: each tx with the digests its admission made. */
const pooled = (from: number, to: number): PooledTx[] =>
  Array.from({ length: to - from }, (_, k) => {
    const tx = txOf(from + k);
    return { tx, digests: TxDigests.of(tx) };
  });
const noPause = async () => {};

describe("a proposal's data hash made ahead over a prefix", () => {
  for (const [m, n] of [
    [1, 1],
    [5, 9],
    [8, 8],
    [100, 257],
    [3000, 4100],
  ] as const) {
    it(`${m} txs ahead, ${n} reaped: the root, hashes and Data bytes of the reaped txs`, async () => {
      const all = pooled(0, n);
      const prefix = await DataHashPrefix.of(all.slice(0, m), noPause);
      assert.equal(prefix.length, m);
      const txs = all.map((p) => p.tx);
      assert.equal(await prefix.finish(all, txs), true);
      // remembered for this array: dataHash answers it, and it is the merkle root of the txs' hashes
      assert.deepEqual(rememberedTxHashes(txs), txs.map(sha256));
      assert.deepEqual(dataHash(txs), merkleRoot(txs.map(sha256)));
      assert.deepEqual(blockDataBytesTaken(txs), new Uint8Array(Data.encode({ txs: [...txs] }).finish()));
    });
  }

  it("a long rest is finished in pieces, with a pause between them; a short one in one run", async () => {
    const all = pooled(0, 5200);
    let jobs = 0;
    let pauses = 0;
    const counting = () => {
      jobs++;
      return async () => {
        pauses++;
      };
    };
    const long = await DataHashPrefix.of(all.slice(0, 100), noPause);
    const txs = all.map((p) => p.tx);
    assert.equal(await long.finish(all, txs, counting), true);
    assert.equal(jobs, 1);
    assert.ok(pauses >= 2, `pauses ${pauses}`);
    assert.deepEqual(dataHash(txs), merkleRoot(txs.map(sha256)));
    assert.deepEqual(blockDataBytesTaken(txs), new Uint8Array(Data.encode({ txs: [...txs] }).finish()));
    const short = await DataHashPrefix.of(all.slice(0, 5000), noPause);
    const shortTxs = all.map((p) => p.tx);
    assert.equal(await short.finish(all, shortTxs, counting), true);
    assert.equal(jobs, 1, "a rest of 200 txs takes no pause job");
  });

  it("a tx without digests of its own (or someone else's) is hashed from its bytes", async () => {
    const all = pooled(0, 40).map((p, i) => (i % 3 === 0 ? { tx: p.tx, digests: undefined } : p));
    // a digest made for other bytes of the same content must not be taken for this tx object
    all[1] = { tx: txOf(1), digests: TxDigests.of(txOf(999)) };
    const prefix = await DataHashPrefix.of(all.slice(0, 20), noPause);
    const txs = all.map((p) => p.tx);
    assert.equal(await prefix.finish(all, txs), true);
    assert.deepEqual(dataHash(txs), merkleRoot(txs.map(sha256)));
  });

  it("a reap that does not start with the prefix's very txs gets nothing from it", async () => {
    const all = pooled(0, 30);
    const prefix = await DataHashPrefix.of(all.slice(0, 20), noPause);
    // the same bytes in fresh objects, a tx left out, fewer txs than the prefix
    const copies = all.map((p) => ({ tx: new Uint8Array(p.tx), digests: p.digests }));
    const gap = [...all.slice(0, 5), ...all.slice(6)];
    for (const reaped of [copies, gap, all.slice(0, 10)]) {
      const txs = reaped.map((p) => p.tx);
      assert.equal(await prefix.finish(reaped, txs), false);
      assert.equal(rememberedTxHashes(txs), undefined);
      assert.equal(blockDataBytesTaken(txs), undefined);
    }
  });

  it("a prefix is finished once", async () => {
    const all = pooled(0, 12);
    const prefix = await DataHashPrefix.of(all.slice(0, 6), noPause);
    assert.equal(
      await prefix.finish(
        all,
        all.map((p) => p.tx),
      ),
      true,
    );
    const again = all.map((p) => p.tx);
    assert.equal(await prefix.finish(all, again), false);
    assert.equal(rememberedTxHashes(again), undefined);
  });

  it("pauses between pieces while it is made", async () => {
    let pauses = 0;
    await DataHashPrefix.of(pooled(0, 5000), async () => {
      pauses++;
    });
    assert.ok(pauses >= 2, `paused ${pauses} times`);
  });

  it("looks at the pause every PREFIX_HASH_PIECE txs hashed, so no piece runs far past its budget", async () => {
    let pauses = 0;
    await DataHashPrefix.of(pooled(0, 5000), async () => {
      pauses++;
    });
    // The tree's looks alone; the Data's encoding adds its own.
    assert.ok(pauses >= Math.floor(5000 / PREFIX_HASH_PIECE), `paused ${pauses} times`);
    assert.ok(PREFIX_HASH_PIECE <= 512);
  });
});
