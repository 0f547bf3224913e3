// The block pool's state: the next height to apply, the peers that reported a status, and the
// requests in flight over the window [height, height + requests.size). Immutable: the reducer
// returns new maps, never changes these.
import type { Block } from "../wire/generated/tendermint/types/block.js";
import type { BlockID, Part } from "../wire/generated/tendermint/types/types.js";
import type { ValidatorSet as ValidatorSetProto } from "../wire/generated/tendermint/types/validator.js";
import { type BlockPoolParams, DEFAULT_BLOCK_POOL_PARAMS } from "./params.js";

/** A block whose certificate (the next block's LastCommit) was checked: its ID and parts. */
export interface VerifiedBlock {
  readonly blockId: BlockID;
  readonly parts: Part[];
}

/**
 * A validator set with the key it is known by (its hash, hex): a commit checked with one set is
 * checked for every set with the same key, and for no other.
 */
export interface KnownValidators {
  readonly key: string;
  readonly set: ValidatorSetProto;
}

/**
 * The sets that sign the next heights' commits, from the chain state the next block applies to:
 * `current` signs the commit of the next height (state.validators), `next` that of the height
 * after (state.nextValidators), and is the best guess for every height beyond, until a block's
 * results change it.
 */
export interface PoolValidators {
  readonly current: KnownValidators;
  readonly next: KnownValidators;
}

/**
 * The check of a held block's certificate ahead of its turn (CheckCommit), with the set it used:
 * running, passed, or failed (acted on once that set is the one known to sign the height).
 */
export type CommitCheck =
  | { readonly status: "running"; readonly id: number; readonly key: string }
  | { readonly status: "passed"; readonly id: number; readonly key: string; readonly block: VerifiedBlock }
  | {
      readonly status: "failed";
      readonly id: number;
      readonly key: string;
      readonly reason: string;
      /** Whose fault it is, as BlockRejected says. */
      readonly blame: "first" | "second" | "both";
    };

export interface PoolPeer {
  readonly id: string;
  /** The lowest and highest heights it says it can serve. */
  readonly base: bigint;
  readonly height: bigint;
  /** Requests assigned to it whose block has not arrived. */
  readonly pending: number;
  /** When it last sent a block, or when its first pending request went out (the silence timer). */
  readonly lastHeardAt: number;
  /** Since when it has had requests in flight without a pause (undefined: none in flight). */
  readonly busySince: number | undefined;
  /** The current receive-rate window: its start and the block bytes received in it. */
  readonly windowStart: number;
  readonly windowBytes: number;
}

export interface PoolRequest {
  readonly height: bigint;
  /** The peer asked now; undefined while no peer can serve the height. */
  readonly peerId: string | undefined;
  readonly sentAt: number;
  /** Every peer asked for this height so far: a late answer from one of them is no lie. */
  readonly asked: readonly string[];
  readonly block: Block | undefined;
  /** The peer the block came from. */
  readonly from: string | undefined;
  /** The check of this block against the next block's LastCommit, once both are here. */
  readonly check?: CommitCheck | undefined;
}

export interface BlockPoolState {
  readonly params: BlockPoolParams;
  /** The next height to apply (the last applied height + 1). */
  readonly height: bigint;
  readonly startedAt: number;
  readonly peers: ReadonlyMap<string, PoolPeer>;
  /** Keyed by height; always the contiguous heights height .. height + size - 1. */
  readonly requests: ReadonlyMap<bigint, PoolRequest>;
  /** The highest height any current peer reported. */
  readonly maxPeerHeight: bigint;
  /** The height a VerifyAndApply is out for (one at a time: blocks apply in order). */
  readonly applying: bigint | undefined;
  readonly lastStatusRequestAt: number | undefined;
  readonly lastSwitchCheckAt: number;
  /** Blocks applied by this pool. */
  readonly synced: number;
  /** SwitchToConsensus has been emitted; the pool answers nothing after it. */
  readonly switched: boolean;
  /**
   * The sets that sign the next commits; undefined when the wiring gave none, and then blocks are
   * checked only when their turn to apply comes (VerifyAndApply without `checked`).
   */
  readonly validators?: PoolValidators | undefined;
  /** The id of the next CommitCheck (an answer to an older check of a replaced block is ignored). */
  readonly nextCheckId?: number;
}

/**
 * A pool that will apply `nextHeight` first (the store's height + 1), started at `time`; with
 * `validators` (of the chain state `nextHeight` applies to) it checks blocks ahead of their turn.
 */
export function initialBlockPoolState(
  nextHeight: bigint,
  time: number,
  params: BlockPoolParams = DEFAULT_BLOCK_POOL_PARAMS,
  validators?: PoolValidators,
): BlockPoolState {
  return {
    params,
    height: nextHeight,
    startedAt: time,
    peers: new Map(),
    requests: new Map(),
    maxPeerHeight: 0n,
    applying: undefined,
    lastStatusRequestAt: undefined,
    lastSwitchCheckAt: time,
    synced: 0,
    switched: false,
    validators,
    nextCheckId: 1,
  };
}

/** Blocks received and waiting to be applied (the window's filled slots). */
export function blocksWaiting(state: BlockPoolState): number {
  let n = 0;
  for (const r of state.requests.values()) if (r.block !== undefined) n++;
  return n;
}

/** Requests sent and not yet answered, over all peers. */
export function requestsInFlight(state: BlockPoolState): number {
  let n = 0;
  for (const p of state.peers.values()) n += p.pending;
  return n;
}
