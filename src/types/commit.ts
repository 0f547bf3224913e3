// Commits: the +2/3 precommits for a block, one CommitSig per validator in set order. A
// signature's sign bytes are those of the precommit it came from, rebuilt from the commit.

import { blockIdIsComplete, blockIdIsZero, zeroBlockId } from "../wire/block-id.js";
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import {
  type BlockID,
  BlockIDFlag,
  type Commit,
  type CommitSig,
  SignedMsgType,
  type Vote,
} from "../wire/generated/tendermint/types/types.js";
import { commitSigSignBytes } from "../wire/sign-bytes.js";
import { TypesError } from "./errors.js";
import { goZeroTime } from "./time.js";

export type { Commit, CommitSig };
export { BlockIDFlag };

export function makeCommit(height: bigint, round: number, blockId: BlockID, signatures: CommitSig[]): Commit {
  return { height, round, blockId, signatures };
}

/** The LastCommit of the block at the initial height: no signatures, zero BlockID. */
export function emptyCommit(): Commit {
  return { height: 0n, round: 0, blockId: zeroBlockId(), signatures: [] };
}

/** The entry of a validator whose precommit is not in the commit. */
export function absentCommitSig(): CommitSig {
  return {
    blockIdFlag: BlockIDFlag.BLOCK_ID_FLAG_ABSENT,
    validatorAddress: new Uint8Array(0),
    timestamp: goZeroTime(),
    signature: new Uint8Array(0),
  };
}

export function makeCommitSig(
  flag: BlockIDFlag.BLOCK_ID_FLAG_COMMIT | BlockIDFlag.BLOCK_ID_FLAG_NIL,
  validatorAddress: Uint8Array,
  timestamp: Timestamp,
  signature: Uint8Array,
): CommitSig {
  return { blockIdFlag: flag, validatorAddress, timestamp, signature };
}

/** The CommitSig a signed precommit becomes (Vote.CommitSig): COMMIT for a block, NIL for nil. */
export function commitSigFromVote(vote: Vote | undefined): CommitSig {
  if (vote === undefined) return absentCommitSig();
  let flag: BlockIDFlag.BLOCK_ID_FLAG_COMMIT | BlockIDFlag.BLOCK_ID_FLAG_NIL;
  if (blockIdIsComplete(vote.blockId)) flag = BlockIDFlag.BLOCK_ID_FLAG_COMMIT;
  else if (blockIdIsZero(vote.blockId)) flag = BlockIDFlag.BLOCK_ID_FLAG_NIL;
  else
    throw new TypesError(
      "TYPES_INVALID_FIELD",
      "vote.blockId is neither zero nor complete; it cannot enter a commit",
      "vote.blockId",
    );
  return makeCommitSig(flag, vote.validatorAddress, vote.timestamp, vote.signature);
}

/** The BlockID signature i voted for: the commit's for COMMIT, zero for NIL and ABSENT. */
export function commitSigBlockId(commit: Commit, sig: CommitSig): BlockID {
  return sig.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_COMMIT ? commit.blockId : zeroBlockId();
}

/** The precommit behind signature `index` (Commit.GetVote). */
export function commitVote(commit: Commit, index: number): Vote {
  const sig = commit.signatures[index];
  if (sig === undefined)
    throw new TypesError(
      "TYPES_INVALID_FIELD",
      `commit has ${commit.signatures.length} signatures, no index ${index}`,
      "commit.signatures",
    );
  return {
    type: SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
    height: commit.height,
    round: commit.round,
    blockId: commitSigBlockId(commit, sig),
    timestamp: sig.timestamp,
    validatorAddress: sig.validatorAddress,
    validatorIndex: index,
    signature: sig.signature,
  };
}

/** What validator `index` signed for its entry in the commit (Commit.VoteSignBytes). */
export function commitVoteSignBytes(chainId: string, commit: Commit, index: number): Uint8Array {
  return commitSigSignBytes(chainId, commit, index, commitVote(commit, index));
}

export function commitSigIsAbsent(sig: CommitSig): boolean {
  return sig.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_ABSENT;
}

export function commitSigForBlock(sig: CommitSig): boolean {
  return sig.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_COMMIT;
}
