// The mempool gossip reducer (v0.34's broadcastTxRoutine, one walk per peer): each admitted tx is
// offered to each peer once, in admission order, with at most one send in flight per peer: up to
// messagesPerSend messages in a send, each of up to batchTxs consecutive txs (v0.34 sends one tx
// per message; see src/p2p/mempool-wire.ts for why a v0.34 peer takes several). A peer that sent
// us the tx is skipped; a peer whose height is below the tx's
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
import { TxKey } from "./tx-key.js";

export interface MempoolGossipTransition {
  state: MempoolGossipState;
  effects: MempoolGossipEffect[];
}

/**
 * Moves a ready peer's walk on to the next txs it should get: emits their messages (up to
 * messagesPerSend messages, or fewer once they hold sendBytes, of up to batchTxs txs each in
 * admission order, each within batchMessageBytes), or its sleep, or leaves it idle at the end of
 * the list.
 */
function advance(
  state: MempoolGossipState,
  peerId: string,
  cursor: PeerCursor,
  effects: MempoolGossipEffect[],
) {
  const { batchTxs, batchMessageBytes, messagesPerSend, sendBytes } = state.config;
  let messages: Uint8Array[] | undefined; // allocated at the first tx found: most walks find none
  let bytes = 0;
  let open: Uint8Array[] = []; // the txs of the message being gathered, when batchTxs > 1
  let opened: GossipedTx | undefined; // its first tx
  let entries = 0;
  let next = cursor.next;
  let first = -1;
  let through = -1;
  while (next < state.nextSeq) {
    const tx = state.txs.get(next);
    if (tx === undefined || tx.senders.includes(peerId)) {
      next++; // gone from the pool, or the peer sent it to us
      continue;
    }
    if (cursor.height !== undefined && cursor.height < tx.height - 1n) {
      if (first >= 0) break; // what is gathered goes; this tx is looked at after it
      effects.push({ type: "ScheduleGossipSleep", peerId, afterMs: state.config.peerGossipSleepMs });
      return state.peers.set(peerId, { ...cursor, next, status: "sleeping" });
    }
    if (messages === undefined) {
      messages = [];
      first = next;
    }
    if (batchTxs === 1) {
      // v0.34's one tx per message: the message encoded at its admission, one encode per tx
      if (messages.length === messagesPerSend || bytes >= sendBytes) break;
      messages.push(tx.message);
      bytes += tx.message.length;
    } else {
      const entry = mempoolTxEntryBytes(tx.tx.length);
      if (
        opened !== undefined &&
        (open.length === batchTxs || mempoolMessageBytes(entries + entry) > batchMessageBytes)
      ) {
        const message = open.length === 1 ? opened.message : encodeMempoolTxs(open);
        messages.push(message);
        bytes += message.length;
        open = [];
        opened = undefined;
        entries = 0;
        if (messages.length === messagesPerSend || bytes >= sendBytes) break;
      }
      opened ??= tx;
      open.push(tx.tx);
      entries += entry;
    }
    through = next;
    next++;
  }
  if (messages === undefined) return state.peers.set(peerId, { ...cursor, next, status: "idle" });
  if (opened !== undefined) messages.push(open.length === 1 ? opened.message : encodeMempoolTxs(open));
  effects.push({ type: "SendGossipTx", peerId, channelId: CHANNEL_MEMPOOL, seq: first, through, messages });
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
        const key = new TxKey(tx.hash);
        if (seqs.has(key)) continue;
        const seq = nextSeq++;
        list.set(seq, gossipedTx(seq, tx.hash, tx.tx, tx.height, tx.senders));
        seqs.set(key, seq);
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
      if (state.peers.isEmpty()) return { state, effects: [] };
      const key = new TxKey(input.hash);
      if (state.seqOf.has(key)) return { state, effects: [] };
      const seq = state.nextSeq;
      const added: MempoolGossipState = {
        ...state,
        nextSeq: seq + 1,
        txs: state.txs.set(seq, gossipedTx(seq, input.hash, input.tx, input.height, input.senders)),
        seqOf: state.seqOf.set(key, seq),
      };
      // Wake the peers that were waiting at the end of the list.
      const effects: MempoolGossipEffect[] = [];
      let peers = added.peers;
      for (const [peerId, cursor] of added.peers) {
        if (cursor.status === "idle") peers = advance({ ...added, peers }, peerId, cursor, effects);
      }
      return { state: { ...added, peers }, effects };
    }
    case "TxSendersNoted": {
      // One transient edit for a fold's notes: the same list as noting them one at a time.
      if (state.peers.isEmpty()) return { state, effects: [] };
      let changed = false;
      const txs = state.txs.withMutations((list) => {
        for (const { hash, peerId } of input.notes) {
          const seq = state.seqOf.get(new TxKey(hash));
          const tx = seq === undefined ? undefined : list.get(seq);
          if (seq === undefined || tx === undefined || tx.senders.includes(peerId)) continue;
          list.set(seq, { ...tx, senders: [...tx.senders, peerId] });
          changed = true;
        }
      });
      return { state: changed ? { ...state, txs } : state, effects: [] };
    }
    case "TxsLeftPool": {
      // A block's txs leave in one transient edit of each map, not a persistent copy per tx: this
      // runs inside the mempool update, which holds the main thread while it runs.
      let txs = state.txs;
      const seqOf = state.seqOf.withMutations((seqs) => {
        txs = txs.withMutations((pool) => {
          for (const hash of input.hashes) {
            const key = new TxKey(hash);
            const seq = seqs.get(key);
            if (seq === undefined) continue;
            pool.delete(seq);
            seqs.delete(key);
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
