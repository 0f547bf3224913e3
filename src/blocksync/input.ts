// What the block pool hears: peers' status and blocks (decoded from channel 0x40), peers gone,
// the clock (Tick), and the answers of its VerifyAndApply effect. Every input carries the time it
// happened (ms); the reducer has no clock of its own.
import type { Block } from "../wire/generated/tendermint/types/block.js";
import type { KnownValidators, VerifiedBlock } from "./state.js";

/** A peer's StatusResponse: it can serve heights base..height. */
export interface PeerStatusReceived {
  readonly type: "PeerStatusReceived";
  readonly time: number;
  readonly peerId: string;
  readonly base: bigint;
  readonly height: bigint;
}

/** A peer disconnected (or was disconnected by someone else). */
export interface PeerRemoved {
  readonly type: "PeerRemoved";
  readonly time: number;
  readonly peerId: string;
}

/** A peer's BlockResponse; `size` is the message's byte length (the receive rate counts it). */
export interface BlockReceived {
  readonly type: "BlockReceived";
  readonly time: number;
  readonly peerId: string;
  readonly block: Block;
  readonly size: number;
}

/** A peer's NoBlockResponse: it says it has no block at `height`. */
export interface NoBlockReceived {
  readonly type: "NoBlockReceived";
  readonly time: number;
  readonly peerId: string;
  readonly height: bigint;
}

/** The clock: timeouts, retries, the status interval and the switch rule are checked on it. */
export interface Tick {
  readonly type: "Tick";
  readonly time: number;
}

/**
 * VerifyAndApply succeeded: the block at `height` is saved and applied. `validators` and
 * `nextValidators` are the sets of the state after it (they sign heights height+1 and height+2);
 * without them the pool stops checking blocks ahead.
 */
export interface BlockApplied {
  readonly type: "BlockApplied";
  readonly time: number;
  readonly height: bigint;
  readonly validators?: KnownValidators;
  readonly nextValidators?: KnownValidators;
}

/** CheckCommit `checkId` passed: block `height` is certified by the next block's LastCommit. */
export interface CommitChecked {
  readonly type: "CommitChecked";
  readonly time: number;
  readonly height: bigint;
  readonly checkId: number;
  readonly block: VerifiedBlock;
}

/**
 * VerifyAndApply (or, with `checkId`, CheckCommit) found the block at `height`, or the commit for
 * it in height+1, invalid. `blame`
 * says whose fault it is when the check can tell: "first" when height+1's LastCommit is authentic
 * (+2/3 valid signatures) for another block, "second" when that commit itself is forged, "both"
 * (v0.34's answer) otherwise.
 */
export interface BlockRejected {
  readonly type: "BlockRejected";
  readonly time: number;
  readonly height: bigint;
  readonly reason: string;
  readonly blame: "first" | "second" | "both";
  /** The CheckCommit this answers; absent for VerifyAndApply. */
  readonly checkId?: number;
}

export type BlockPoolInput =
  | PeerStatusReceived
  | PeerRemoved
  | BlockReceived
  | NoBlockReceived
  | Tick
  | BlockApplied
  | CommitChecked
  | BlockRejected;
