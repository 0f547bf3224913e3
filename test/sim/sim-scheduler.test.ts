// The run's scheduler keeps its queue in order as actions arrive: it must run every action at the
// same virtual instant and in the same order as rxjs's VirtualTimeScheduler does with its sort,
// through actions scheduling others, rescheduling themselves, equal due times and cancellations.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Subscription, VirtualTimeScheduler } from "rxjs";
import { Prng } from "./prng.js";
import { simScheduler } from "./sim-scheduler.js";

/** A seeded workload on `scheduler`: what ran, as "name@frame", in order. */
function workload(scheduler: VirtualTimeScheduler, seed: number): string[] {
  const rng = new Prng(seed);
  const ran: string[] = [];
  const live: Subscription[] = [];
  let next = 0;
  const spawn = (depth: number): void => {
    const name = `a${next++}`;
    const periodic = rng.chance(0.2);
    let left = rng.int(1, 4);
    const action = scheduler.schedule(
      function (this: { schedule(state?: unknown, delay?: number): void }) {
        ran.push(`${name}@${scheduler.now()}`);
        if (depth < 3) for (let k = rng.int(0, 2); k > 0; k--) spawn(depth + 1);
        if (rng.chance(0.15) && live.length > 0) live[rng.int(0, live.length - 1)]!.unsubscribe();
        if (periodic && --left > 0) this.schedule(undefined, rng.int(0, 5));
      },
      rng.int(0, 8),
    );
    live.push(action);
  };
  for (let i = 0; i < 40; i++) spawn(0);
  scheduler.flush();
  return ran;
}

describe("simulation: the run's virtual clock", () => {
  it("runs a seeded workload exactly as rxjs's VirtualTimeScheduler does", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const ours = workload(simScheduler(), seed);
      const theirs = workload(new VirtualTimeScheduler(), seed);
      assert.ok(ours.length > 40, `seed ${seed}: the workload ran`);
      assert.deepEqual(ours, theirs, `seed ${seed}`);
    }
  });

  it("runs actions due at one instant in the order they were scheduled", () => {
    const scheduler = simScheduler();
    const ran: number[] = [];
    for (const [n, delay] of [
      [1, 5],
      [2, 0],
      [3, 5],
      [4, 0],
      [5, 3],
    ] as const)
      scheduler.schedule(() => ran.push(n), delay);
    scheduler.flush();
    assert.deepEqual(ran, [2, 4, 5, 1, 3]);
  });
});
