// Storage figures beside same-run baselines:
// - persisting one height of 10,000 txs (block + state + index, three batches, the block and
//   state batches fsynced) vs one raw synced chained LevelDB batch of exactly the same keys and
//   bytes (recorded from our run), i.e. the cost of building the keys and encodings;
// - block by height (loadBlock: meta + parts, reassembled and decoded) reads/s vs a raw
//   synchronous get of the same part key (no decode);
// - tx by hash (getByHash, decoded TxResult) reads/s vs a raw synchronous get of the same key.
// Bounded in count and time; never fails on time. Writes bench-results/store.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256 } from "../../src/crypto/hash.js";
import { BlockStore } from "../../src/store/block-store.js";
import { partKey } from "../../src/store/block-store-keys.js";
import { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import { txHomesKey } from "../../src/store/indexer/index-keys.js";
import { type BinaryLevel, openBinaryLevel } from "../../src/store/level-database.js";
import { persistExecutedHeight } from "../../src/store/persist-height.js";
import { StateStore } from "../../src/store/state-store.js";
import { makeExecutedHeight, makeState, makeTxs } from "../fixtures/store/chain-fixture.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "store-bench-"));
const TXS = 10_000;
const SAVE_RUNS = 3;
const READ_MS = 500;
const READ_HEIGHTS = 40;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

type Op = { type: "put"; key: Uint8Array; value: Uint8Array } | { type: "del"; key: Uint8Array };

/** Records every batch a database writes, so the baseline can write the very same bytes. */
function recordBatches(db: BinaryLevel, sink: Op[]): void {
  const original = db.batch.bind(db) as () => ReturnType<BinaryLevel["batch"]>;
  (db as { batch: unknown }).batch = () => {
    const batch = original();
    const put = batch.put.bind(batch);
    const del = batch.del.bind(batch);
    batch.put = (key: Uint8Array, value: Uint8Array) => {
      sink.push({ type: "put", key, value });
      return put(key, value);
    };
    batch.del = (key: Uint8Array) => {
      sink.push({ type: "del", key });
      return del(key);
    };
    return batch;
  };
}

const blockDb = await openBinaryLevel(join(dir, "blockstore.db"));
const stateDb = await openBinaryLevel(join(dir, "state.db"));
const indexDb = await openBinaryLevel(join(dir, "tx_index.db"));
const rawDb = await openBinaryLevel(join(dir, "raw.db"));
const blockStore = await BlockStore.open(blockDb);
const stateStore = await StateStore.open(stateDb, { advanceProposerPriority: (set) => set });
const indexer = await EventIndexer.open(indexDb);
const stores = { blockStore, stateStore, indexer };
await stateStore.save(makeState(0n));

// 1. Saving a height of 10,000 txs.
const heights = Array.from({ length: SAVE_RUNS }, (_, i) => makeExecutedHeight(BigInt(i + 1), TXS));
const ours: number[] = [];
const raw: number[] = [];
let bytesPerHeight = 0;
let keysPerHeight = 0;
for (const [i, height] of heights.entries()) {
  const ops: Op[] = [];
  for (const db of [blockDb, stateDb, indexDb]) recordBatches(db, ops);
  let t = performance.now();
  await persistExecutedHeight(stores, height);
  ours.push(performance.now() - t);
  for (const db of [blockDb, stateDb, indexDb]) delete (db as { batch?: unknown }).batch; // back to the prototype's
  bytesPerHeight = ops.reduce((n, op) => n + op.key.length + (op.type === "put" ? op.value.length : 0), 0);
  keysPerHeight = ops.length;
  // Same keys under a per-run prefix, so the baseline writes new keys as ours did.
  const rawOps = ops.map((op) => ({ ...op, key: Uint8Array.of(i, ...op.key) }));
  t = performance.now();
  const batch = rawDb.batch();
  for (const op of rawOps) {
    if (op.type === "put") batch.put(op.key, op.value);
    else batch.del(op.key);
  }
  await batch.write({ sync: true });
  raw.push(performance.now() - t);
}
const saveOurs = median(ours);
const saveRaw = median(raw);

// 2. and 3. Reads: more heights of 100 txs, then random reads for a bounded time.
for (let h = BigInt(SAVE_RUNS + 1); h <= BigInt(SAVE_RUNS + READ_HEIGHTS); h++) {
  await persistExecutedHeight(stores, makeExecutedHeight(h, 100));
}
const top = blockStore.height();
function rate(fn: (i: number) => unknown, limit = 200_000): Promise<number> {
  return (async () => {
    const start = performance.now();
    let n = 0;
    while (n < limit && performance.now() - start < READ_MS) {
      await fn(n);
      n++;
    }
    return n / ((performance.now() - start) / 1000);
  })();
}
const pick = (i: number) => BigInt(SAVE_RUNS + 1) + BigInt((i * 7919) % Number(top - BigInt(SAVE_RUNS)));
const blockOurs = await rate(async (i) => {
  if ((await blockStore.loadBlock(pick(i))) === undefined) throw new Error("missing block");
});
const blockRaw = await rate((i) => {
  if (blockDb.getSync(partKey(pick(i), 0)) === undefined) throw new Error("missing part");
});
const hashes = Array.from({ length: 5000 }, (_, i) => {
  const h = pick(i);
  return sha256(makeTxs(h, 100)[i % 100]!);
});
const txOurs = await rate(async (i) => {
  if ((await indexer.txs.getByHash(hashes[i % hashes.length]!)) === undefined) throw new Error("missing tx");
});
const txRaw = await rate((i) => {
  if (indexDb.getSync(txHomesKey(hashes[i % hashes.length]!)) === undefined) throw new Error("missing tx");
});

const figures = {
  save_height_10k_txs_ms: {
    ours: saveOurs,
    raw_batch_same_bytes: saveRaw,
    ratio: saveOurs / saveRaw,
    keys: keysPerHeight,
    bytes: bytesPerHeight,
  },
  block_by_height_reads_per_s: { ours: blockOurs, raw_get_sync: blockRaw, ratio: blockOurs / blockRaw },
  tx_by_hash_reads_per_s: { ours: txOurs, raw_get_sync: txRaw, ratio: txOurs / txRaw },
};
console.log(
  `save height of ${TXS} txs (block+state+index, ${keysPerHeight} keys, ${(bytesPerHeight / 1e6).toFixed(1)} MB): ` +
    `${saveOurs.toFixed(1)} ms vs raw synced batch of the same bytes ${saveRaw.toFixed(1)} ms (×${(saveOurs / saveRaw).toFixed(2)})`,
);
console.log(
  `block by height: ${Math.round(blockOurs)}/s vs raw getSync of its part ${Math.round(blockRaw)}/s (×${(blockOurs / blockRaw).toFixed(2)})`,
);
console.log(
  `tx by hash: ${Math.round(txOurs)}/s vs raw getSync ${Math.round(txRaw)}/s (×${(txOurs / txRaw).toFixed(2)})`,
);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results/store.json"), `${JSON.stringify(figures, null, 2)}\n`);
for (const db of [blockDb, stateDb, indexDb, rawDb]) await db.close();
rmSync(dir, { recursive: true, force: true });
