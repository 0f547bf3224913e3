// The thresholds the step logic reacts to, one reader per kind. The upon-rules are conditions on
// everything received so far ("upon 2f+1 ⟨PREVOTE, h, r, id(v)⟩ ..."), evaluated after every
// input whatever its order, so a threshold is a sticky fact of the tallies rather than a one-shot
// event of the vote that crossed it: addVote keeps the facts (a tally's `majority` and
// `anyMajority`, the height's `decisionRound` and `highestTwoThirdsAnyRound`), and the rules read
// them only through these functions, so what each threshold means is said once.
import { NIL_KEY } from "./block-key.js";
import { type HeightVotes, precommitsIn, prevotesIn } from "./height-votes.js";
import type { BlockPower } from "./vote-tally.js";

/** Polka for a value: more than 2/3 of the power prevoted one block in `round` (L28, L36). */
export function polkaForBlock(votes: HeightVotes, round: number): BlockPower | undefined {
  const majority = prevotesIn(votes, round)?.majority;
  return majority === undefined || majority.key === NIL_KEY ? undefined : majority;
}

/** Polka nil: more than 2/3 of the power prevoted nil in `round` (L44). */
export function polkaForNil(votes: HeightVotes, round: number): boolean {
  return prevotesIn(votes, round)?.majority?.key === NIL_KEY;
}

/** Polka any: more than 2/3 of the power prevoted in `round`, for anything (L34). */
export function polkaAny(votes: HeightVotes, round: number): boolean {
  return prevotesIn(votes, round)?.anyMajority === true;
}

/** Precommit any: more than 2/3 of the power precommitted in `round`, for anything (L47). */
export function precommitAny(votes: HeightVotes, round: number): boolean {
  return precommitsIn(votes, round)?.anyMajority === true;
}

/** Precommit for a value: more than 2/3 of the power precommitted one block in `round` (L49). */
export function precommitsForBlock(votes: HeightVotes, round: number): BlockPower | undefined {
  const majority = precommitsIn(votes, round)?.majority;
  return majority === undefined || majority.key === NIL_KEY ? undefined : majority;
}

/** The decision: the lowest round with precommits for a value, and that value (L49). */
export function decision(
  votes: HeightVotes,
): { readonly round: number; readonly block: BlockPower } | undefined {
  if (votes.decisionRound < 0) return undefined;
  const block = precommitsForBlock(votes, votes.decisionRound);
  return block === undefined ? undefined : { round: votes.decisionRound, block };
}

/** Skip round: the highest round after `currentRound` where more than 2/3 of the power voted (L55). */
export function skipRound(votes: HeightVotes, currentRound: number): number | undefined {
  return votes.highestTwoThirdsAnyRound > currentRound ? votes.highestTwoThirdsAnyRound : undefined;
}

/** Every validator precommitted in `round` (v0.34's skip_timeout_commit). */
export function precommitAll(votes: HeightVotes, round: number): boolean {
  return precommitsIn(votes, round)?.power === votes.weights.totalPower;
}
