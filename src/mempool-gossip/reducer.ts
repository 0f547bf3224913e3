// The mempool gossip reducer (v0.34's broadcastTxRoutine, one walk per peer): each admitted tx is
// offered to each peer once, in admission order, with at most one message in flight per peer: up
// to batchTxs consecutive txs per message (v0.34 sends one; see src/p2p/mempool-wire.ts for why a
// v0.34 peer takes several). A peer that sent us the tx is skipped; a peer whose height is below the tx's
// height − 1 (one block of lag allowed) waits peer_gossip_sleep and is looked at again; so does a
// peer whose connection did not take the message. With mempool.broadcast = false nothing is sent.
// With no peer nothing is kept: an admission is a no-op (on a lone validator the per-tx fold was
// ~5 % of the node under load), the first peer brings the mempool's pending txs with it, and the
// last peer leaving drops the list.
import { CHANNEL_MEMPOOL } from "../p2p/channels.js";
import {
  encodeMempoolTx,
  encodeMempoolTxs,
  mempoolMessageBytes,
  mempoolTxEntryBytes,
} from "../p2p/mempool-wire.js";
import type { MempoolGossipEffect } from "./effect.js";
import type { MempoolGossipInput, PooledTx } from "./input.js";
import type { GossipedTx, MempoolGossipState, PeerCursor } from "./state.js";

export interface MempoolGossipTransition {
  state: MempoolGossipState;
  effects: MempoolGossipEffect[];
}

/**
 * Moves a ready peer's walk on to the next txs it should get: emits their message (up to
 * batchTxs txs in admission order, within batchMessageBytes), or its sleep, or leaves it idle at
 * the end of the list.
 */
function advance(
  state: MempoolGossipState,
  peerId: string,
  cursor: PeerCursor,
  effects: MempoolGossipEffect[],
) {
  const { batchTxs, batchMessageBytes } = state.config;
  let next = cursor.next;
  let first = -1;
  let through = -1;
  const batch: Uint8Array[] = [];
  let alone: Uint8Array | undefined; // the first tx's own message, for a batch of one
  let entries = 0;
  while (next < state.nextSeq && batch.length < batchTxs) {
    const tx = state.txs.get(next);
    if (tx === undefined || tx.senders.includes(peerId)) {
      next++; // gone from the pool, or the peer sent it to us
      continue;
    }
    if (cursor.height !== undefined && cursor.height < tx.height - 1n) {
      if (batch.length > 0) break; // what is gathered goes; this tx is looked at after it
      effects.push({ type: "ScheduleGossipSleep", peerId, afterMs: state.config.peerGossipSleepMs });
      return state.peers.set(peerId, { ...cursor, next, status: "sleeping" });
    }
    const entry = mempoolTxEntryBytes(tx.tx.length);
    if (batch.length > 0 && mempoolMessageBytes(entries + entry) > batchMessageBytes) break;
    if (first < 0) {
      first = next;
      alone = tx.message;
    }
    batch.push(tx.tx);
    entries += entry;
    through = next;
    next++;
  }
  if (batch.length === 0) return state.peers.set(peerId, { ...cursor, next, status: "idle" });
  effects.push({
    type: "SendGossipTx",
    peerId,
    channelId: CHANNEL_MEMPOOL,
    seq: first,
    through,
    message: batch.length === 1 && alone !== undefined ? alone : encodeMempoolTxs(batch),
  });
  return state.peers.set(peerId, { ...cursor, next: first, status: "sending" });
}

function step(state: MempoolGossipState, peerId: string, cursor: PeerCursor): MempoolGossipTransition {
  const effects: MempoolGossipEffect[] = [];
  return { state: { ...state, peers: advance(state, peerId, cursor, effects) }, effects };
}

/** `state` (with no peer, so no list) given the mempool's pending txs, numbered from nextSeq on. */
function withPool(state: MempoolGossipState, pool: readonly PooledTx[]): MempoolGossipState {
  let nextSeq = state.nextSeq;
  let txs = state.txs;
  const seqOf = state.seqOf.withMutations((seqs) => {
    txs = txs.withMutations((list) => {
      for (const tx of pool) {
        if (seqs.has(tx.hash)) continue;
        const seq = nextSeq++;
        list.set(seq, gossipedTx(seq, tx.hash, tx.tx, tx.height, tx.senders));
        seqs.set(tx.hash, seq);
      }
    });
  });
  return { ...state, nextSeq, txs, seqOf };
}

/**
 * A tx as gossip keeps it: its one-tx message, and the tx as a view of the message's tail, so
 * the pool's bytes are held once, not twice (the message ends with the tx's bytes).
 */
function gossipedTx(
  seq: number,
  hash: string,
  tx: Uint8Array,
  height: bigint,
  senders: GossipedTx["senders"],
): GossipedTx {
  const message = encodeMempoolTx(tx);
  return { seq, hash, tx: message.subarray(message.length - tx.length), message, height, senders };
}

export function mempoolGossipReducer(
  state: MempoolGossipState,
  input: MempoolGossipInput,
): MempoolGossipTransition {
  switch (input.type) {
    case "GossipPeerAdded": {
      if (!state.config.broadcast || state.peers.has(input.peerId)) return { state, effects: [] };
      const tracked = state.peers.isEmpty() ? withPool(state, input.pool) : state;
      // A new peer is offered the whole pool, oldest first.
      const first = tracked.txs.isEmpty() ? tracked.nextSeq : (tracked.txs.keySeq().min() ?? tracked.nextSeq);
      return step(tracked, input.peerId, { next: first, height: input.peerHeight, status: "idle" });
    }
    case "GossipPeerRemoved": {
      if (!state.peers.has(input.peerId)) return { state, effects: [] };
      const peers = state.peers.delete(input.peerId);
      if (!peers.isEmpty()) return { state: { ...state, peers }, effects: [] };
      return { state: { ...state, peers, txs: state.txs.clear(), seqOf: state.seqOf.clear() }, effects: [] };
    }
    case "TxAdmitted": {
      if (state.peers.isEmpty() || state.seqOf.has(input.hash)) return { state, effects: [] };
      const seq = state.nextSeq;
      const added: MempoolGossipState = {
        ...state,
        nextSeq: seq + 1,
        txs: state.txs.set(seq, gossipedTx(seq, input.hash, input.tx, input.height, input.senders)),
        seqOf: state.seqOf.set(input.hash, seq),
      };
      // Wake the peers that were waiting at the end of the list.
      const effects: MempoolGossipEffect[] = [];
      let peers = added.peers;
      for (const [peerId, cursor] of added.peers) {
        if (cursor.status === "idle") peers = advance({ ...added, peers }, peerId, cursor, effects);
      }
      return { state: { ...added, peers }, effects };
    }
    case "TxSenderNoted": {
      const seq = state.seqOf.get(input.hash);
      const tx = seq === undefined ? undefined : state.txs.get(seq);
      if (seq === undefined || tx === undefined || tx.senders.includes(input.peerId))
        return { state, effects: [] };
      return {
        state: { ...state, txs: state.txs.set(seq, { ...tx, senders: [...tx.senders, input.peerId] }) },
        effects: [],
      };
    }
    case "TxsLeftPool": {
      // A block's txs leave in one transient edit of each map, not a persistent copy per tx: this
      // runs inside the mempool update, which holds the main thread while it runs.
      let txs = state.txs;
      const seqOf = state.seqOf.withMutations((seqs) => {
        txs = txs.withMutations((pool) => {
          for (const hash of input.hashes) {
            const seq = seqs.get(hash);
            if (seq === undefined) continue;
            pool.delete(seq);
            seqs.delete(hash);
          }
        });
      });
      return { state: { ...state, txs, seqOf }, effects: [] };
    }
    case "GossipTxSendFinished": {
      const cursor = state.peers.get(input.peerId);
      if (cursor === undefined || cursor.status !== "sending" || cursor.next !== input.seq)
        return { state, effects: [] };
      const height = input.peerHeight ?? cursor.height;
      if (!input.delivered) {
        // v0.34: a failed Send sleeps peer_gossip_sleep and retries the same tx (here: from the
        // message's first tx on).
        return {
          state: {
            ...state,
            peers: state.peers.set(input.peerId, { ...cursor, height, status: "sleeping" }),
          },
          effects: [
            { type: "ScheduleGossipSleep", peerId: input.peerId, afterMs: state.config.peerGossipSleepMs },
          ],
        };
      }
      return step(state, input.peerId, { next: input.through + 1, height, status: "idle" });
    }
    case "GossipSleepElapsed": {
      const cursor = state.peers.get(input.peerId);
      if (cursor === undefined || cursor.status !== "sleeping") return { state, effects: [] };
      return step(state, input.peerId, {
        ...cursor,
        height: input.peerHeight ?? cursor.height,
        status: "idle",
      });
    }
  }
}
