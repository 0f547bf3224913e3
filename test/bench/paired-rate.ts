// Micro-benchmark timing shared by the benches that set one of our functions beside a baseline:
// each side runs in batches for a time budget, and the two alternate in rounds (the machine is
// shared, so load drifts), each keeping its best round.

export interface RateBudget {
  /** time per measurement, ms */
  readonly budgetMs: number;
  /** calls per measurement, at most */
  readonly maxIterations: number;
  /** alternating rounds of ours and the baseline */
  readonly rounds: number;
  /** calls between clock reads */
  readonly batch: number;
}

/** Runs fn in batches until the time budget or the count cap is reached; returns ops/s. */
export function rate(fn: () => void, budget: RateBudget): number {
  for (let i = 0; i < budget.batch; i++) fn(); // warm up
  let count = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < budget.budgetMs && count < budget.maxIterations) {
    for (let i = 0; i < budget.batch; i++) fn();
    count += budget.batch;
    elapsed = performance.now() - start;
  }
  return (count / elapsed) * 1000;
}

/** Ours and the baseline in alternating rounds; each side's best ops/s. */
export function paired(ours: () => void, baseline: () => void, budget: RateBudget): [number, number] {
  let best: [number, number] = [0, 0];
  for (let r = 0; r < budget.rounds; r++)
    best = [Math.max(best[0], rate(ours, budget)), Math.max(best[1], rate(baseline, budget))];
  return best;
}
