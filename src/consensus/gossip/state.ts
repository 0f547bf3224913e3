// The gossip reducer's state: its settings, the latest view of our consensus state, what we believe
// each peer holds and when each of its three routines (data, votes, maj23 queries) is next due, and
// the few committed blocks loaded from the store for catching lagging peers up.
import type { Commit, Part, PartSetHeader } from "../../wire/generated/tendermint/types/types.js";
import type { ConsensusState } from "../state.js";
import type { IdlePass } from "./idle-memo.js";
import { INITIAL_PEER_ROUND_STATE, type PeerRoundState } from "./peer-round-state.js";

export interface GossipConfig {
  /** peer_gossip_sleep_duration: a routine's pause when it has nothing to send (v0.34: 100 ms). */
  readonly gossipSleepMs: number;
  /** peer_query_maj23_sleep_duration: the pause between VoteSetMaj23 passes (v0.34: 2 s). */
  readonly queryMaj23SleepMs: number;
  /** Messages one routine sends a peer in one pass; the rest follow after `busyRetryMs`. */
  readonly maxSendsPerPass: number;
  /** The pause after a pass that hit maxSendsPerPass, or a send that found the queue full. */
  readonly busyRetryMs: number;
  /**
   * Parts of a block another validator proposed go to a peer only once the peer has shown no
   * progress on its part set for this long (gossip-data.ts): while the proposer's parts, and the
   * peer's NewValidBlock hints of them, keep arriving, a relay's copy would be a duplicate.
   */
  readonly relayAfterStallMs: number;
}

export const DEFAULT_GOSSIP_CONFIG: GossipConfig = {
  gossipSleepMs: 100,
  queryMaj23SleepMs: 2000,
  maxSendsPerPass: 32,
  busyRetryMs: 10,
  relayAfterStallMs: 300,
};

/** Committed blocks kept for catch-up (each up to a block's parts): a few lagging heights at once. */
export const STORED_BLOCKS_KEPT = 4;
/** How long a "not in the store" answer stands before the store is asked again. */
export const STORED_MISSING_RETRY_MS = 1000;
/** VoteSetMaj23 claims remembered per peer (our height only), to catch a conflicting one. */
export const MAX_MAJ23_CLAIMS = 64;

export type StoredBlock =
  | {
      readonly height: bigint;
      readonly missing: false;
      readonly header: PartSetHeader;
      readonly parts: readonly Part[];
      readonly commit: Commit;
    }
  | { readonly height: bigint; readonly missing: true; readonly atMs: number };

export interface PeerGossip {
  readonly prs: PeerRoundState;
  readonly dataDueMs: number;
  readonly votesDueMs: number;
  readonly maj23DueMs: number;
  /** `height/round/type` → the BlockID key the peer claimed +2/3 for (our height only). */
  readonly maj23Claims: ReadonlyMap<string, string>;
  /** The data and votes routines' last idle pass, when it read no store (idle-memo.ts). */
  readonly dataIdle: IdlePass | undefined;
  readonly votesIdle: IdlePass | undefined;
}

export interface GossipState {
  readonly config: GossipConfig;
  /** Our consensus state as of the last OurStateChanged; undefined before the first. */
  readonly our: ConsensusState | undefined;
  readonly peers: ReadonlyMap<string, PeerGossip>;
  readonly stored: readonly StoredBlock[];
  /** Heights asked of the store and not answered yet. */
  readonly loading: readonly bigint[];
  /** The tick asked for and not yet come, if any. */
  readonly tickAtMs: number | undefined;
  /** Block sync runs: no routine runs and no tick is asked for (GossipPauseChanged). */
  readonly paused: boolean;
}

export function initialGossipState(config: GossipConfig = DEFAULT_GOSSIP_CONFIG): GossipState {
  return gossipState(config, undefined, new Map(), [], [], undefined, false);
}

// The two builders below make every GossipState and PeerGossip from one literal, fields in one
// order, instead of `{ ...state, peers }`: an object spread runs V8's generic clone, and in a
// simulation these copies (a few per gossip fold, hundreds of folds per height) were the gossip
// reducer's hottest lines. Same values, one hidden class.

export function gossipState(
  config: GossipConfig,
  our: ConsensusState | undefined,
  peers: ReadonlyMap<string, PeerGossip>,
  stored: readonly StoredBlock[],
  loading: readonly bigint[],
  tickAtMs: number | undefined,
  paused: boolean,
): GossipState {
  return { config, our, peers, stored, loading, tickAtMs, paused };
}

export function peerGossip(
  prs: PeerRoundState,
  dataDueMs: number,
  votesDueMs: number,
  maj23DueMs: number,
  maj23Claims: ReadonlyMap<string, string>,
  dataIdle: IdlePass | undefined = undefined,
  votesIdle: IdlePass | undefined = undefined,
): PeerGossip {
  return { prs, dataDueMs, votesDueMs, maj23DueMs, maj23Claims, dataIdle, votesIdle };
}

export function newPeerGossip(nowMs: number, config: GossipConfig): PeerGossip {
  return peerGossip(INITIAL_PEER_ROUND_STATE, nowMs, nowMs, nowMs + config.queryMaj23SleepMs, new Map());
}
