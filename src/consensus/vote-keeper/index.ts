// The vote keeper: counting prevotes and precommits per round, and the thresholds read from the counts.
export { type BlockKey, blockKeyOf, isNilBlockId, NIL_KEY, sameBlockId, sameBytes } from "./block-key.js";
export { commitFromPrecommits, precommitOfCommitSig, votesFromCommit } from "./commit-from-votes.js";
export {
  type AddVoteOutcome,
  addVote,
  type ConflictingVotes,
  emptyHeightVotes,
  type HeightVotes,
  MAX_ROUNDS_AHEAD,
  precommitsIn,
  prevotesIn,
  type RoundVotes,
  roundVotes,
  type ValidatorWeights,
  weightsOf,
} from "./height-votes.js";
export {
  decision,
  polkaAny,
  polkaForBlock,
  polkaForNil,
  precommitAll,
  precommitAny,
  precommitsForBlock,
  skipRound,
} from "./thresholds.js";
export {
  type BlockPower,
  conflictingVoteOf,
  countVote,
  emptyTally,
  isTwoThirds,
  powerFor,
  type VoteTally,
  voteForBlock,
} from "./vote-tally.js";
