// What the evidence gossip reducer folds. Peer heights come with the inputs about that peer.
import type { Evidence } from "../wire/generated/tendermint/types/evidence.js";

export interface EvidencePeerAdded {
  type: "EvidencePeerAdded";
  peerId: string;
  peerHeight: bigint | undefined;
}

export interface EvidencePeerRemoved {
  type: "EvidencePeerRemoved";
  peerId: string;
}

/** The pool holds new pending evidence (verified; from consensus, the RPC or a peer). */
export interface EvidenceBecamePending {
  type: "EvidenceBecamePending";
  key: string;
  height: bigint;
  evidence: Evidence;
}

/** Evidence left the pending set (committed or expired). */
export interface EvidenceLeftPending {
  type: "EvidenceLeftPending";
  keys: readonly string[];
}

export interface EvidenceSendFinished {
  type: "EvidenceSendFinished";
  peerId: string;
  seq: number;
  delivered: boolean;
  peerHeight: bigint | undefined;
}

export interface EvidenceRetryElapsed {
  type: "EvidenceRetryElapsed";
  peerId: string;
  peerHeight: bigint | undefined;
}

export interface EvidenceRebroadcastElapsed {
  type: "EvidenceRebroadcastElapsed";
  peerId: string;
  timer: number;
  peerHeight: bigint | undefined;
}

export type EvidenceGossipInput =
  | EvidencePeerAdded
  | EvidencePeerRemoved
  | EvidenceBecamePending
  | EvidenceLeftPending
  | EvidenceSendFinished
  | EvidenceRetryElapsed
  | EvidenceRebroadcastElapsed;
