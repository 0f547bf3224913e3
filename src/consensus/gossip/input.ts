// The gossip reducer's inputs: peers coming and going, each decoded (and ValidateBasic'd) consensus
// message a peer sent, our consensus state after each transition, the tick, the answers of its
// effects (a stored block for catching a peer up, a send that did not go out), and block sync's
// start and end. Time enters only as
// `nowMs` on each input.

import type { Commit, Part, PartSetHeader } from "../../wire/generated/tendermint/types/types.js";
import type { ConsensusState } from "../state.js";
import type { ConsensusMessage } from "./message.js";

export interface GossipPeerAdded {
  readonly type: "GossipPeerAdded";
  readonly nowMs: number;
  readonly peerId: string;
}

export interface GossipPeerRemoved {
  readonly type: "GossipPeerRemoved";
  readonly nowMs: number;
  readonly peerId: string;
}

/** A message a peer sent on one of the consensus channels, already decoded and validated. */
export interface GossipMessageReceived {
  readonly type: "GossipMessageReceived";
  readonly nowMs: number;
  readonly peerId: string;
  readonly message: ConsensusMessage;
}

/** Our consensus state after a transition (the loop's state; read, never copied). */
export interface OurStateChanged {
  readonly type: "OurStateChanged";
  readonly nowMs: number;
  readonly state: ConsensusState;
}

/** The tick the reducer asked for (ScheduleTick) is due. */
export interface GossipTicked {
  readonly type: "GossipTicked";
  readonly nowMs: number;
}

/** The block store's answer to LoadStoredBlock: a committed block's parts and its commit. */
export interface StoredBlockLoaded {
  readonly type: "StoredBlockLoaded";
  readonly nowMs: number;
  readonly height: bigint;
  readonly header: PartSetHeader;
  readonly parts: readonly Part[];
  readonly commit: Commit;
}

/** The block store does not hold that height (pruned, or not yet saved). */
export interface StoredBlockMissing {
  readonly type: "StoredBlockMissing";
  readonly nowMs: number;
  readonly height: bigint;
}

/** A SendToPeer did not go out (the peer's queue was full or it is gone): not marked as sent. */
export interface GossipSendFailed {
  readonly type: "GossipSendFailed";
  readonly nowMs: number;
  readonly peerId: string;
  readonly message: ConsensusMessage;
}

/**
 * Block sync started or ended (beyond the simulation: only the node syncs). While it runs our
 * consensus state is stale, so no routine runs (v0.34's reactor waits for sync); when it ends,
 * every peer's routines run at once.
 */
export interface GossipPauseChanged {
  readonly type: "GossipPauseChanged";
  readonly nowMs: number;
  readonly paused: boolean;
}

export type GossipInput =
  | GossipPeerAdded
  | GossipPeerRemoved
  | GossipMessageReceived
  | OurStateChanged
  | GossipTicked
  | StoredBlockLoaded
  | StoredBlockMissing
  | GossipSendFailed
  | GossipPauseChanged;
