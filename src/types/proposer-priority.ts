// Proposer-priority arithmetic of Tendermint v0.34 (types/validator_set.go), bit for bit:
// priorities are int64 that clip at the int64 bounds, the max-min spread is computed with Go's
// wrapping int64 subtraction, the rescale ratio divides with truncation toward zero, and the
// average is a big-int Euclidean (floor) division. Every function works in place on plain
// arrays so the validator set can run many steps without allocating per step.

export const INT64_MAX = (1n << 63n) - 1n;
export const INT64_MIN = -(1n << 63n);
/** (2^63 − 1) / 8: keeps every sum of powers and priorities far from int64 overflow. */
export const MAX_TOTAL_VOTING_POWER = INT64_MAX / 8n;
/** Priorities are kept within a window of this many times the total voting power. */
export const PRIORITY_WINDOW_SIZE_FACTOR = 2n;

/** Go's int64 wrap-around, for the few places where Go's arithmetic overflows silently. */
const wrap = (x: bigint): bigint => BigInt.asIntN(64, x);

/** x clipped to the int64 range (Go's safeAddClip/safeSubClip). */
export function clipInt64(x: bigint): bigint {
  if (x > INT64_MAX) return INT64_MAX;
  if (x < INT64_MIN) return INT64_MIN;
  return x;
}

export const addClip = (a: bigint, b: bigint): bigint => clipInt64(a + b);
export const subClip = (a: bigint, b: bigint): bigint => clipInt64(a - b);

/** bytes.Compare: byte-wise, a proper prefix first. */
export function compareAddresses(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** max − min of the priorities as Go computes it: int64 subtraction that may wrap, then abs. */
export function maxMinPriorityDiff(priorities: readonly bigint[]): bigint {
  let max = INT64_MIN;
  let min = INT64_MAX;
  for (const p of priorities) {
    if (p < min) min = p;
    if (p > max) max = p;
  }
  const diff = wrap(max - min);
  return diff < 0n ? wrap(-diff) : diff;
}

/**
 * Divides every priority by ceil(diff / diffMax) when their spread exceeds diffMax (Go's
 * RescalePriorities). Does nothing for diffMax ≤ 0, as Go does for an all-zero-power set.
 */
export function rescalePriorities(priorities: bigint[], diffMax: bigint): void {
  if (diffMax <= 0n) return;
  const diff = maxMinPriorityDiff(priorities);
  if (diff <= diffMax) return;
  const ratio = wrap(diff + diffMax - 1n) / diffMax; // bigint division truncates, as Go's does
  if (ratio === 0n) throw new RangeError("proposer priority rescale ratio is zero (int64 overflow)");
  for (let i = 0; i < priorities.length; i++) priorities[i] = wrap((priorities[i] as bigint) / ratio);
}

/** floor(sum / n): big.Int's Euclidean division for a positive divisor. */
export function averagePriority(priorities: readonly bigint[]): bigint {
  const n = BigInt(priorities.length);
  let sum = 0n;
  for (const p of priorities) sum += p;
  const q = sum / n;
  return sum % n < 0n ? q - 1n : q;
}

/** Subtracts the average from every priority, clipping (Go's shiftByAvgProposerPriority). */
export function centrePriorities(priorities: bigint[]): void {
  const avg = averagePriority(priorities);
  for (let i = 0; i < priorities.length; i++) priorities[i] = subClip(priorities[i] as bigint, avg);
}

/** Index of the highest priority; ties go to the smaller address. */
export function mostPriorityIndex(priorities: readonly bigint[], addresses: readonly Uint8Array[]): number {
  let best = 0;
  for (let i = 1; i < priorities.length; i++) {
    const p = priorities[i] as bigint;
    const b = priorities[best] as bigint;
    if (
      p > b ||
      (p === b && compareAddresses(addresses[i] as Uint8Array, addresses[best] as Uint8Array) < 0)
    ) {
      best = i;
    }
  }
  return best;
}

/**
 * One round of proposer selection: every priority grows by its power, the highest is chosen and
 * pays the total power back. Returns the chosen index.
 */
export function incrementOnce(
  priorities: bigint[],
  powers: readonly bigint[],
  addresses: readonly Uint8Array[],
  totalPower: bigint,
): number {
  for (let i = 0; i < priorities.length; i++)
    priorities[i] = addClip(priorities[i] as bigint, powers[i] as bigint);
  const chosen = mostPriorityIndex(priorities, addresses);
  priorities[chosen] = subClip(priorities[chosen] as bigint, totalPower);
  return chosen;
}

/**
 * Go's IncrementProposerPriority(times) on plain arrays: rescale into the window, centre, then
 * `times` rounds. Returns the last chosen index (the proposer).
 */
export function incrementProposerPriorities(
  priorities: bigint[],
  powers: readonly bigint[],
  addresses: readonly Uint8Array[],
  totalPower: bigint,
  times: number,
): number {
  rescalePriorities(priorities, PRIORITY_WINDOW_SIZE_FACTOR * totalPower);
  centrePriorities(priorities);
  let chosen = -1;
  for (let t = 0; t < times; t++) chosen = incrementOnce(priorities, powers, addresses, totalPower);
  return chosen;
}

/** The priority a validator joining the set starts with: −(P + P>>3), about −1.125 × P. */
export function newValidatorPriority(totalPowerAfterUpdates: bigint): bigint {
  return -(totalPowerAfterUpdates + (totalPowerAfterUpdates >> 3n));
}

/** Go's findProposer over members: highest priority, ties to the smaller address. */
export function findProposerIndex(
  validators: readonly { proposerPriority: bigint; address: Uint8Array }[],
): number {
  return mostPriorityIndex(
    validators.map((v) => v.proposerPriority),
    validators.map((v) => v.address),
  );
}
