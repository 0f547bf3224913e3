// One turn of the event loop, for work on the node's thread cut into pieces: the promise resolves
// from a setImmediate callback, after the I/O callbacks already waiting (RPC requests, peer bytes)
// have run, so long work yields to them between its pieces. Shared by every piece-wise loop
// (block commit, reaping, the mempool's update, the kvstore's Commit, the event indexer).

export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A pause for one piece-wise job that takes a turn of the event loop only once `budgetMs` of work
 * has run since the job began or last yielded: under load every turn waits behind the other work
 * queued (CheckTx answers, gossip, RPC), so a job that yields at every piece pays a loaded turn per
 * piece even when all its pieces together cost a few ms. A budget of work keeps the gain of the
 * pieces for long jobs (no run of more than about `budgetMs` plus one piece) without that toll for
 * short ones. Read the clock here, in the effect's work, never in a reducer. One per job: the
 * budget counts from the call.
 */
export function turnsAfterWork(
  budgetMs: number,
  now: () => number = () => performance.now(),
): () => Promise<void> {
  if (!(Number.isFinite(budgetMs) && budgetMs >= 0))
    throw new RangeError(`turnsAfterWork: the budget must be a finite number of ms >= 0, got ${budgetMs}`);
  let since = now();
  return async () => {
    if (now() - since < budgetMs) return;
    await nextTurn();
    since = now();
  };
}
