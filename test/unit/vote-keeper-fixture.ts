// The thresholds the upon-rules read (src/consensus/vote-keeper/thresholds.ts), listed as
// `Kind@round` so a vote keeper test can say which facts a run of votes establishes and in what
// order, by asking the same readers the rules ask.
import {
  decision,
  type HeightVotes,
  polkaAny,
  polkaForBlock,
  polkaForNil,
  precommitAll,
  precommitAny,
  precommitsForBlock,
  skipRound,
} from "../../src/consensus/vote-keeper/index.js";

/** The thresholds that hold for `round`, seen from a node in `currentRound`. */
export function thresholdsHeld(votes: HeightVotes, round: number, currentRound: number): string[] {
  const held: string[] = [];
  if (polkaAny(votes, round)) held.push(`PolkaAny@${round}`);
  if (polkaForBlock(votes, round) !== undefined) held.push(`PolkaBlock@${round}`);
  if (polkaForNil(votes, round)) held.push(`PolkaNil@${round}`);
  if (precommitAny(votes, round)) held.push(`PrecommitAny@${round}`);
  if (precommitsForBlock(votes, round) !== undefined) held.push(`PrecommitBlock@${round}`);
  if (precommitAll(votes, round)) held.push(`PrecommitAll@${round}`);
  const decided = decision(votes);
  if (decided !== undefined) held.push(`Decision@${decided.round}`);
  const skip = skipRound(votes, currentRound);
  if (skip !== undefined) held.push(`SkipRound@${skip}`);
  return held;
}

/** Appends to `seen` the thresholds of `round` that hold now and did not before. */
export function noteNewThresholds(
  seen: string[],
  votes: HeightVotes,
  round: number,
  currentRound: number,
): void {
  for (const t of thresholdsHeld(votes, round, currentRound)) if (!seen.includes(t)) seen.push(t);
}
