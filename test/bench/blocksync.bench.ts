// Block sync throughput: blocks per second a fresh node syncs from one loopback peer (both nodes
// in this process, real p2p connection, in-process kvstore apps), for empty blocks and for blocks
// of about 1,000 txs, beside the baseline measured in the same run: executing and saving the same
// blocks from a local store (executeBlock on a fresh kvstore + persistExecutedHeight into fresh
// stores: no network, no verification). Aims: >= 200 blocks/s empty, >= 0.7x the local rate.
// Bounded: EMPTY_BLOCKS + TX_BATCHES blocks, each phase under LIMIT_MS. Writes
// bench-results/blocksync.json; never fails on time.
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { KvstoreApplication } from "../../src/abci/apps/kvstore.js";
import { InProcessAbciClient } from "../../src/abci/client/in-process-client.js";
import { executeBlock } from "../../src/abci/execute-block.js";
import { handshake } from "../../src/abci/handshake.js";
import { stateFromGenesis } from "../../src/state/genesis-state.js";
import { openStores } from "../../src/store/open-stores.js";
import { persistExecutedHeight } from "../../src/store/persist-height.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import { startNode } from "../../streams/node.js";
import type { NodeHandle } from "../../streams/node-handle.js";
import { freshHome, prepare } from "../integration/streams-node-helpers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const EMPTY_BLOCKS = Number(process.env.BLOCKSYNC_BENCH_EMPTY ?? 300);
const TX_BATCHES = Number(process.env.BLOCKSYNC_BENCH_TX_BATCHES ?? 20);
const TXS_PER_BATCH = 1000;
const LIMIT_MS = 120_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean, what: string, limitMs = LIMIT_MS): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(2);
  }
}
const heightOf = (n: NodeHandle) => n.chainState().lastBlockHeight;

// The source chain: a validator with timeout_commit 50ms (so a batch of txs lands in one block).
const homeV = freshHome("rxbft-blocksync-bench-v-");
const preparedV = prepare(homeV, { "consensus.timeout_commit": "50ms" });
const v = await startNode(preparedV, { rpc: false, verifyWorkers: 0 });
await until(() => heightOf(v) >= BigInt(EMPTY_BLOCKS), `${EMPTY_BLOCKS} empty blocks`);
const emptyEnd = heightOf(v);
for (let b = 0; b < TX_BATCHES; b++) {
  const sent = [];
  for (let i = 0; i < TXS_PER_BATCH; i++)
    sent.push(v.mempool.submit(Buffer.from(`b${b}t${i}=${"x".repeat(16)}`)));
  await Promise.all(sent);
  await until(() => v.mempool.state().txs.size === 0, "the batch committed");
}
await until(() => heightOf(v) > emptyEnd + 1n, "a block after the txs");
const txEnd = heightOf(v);
let txs = 0;
for (let h = emptyEnd + 1n; h <= txEnd; h++)
  txs += Number((await v.stores.blockStore.loadBlockMeta(h))!.numTxs);
const txBlocks = Number(txEnd - emptyEnd);

// The syncing node: same genesis, the validator as persistent peer.
const homeF = freshHome("rxbft-blocksync-bench-f-");
copyFileSync(join(homeV, "config", "genesis.json"), join(homeF, "config", "genesis.json"));
const peer = `${preparedV.nodeId}@${v.nodeInfo.listenAddr.replace(/^tcp:\/\//, "")}`;
const f = await startNode(prepare(homeF, { "p2p.persistent_peers": peer }), { rpc: false, verifyWorkers: 2 });
await until(() => heightOf(f) >= 1n, "the first synced block");
const t0 = performance.now();
await until(() => heightOf(f) >= emptyEnd, `synced to ${emptyEnd}`);
const t1 = performance.now();
await until(() => heightOf(f) >= txEnd, `synced to ${txEnd}`);
const t2 = performance.now();
// Same chain: the hashes of the last synced block.
const same = Buffer.from((await f.stores.blockStore.loadBlockMeta(txEnd))!.blockId.hash).equals(
  Buffer.from((await v.stores.blockStore.loadBlockMeta(txEnd))!.blockId.hash),
);
await f.stop();
await v.stop();
preparedV.lock.release();

// The baseline: the same blocks executed and saved from the local store.
const source = await openStores(join(homeV, "data"), { indexer: "kv" });
const floorDir = join(homeV, "floor");
const advance = (set: Parameters<typeof ValidatorSet.fromProto>[0], times: bigint) =>
  ValidatorSet.fromProto(set).incrementProposerPriority(Number(times)).toProto();
const target = await openStores(floorDir, { indexer: "kv", advanceProposerPriority: advance });
const client = new InProcessAbciClient(await KvstoreApplication.open(join(floorDir, "kvstore.db")));
let { state } = await handshake(
  { client, genesis: preparedV.genesis, blockStore: target.blockStore, stateStore: target.stateStore },
  stateFromGenesis(preparedV.genesis),
);
const marks: number[] = [];
for (let h = 1n; h <= txEnd; h++) {
  if (h === 2n || h === emptyEnd + 1n) marks.push(performance.now());
  const block = (await source.blockStore.loadBlock(h))!;
  const meta = (await source.blockStore.loadBlockMeta(h))!;
  const seenCommit =
    (await source.blockStore.loadSeenCommit(h)) ?? (await source.blockStore.loadBlockCommit(h))!;
  const parts = [];
  for (let i = 0; i < meta.blockId.partSetHeader.total; i++)
    parts.push((await source.blockStore.loadBlockPart(h, i))!);
  const executed = await executeBlock({ consensus: client.consensus }, state, block, meta.blockId);
  await persistExecutedHeight(target, {
    block: { block, blockId: meta.blockId, parts, seenCommit },
    state: executed.state,
    abciResponses: executed.responses,
  });
  state = executed.state;
}
marks.push(performance.now());
await client.close();
await source.close();
await target.close();
rmSync(homeV, { recursive: true, force: true });
rmSync(homeF, { recursive: true, force: true });

const rate = (blocks: number, ms: number) => Number(((blocks * 1000) / ms).toFixed(1));
const syncedEmpty = rate(Number(emptyEnd) - 1, t1 - t0);
const syncedTx = rate(txBlocks, t2 - t1);
const localEmpty = rate(Number(emptyEnd) - 1, marks[1]! - marks[0]!);
const localTx = rate(txBlocks, marks[2]! - marks[1]!);
// The figures swing with the load of the shared machine (fsync latency most of all): printed beside them.
const loadAverage = Number(loadavg()[0]!.toFixed(2));
const result = {
  sameLastBlockHash: same,
  loadAverage,
  empty: {
    blocks: Number(emptyEnd) - 1,
    syncedBlocksPerSecond: syncedEmpty,
    localBlocksPerSecond: localEmpty,
    ratio: Number((syncedEmpty / localEmpty).toFixed(3)),
  },
  txBlocks: {
    blocks: txBlocks,
    txsPerBlock: Math.round(txs / txBlocks),
    syncedBlocksPerSecond: syncedTx,
    localBlocksPerSecond: localTx,
    ratio: Number((syncedTx / localTx).toFixed(3)),
  },
};
console.log(
  `block sync, empty blocks: ${syncedEmpty} blocks/s | local execute+save: ${localEmpty} blocks/s | ratio ${result.empty.ratio}`,
);
console.log(
  `block sync, ~${result.txBlocks.txsPerBlock}-tx blocks: ${syncedTx} blocks/s | local execute+save: ${localTx} blocks/s | ratio ${result.txBlocks.ratio}`,
);
console.log(`load average (1 min) at the end: ${loadAverage}`);
if (!same) console.log("WARNING: the synced chain's last block hash differs from the source's");
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results", "blocksync.json"), `${JSON.stringify(result, null, 2)}\n`);
