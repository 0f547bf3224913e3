// The run's virtual clock: rxjs's VirtualTimeScheduler, whose queue of actions is kept in order
// as each is added rather than sorted whole. rxjs pushes every scheduled action and then sorts
// the entire queue (by due time, then creation order); a run schedules an action for every
// batch of messages, timer and gossip tick, so the comparator ran over the whole queue each time.
// Inserting at the place the sort would have put it (a binary search on the same order: due
// times and creation indices are unique together) keeps the queue, and so every run, exactly as
// it was.
import { type VirtualAction, VirtualTimeScheduler } from "rxjs";

type Queued = VirtualAction<unknown>;
/** What rxjs's VirtualAction.sortActions orders by: the due time (`delay`), then creation (`index`). */
type Keyed = { readonly delay: number; readonly index: number };
const before = (a: Queued, b: Queued) => {
  const x = a as unknown as Keyed;
  const y = b as unknown as Keyed;
  return x.delay < y.delay || (x.delay === y.delay && x.index < y.index);
};

/** The scheduler's action queue: an array that stays sorted on push, so sorting it is no work. */
class OrderedActions extends Array<Queued> {
  // splice and the like make plain arrays of what they take out.
  static override get [Symbol.species]() {
    return Array;
  }

  override push(...actions: Queued[]): number {
    for (const action of actions) {
      let low = 0;
      let high = this.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (before(this[middle]!, action)) low = middle + 1;
        else high = middle;
      }
      this.splice(low, 0, action);
    }
    return this.length;
  }

  override sort(): this {
    return this;
  }
}

/** A virtual-time scheduler for a run: rxjs's, with its queue kept in order as actions arrive. */
export function simScheduler(): VirtualTimeScheduler {
  const scheduler = new VirtualTimeScheduler();
  scheduler.actions = new OrderedActions() as unknown as VirtualTimeScheduler["actions"];
  return scheduler;
}
