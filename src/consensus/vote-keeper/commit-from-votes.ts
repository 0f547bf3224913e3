// Between a round's precommits and a Commit: the seen commit saved with a block (and carried as
// the next block's LastCommit), and the reverse, the last height's precommits rebuilt from a
// stored commit when the node starts.
import {
  type BlockID,
  BlockIDFlag,
  type Commit,
  type CommitSig,
  SignedMsgType,
  type Vote,
} from "../../wire/generated/tendermint/types/types.js";
import { isNilBlockId } from "./block-key.js";
import {
  addVote,
  emptyHeightVotes,
  type HeightVotes,
  precommitsIn,
  type ValidatorWeights,
} from "./height-votes.js";
import { conflictingVoteOf, type VoteTally, voteForBlock } from "./vote-tally.js";

/** Go's zero time (0001-01-01T00:00:00Z), the timestamp of an absent signature. */
const GO_ZERO_SECONDS = -62135596800n;

function absentSig(): CommitSig {
  return {
    blockIdFlag: BlockIDFlag.BLOCK_ID_FLAG_ABSENT,
    validatorAddress: new Uint8Array(0),
    timestamp: { seconds: GO_ZERO_SECONDS, nanos: 0 },
    signature: new Uint8Array(0),
  };
}

/** The validator's precommit to put in a commit for the block: the version for it, else a nil one. */
function commitVoteOf(tally: VoteTally | undefined, index: number, blockId: BlockID): Vote | undefined {
  if (tally === undefined) return undefined;
  const forBlock = voteForBlock(tally, index, blockId);
  if (forBlock !== undefined) return forBlock;
  const first = tally.votes[index];
  if (first !== undefined && isNilBlockId(first.blockId)) return first;
  const second = conflictingVoteOf(tally, index);
  return second !== undefined && isNilBlockId(second.blockId) ? second : undefined;
}

/**
 * The commit of `round` for `blockId`, one signature per validator in set order: COMMIT for a
 * precommit of the block, NIL for a nil precommit, ABSENT for no precommit or one for another block.
 * A validator that precommitted twice contributes its version for the block (whichever arrived
 * first), else its nil version, so the commit verifies whatever order the versions came in.
 */
export function commitFromPrecommits(votes: HeightVotes, round: number, blockId: BlockID): Commit {
  const tally = precommitsIn(votes, round);
  const signatures = votes.weights.addresses.map((_, index): CommitSig => {
    const vote = commitVoteOf(tally, index, blockId);
    if (vote === undefined) return absentSig();
    const nil = isNilBlockId(vote.blockId);
    return {
      blockIdFlag: nil ? BlockIDFlag.BLOCK_ID_FLAG_NIL : BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
      validatorAddress: vote.validatorAddress,
      timestamp: vote.timestamp,
      signature: vote.signature,
    };
  });
  return { height: votes.height, round, blockId, signatures };
}

/** The precommit a commit signature stands for (absent signatures stand for none). */
export function precommitOfCommitSig(commit: Commit, index: number): Vote | undefined {
  const sig = commit.signatures[index];
  if (sig === undefined || sig.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_ABSENT) return undefined;
  const forBlock = sig.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_COMMIT;
  return {
    type: SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
    height: commit.height,
    round: commit.round,
    blockId: forBlock
      ? commit.blockId
      : { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } },
    timestamp: sig.timestamp,
    validatorAddress: sig.validatorAddress,
    validatorIndex: index,
    signature: sig.signature,
  };
}

/** The height's votes holding just the commit's precommits (a stored, already verified commit). */
export function votesFromCommit(commit: Commit, weights: ValidatorWeights): HeightVotes {
  let votes = emptyHeightVotes(commit.height, weights);
  for (let index = 0; index < commit.signatures.length; index++) {
    const vote = precommitOfCommitSig(commit, index);
    if (vote === undefined) continue;
    const outcome = addVote(votes, vote, commit.round);
    if (outcome.kind === "added") votes = outcome.votes;
  }
  return votes;
}
