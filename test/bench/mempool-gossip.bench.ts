// Txs per second through the mempool gossip reducer (each admission offered to 4 peers: the
// TxAdmitted fold, one SendGossipTx per peer, each answered by GossipTxSendFinished) beside the
// mempool's own admission rate (the node's mempool loop with CheckTx on the in-process kvstore)
// in the same run: gossip must not be what limits a node's tx intake. Fresh txs each round;
// rounds alternate; medians. Bounded in count and time; never fails on time. Writes
// bench-results/mempool-gossip.json.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Subject } from "rxjs";
import { KvstoreApplication } from "../../src/abci/apps/kvstore.js";
import { InProcessAbciClient } from "../../src/abci/client/in-process-client.js";
import { createLogger } from "../../src/logger/index.js";
import { DEFAULT_MEMPOOL_CONFIG } from "../../src/mempool/state.js";
import {
  initialMempoolGossipState,
  type MempoolGossipInput,
  type MempoolGossipState,
  mempoolGossipReducer,
} from "../../src/mempool-gossip/index.js";
import { createMempoolNode } from "../../streams/mempool-node.js";
import type { NodeEvent } from "../../streams/node-handle.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const ROUNDS = 5;
const BATCH = 5000;
const PEERS = 4;
const enc = new TextEncoder();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
let serial = 0;
const freshTxs = (n: number) => Array.from({ length: n }, () => enc.encode(`key${serial}=value${serial++}`));
const hashOf = (tx: Uint8Array) => createHash("sha256").update(tx).digest("hex").toUpperCase();

const dir = mkdtempSync(join(tmpdir(), "rxbft-mempool-gossip-bench-"));
const client = new InProcessAbciClient(await KvstoreApplication.open(join(dir, "kv")));
const mempool = createMempoolNode({
  config: { ...DEFAULT_MEMPOOL_CONFIG, size: (ROUNDS + 1) * BATCH, cacheSize: (ROUNDS + 1) * BATCH },
  height: 0n,
  connection: client.mempool,
  events$: new Subject<NodeEvent>(),
  logger: createLogger({ level: "none" }),
  onFault: (fault) => {
    throw new Error(fault.reason);
  },
});
const running = mempool.start();

async function admissions(): Promise<number> {
  const txs = freshTxs(BATCH);
  const start = performance.now();
  const results = await Promise.all(txs.map((tx) => mempool.submit(tx)));
  const ms = performance.now() - start;
  if (results.some((r) => r.outcome.kind !== "added")) throw new Error("a tx was not admitted");
  return (BATCH * 1000) / ms;
}

let gossip: MempoolGossipState = initialMempoolGossipState();
for (let p = 0; p < PEERS; p++)
  gossip = mempoolGossipReducer(gossip, {
    type: "GossipPeerAdded",
    peerId: `peer${p}`,
    peerHeight: 0n,
    pool: [],
  }).state;
let sends = 0;

function gossipRound(): number {
  const txs = freshTxs(BATCH).map((tx) => ({ tx, hash: hashOf(tx) }));
  const start = performance.now();
  for (const { tx, hash } of txs) {
    const admitted: MempoolGossipInput = { type: "TxAdmitted", hash, tx, height: 0n, senders: [] };
    let t = mempoolGossipReducer(gossip, admitted);
    gossip = t.state;
    // every send answered as delivered, in turn (the reactor's loop does the same through the hub)
    let queue = t.effects;
    while (queue.length > 0) {
      const next = [];
      for (const e of queue) {
        if (e.type !== "SendGossipTx") continue;
        sends++;
        t = mempoolGossipReducer(gossip, {
          type: "GossipTxSendFinished",
          peerId: e.peerId,
          seq: e.seq,
          through: e.through,
          delivered: true,
          peerHeight: 0n,
        });
        gossip = t.state;
        next.push(...t.effects);
      }
      queue = next;
    }
  }
  const ms = performance.now() - start;
  // the pool empties as blocks commit: keep the reducer's list at a steady size
  gossip = mempoolGossipReducer(gossip, { type: "TxsLeftPool", hashes: txs.map((t) => t.hash) }).state;
  return (BATCH * 1000) / ms;
}

gossipRound(); // warm-up
await admissions();
const ours: number[] = [];
const baseline: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  ours.push(gossipRound());
  baseline.push(await admissions());
}
running.unsubscribe();
await client.close();
rmSync(dir, { recursive: true, force: true });

if (sends !== (ROUNDS + 1) * BATCH * PEERS)
  throw new Error(`expected every tx sent to every peer, got ${sends} sends`);
const result = {
  batch: BATCH,
  rounds: ROUNDS,
  peers: PEERS,
  gossipReducerTxsPerSecond: Math.round(median(ours)),
  mempoolAdmissionsPerSecond: Math.round(median(baseline)),
  ratio: Number((median(ours) / median(baseline)).toFixed(3)),
};
console.log(
  `mempool gossip reducer (${PEERS} peers): ${result.gossipReducerTxsPerSecond} txs/s | mempool admissions: ${result.mempoolAdmissionsPerSecond}/s | ratio ${result.ratio}`,
);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results", "mempool-gossip.json"), `${JSON.stringify(result, null, 2)}\n`);
