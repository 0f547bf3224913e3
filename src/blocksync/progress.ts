// What a user watching a sync wants to know: where we are, where the peers are, how fast the
// blocks come, and how long is left. Pure: the wiring samples (time, height) and asks.

export interface SyncProgress {
  /** The last applied height. */
  readonly height: bigint;
  /** The highest height a peer reported. */
  readonly target: bigint;
  /** Blocks applied per second over the recent samples (0 before two samples). */
  readonly blocksPerSecond: number;
  /** Seconds left at that rate; undefined while the rate is 0. */
  readonly etaSeconds: number | undefined;
}

export interface ProgressSample {
  readonly time: number;
  readonly height: bigint;
}

/** How far back the rate looks: long enough to smooth a burst, short enough to follow a change. */
export const PROGRESS_WINDOW_MS = 30_000;

/** Adds a sample and forgets those older than the window (the newest one before it is kept). */
export function addProgressSample(
  samples: readonly ProgressSample[],
  sample: ProgressSample,
  windowMs = PROGRESS_WINDOW_MS,
): ProgressSample[] {
  const all = [...samples, sample];
  let first = 0;
  while (first < all.length - 2 && sample.time - all[first + 1]!.time >= windowMs) first++;
  return all.slice(first);
}

export function syncProgress(samples: readonly ProgressSample[], target: bigint): SyncProgress {
  const last = samples[samples.length - 1];
  const height = last?.height ?? 0n;
  const first = samples[0];
  let blocksPerSecond = 0;
  if (first !== undefined && last !== undefined && last.time > first.time)
    blocksPerSecond = (Number(last.height - first.height) * 1000) / (last.time - first.time);
  const left = target > height ? Number(target - height) : 0;
  return {
    height,
    target,
    blocksPerSecond,
    etaSeconds: blocksPerSecond > 0 ? left / blocksPerSecond : left === 0 ? 0 : undefined,
  };
}
