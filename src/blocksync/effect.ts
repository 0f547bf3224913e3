// What the block pool asks of the world. The wiring (streams/reactors/blocksync.ts) sends the
// messages, verifies and applies blocks, disconnects peers and hands over to consensus; each
// answer comes back as an input.
import type { Block } from "../wire/generated/tendermint/types/block.js";
import type { ValidatorSet as ValidatorSetProto } from "../wire/generated/tendermint/types/validator.js";
import type { VerifiedBlock } from "./state.js";

/** Ask every peer for its status (StatusRequest on channel 0x40). */
export interface BroadcastStatusRequest {
  readonly type: "BroadcastStatusRequest";
}

/** Ask one peer for the block at `height` (BlockRequest). */
export interface RequestBlock {
  readonly type: "RequestBlock";
  readonly peerId: string;
  readonly height: bigint;
}

/**
 * Verify `first` against `second`'s LastCommit and the chain state, then save and apply it (the
 * seen commit stored for it is `second.lastCommit`). Answered by BlockApplied or BlockRejected.
 * With `checked`, the certificate was already checked with the set that signs this height
 * (CheckCommit): only the checks against the chain state remain.
 */
export interface VerifyAndApply {
  readonly type: "VerifyAndApply";
  readonly height: bigint;
  readonly first: Block;
  readonly second: Block;
  readonly firstPeer: string;
  readonly secondPeer: string;
  readonly checked?: VerifiedBlock;
}

/**
 * Check, ahead of its turn, that `second`'s LastCommit certifies `first` when signed by
 * `validators` (VerifyCommitLight). Answered by CommitChecked or BlockRejected with `checkId`;
 * independent of VerifyAndApply, so it runs while an earlier block applies.
 */
export interface CheckCommit {
  readonly type: "CheckCommit";
  readonly height: bigint;
  readonly checkId: number;
  readonly first: Block;
  readonly second: Block;
  readonly validators: ValidatorSetProto;
}

/** Disconnect a peer that broke the protocol or lied; `reason` names what it did. */
export interface DropPeer {
  readonly type: "DropPeer";
  readonly peerId: string;
  readonly reason: string;
}

/** Caught up by v0.34's rule: consensus takes over after `lastHeight` (blocks synced: `synced`). */
export interface SwitchToConsensus {
  readonly type: "SwitchToConsensus";
  readonly lastHeight: bigint;
  readonly synced: number;
  readonly maxPeerHeight: bigint;
}

export type BlockPoolEffect =
  | BroadcastStatusRequest
  | RequestBlock
  | VerifyAndApply
  | CheckCommit
  | DropPeer
  | SwitchToConsensus;
