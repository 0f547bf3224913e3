// The log's clock: the one place wall time enters consensus. Inputs are built by sources and
// handlers with a placeholder time; stamping sets the time they entered the log.
import type { ConsensusInput } from "../../src/consensus/input.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";

/** Placeholder time of an input not yet stamped (replaced when the input enters the log). */
export const UNSTAMPED: Timestamp = Object.freeze({ seconds: 0n, nanos: 0 }) as Timestamp;

export type Clock = () => Timestamp;

/** Wall time in the protobuf form, at millisecond resolution. */
export const wallClock: Clock = () => timestampOfMs(Date.now());

export function timestampOfMs(ms: number): Timestamp {
  const seconds = Math.floor(ms / 1000);
  return { seconds: BigInt(seconds), nanos: (ms - seconds * 1000) * 1_000_000 };
}

/** A clock that never goes backwards, even when the wall clock does (NTP steps). */
export function monotonicClock(base: Clock = wallClock): Clock {
  let last: Timestamp = { seconds: 0n, nanos: 0 };
  return () => {
    const now = base();
    if (now.seconds > last.seconds || (now.seconds === last.seconds && now.nanos >= last.nanos)) last = now;
    return last;
  };
}

export function stampConsensusInput(input: ConsensusInput, clock: Clock): ConsensusInput {
  return { ...input, time: clock() };
}
