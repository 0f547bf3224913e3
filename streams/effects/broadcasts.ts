// BroadcastVote / BroadcastProposal / BroadcastBlockPart. Our own votes and proposal are already
// folded by the reducer (VoteSigned, ProposalSigned), so a single node has nobody to tell: the
// messages go to the peer layer when there is one (a later issue) and are counted meanwhile.
import { ignoreElements, type Observable, tap } from "rxjs";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { ofKinds } from "./effect-kinds.js";

export type BroadcastEffect = Extract<
  ConsensusEffect,
  { type: "BroadcastVote" | "BroadcastProposal" | "BroadcastBlockPart" }
>;

/** Where broadcasts go; the default (no peers) drops them. */
export interface PeerBroadcaster {
  broadcast(effect: BroadcastEffect): void;
}

export const NO_PEERS: PeerBroadcaster = { broadcast() {} };

/** The effect kinds this handler carries out (the factory routes these to it). */
export const BROADCAST_KINDS = ["BroadcastVote", "BroadcastProposal", "BroadcastBlockPart"] as const;

export function broadcastHandler(peers: PeerBroadcaster = NO_PEERS) {
  return function broadcasts(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    return effect$.pipe(
      ofKinds(BROADCAST_KINDS),
      tap((e) => peers.broadcast(e)),
      ignoreElements(),
    );
  };
}
