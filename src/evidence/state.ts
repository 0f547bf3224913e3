// The evidence pool's state (v0.34's evidence pool): pending evidence waiting for a proposer,
// hashes of committed evidence kept until it expires, and conflicting votes reported by consensus
// waiting for the block time of their height. Immutable values; the store persists them.
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import type { Evidence } from "../wire/generated/tendermint/types/evidence.js";
import type { SignedHeader, Vote } from "../wire/generated/tendermint/types/types.js";
import type { Validator } from "../wire/generated/tendermint/types/validator.js";

/** One ed25519 signature check (node:crypto in the node; the same function in the simulation). */
export type SignatureVerifier = (
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
) => boolean;

/** Bounds: pending evidence items, and conflicting vote pairs waiting for their block time. */
export const MAX_PENDING_EVIDENCE = 10_000;
export const MAX_BUFFERED_CONFLICTS = 1_000;

export interface PendingEvidence {
  readonly evidence: Evidence;
  /** Hex of the evidence hash: the pool's identity for it. */
  readonly key: string;
  readonly height: bigint;
  readonly time: Timestamp;
  /** Protobuf size of the Evidence (oneof wrapper); in an EvidenceList it takes listEntryBytes(size). */
  readonly size: number;
}

/** Committed evidence as the pool remembers it: enough to refuse it and to know when it expires. */
export interface CommittedEvidence {
  readonly key: string;
  readonly height: bigint;
  readonly time: Timestamp;
}

export interface EvidencePoolState {
  /** In ascending height order (the order v0.34 proposes them in). */
  readonly pending: readonly PendingEvidence[];
  /** Hashes of committed evidence, kept until expired so it is never proposed twice. */
  readonly committed: readonly CommittedEvidence[];
  /** Conflicting votes reported by consensus, awaiting the commit of their height. */
  readonly conflicts: readonly { readonly voteA: Vote; readonly voteB: Vote }[];
}

/** What the pool needs from the store to verify evidence of a past height. */
export interface EvidenceHistory {
  /** The time of the block at `height`, or undefined when it is not stored. */
  blockTimeAt(height: bigint): Timestamp | undefined;
  /** The validator set of `height`, or undefined when it is not stored. */
  validatorsAt(height: bigint): readonly Validator[] | undefined;
  /**
   * Our header at `height` with the commit that signed it (LightClientAttackEvidence is checked
   * against it); undefined when not stored. A history without it refuses such evidence.
   */
  signedHeaderAt?(height: bigint): SignedHeader | undefined;
}

export const EMPTY_EVIDENCE_POOL: EvidencePoolState = { pending: [], committed: [], conflicts: [] };

/** A stored item named by its height and the hex of its hash (the pool's key). */
export interface EvidenceRef {
  readonly height: bigint;
  readonly key: string;
}

/** What changed between two pool states, for the store: one batch. */
export interface EvidencePoolChanges {
  readonly addPending: readonly Evidence[];
  readonly removePending: readonly EvidenceRef[];
  readonly addCommitted: readonly Evidence[];
  readonly removeCommitted: readonly EvidenceRef[];
  /** The block height whose evidence these changes take in (absent: not a block's update). */
  readonly height?: bigint;
}
