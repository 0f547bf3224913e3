// One turn of the event loop, for work on the node's thread cut into pieces: the promise resolves
// on a later turn than the call, after the I/O callbacks then waiting (RPC requests, peer bytes)
// have run, so long work yields to them between its pieces. Shared by every piece-wise loop
// (block commit, reaping, the mempool's update, the kvstore's Commit, the event indexer).
//
// Why one queue with a budget per turn, not a setImmediate per pause: Node runs every immediate
// queued before its check phase back to back, with no I/O between them. After a height's Commit
// several jobs yield at once (the mempool's update and recheck, the index, the kvstore's Commit,
// the next proposal's hashing), so each check phase ran one piece of each of them back to back
// (a CPU profile under load shows check phases of 30–50 ms mixing them), and every RPC request
// that arrived meanwhile waited for all of it (docs/storage.md, "Thirteenth pass"). Here the
// pauses due on a turn are resumed in their order until TURN_BUDGET_MS of the turn is spent; the
// rest resume first on the next turn, after the poll phase has read what arrived. At least one
// resumes per turn, so every job advances.

/** Milliseconds of piece-wise work one turn of the event loop runs before it lets I/O in. */
export const TURN_BUDGET_MS = 4;

/**
 * Pauses resumed a turn later than asked, at most `budgetMs` of them (wall time, their work and
 * what it runs in microtasks) per turn before the rest wait for the next. `now` and `schedule` are
 * injected for tests; the node's is `nextTurn`.
 */
export class TurnQueue {
  #waiting: (() => void)[] = [];
  #scheduled = false;

  constructor(
    private readonly budgetMs: number,
    private readonly now: () => number = () => performance.now(),
    private readonly schedule: (turn: () => void) => void = (turn) => setImmediate(turn),
  ) {
    if (!(Number.isFinite(budgetMs) && budgetMs >= 0))
      throw new RangeError(`TurnQueue: the budget must be a finite number of ms >= 0, got ${budgetMs}`);
  }

  /** Resolves on a later turn, in the order the pauses were asked. */
  next(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.#waiting.push(resolve);
      this.#arm();
    });
  }

  #arm(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.schedule(() => this.#turn());
  }

  #turn(): void {
    this.#scheduled = false;
    // Only the pauses due when the turn began: one asked during it waits for the next turn, so a
    // job never runs two pieces without the poll phase between them.
    const due = this.#waiting;
    this.#waiting = [];
    const started = this.now();
    let next = 0;
    const resumeOne = (): void => {
      if (next === due.length) return;
      if (next > 0 && this.now() - started >= this.budgetMs) {
        this.#waiting = due.slice(next).concat(this.#waiting);
        this.#arm();
        return;
      }
      due[next++]!();
      // The resumed job's piece runs in the microtask just queued; this check follows it.
      queueMicrotask(resumeOne);
    };
    resumeOne();
  }
}

const shared = new TurnQueue(TURN_BUDGET_MS);

export const nextTurn = (): Promise<void> => shared.next();

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
