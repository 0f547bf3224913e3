// BFT time (reference §7.9): a block's time is the weighted median of its LastCommit's timestamps,
// each weighted by its validator's power in the last validator set, so no minority of faulty
// validators can move it; at the initial height it is the genesis time.
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import { BlockIDFlag, type Commit } from "../wire/generated/tendermint/types/types.js";
import type { Validator } from "../wire/generated/tendermint/types/validator.js";
import { compareTime } from "./consensus-time.js";
import { sameBytes } from "./vote-keeper/block-key.js";

interface WeightedTime {
  readonly time: Timestamp;
  readonly power: bigint;
}

/**
 * Sorts by time, starts from half the total power (integer division) and returns the first time
 * whose weight reaches what is left. Returns undefined when no signature counts.
 */
export function weightedMedian(times: readonly WeightedTime[]): Timestamp | undefined {
  let total = 0n;
  for (const t of times) total += t.power;
  if (times.length === 0) return undefined;
  const sorted = times.slice().sort((a, b) => compareTime(a.time, b.time));
  let median = total / 2n;
  for (const t of sorted) {
    if (median <= t.power) return t.time;
    median -= t.power;
  }
  return undefined;
}

/** The median time of a commit's non-absent signatures, weighted by `validators` (the last set). */
export function medianCommitTime(commit: Commit, validators: readonly Validator[]): Timestamp | undefined {
  const times: WeightedTime[] = [];
  for (const sig of commit.signatures) {
    if (sig.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_ABSENT) continue;
    const validator = validators.find((v) => sameBytes(v.address, sig.validatorAddress));
    if (validator !== undefined) times.push({ time: sig.timestamp, power: validator.votingPower });
  }
  return weightedMedian(times);
}
