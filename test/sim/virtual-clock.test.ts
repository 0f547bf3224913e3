// The run's virtual clock runs actions in exactly rxjs's order (due time, then scheduling order),
// with the same cancellations, reschedules from inside an action and ties at one instant, while
// inserting each action in place instead of sorting the queue.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Subscription, VirtualTimeScheduler } from "rxjs";
import { Prng } from "./prng.js";
import { virtualClock } from "./virtual-clock.js";

/** A random script of schedules, nested schedules, repeats and cancellations; the order run. */
function script(scheduler: VirtualTimeScheduler, seed: number): string[] {
  const prng = new Prng(seed);
  const ran: string[] = [];
  const pending: Subscription[] = [];
  let made = 0;
  const schedule = (depth: number): void => {
    const name = `a${made++}@${scheduler.now()}`;
    // Few distinct delays, so many actions fall due at one instant (the tie-break by index).
    const delay = prng.int(0, 4) * 5;
    const sub = scheduler.schedule<number>(function (
      this: { schedule(s?: number, d?: number): void },
      round = 0,
    ) {
      ran.push(`${name}#${round}@${scheduler.now()}`);
      if (depth < 3 && prng.chance(0.6)) schedule(depth + 1);
      if (depth < 3 && prng.chance(0.3)) schedule(depth + 1);
      // A repeating action reschedules itself (rxjs makes a new action for it).
      if (round < 2 && prng.chance(0.3)) this.schedule(round + 1, prng.int(0, 2) * 5);
      if (pending.length > 0 && prng.chance(0.2))
        pending.splice(prng.int(0, pending.length - 1), 1)[0]!.unsubscribe();
    }, delay);
    pending.push(sub);
  };
  for (let i = 0; i < 40; i++) schedule(0);
  scheduler.flush();
  return ran;
}

describe("simulation: the virtual clock", () => {
  it("runs every action in rxjs's order, over 200 random scripts", () => {
    for (let seed = 1; seed <= 200; seed++) {
      const expected = script(new VirtualTimeScheduler(), seed);
      assert.ok(expected.length > 40, `seed ${seed}: the script ran ${expected.length} actions`);
      assert.deepEqual(script(virtualClock(), seed), expected, `seed ${seed}`);
    }
  });

  it("keeps the queue a plain array (V8's fast paths for shift and splice)", () => {
    const actions = virtualClock().actions;
    assert.equal(Array.isArray(actions), true);
    assert.equal(Object.getPrototypeOf(actions), Array.prototype);
  });
});
