// Txs per second through the mempool gossip reducer (each admission offered to 4 peers: the
// TxsAdmitted fold of a batch, SendGossipTx per peer, each answered by GossipTxSendFinished; txs admitted 50
// at a time as an RPC batch brings them, at the node's messages per send and at one, and as in a full
// mesh: each tx admitted from one peer and noted from two more) beside the
// mempool's own admission rate (the node's mempool loop with CheckTx on the in-process kvstore)
// in the same run: gossip must not be what limits a node's tx intake. Fresh txs each round;
// rounds alternate; medians. Bounded in count and time; never fails on time. Writes
// bench-results/mempool-gossip.json.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  DEFAULT_MEMPOOL_GOSSIP_CONFIG,
  initialMempoolGossipState,
  type MempoolGossipInput,
  type MempoolGossipState,
  mempoolGossipReducer,
} from "../../src/mempool-gossip/index.js";
import {
  MEMPOOL_GOSSIP_MESSAGES_PER_SEND,
  MEMPOOL_GOSSIP_SEND_BYTES,
} from "../../streams/reactors/mempool-gossip.js";
import { freshKvstoreTxs, kvstoreMempoolNode } from "./kvstore-mempool-node.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const ROUNDS = 5;
const BATCH = 5000;
const PEERS = 4;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const freshTxs = freshKvstoreTxs();
const hashOf = (tx: Uint8Array) => createHash("sha256").update(tx).digest("hex").toUpperCase();

const { mempool, close } = await kvstoreMempoolNode("mempool-gossip", (ROUNDS + 1) * BATCH);

async function admissions(): Promise<number> {
  const txs = freshTxs(BATCH);
  const start = performance.now();
  const results = await Promise.all(txs.map((tx) => mempool.submit(tx)));
  const ms = performance.now() - start;
  if (results.some((r) => r.outcome.kind !== "added")) throw new Error("a tx was not admitted");
  return (BATCH * 1000) / ms;
}

/** Txs admitted before the peers' sends are answered: one JSON-RPC batch of the load benches. */
const CHUNK = 50;

/**
 * A reducer with PEERS peers, each send carrying up to `messagesPerSend` messages. `mesh`: as in a
 * full mesh, each tx is admitted from one peer and two others send it again after it (their
 * senders noted in one fold per chunk), so the walks skip the senders' txs.
 */
function gossipWith(messagesPerSend: number, mesh = false) {
  let state: MempoolGossipState = initialMempoolGossipState({
    ...DEFAULT_MEMPOOL_GOSSIP_CONFIG,
    messagesPerSend,
    sendBytes: MEMPOOL_GOSSIP_SEND_BYTES,
  });
  for (let p = 0; p < PEERS; p++)
    state = mempoolGossipReducer(state, {
      type: "GossipPeerAdded",
      peerId: `peer${p}`,
      peerHeight: 0n,
      pool: [],
    }).state;
  let messages = 0;
  /** Admits a round's txs CHUNK at a time, answering every send as delivered after each chunk. */
  const round = (): number => {
    const txs = freshTxs(BATCH).map((tx) => ({ tx, hash: hashOf(tx) }));
    const start = performance.now();
    for (let at = 0; at < txs.length; at += CHUNK) {
      let queue: MempoolGossipInput[] = [];
      const fold = (input: MempoolGossipInput) => {
        const t = mempoolGossipReducer(state, input);
        state = t.state;
        for (const e of t.effects) {
          if (e.type !== "SendGossipTx") continue;
          messages += e.messages.length;
          queue.push({
            type: "GossipTxSendFinished",
            peerId: e.peerId,
            seq: e.seq,
            through: e.through,
            delivered: true,
            peerHeight: 0n,
          });
        }
      };
      const chunk = txs.slice(at, at + CHUNK);
      // one mempool fold's admissions: one input (the reactor gathers them, gossipInputsOf)
      fold({
        type: "TxsAdmitted",
        txs: chunk.map(({ tx, hash }, i) => ({
          hash,
          tx,
          height: 0n,
          senders: mesh ? [`peer${(at + i) % PEERS}`] : [],
        })),
      });
      if (mesh)
        fold({
          type: "TxSendersNoted",
          notes: chunk.flatMap(({ hash }, i) =>
            [1, 2].map((k) => ({ hash, peerId: `peer${(at + i + k) % PEERS}` })),
          ),
        });
      // the connections take the sends, in turn (the reactor's loop does the same through the hub)
      while (queue.length > 0) {
        const answers = queue;
        queue = [];
        for (const answer of answers) fold(answer);
      }
    }
    const ms = performance.now() - start;
    // the pool empties as blocks commit: keep the reducer's list at a steady size
    state = mempoolGossipReducer(state, { type: "TxsLeftPool", hashes: txs.map((t) => t.hash) }).state;
    return (BATCH * 1000) / ms;
  };
  return { round, messages: () => messages };
}

const single = gossipWith(1);
const grouped = gossipWith(MEMPOOL_GOSSIP_MESSAGES_PER_SEND);
const meshed = gossipWith(MEMPOOL_GOSSIP_MESSAGES_PER_SEND, true);
single.round(); // warm-up
grouped.round();
meshed.round();
await admissions();
const ours: number[] = [];
const one: number[] = [];
const mesh: number[] = [];
const baseline: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  one.push(single.round());
  ours.push(grouped.round());
  mesh.push(meshed.round());
  baseline.push(await admissions());
}
await close();

for (const g of [single, grouped])
  if (g.messages() !== (ROUNDS + 1) * BATCH * PEERS)
    throw new Error(`expected every tx sent to every peer, got ${g.messages()} messages`);
const result = {
  batch: BATCH,
  rounds: ROUNDS,
  peers: PEERS,
  messagesPerSend: MEMPOOL_GOSSIP_MESSAGES_PER_SEND,
  gossipReducerTxsPerSecond: Math.round(median(ours)),
  oneMessagePerSendTxsPerSecond: Math.round(median(one)),
  meshTxsPerSecond: Math.round(median(mesh)),
  mempoolAdmissionsPerSecond: Math.round(median(baseline)),
  ratio: Number((median(ours) / median(baseline)).toFixed(3)),
};
console.log(
  `mempool gossip reducer (${PEERS} peers, txs admitted ${CHUNK} at a time): ${result.gossipReducerTxsPerSecond} txs/s at up to ${MEMPOOL_GOSSIP_MESSAGES_PER_SEND} messages per send, ${result.oneMessagePerSendTxsPerSecond} at one, ${result.meshTxsPerSecond} as in a full mesh (each tx from one peer, noted from two more) | mempool admissions: ${result.mempoolAdmissionsPerSecond}/s | ratio ${result.ratio}`,
);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results", "mempool-gossip.json"), `${JSON.stringify(result, null, 2)}\n`);
