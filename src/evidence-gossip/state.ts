// The evidence gossip reactor's state: pending evidence in the order it became pending (each
// numbered, its 0x38 message encoded once) and one walk per peer over it, as v0.34's per-peer
// broadcastEvidenceRoutine walks the pool's list.
import { Map as ImmutableMap } from "immutable";

export interface EvidenceGossipConfig {
  /** v0.34's broadcastEvidenceIntervalS: a walk at the end starts again from the front after this. */
  readonly broadcastIntervalMs: number;
  /** v0.34's peerRetryMessageIntervalMS: the wait for a peer not ready, or whose queue was full. */
  readonly retryMs: number;
  /** consensus_params.evidence.max_age_num_blocks: evidence this far below a peer is not sent to it. */
  readonly maxAgeNumBlocks: bigint;
}

export const DEFAULT_EVIDENCE_GOSSIP_CONFIG: EvidenceGossipConfig = {
  broadcastIntervalMs: 10_000,
  retryMs: 100,
  maxAgeNumBlocks: 100_000n,
};

export interface GossipedEvidence {
  readonly seq: number;
  readonly key: string;
  readonly height: bigint;
  /** The 0x38 message: an EvidenceList of this one item. */
  readonly message: Uint8Array;
}

/**
 * idle: at the end of the list (a rebroadcast timer runs when there is evidence); sending: one
 * message on its way; sleeping: waiting `retryMs` (peer not above the evidence height, or its
 * queue was full).
 */
export interface EvidencePeerWalk {
  readonly next: number;
  readonly height: bigint | undefined;
  readonly status: "idle" | "sending" | "sleeping";
  /** The rebroadcast timer that counts; older ones are ignored. */
  readonly timer: number;
}

export interface EvidenceGossipState {
  readonly config: EvidenceGossipConfig;
  readonly nextSeq: number;
  readonly items: ImmutableMap<number, GossipedEvidence>;
  readonly seqOf: ImmutableMap<string, number>;
  readonly peers: ImmutableMap<string, EvidencePeerWalk>;
}

export function initialEvidenceGossipState(
  config: EvidenceGossipConfig = DEFAULT_EVIDENCE_GOSSIP_CONFIG,
): EvidenceGossipState {
  return { config, nextSeq: 0, items: ImmutableMap(), seqOf: ImmutableMap(), peers: ImmutableMap() };
}
