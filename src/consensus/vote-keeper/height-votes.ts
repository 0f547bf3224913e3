// The vote keeper: every prevote and precommit of one height, per round, counted against the
// height's validator set. It rejects what cannot count (unknown validator, wrong height, rounds
// too far ahead), ignores duplicates, and keeps the sticky facts the thresholds are read from
// (thresholds.ts). A conflicting
// vote (equivocation) is reported; the first conflicting version of a validator in a round and
// type is also counted, toward its own value only, so that a polka or a commit that needs it is
// seen whichever version arrived first (docs/consensus.md, "Conflicting votes"). A third version
// is reported and dropped.
import { SignedMsgType, type Vote } from "../../wire/generated/tendermint/types/types.js";
import { isNilBlockId, sameBlockId, sameBytes } from "./block-key.js";
import { conflictingVoteOf, countVote, emptyTally, type VoteTally } from "./vote-tally.js";

/**
 * Votes for rounds further than this beyond the current round are dropped: memory stays bounded
 * (validators × (current round + this) × 2 types × at most 2 versions) whatever peers send. Honest validators more
 * than this many rounds ahead are caught up with by their later votes as our round advances.
 */
export const MAX_ROUNDS_AHEAD = 32;

export interface ValidatorWeights {
  readonly addresses: readonly Uint8Array[];
  readonly powers: readonly bigint[];
  readonly totalPower: bigint;
}

export interface RoundVotes {
  readonly prevotes: VoteTally;
  readonly precommits: VoteTally;
}

export interface HeightVotes {
  readonly height: bigint;
  readonly weights: ValidatorWeights;
  /** Index = round; undefined for rounds nobody voted in yet. */
  readonly rounds: readonly (RoundVotes | undefined)[];
  /** Lowest round in which more than 2/3 precommitted one block (the decision), or -1. */
  readonly decisionRound: number;
  /** Highest round with more than 2/3 of any prevotes or of any precommits, or -1. */
  readonly highestTwoThirdsAnyRound: number;
}

export function weightsOf(
  validators: readonly { address: Uint8Array; votingPower: bigint }[],
): ValidatorWeights {
  let totalPower = 0n;
  for (const v of validators) totalPower += v.votingPower;
  return {
    addresses: validators.map((v) => v.address),
    powers: validators.map((v) => v.votingPower),
    totalPower,
  };
}

export function emptyHeightVotes(height: bigint, weights: ValidatorWeights): HeightVotes {
  return { height, weights, rounds: [], decisionRound: -1, highestTwoThirdsAnyRound: -1 };
}

/** Two votes of one validator for the same height, round and type, for different BlockIDs. */
export interface ConflictingVotes {
  readonly existing: Vote;
  readonly vote: Vote;
}

export type AddVoteOutcome =
  | {
      readonly kind: "added";
      readonly votes: HeightVotes;
      /**
       * Set when the vote was counted as its validator's second version: the pair to report as
       * evidence (once: either version arriving again is a duplicate).
       */
      readonly conflict?: ConflictingVotes;
    }
  /** The same vote again, or one for the BlockID of a version held (a re-signed timestamp). */
  | { readonly kind: "duplicate" }
  /**
   * A third version of one validator for the same height, round and type (two are held already):
   * evidence only, not counted. `existing` is the validator's first vote.
   */
  | { readonly kind: "conflict"; readonly existing: Vote; readonly vote: Vote }
  /** A vote that cannot count here; `reason` names what is wrong. */
  | { readonly kind: "rejected"; readonly reason: string };

export function roundVotes(votes: HeightVotes, round: number): RoundVotes | undefined {
  return round >= 0 && round < votes.rounds.length ? votes.rounds[round] : undefined;
}

export function prevotesIn(votes: HeightVotes, round: number): VoteTally | undefined {
  return roundVotes(votes, round)?.prevotes;
}

export function precommitsIn(votes: HeightVotes, round: number): VoteTally | undefined {
  return roundVotes(votes, round)?.precommits;
}

/**
 * Adds a vote (its signature verified upstream). `currentRound` is the round the node is in: a
 * vote beyond it by more than MAX_ROUNDS_AHEAD is rejected.
 */
export function addVote(votes: HeightVotes, vote: Vote, currentRound: number): AddVoteOutcome {
  if (vote.height !== votes.height)
    return { kind: "rejected", reason: `vote height ${vote.height} is not ${votes.height}` };
  const isPrevote = vote.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE;
  if (!isPrevote && vote.type !== SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT) {
    return { kind: "rejected", reason: `vote type ${vote.type} is neither prevote nor precommit` };
  }
  if (!Number.isInteger(vote.round) || vote.round < 0)
    return { kind: "rejected", reason: `vote round ${vote.round} is negative` };
  if (vote.round > currentRound + MAX_ROUNDS_AHEAD) {
    return {
      kind: "rejected",
      reason: `vote round ${vote.round} is more than ${MAX_ROUNDS_AHEAD} rounds ahead of ${currentRound}`,
    };
  }
  const { weights } = votes;
  const index = vote.validatorIndex;
  if (!Number.isInteger(index) || index < 0 || index >= weights.addresses.length) {
    return {
      kind: "rejected",
      reason: `validator index ${index} is outside the set of ${weights.addresses.length}`,
    };
  }
  if (!sameBytes(weights.addresses[index]!, vote.validatorAddress)) {
    return { kind: "rejected", reason: `validator address does not match validator index ${index}` };
  }
  const existingRound = roundVotes(votes, vote.round);
  const n = weights.addresses.length;
  const round = existingRound ?? { prevotes: emptyTally(n), precommits: emptyTally(n) };
  const tally = isPrevote ? round.prevotes : round.precommits;
  const existing = tally.votes[index];
  let conflict: ConflictingVotes | undefined;
  if (existing !== undefined) {
    if (sameBlockId(existing.blockId, vote.blockId)) return { kind: "duplicate" };
    const second = conflictingVoteOf(tally, index);
    if (second !== undefined) {
      if (sameBlockId(second.blockId, vote.blockId)) return { kind: "duplicate" };
      return { kind: "conflict", existing, vote };
    }
    conflict = { existing, vote };
  }

  const second = conflict !== undefined;
  const update = countVote(tally, vote, weights.powers[index]!, weights.totalPower, second);
  const nextRound: RoundVotes = isPrevote
    ? { prevotes: update.tally, precommits: round.precommits }
    : { prevotes: round.prevotes, precommits: update.tally };
  const rounds = votes.rounds.slice();
  while (rounds.length <= vote.round) rounds.push(undefined);
  rounds[vote.round] = nextRound;

  let { decisionRound, highestTwoThirdsAnyRound } = votes;
  const r = vote.round;
  if (update.crossedAny && r > highestTwoThirdsAnyRound) highestTwoThirdsAnyRound = r;
  const major = update.crossedMajority;
  if (!isPrevote && major !== undefined && !isNilBlockId(major.blockId)) {
    if (decisionRound < 0 || r < decisionRound) decisionRound = r;
  }
  const next: HeightVotes = {
    height: votes.height,
    weights,
    rounds,
    decisionRound,
    highestTwoThirdsAnyRound,
  };
  return conflict === undefined ? { kind: "added", votes: next } : { kind: "added", votes: next, conflict };
}
