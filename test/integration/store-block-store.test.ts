import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { BlockStore } from "../../src/store/block-store.js";
import type { StoreError } from "../../src/store/errors.js";
import { type BinaryLevel, openBinaryLevel } from "../../src/store/level-database.js";
import { Block } from "../../src/wire/generated/tendermint/types/block.js";
import { BlockMeta, Commit, Part } from "../../src/wire/generated/tendermint/types/types.js";
import { encodingOf, makeHeight } from "../fixtures/store/chain-fixture.js";

const root = mkdtempSync(join(tmpdir(), "store-block-"));
after(() => rmSync(root, { recursive: true, force: true }));
let dbCount = 0;

async function freshStore(options = {}): Promise<{ db: BinaryLevel; store: BlockStore; path: string }> {
  const path = join(root, `db${dbCount++}`);
  const db = await openBinaryLevel(path);
  return { db, store: await BlockStore.open(db, options), path };
}

async function saveRange(store: BlockStore, from: bigint, to: bigint, txs = 3): Promise<void> {
  for (let h = from; h <= to; h++) await store.saveBlock(makeHeight(h, txs));
}

describe("BlockStore", () => {
  it("starts empty with base and height 0", async () => {
    const { db, store } = await freshStore();
    assert.equal(store.base(), 0n);
    assert.equal(store.height(), 0n);
    assert.equal(await store.loadBlock(1n), undefined);
    await db.close();
  });

  it("saves a block and loads it back by height and by hash, with meta, parts and commits", async () => {
    const { db, store } = await freshStore();
    await saveRange(store, 1n, 3n);
    const expected = makeHeight(2n, 3);
    assert.equal(store.base(), 1n);
    assert.equal(store.height(), 3n);
    assert.equal(encodingOf(Block, await store.loadBlock(2n)), encodingOf(Block, expected.block));
    assert.equal(
      encodingOf(Block, await store.loadBlockByHash(expected.blockId.hash)),
      encodingOf(Block, expected.block),
    );
    const meta = await store.loadBlockMeta(2n);
    assert.deepEqual(Buffer.from(meta!.blockId.hash), Buffer.from(expected.blockId.hash));
    assert.equal(meta?.header.height, 2n);
    assert.equal(meta?.numTxs, 3n);
    assert.equal(meta?.blockSize, BigInt(expected.parts.reduce((n, p) => n + p.bytes.length, 0)));
    assert.equal(encodingOf(Part, await store.loadBlockPart(2n, 0)), encodingOf(Part, expected.parts[0]));
    // The commit of height 2 arrives with block 3's last_commit; the latest has only a seen commit.
    assert.equal(
      encodingOf(Commit, await store.loadBlockCommit(2n)),
      encodingOf(Commit, makeHeight(3n, 3).block.lastCommit),
    );
    assert.equal(await store.loadBlockCommit(3n), undefined);
    assert.equal(
      encodingOf(Commit, await store.loadSeenCommit(3n)),
      encodingOf(Commit, makeHeight(3n, 3).seenCommit),
    );
    assert.equal(await store.loadBlockByHash(new Uint8Array(32)), undefined);
    await db.close();
  });

  it("reassembles a block spread over several parts", async () => {
    const { db, store } = await freshStore();
    const big = makeHeight(1n, 3000, 64); // ~200 KB → 4 parts
    assert.ok(big.parts.length > 2);
    await store.saveBlock(big);
    assert.equal(encodingOf(Block, await store.loadBlock(1n)), encodingOf(Block, big.block));
    await db.close();
  });

  it("refuses gaps, incomplete part sets and mismatched seen commits", async () => {
    const { db, store } = await freshStore();
    await saveRange(store, 5n, 5n); // a first save at any height (initial_height / state sync)
    await assert.rejects(store.saveBlock(makeHeight(7n, 1)), (e: StoreError) => {
      assert.equal(e.code, "STORE_INVALID_SAVE");
      assert.match(e.message, /wanted height 6, got 7/);
      return true;
    });
    const incomplete = makeHeight(6n, 1);
    incomplete.blockId = {
      ...incomplete.blockId,
      partSetHeader: { ...incomplete.blockId.partSetHeader, total: 2 },
    };
    await assert.rejects(store.saveBlock(incomplete), /have 1 of 2 parts/);
    const wrongSeen = makeHeight(6n, 1);
    wrongSeen.seenCommit = makeHeight(5n, 1).seenCommit;
    await assert.rejects(store.saveBlock(wrongSeen), /seen commit is for height 5/);
    assert.equal(store.height(), 5n);
    await db.close();
  });

  it("loads a range of metas in one read, clipped to [base, height]", async () => {
    const { db, store } = await freshStore();
    await saveRange(store, 1n, 30n, 1);
    const metas = await store.loadBlockMetas(0n, 40n);
    assert.deepEqual(
      metas.map((m) => m.header.height),
      Array.from({ length: 30 }, (_, i) => BigInt(i + 1)),
    );
    assert.deepEqual(await store.loadBlockMetas(20n, 10n), []);
    await db.close();
  });

  it("keeps a state-synced seen commit before any block", async () => {
    const { db, store } = await freshStore();
    const synced = makeHeight(500n, 1).seenCommit;
    await store.saveSeenCommit(500n, synced);
    assert.equal(store.height(), 0n);
    assert.equal(encodingOf(Commit, await store.loadSeenCommit(500n)), encodingOf(Commit, synced));
    await assert.rejects(store.saveSeenCommit(501n, synced), /seen commit is for height 500, not 501/);
    await db.close();
  });

  it("keeps base and height across reopen", async () => {
    const { db, store, path } = await freshStore();
    await saveRange(store, 1n, 4n);
    await db.close();
    const db2 = await openBinaryLevel(path);
    const reopened = await BlockStore.open(db2);
    assert.equal(reopened.base(), 1n);
    assert.equal(reopened.height(), 4n);
    assert.equal(
      encodingOf(BlockMeta, reopened.latestMeta()),
      encodingOf(BlockMeta, await reopened.loadBlockMeta(4n)),
    );
    assert.equal(reopened.latestMeta()?.header.height, 4n);
    await reopened.saveBlock(makeHeight(5n, 3));
    assert.equal(reopened.height(), 5n);
    await db2.close();
  });

  it("prunes below the retain height, frees the space, and stays pruned after reopen", async () => {
    const { db, store, path } = await freshStore({ pruneBatchHeights: 7 });
    await saveRange(store, 1n, 40n, 200);
    // Push everything out of the memtable into tables, so sizes are measurable before and after.
    await db.compactRange(Uint8Array.of(0x00), Uint8Array.of(0xff));
    const sizeBefore = await db.approximateSize(Uint8Array.of(0x00), Uint8Array.of(0xff));
    assert.equal(await store.pruneBlocks(31n), 30n);
    assert.equal(store.base(), 31n);
    assert.equal(await store.loadBlock(30n), undefined);
    assert.equal(await store.loadBlockByHash(makeHeight(10n, 200).blockId.hash), undefined);
    assert.equal(await store.loadSeenCommit(30n), undefined);
    assert.equal(
      encodingOf(Block, await store.loadBlock(31n)),
      encodingOf(Block, makeHeight(31n, 200).block),
    );
    // Nothing of a pruned height is left behind under any prefix.
    const leftovers = await db.keys({ gte: Uint8Array.of(0x01), lt: Uint8Array.of(0x05) }).all();
    const heights = new Set(leftovers.map((k) => new DataView(k.buffer, k.byteOffset).getBigUint64(1)));
    assert.ok(
      [...heights].every((h) => h >= 30n),
      "only C:30 (commit of 30, part of block 31) may precede base",
    );
    const sizeAfter = await db.approximateSize(Uint8Array.of(0x00), Uint8Array.of(0xff));
    assert.ok(sizeAfter < sizeBefore / 2, `compaction freed space: ${sizeBefore} → ${sizeAfter}`);
    assert.equal(await store.pruneBlocks(20n), 0n, "below base prunes nothing");
    await assert.rejects(store.pruneBlocks(41n), /cannot prune beyond the latest height 40/);
    await db.close();
    const db2 = await openBinaryLevel(path);
    const reopened = await BlockStore.open(db2);
    assert.equal(reopened.base(), 31n);
    assert.equal(reopened.height(), 40n);
    await db2.close();
  });
});
