// The votes of one kind (prevotes or precommits) in one round, and their running sums. Immutable:
// adding a vote returns a new tally (the validator array is copied, O(validators)), so every
// earlier state stays valid for replay and for projections holding on to it.
//
// A validator that equivocates can have two versions here (its first vote, and one conflicting
// vote for another value): each counts toward its own value's power, as the algorithm counts each
// value's messages, but the validator's power counts once toward `power` (the "any" thresholds).
import type { BlockID, Vote } from "../../wire/generated/tendermint/types/types.js";
import { type BlockKey, blockKeyOf, sameBlockId } from "./block-key.js";

export interface BlockPower {
  readonly key: BlockKey;
  readonly blockId: BlockID;
  readonly power: bigint;
}

export interface VoteTally {
  /** The first vote of each validator, by validator index. */
  readonly votes: readonly (Vote | undefined)[];
  /**
   * Second versions: a validator's vote for a value other than its first vote's, at most one per
   * validator (a third version is reported, never kept). Empty unless someone equivocated.
   */
  readonly conflicting: readonly Vote[];
  /** Power of the validators that voted, each counted once whatever it voted. */
  readonly power: bigint;
  /** Power per voted BlockID (nil included, key ""), in order of first appearance; a validator's
   * two versions each count toward their own BlockID. */
  readonly blocks: readonly BlockPower[];
  /** The BlockID (possibly nil) that first gathered more than 2/3 of the power; sticky. */
  readonly majority: BlockPower | undefined;
  /** More than 2/3 of the power voted, for anything; sticky. */
  readonly anyMajority: boolean;
}

export function emptyTally(validatorCount: number): VoteTally {
  return {
    votes: new Array<Vote | undefined>(validatorCount).fill(undefined),
    conflicting: [],
    power: 0n,
    blocks: [],
    majority: undefined,
    anyMajority: false,
  };
}

/** Strictly more than two thirds, in exact integers: 3·part > 2·total. */
export function isTwoThirds(part: bigint, total: bigint): boolean {
  return part * 3n > total * 2n;
}

export interface TallyUpdate {
  readonly tally: VoteTally;
  readonly crossedAny: boolean;
  readonly crossedMajority: BlockPower | undefined;
}

/** The second version held for a validator, if it equivocated. */
export function conflictingVoteOf(tally: VoteTally, index: number): Vote | undefined {
  for (const v of tally.conflicting) if (v.validatorIndex === index) return v;
  return undefined;
}

/** The validator's vote (either version) for `blockId`, if it voted for it. */
export function voteForBlock(tally: VoteTally, index: number, blockId: BlockID): Vote | undefined {
  const first = tally.votes[index];
  if (first === undefined) return undefined;
  if (sameBlockId(first.blockId, blockId)) return first;
  const second = conflictingVoteOf(tally, index);
  return second !== undefined && sameBlockId(second.blockId, blockId) ? second : undefined;
}

/**
 * Counts a vote: the first of its validator in this tally (`second` false), or its second version,
 * for a value the first is not for (`second` true), which adds to that value's power only.
 */
export function countVote(
  tally: VoteTally,
  vote: Vote,
  power: bigint,
  totalPower: bigint,
  second = false,
): TallyUpdate {
  let votes = tally.votes;
  let conflicting = tally.conflicting;
  if (second) {
    conflicting = [...conflicting, vote];
  } else {
    const copy = votes.slice();
    copy[vote.validatorIndex] = vote;
    votes = copy;
  }
  // Few distinct BlockIDs per round: compare bytes, and build a key only for a new one.
  let blockPower: BlockPower | undefined;
  const blocks = tally.blocks.slice();
  for (let i = 0; i < blocks.length; i++) {
    const entry = blocks[i]!;
    if (!sameBlockId(entry.blockId, vote.blockId)) continue;
    blockPower = { key: entry.key, blockId: entry.blockId, power: entry.power + power };
    blocks[i] = blockPower;
    break;
  }
  if (blockPower === undefined) {
    blockPower = { key: blockKeyOf(vote.blockId), blockId: vote.blockId, power };
    blocks.push(blockPower);
  }
  const sum = second ? tally.power : tally.power + power;
  const crossedAny = !tally.anyMajority && isTwoThirds(sum, totalPower);
  const crossedMajority =
    tally.majority === undefined && blockPower !== undefined && isTwoThirds(blockPower.power, totalPower)
      ? blockPower
      : undefined;
  return {
    tally: {
      votes,
      conflicting,
      power: sum,
      blocks,
      majority: tally.majority ?? crossedMajority,
      anyMajority: tally.anyMajority || crossedAny,
    },
    crossedAny,
    crossedMajority,
  };
}

/** Power of the votes for one BlockID key (nil is ""). */
export function powerFor(tally: VoteTally, key: BlockKey): bigint {
  for (const entry of tally.blocks) if (entry.key === key) return entry.power;
  return 0n;
}
