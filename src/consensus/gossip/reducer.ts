// The consensus gossip reducer (v0.34's consensus reactor as a pure function): per-peer round
// state, fed by peers' messages and our own state after each consensus transition, producing the
// messages for each peer. v0.34's three per-peer routines (data, votes, maj23 queries) are due
// times per peer: a routine that has nothing to send sleeps peer_gossip_sleep_duration (or
// peer_query_maj23_sleep_duration), one that sent its budget comes back after busyRetryMs, and
// a change of ours or of the peer's that can give a routine something to send wakes that routine
// at once (wake.ts says which change feeds which): a routine woken by an input runs in
// that input's fold (v0.34's routines run as soon as they are woken, not a timer later). A single
// tick (ScheduleTick, the earliest due time) drives the sleeping ones; the tick's time comes in
// the input.
import type { ConsensusState } from "../state.js";
import { announcements, newRoundStepOf } from "./announce.js";
import type { GossipEffect } from "./effect.js";
import { dataReadsStore, gossipData } from "./gossip-data.js";
import { gossipVotes, votesReadStore } from "./gossip-votes.js";
import { dataIdleAgain, votesIdleAgain } from "./idle-memo.js";
import type { GossipInput } from "./input.js";
import type { ConsensusMessage } from "./message.js";
import type { Pass, StoredView } from "./pass.js";
import { copied, setHasPart, setHasVote, withPartsAt } from "./peer-round-state.js";
import { queryMaj23 } from "./query-maj23.js";
import { receive } from "./receive.js";
import {
  type GossipState,
  gossipState,
  newPeerGossip,
  type PeerGossip,
  peerGossip,
  STORED_BLOCKS_KEPT,
  STORED_MISSING_RETRY_MS,
  type StoredBlock,
} from "./state.js";
import { ourChangeWakes, WAKE_BOTH, WAKE_NONE, type Wake, wakePeer } from "./wake.js";

export interface GossipTransition {
  readonly state: GossipState;
  readonly effects: readonly GossipEffect[];
}

/** Store reads in flight at once (each answers with one block's parts). */
const MAX_LOADS_IN_FLIGHT = 4;

export function gossipReducer(state: GossipState, input: GossipInput): GossipTransition {
  const effects: GossipEffect[] = [];
  let next = state;
  switch (input.type) {
    case "GossipPeerAdded": {
      if (state.peers.has(input.peerId)) break;
      next = withPeer(state, input.peerId, newPeerGossip(input.nowMs, state.config));
      if (state.our?.started)
        effects.push({
          type: "SendToPeer",
          peerId: input.peerId,
          message: newRoundStepOf(state.our, input.nowMs),
        });
      break;
    }
    case "GossipPeerRemoved": {
      if (!state.peers.has(input.peerId)) break;
      const peers = new Map(state.peers);
      peers.delete(input.peerId);
      next = withPeers(state, peers);
      break;
    }
    case "GossipMessageReceived": {
      const peer = state.peers.get(input.peerId);
      if (peer === undefined) break;
      const got = receive(input.peerId, peer, input.message, state.our, input.nowMs);
      effects.push(...got.effects);
      let updated = partsProgress(peer, got.peer, input.nowMs);
      if (got.wake !== WAKE_NONE) updated = wakePeer(updated, input.nowMs, got.wake);
      if (updated !== peer) next = withPeer(state, input.peerId, updated);
      break;
    }
    case "OurStateChanged": {
      const before = state.our;
      if (before === input.state) break;
      for (const message of announcements(before, input.state, input.nowMs))
        effects.push({ type: "BroadcastToPeers", message });
      next = gossipState(
        state.config,
        input.state,
        wakePeers(state.peers, input.nowMs, ourChangeWakes(before, input.state)),
        state.stored,
        state.loading,
        state.tickAtMs,
        state.paused,
      );
      // A new height: the blocks kept for catch-up stay valid (committed blocks never change).
      break;
    }
    case "GossipTicked": {
      next = runDue(withTick(state, undefined), input.nowMs, effects);
      break;
    }
    case "StoredBlockLoaded":
    case "StoredBlockMissing": {
      const entry: StoredBlock =
        input.type === "StoredBlockLoaded"
          ? {
              height: input.height,
              missing: false,
              header: input.header,
              parts: input.parts,
              commit: input.commit,
            }
          : { height: input.height, missing: true, atMs: input.nowMs };
      const stored = [...state.stored.filter((s) => s.height !== input.height), entry].slice(
        -STORED_BLOCKS_KEPT,
      );
      next = gossipState(
        state.config,
        state.our,
        input.type === "StoredBlockLoaded"
          ? wakePeers(state.peers, input.nowMs, WAKE_BOTH, input.height)
          : state.peers,
        stored,
        state.loading.filter((h) => h !== input.height),
        state.tickAtMs,
        state.paused,
      );
      break;
    }
    case "GossipPauseChanged": {
      if (state.paused === input.paused) break;
      // Back from block sync: every peer's routines run now, on our state from the first fold.
      next = gossipState(
        state.config,
        state.our,
        input.paused ? state.peers : wakePeers(state.peers, input.nowMs, WAKE_BOTH),
        state.stored,
        state.loading,
        state.tickAtMs,
        input.paused,
      );
      break;
    }
    case "GossipSendFailed": {
      const peer = state.peers.get(input.peerId);
      if (peer === undefined) break;
      const prs = unmark(peer.prs, input.message);
      const retry = input.nowMs + state.config.busyRetryMs;
      next = withPeer(
        state,
        input.peerId,
        peerGossip(
          prs,
          Math.min(peer.dataDueMs, retry),
          Math.min(peer.votesDueMs, retry),
          peer.maj23DueMs,
          peer.maj23Claims,
        ),
      );
      break;
    }
  }
  // The routines this input woke run now, in its own fold. Once per fold and never again in it:
  // a pass leaves every routine it ran due later (or, halted, runs none), so nothing can loop.
  if (input.type !== "GossipTicked" && next !== state) next = runDue(next, input.nowMs, effects);
  return { state: schedule(next, effects), effects };
}

function withPeer(state: GossipState, id: string, peer: PeerGossip): GossipState {
  const peers = new Map(state.peers);
  peers.set(id, peer);
  return withPeers(state, peers);
}

function withPeers(state: GossipState, peers: ReadonlyMap<string, PeerGossip>): GossipState {
  return gossipState(
    state.config,
    state.our,
    peers,
    state.stored,
    state.loading,
    state.tickAtMs,
    state.paused,
  );
}

function withTick(state: GossipState, tickAtMs: number | undefined): GossipState {
  return gossipState(
    state.config,
    state.our,
    state.peers,
    state.stored,
    state.loading,
    tickAtMs,
    state.paused,
  );
}

/**
 * The routines in `which` woken for every peer (at `onlyHeight` only, when given); the same map when
 * none changes. Others' votes wake no routine: they go out at the votes routine's next poll
 * (peer_gossip_sleep_duration, as v0.34 polls), by when the HasVotes of the peers that already got
 * them from elsewhere have mostly arrived: far fewer duplicates.
 */
function wakePeers(
  peers: ReadonlyMap<string, PeerGossip>,
  nowMs: number,
  which: Wake,
  onlyHeight?: bigint,
): ReadonlyMap<string, PeerGossip> {
  if (which === WAKE_NONE) return peers;
  let out: Map<string, PeerGossip> | undefined;
  for (const [id, p] of peers) {
    if (onlyHeight !== undefined && p.prs.height !== onlyHeight) continue;
    const q = wakePeer(p, nowMs, which);
    if (q === p) continue;
    out ??= new Map(peers);
    out.set(id, q);
  }
  return out ?? peers;
}

/**
 * `after` stamped with `nowMs` as its part-set progress when the peer's own message changed its
 * part set (a new set, or parts added): the relay rule's clock (gossip-data.ts).
 */
function partsProgress(before: PeerGossip, after: PeerGossip, nowMs: number): PeerGossip {
  if (after.prs.proposalParts === before.prs.proposalParts) return after;
  return peerGossip(
    withPartsAt(after.prs, nowMs),
    after.dataDueMs,
    after.votesDueMs,
    after.maj23DueMs,
    after.maj23Claims,
    after.dataIdle,
    after.votesIdle,
  );
}

/** A message that did not go out is not held by the peer after all. */
function unmark(prs: PeerGossip["prs"], m: ConsensusMessage): PeerGossip["prs"] {
  switch (m.$case) {
    case "blockPart":
      return setHasPart(prs, prs.height, prs.round, m.blockPart.part.index, false);
    case "vote": {
      const v = m.vote.vote;
      return v === undefined ? prs : setHasVote(prs, v.height, v.round, v.type, v.validatorIndex, false);
    }
    case "proposal": {
      const p = m.proposal.proposal;
      if (prs.height !== p.height || prs.round !== p.round) return prs;
      const next = copied(prs);
      next.proposal = false;
      return next;
    }
    default:
      return prs;
  }
}

/**
 * One routine pass's view (the Pass the routines read), made once per tick and aimed at each due
 * peer in turn: a class, not closures per peer, because a tick runs for every peer of every
 * validator and the closures were a measurable share of the simulation.
 */
class DuePass implements Pass {
  peerId = "";
  loading: readonly bigint[];
  readonly config: GossipState["config"];

  constructor(
    private readonly state: GossipState,
    readonly our: ConsensusState,
    readonly nowMs: number,
    private readonly effects: GossipEffect[],
  ) {
    this.loading = state.loading;
    this.config = state.config;
  }

  stored(height: bigint): StoredView | undefined {
    const hit = this.state.stored.find((s) => s.height === height);
    if (hit !== undefined && !hit.missing) return hit;
    const retry = hit === undefined || this.nowMs - hit.atMs >= STORED_MISSING_RETRY_MS;
    if (retry && !this.loading.includes(height) && this.loading.length < MAX_LOADS_IN_FLIGHT) {
      this.loading = [...this.loading, height];
      this.effects.push({ type: "LoadStoredBlock", height });
    }
    return undefined;
  }

  /** Messages sent by this tick's passes so far: a routine that added none was idle. */
  sent = 0;

  send(message: ConsensusMessage): void {
    this.sent++;
    this.effects.push({ type: "SendToPeer", peerId: this.peerId, message });
  }
}

/** Runs every routine that is due, for every peer. */
function runDue(state: GossipState, nowMs: number, effects: GossipEffect[]): GossipState {
  const our = state.our;
  if (our === undefined || !our.started || our.halted !== undefined || state.paused) return state;
  const pass = new DuePass(state, our, nowMs, effects);
  let peers: Map<string, PeerGossip> | undefined;
  for (const [peerId, peer] of state.peers) {
    if (peer.dataDueMs > nowMs && peer.votesDueMs > nowMs && peer.maj23DueMs > nowMs) continue;
    pass.peerId = peerId;
    const ran = runPeer(peer, pass);
    if (ran === peer) continue;
    peers ??= new Map(state.peers);
    peers.set(peerId, ran);
  }
  if (peers === undefined && pass.loading === state.loading) return state;
  return gossipState(
    state.config,
    state.our,
    peers ?? state.peers,
    state.stored,
    pass.loading,
    state.tickAtMs,
    state.paused,
  );
}

function runPeer(peer: PeerGossip, pass: DuePass): PeerGossip {
  const nowMs = pass.nowMs;
  const our = pass.our;
  let { prs, dataDueMs, votesDueMs, maj23DueMs, dataIdle, votesIdle } = peer;
  if (dataDueMs <= nowMs) {
    if (dataIdleAgain(dataIdle, our, prs)) dataDueMs = nowMs + pass.config.gossipSleepMs;
    else {
      const before = pass.sent;
      const ran = gossipData(prs, pass);
      dataDueMs = ran.dueMs;
      prs = ran.prs;
      dataIdle = pass.sent === before && !ran.held && !dataReadsStore(our, prs) ? { our, prs } : undefined;
    }
  }
  if (votesDueMs <= nowMs) {
    if (votesIdleAgain(votesIdle, our, prs)) votesDueMs = nowMs + pass.config.gossipSleepMs;
    else {
      const before = pass.sent;
      ({ prs, dueMs: votesDueMs } = gossipVotes(prs, pass));
      votesIdle = pass.sent === before && !votesReadStore(our, prs) ? { our, prs } : undefined;
    }
  }
  if (maj23DueMs <= nowMs) maj23DueMs = queryMaj23(prs, pass);
  if (
    prs === peer.prs &&
    dataDueMs === peer.dataDueMs &&
    votesDueMs === peer.votesDueMs &&
    maj23DueMs === peer.maj23DueMs &&
    dataIdle === peer.dataIdle &&
    votesIdle === peer.votesIdle
  )
    return peer;
  return peerGossip(prs, dataDueMs, votesDueMs, maj23DueMs, peer.maj23Claims, dataIdle, votesIdle);
}

/**
 * Asks for a tick at the earliest due time, unless one at or before it is already asked for. None
 * while our consensus is halted or block sync runs: the routines then send nothing and keep their
 * due times, so a tick would be due again at once, forever, at the same instant.
 */
function schedule(state: GossipState, effects: GossipEffect[]): GossipState {
  const our = state.our;
  if (our === undefined || !our.started || our.halted !== undefined || state.paused) return state;
  let earliest = Number.POSITIVE_INFINITY;
  for (const p of state.peers.values())
    earliest = Math.min(earliest, p.dataDueMs, p.votesDueMs, p.maj23DueMs);
  if (earliest === Number.POSITIVE_INFINITY) return state;
  if (state.tickAtMs !== undefined && state.tickAtMs <= earliest) return state;
  effects.push({ type: "ScheduleTick", atMs: earliest });
  return withTick(state, earliest);
}
