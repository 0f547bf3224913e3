// The mempool gossip reducer (v0.34's broadcastTxRoutine, one walk per peer): each admitted tx is
// offered to each peer once, in admission order, with at most one send in flight per peer: up to
// messagesPerSend messages in a send, each of up to batchTxs consecutive txs (v0.34 sends one tx
// per message; see src/p2p/mempool-wire.ts for why a v0.34 peer takes several). A peer that sent
// us the tx is skipped; a peer whose height is below the tx's
// height − 1 (one block of lag allowed) waits peer_gossip_sleep and is looked at again; so does a
// peer whose connection did not take the message. With mempool.broadcast = false nothing is sent.
// With no peer nothing is kept: an admission is a no-op (on a lone validator the per-tx fold was
// ~5 % of the node under load), the first peer brings the mempool's pending txs with it, and the
// last peer leaving drops the list. With relayHoldMs > 0 a tx peers sent us waits that long in a
// held list before it joins the walks' list (state.ts says why); a tx leaving the pool meanwhile
// is never relayed.
import { CHANNEL_MEMPOOL } from "../p2p/channels.js";
import {
  encodeMempoolTx,
  encodeMempoolTxs,
  mempoolMessageBytes,
  mempoolTxEntryBytes,
} from "../p2p/mempool-wire.js";
import type { MempoolGossipEffect } from "./effect.js";
import { type GossipedTx, GossipList, type GossipListDraft } from "./gossip-list.js";
import type { AdmittedTx, MempoolGossipInput, PooledTx } from "./input.js";
import type { MempoolGossipState, PeerCursor } from "./state.js";

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
  peers: MempoolGossipState["peers"],
  peerId: string,
  cursor: PeerCursor,
  effects: MempoolGossipEffect[],
) {
  const { batchTxs, batchMessageBytes, messagesPerSend, sendBytes } = state.config;
  const list = state.txs;
  let messages: Uint8Array[] | undefined; // allocated at the first tx found: most walks find none
  let bytes = 0;
  let open: Uint8Array[] = []; // the txs of the message being gathered, when batchTxs > 1
  let opened = -1; // its first tx's position
  let entries = 0;
  let next = state.nextSeq; // where the walk stops: the next tx to look at, or past the end
  let first = -1;
  let through = -1;
  // A tx too far ahead of the peer: above its height + 1 (one block of lag allowed). Made once
  // per walk, not a bigint per tx.
  const highest = cursor.height === undefined ? undefined : cursor.height + 1n;
  for (let at = list.positionFrom(cursor.next); at < list.length; at++) {
    // gone from the pool, or the peer sent it to us
    if (!list.liveAt(at) || list.sentByAt(at, peerId)) continue;
    const seq = list.seqAt(at);
    if (highest !== undefined && list.heightAt(at) > highest) {
      if (first >= 0) {
        next = seq;
        break; // what is gathered goes; this tx is looked at after it
      }
      effects.push({ type: "ScheduleGossipSleep", peerId, afterMs: state.config.peerGossipSleepMs });
      return peers.set(peerId, { ...cursor, next: seq, status: "sleeping" });
    }
    if (messages === undefined) {
      messages = [];
      first = seq;
    }
    if (batchTxs === 1) {
      // v0.34's one tx per message: the message encoded at its admission, one encode per tx
      if (messages.length === messagesPerSend || bytes >= sendBytes) {
        next = seq;
        break;
      }
      const message = list.messageAt(at);
      messages.push(message);
      bytes += message.length;
    } else {
      const tx = list.txAt(at);
      const entry = mempoolTxEntryBytes(tx.length);
      if (
        opened >= 0 &&
        (open.length === batchTxs || mempoolMessageBytes(entries + entry) > batchMessageBytes)
      ) {
        const message = open.length === 1 ? list.messageAt(opened) : encodeMempoolTxs(open);
        messages.push(message);
        bytes += message.length;
        open = [];
        opened = -1;
        entries = 0;
        if (messages.length === messagesPerSend || bytes >= sendBytes) {
          next = seq;
          break;
        }
      }
      if (opened < 0) opened = at;
      open.push(tx);
      entries += entry;
    }
    through = seq;
  }
  if (messages === undefined) return peers.set(peerId, { ...cursor, next, status: "idle" });
  if (opened >= 0) messages.push(open.length === 1 ? list.messageAt(opened) : encodeMempoolTxs(open));
  effects.push({ type: "SendGossipTx", peerId, channelId: CHANNEL_MEMPOOL, seq: first, through, messages });
  return peers.set(peerId, { ...cursor, next: first, status: "sending" });
}

function step(state: MempoolGossipState, peerId: string, cursor: PeerCursor): MempoolGossipTransition {
  const effects: MempoolGossipEffect[] = [];
  return { state: { ...state, peers: advance(state, state.peers, peerId, cursor, effects) }, effects };
}

/** Appends a tx with its one-tx message (encoded once, shared by every peer that gets it alone). */
function addTx(draft: GossipListDraft, seq: number, tx: PooledTx | AdmittedTx): void {
  draft.add(seq, tx.hash, encodeMempoolTx(tx.tx), tx.tx.length, tx.height, tx.senders);
}

/** `state` (with no peer, so no list) given the mempool's pending txs, numbered from nextSeq on. */
function withPool(state: MempoolGossipState, pool: readonly PooledTx[]): MempoolGossipState {
  let nextSeq = state.nextSeq;
  const draft = state.txs.edit();
  for (const tx of pool) {
    if (draft.has(tx.hash)) continue;
    addTx(draft, nextSeq++, tx);
  }
  return { ...state, nextSeq, txs: draft.done() };
}

/**
 * Admitted txs, in order: each one not listed yet joins the walks' list, or, when peers sent it and
 * relayHoldMs > 0, the held list (arming the release timer if it is not running); then the idle
 * peers walk on, once for all of them. One state and one edit of each list per fold, however many
 * txs it brings.
 */
function admit(state: MempoolGossipState, admitted: readonly AdmittedTx[]): MempoolGossipTransition {
  const holding = state.config.relayHoldMs > 0;
  let listed: GossipListDraft | undefined;
  let held: GossipListDraft | undefined;
  let nextSeq = state.nextSeq;
  let heldNextSeq = state.heldNextSeq;
  for (const tx of admitted) {
    if ((listed ?? state.txs).has(tx.hash) || (held ?? state.held).has(tx.hash)) continue;
    if (holding && tx.senders.length > 0) {
      // Held as the tx alone (message and tx one and the same): its message is encoded only if it
      // is released, and most never are.
      held ??= state.held.edit();
      held.add(heldNextSeq++, tx.hash, tx.tx, tx.tx.length, tx.height, tx.senders);
    } else {
      listed ??= state.txs.edit();
      addTx(listed, nextSeq++, tx);
    }
  }
  if (listed === undefined && held === undefined) return { state, effects: [] };
  const effects: MempoolGossipEffect[] = [];
  let next: MempoolGossipState = {
    ...state,
    nextSeq,
    txs: listed?.done() ?? state.txs,
    held: held?.done() ?? state.held,
    heldNextSeq,
  };
  if (held !== undefined && !state.releaseArmed) {
    // The first fire releases nothing (these txs have not waited a whole hold yet) and moves the cut.
    next = { ...next, heldCut: state.heldNextSeq, releaseArmed: true };
    effects.push({ type: "ScheduleRelayRelease", afterMs: state.config.relayHoldMs });
  }
  if (listed === undefined) return { state: next, effects };
  // Wake the peers that were waiting at the end of the list (forEach: no entry per peer).
  const added = next;
  let peers = added.peers;
  added.peers.forEach((cursor, peerId) => {
    if (cursor.status === "idle") peers = advance(added, peers, peerId, cursor, effects);
  });
  return { state: peers === added.peers ? added : { ...added, peers }, effects };
}

/**
 * The release timer fired: the held txs numbered below the cut (each held for at least one whole
 * relayHoldMs) join the walks' list, in the order they were admitted, and the idle peers walk on;
 * the cut moves to what is held now, and the timer runs again while anything is held.
 */
function release(state: MempoolGossipState): MempoolGossipTransition {
  if (!state.releaseArmed) return { state, effects: [] };
  let nextSeq = state.nextSeq;
  let txs = state.txs;
  let held = state.held;
  if (!held.isEmpty() && held.firstSeq()! < state.heldCut) {
    const draft = txs.edit();
    const heldDraft = held.edit();
    const due: GossipedTx[] = [];
    for (const tx of held.values()) {
      if (tx.seq >= state.heldCut) break;
      due.push(tx);
    }
    for (const tx of due) {
      heldDraft.remove(tx.hash);
      if (draft.has(tx.hash)) continue;
      draft.add(nextSeq++, tx.hash, encodeMempoolTx(tx.tx), tx.tx.length, tx.height, tx.senders);
    }
    txs = draft.done();
    held = heldDraft.done();
  }
  const released: MempoolGossipState = {
    ...state,
    nextSeq,
    txs,
    held,
    heldCut: state.heldNextSeq,
    releaseArmed: !held.isEmpty(),
  };
  const effects: MempoolGossipEffect[] = [];
  let peers = released.peers;
  if (nextSeq !== state.nextSeq)
    released.peers.forEach((cursor, peerId) => {
      if (cursor.status === "idle") peers = advance(released, peers, peerId, cursor, effects);
    });
  if (released.releaseArmed)
    effects.push({ type: "ScheduleRelayRelease", afterMs: state.config.relayHoldMs });
  return { state: peers === released.peers ? released : { ...released, peers }, effects };
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
      const first = tracked.txs.firstSeq() ?? tracked.nextSeq;
      return step(tracked, input.peerId, { next: first, height: input.peerHeight, status: "idle" });
    }
    case "GossipPeerRemoved": {
      if (!state.peers.has(input.peerId)) return { state, effects: [] };
      const peers = state.peers.delete(input.peerId);
      if (!peers.isEmpty()) return { state: { ...state, peers }, effects: [] };
      return { state: { ...state, peers, txs: GossipList.EMPTY, held: GossipList.EMPTY }, effects: [] };
    }
    case "TxsAdmitted":
      if (state.peers.isEmpty()) return { state, effects: [] };
      return admit(state, input.txs);
    case "TxSendersNoted": {
      // One edit for a fold's notes: the same list as noting them one at a time.
      if (state.peers.isEmpty()) return { state, effects: [] };
      const draft = state.txs.edit();
      let changed = false;
      for (const { hash, peerId } of input.notes) if (draft.noteSender(hash, peerId)) changed = true;
      const txs = changed ? draft.done() : state.txs;
      let held = state.held;
      if (!held.isEmpty()) {
        // A held tx's later senders are not offered it when it is released.
        const heldDraft = held.edit();
        let heldChanged = false;
        for (const { hash, peerId } of input.notes)
          if (heldDraft.noteSender(hash, peerId)) heldChanged = true;
        if (heldChanged) held = heldDraft.done();
      }
      return { state: changed || held !== state.held ? { ...state, txs, held } : state, effects: [] };
    }
    case "TxsLeftPool": {
      // A block's txs leave in one edit: this runs inside the mempool update, which holds the main
      // thread while it runs.
      const draft = state.txs.edit();
      let changed = false;
      for (const hash of input.hashes) if (draft.remove(hash)) changed = true;
      const txs = changed ? draft.done() : state.txs;
      let held = state.held;
      if (!held.isEmpty()) {
        // Gone while held: never relayed (the hold's point).
        const heldDraft = held.edit();
        let heldChanged = false;
        for (const hash of input.hashes) if (heldDraft.remove(hash)) heldChanged = true;
        if (heldChanged) held = heldDraft.done();
      }
      return { state: changed || held !== state.held ? { ...state, txs, held } : state, effects: [] };
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
    case "RelayReleaseDue":
      return release(state);
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
