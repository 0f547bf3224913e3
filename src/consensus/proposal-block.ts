// Building our proposal block from the chain state: header fields from the state (reference §7.9),
// the previous height's commit as LastCommit, BFT time, and the reaped txs and evidence; then its
// parts and BlockID. Pure: the same inputs give the same block, byte for byte.

import { blockPartsAndId, makeBlock } from "../types/block.js";
import { emptyCommit } from "../types/commit.js";
import type { PartSetState } from "../types/part-set.js";
import { rememberSplitBlock } from "../types/part-set-block.js";
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import type { State as ChainState } from "../wire/generated/tendermint/state/types.js";
import type { Block } from "../wire/generated/tendermint/types/block.js";
import type { Evidence } from "../wire/generated/tendermint/types/evidence.js";
import { BlockIDFlag, type Commit } from "../wire/generated/tendermint/types/types.js";
import { consensusParamsHash, validatorSetHash } from "../wire/hashes.js";
import { medianCommitTime } from "./bft-time.js";
import { compareTime } from "./consensus-time.js";
import type { HeldBlock } from "./state.js";

export interface ProposalBlockArgs {
  readonly chain: ChainState;
  readonly height: bigint;
  readonly proposerAddress: Uint8Array;
  readonly txs: readonly Uint8Array[];
  readonly evidence: readonly Evidence[];
  /** The previous height's commit; ignored at the initial height. */
  readonly lastCommit: Commit | undefined;
}

/** The block time: genesis time at the initial height, else the weighted median of the last commit. */
export function proposalBlockTime(
  chain: ChainState,
  height: bigint,
  lastCommit: Commit | undefined,
): Timestamp | undefined {
  if (height === chain.initialHeight) return chain.lastBlockTime;
  if (lastCommit === undefined) return undefined;
  return medianCommitTime(lastCommit, chain.lastValidators?.validators ?? []);
}

/**
 * What is wrong with the time of `block` as the next block of `chain` (v0.34's validateBlock):
 * the genesis time at the initial height; after it, strictly after the last block's time and
 * equal to the weighted median of the block's own LastCommit. Undefined when the time is right.
 */
export function blockTimeProblem(chain: ChainState, block: Block): string | undefined {
  const { height, time } = block.header;
  // Peer data: a missing or malformed time is a problem to report, never an exception.
  if (!isTimestamp(time)) return "the block header has no valid time";
  if (height === chain.initialHeight) {
    return compareTime(time, chain.lastBlockTime) === 0
      ? undefined
      : `block time ${formatTime(time)} is not the genesis time ${formatTime(chain.lastBlockTime)}`;
  }
  if (compareTime(time, chain.lastBlockTime) <= 0) {
    return `block time ${formatTime(time)} is not after the last block time ${formatTime(chain.lastBlockTime)}`;
  }
  const signatures = block.lastCommit?.signatures ?? [];
  if (
    signatures.some(
      (sig) => sig.blockIdFlag !== BlockIDFlag.BLOCK_ID_FLAG_ABSENT && !isTimestamp(sig.timestamp),
    )
  )
    return "a LastCommit signature has no valid time";
  const median = proposalBlockTime(chain, height, block.lastCommit);
  if (median === undefined) return "the block's LastCommit has no signature to take the median time of";
  return compareTime(time, median) === 0
    ? undefined
    : `block time ${formatTime(time)} is not the weighted median ${formatTime(median)} of its LastCommit`;
}

function isTimestamp(t: Timestamp | undefined): t is Timestamp {
  return (
    t !== undefined &&
    typeof t.seconds === "bigint" &&
    Number.isInteger(t.nanos) &&
    t.nanos >= 0 &&
    t.nanos < 1_000_000_000
  );
}

function formatTime(t: Timestamp): string {
  return `${t.seconds}.${String(t.nanos).padStart(9, "0")}s`;
}

/** Every part of a block we made ourselves, as a complete part-set state. */
export function completePartSet(split: {
  header: PartSetState["header"];
  parts: PartSetState["parts"];
}): PartSetState {
  let byteSize = 0;
  for (const part of split.parts) byteSize += part!.bytes.length;
  return {
    header: split.header,
    parts: split.parts,
    count: split.parts.length,
    byteSize,
    maxBytes: undefined,
  };
}

/** Our proposal block with its parts and BlockID, or undefined when the last commit is missing. */
export function buildProposalBlock(args: ProposalBlockArgs): HeldBlock | undefined {
  const { chain, height } = args;
  const initial = height === chain.initialHeight;
  const lastCommit = initial ? emptyCommit() : args.lastCommit;
  const time = proposalBlockTime(chain, height, lastCommit);
  if (lastCommit === undefined || time === undefined) return undefined;
  const block = makeBlock({
    version: chain.version.consensus,
    chainId: chain.chainId,
    height,
    time,
    lastBlockId: chain.lastBlockId,
    validatorsHash: validatorSetHash(chain.validators?.validators ?? []),
    nextValidatorsHash: validatorSetHash(chain.nextValidators?.validators ?? []),
    consensusHash: consensusParamsHash(chain.consensusParams),
    appHash: chain.appHash,
    lastResultsHash: chain.lastResultsHash,
    proposerAddress: args.proposerAddress,
    // The reaped array itself, not a copy: its data hash may have been made ahead for this very
    // array (wire/hashes.ts, dataHashAhead); neither the input nor the block changes it.
    txs: args.txs as Uint8Array[],
    evidence: args.evidence.slice(),
    lastCommit,
  });
  const { blockId, header, parts } = blockPartsAndId(block);
  const partSet = completePartSet({ header, parts });
  rememberSplitBlock(partSet, block, blockId.hash);
  return { block, blockId, parts: partSet };
}
