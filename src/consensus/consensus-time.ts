// Timestamp arithmetic the reducer needs ({seconds: bigint, nanos: number}, as the wire carries
// time). Exact integer arithmetic: replay must reproduce every timestamp to the nanosecond.
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";

const NANOS_PER_SECOND = 1_000_000_000n;

export function toNanos(t: Timestamp): bigint {
  return t.seconds * NANOS_PER_SECOND + BigInt(t.nanos);
}

export function fromNanos(nanos: bigint): Timestamp {
  let seconds = nanos / NANOS_PER_SECOND;
  let rest = nanos % NANOS_PER_SECOND;
  if (rest < 0n) {
    rest += NANOS_PER_SECOND;
    seconds -= 1n;
  }
  return { seconds, nanos: Number(rest) };
}

/** Negative, zero or positive as a is before, equal to or after b. */
export function compareTime(a: Timestamp, b: Timestamp): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  return a.nanos === b.nanos ? 0 : a.nanos < b.nanos ? -1 : 1;
}

/**
 * `t` plus `millis` milliseconds. Config durations may have a fraction of a millisecond (Go's
 * "500us"): such a number is taken to the nearest nanosecond (deterministic float arithmetic).
 */
export function addMillis(t: Timestamp, millis: number | bigint): Timestamp {
  const nanos =
    typeof millis === "bigint" || Number.isInteger(millis)
      ? BigInt(millis) * 1_000_000n
      : BigInt(Math.round(millis * 1_000_000));
  return fromNanos(toNanos(t) + nanos);
}

/** Whole milliseconds from `from` to `to`, rounded up so a timer never fires early; 0 when `to` has passed. */
export function millisUntil(from: Timestamp, to: Timestamp): number {
  const diff = toNanos(to) - toNanos(from);
  if (diff <= 0n) return 0;
  return Number((diff + 999_999n) / 1_000_000n);
}

export function laterOf(a: Timestamp, b: Timestamp): Timestamp {
  return compareTime(a, b) >= 0 ? a : b;
}
