// The evidence gossip reducer (v0.34's broadcastEvidenceRoutine, one walk per peer): pending
// evidence is sent one item per message, in the order it became pending, at most one message in
// flight per peer. An item goes to a peer only when the peer's height is above the evidence's
// (else the walk waits retryMs and looks again) and not more than max_age_num_blocks above it
// (else the item is skipped: too old for that peer). A walk at the end starts again from the
// front after broadcastIntervalMs, so evidence a peer missed is offered again; new evidence wakes
// an idle walk at once. A peer of unknown height (no consensus state for it yet) is sent to.
import { CHANNEL_EVIDENCE } from "../p2p/channels.js";
import { encodeEvidenceMessage } from "../p2p/evidence-wire.js";
import type { EvidenceGossipEffect } from "./effect.js";
import type { EvidenceGossipInput } from "./input.js";
import type { EvidenceGossipState, EvidencePeerWalk } from "./state.js";

export interface EvidenceGossipTransition {
  state: EvidenceGossipState;
  effects: EvidenceGossipEffect[];
}

function firstSeq(state: EvidenceGossipState): number {
  return state.items.isEmpty() ? state.nextSeq : (state.items.keySeq().min() ?? state.nextSeq);
}

function advance(
  state: EvidenceGossipState,
  peerId: string,
  walk: EvidencePeerWalk,
  effects: EvidenceGossipEffect[],
) {
  const { config } = state;
  let next = walk.next;
  while (next < state.nextSeq) {
    const item = state.items.get(next);
    if (item === undefined) {
      next++;
      continue;
    }
    if (walk.height !== undefined) {
      if (walk.height <= item.height) {
        effects.push({ type: "ScheduleEvidenceRetry", peerId, afterMs: config.retryMs });
        return state.peers.set(peerId, { ...walk, next, status: "sleeping" });
      }
      if (walk.height - item.height > config.maxAgeNumBlocks) {
        next++;
        continue;
      }
    }
    effects.push({
      type: "SendEvidence",
      peerId,
      channelId: CHANNEL_EVIDENCE,
      seq: next,
      message: item.message,
    });
    return state.peers.set(peerId, { ...walk, next, status: "sending" });
  }
  if (state.items.isEmpty()) return state.peers.set(peerId, { ...walk, next, status: "idle" });
  const timer = walk.timer + 1;
  effects.push({ type: "ScheduleEvidenceRebroadcast", peerId, afterMs: config.broadcastIntervalMs, timer });
  return state.peers.set(peerId, { ...walk, next, status: "idle", timer });
}

function step(state: EvidenceGossipState, peerId: string, walk: EvidencePeerWalk): EvidenceGossipTransition {
  const effects: EvidenceGossipEffect[] = [];
  return { state: { ...state, peers: advance(state, peerId, walk, effects) }, effects };
}

const unchanged = (state: EvidenceGossipState): EvidenceGossipTransition => ({ state, effects: [] });

export function evidenceGossipReducer(
  state: EvidenceGossipState,
  input: EvidenceGossipInput,
): EvidenceGossipTransition {
  switch (input.type) {
    case "EvidencePeerAdded":
      if (state.peers.has(input.peerId)) return unchanged(state);
      return step(state, input.peerId, {
        next: firstSeq(state),
        height: input.peerHeight,
        status: "idle",
        timer: 0,
      });
    case "EvidencePeerRemoved":
      return state.peers.has(input.peerId)
        ? { state: { ...state, peers: state.peers.delete(input.peerId) }, effects: [] }
        : unchanged(state);
    case "EvidenceBecamePending": {
      if (state.seqOf.has(input.key)) return unchanged(state);
      const seq = state.nextSeq;
      const added: EvidenceGossipState = {
        ...state,
        nextSeq: seq + 1,
        items: state.items.set(seq, {
          seq,
          key: input.key,
          height: input.height,
          message: encodeEvidenceMessage(input.evidence),
        }),
        seqOf: state.seqOf.set(input.key, seq),
      };
      const effects: EvidenceGossipEffect[] = [];
      let peers = added.peers;
      for (const [peerId, walk] of added.peers)
        if (walk.status === "idle") peers = advance({ ...added, peers }, peerId, walk, effects);
      return { state: { ...added, peers }, effects };
    }
    case "EvidenceLeftPending": {
      let { items, seqOf } = state;
      for (const key of input.keys) {
        const seq = seqOf.get(key);
        if (seq === undefined) continue;
        items = items.delete(seq);
        seqOf = seqOf.delete(key);
      }
      return { state: { ...state, items, seqOf }, effects: [] };
    }
    case "EvidenceSendFinished": {
      const walk = state.peers.get(input.peerId);
      if (walk === undefined || walk.status !== "sending" || walk.next !== input.seq) return unchanged(state);
      const height = input.peerHeight ?? walk.height;
      if (!input.delivered)
        return {
          state: { ...state, peers: state.peers.set(input.peerId, { ...walk, height, status: "sleeping" }) },
          effects: [{ type: "ScheduleEvidenceRetry", peerId: input.peerId, afterMs: state.config.retryMs }],
        };
      return step(state, input.peerId, { ...walk, next: input.seq + 1, height, status: "idle" });
    }
    case "EvidenceRetryElapsed": {
      const walk = state.peers.get(input.peerId);
      if (walk === undefined || walk.status !== "sleeping") return unchanged(state);
      return step(state, input.peerId, { ...walk, height: input.peerHeight ?? walk.height, status: "idle" });
    }
    case "EvidenceRebroadcastElapsed": {
      const walk = state.peers.get(input.peerId);
      if (walk === undefined || walk.status !== "idle" || walk.timer !== input.timer) return unchanged(state);
      return step(state, input.peerId, {
        ...walk,
        next: firstSeq(state),
        height: input.peerHeight ?? walk.height,
      });
    }
  }
}
