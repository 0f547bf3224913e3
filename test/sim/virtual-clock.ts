// The run's virtual clock: rxjs's VirtualTimeScheduler, with its queue kept in order by inserting
// each new action where it belongs instead of sorting the whole queue. rxjs schedules an action by
// pushing it onto `actions` and sorting the array with VirtualAction.sortActions (due time, then
// creation index); the queue was already in that order before the push (actions leave it only by
// shift or splice, and an action's due time never changes while it waits), so a stable sort can only
// move the new last element to just after the last action ordered at or before it. That is what
// the queue's own `sort` does here: a binary search and one move, not a comparator call per queued
// action (the full sort was ~5% of a calm run). The order, and so every run, is the same (tested
// against rxjs's sort in virtual-clock.test.ts).
//
// The method is an own property of the queue array: the array stays a plain Array, so V8's fast
// paths for the scheduler's shift, splice and indexOf still apply (an Array subclass loses them).
import { VirtualTimeScheduler } from "rxjs";

type Compare<T> = (a: T, b: T) => number;

/** Sorts `this` given that all but its last element are already in `compare`'s order. */
function insertLast<T>(this: T[], compare?: Compare<T>): T[] {
  const n = this.length;
  if (compare === undefined) return Array.prototype.sort.call(this) as T[];
  if (n < 2) return this;
  const last = this[n - 1] as T;
  // The first position whose action orders after `last`: a stable sort puts `last` there.
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(this[mid] as T, last) > 0) hi = mid;
    else lo = mid + 1;
  }
  // A plain loop: copyWithin is V8's generic per-element path, slower than the sort it replaced.
  for (let i = n - 1; i > lo; i--) this[i] = this[i - 1] as T;
  this[lo] = last;
  return this;
}

/** A VirtualTimeScheduler whose queue inserts each scheduled action in order. */
export function virtualClock(): VirtualTimeScheduler {
  const scheduler = new VirtualTimeScheduler();
  Object.defineProperty(scheduler.actions, "sort", { value: insertLast, writable: true });
  return scheduler;
}
