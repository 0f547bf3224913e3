// The BeginBlock request of a block (v0.34 execBlockOnProxyApp): the block hash, its header, the
// last commit info (one vote per validator of the previous height's set, in set order, signed
// unless its commit signature is absent; empty at the initial height) and the misbehaviour from
// the block's committed evidence.
import { evidenceToAbci } from "../types/evidence.js";
import type {
  Evidence as AbciEvidence,
  LastCommitInfo,
  RequestBeginBlock,
  VoteInfo,
} from "../wire/generated/tendermint/abci/types.js";
import type { Block } from "../wire/generated/tendermint/types/block.js";
import { BlockIDFlag } from "../wire/generated/tendermint/types/types.js";
import type { Validator } from "../wire/generated/tendermint/types/validator.js";
import { StateError } from "./errors.js";

/**
 * LastCommitInfo from the block's LastCommit and the validators of the previous height.
 * Throws when the commit's signature count does not match that set (a stored block that does
 * not belong to this chain's state).
 */
export function lastCommitInfo(
  block: Block,
  lastValidators: readonly Validator[],
  initialHeight: bigint,
): LastCommitInfo {
  const height = block.header.height;
  if (height === initialHeight) return { round: 0, votes: [] };
  const commit = block.lastCommit;
  if (commit === undefined) {
    throw new StateError(
      "STATE_LAST_COMMIT_MISMATCH",
      "block above the initial height has no last commit",
      height,
    );
  }
  if (commit.signatures.length !== lastValidators.length) {
    throw new StateError(
      "STATE_LAST_COMMIT_MISMATCH",
      `last commit has ${commit.signatures.length} signatures but the previous height has ${lastValidators.length} validators`,
      height,
    );
  }
  const votes: VoteInfo[] = lastValidators.map((v, i) => ({
    validator: { address: v.address, power: v.votingPower },
    signedLastBlock: commit.signatures[i]!.blockIdFlag !== BlockIDFlag.BLOCK_ID_FLAG_ABSENT,
  }));
  return { round: commit.round, votes };
}

/** Misbehaviour entries for every evidence item of the block, in block order. */
export function byzantineValidators(block: Block): AbciEvidence[] {
  return (block.evidence?.evidence ?? []).flatMap(evidenceToAbci);
}

export function beginBlockRequest(
  block: Block,
  blockHash: Uint8Array,
  lastValidators: readonly Validator[],
  initialHeight: bigint,
): RequestBeginBlock {
  return {
    hash: blockHash,
    header: block.header,
    lastCommitInfo: lastCommitInfo(block, lastValidators, initialHeight),
    byzantineValidators: byzantineValidators(block),
  };
}
