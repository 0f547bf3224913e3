// Blocks per second of a single validator (in-process kvstore, timeout_commit = 0, empty blocks)
// beside the floor: executing and saving the same empty blocks alone (executeBlock on a fresh
// kvstore + persistExecutedHeight into fresh stores, no consensus, no signing, no log), measured
// in the same run over the blocks the node produced. The ratio says what consensus, the log's
// fsyncs and the signer's durable state cost per block. Bounded: at most BLOCKS blocks or
// LIMIT_MS. Writes bench-results/node-blocks.json; never fails on time.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { firstValueFrom, timer } from "rxjs";
import { filter, takeUntil } from "rxjs/operators";
import { KvstoreApplication } from "../../src/abci/apps/kvstore.js";
import { InProcessAbciClient } from "../../src/abci/client/in-process-client.js";
import { executeBlock } from "../../src/abci/execute-block.js";
import { handshake } from "../../src/abci/handshake.js";
import { stateFromGenesis } from "../../src/state/genesis-state.js";
import { openStores } from "../../src/store/open-stores.js";
import { persistExecutedHeight } from "../../src/store/persist-height.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import { startNode } from "../../streams/node.js";
import { freshHome, prepare } from "../integration/streams-node-helpers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BLOCKS = 300;
const LIMIT_MS = 30_000;

const home = freshHome("rxbft-node-blocks-bench-");
const prepared = prepare(home, { "consensus.timeout_commit": "0s" });
const node = await startNode(prepared, { rpc: false, verifyWorkers: 0 });
const startHeight = node.chainState().lastBlockHeight;
const t0 = performance.now();
await firstValueFrom(
  node.consensusState$.pipe(
    filter((s) => s.height > startHeight + BigInt(BLOCKS)),
    takeUntil(timer(LIMIT_MS)),
  ),
  { defaultValue: undefined },
);
const nodeMs = performance.now() - t0;
const produced = Number(node.chainState().lastBlockHeight - startHeight);
await node.stop();
prepared.lock.release();

// The floor: the same blocks, executed and saved alone.
const source = await openStores(join(home, "data"), { indexer: "kv" });
const floorDir = join(home, "floor");
const advance = (set: Parameters<typeof ValidatorSet.fromProto>[0], times: bigint) =>
  ValidatorSet.fromProto(set).incrementProposerPriority(Number(times)).toProto();
const target = await openStores(floorDir, { indexer: "kv", advanceProposerPriority: advance });
const client = new InProcessAbciClient(await KvstoreApplication.open(join(floorDir, "kvstore.db")));
let { state } = await handshake(
  { client, genesis: prepared.genesis, blockStore: target.blockStore, stateStore: target.stateStore },
  stateFromGenesis(prepared.genesis),
);
const heights = Number(source.blockStore.height());
const t1 = performance.now();
for (let h = 1n; h <= BigInt(heights); h++) {
  const block = (await source.blockStore.loadBlock(h))!;
  const meta = (await source.blockStore.loadBlockMeta(h))!;
  const seenCommit =
    (await source.blockStore.loadSeenCommit(h)) ?? (await source.blockStore.loadBlockCommit(h))!;
  const parts = [];
  for (let i = 0; i < meta.blockId!.partSetHeader!.total; i++)
    parts.push((await source.blockStore.loadBlockPart(h, i))!);
  const executed = await executeBlock({ consensus: client.consensus }, state, block, meta.blockId!);
  await persistExecutedHeight(target, {
    block: { block, blockId: meta.blockId!, parts, seenCommit },
    state: executed.state,
    abciResponses: executed.responses,
  });
  state = executed.state;
}
const floorMs = performance.now() - t1;
await client.close();
await source.close();
await target.close();
rmSync(home, { recursive: true, force: true });

const ours = (produced * 1000) / nodeMs;
const floor = (heights * 1000) / floorMs;
const result = {
  node: { blocks: produced, ms: Math.round(nodeMs), blocksPerSecond: Number(ours.toFixed(1)) },
  executeAndSaveAlone: {
    blocks: heights,
    ms: Math.round(floorMs),
    blocksPerSecond: Number(floor.toFixed(1)),
  },
  ratio: Number((ours / floor).toFixed(3)),
};
console.log(
  `node: ${ours.toFixed(1)} blocks/s (${produced} empty blocks, timeout_commit 0) | execute+save alone: ${floor.toFixed(1)} blocks/s | ratio ${result.ratio}`,
);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results", "node-blocks.json"), `${JSON.stringify(result, null, 2)}\n`);
