// Multicast and LatestValue (streams/multicast.ts) hand values on as rxjs's Subject and
// BehaviorSubject do: in subscription order, to the subscribers present when the value came (one
// leaving meanwhile is skipped, one joining meanwhile waits for the next value), the end of the
// stream to everyone and at once to later subscribers, and for LatestValue the latest value first.
// Each script runs on both and their logs must be equal; one allocation check shows why they exist.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BehaviorSubject, type Observable, Subject, type Subscription } from "rxjs";
import { filter, map, share } from "rxjs/operators";
import { LatestValue, Multicast } from "../../streams/multicast.js";

interface Hot<T> {
  next(value: T): void;
  error(error: unknown): void;
  complete(): void;
  readonly observed: boolean;
  asObservable(): Observable<T>;
  pipe: Observable<T>["pipe"];
  subscribe: Observable<T>["subscribe"];
}

/** Runs one script against a hot stream and returns what every subscriber heard, in order. */
function script(hot: Hot<number>): string[] {
  const log: string[] = [];
  const subs: Subscription[] = [];
  const listen = (name: string, source: Observable<number> = hot.asObservable()) =>
    source.subscribe({
      next: (v) => {
        log.push(`${name}:${v}`);
        // On 2, subscriber a drops b and adds d: b must still be skipped, d must wait.
        if (name === "a" && v === 2) {
          subs[1]!.unsubscribe();
          subs.push(listen("d"));
        }
        // On 3, subscriber a adds e (no one leaves): e must wait for the next value.
        if (name === "a" && v === 3) subs.push(listen("e"));
        // On 4, subscriber c pushes 5 from inside a delivery (re-entrant).
        if (name === "c" && v === 4) hot.next(5);
      },
      error: (e) => log.push(`${name}:error ${String(e)}`),
      complete: () => log.push(`${name}:complete`),
    });
  log.push(`observed ${hot.observed}`);
  hot.next(1);
  subs.push(listen("a"));
  subs.push(listen("b"));
  subs.push(
    listen(
      "c",
      hot.pipe(
        filter((v) => v % 2 === 0),
        map((v) => v * 10),
      ),
    ),
  );
  log.push(`observed ${hot.observed}`);
  hot.next(2);
  hot.next(3);
  hot.next(4);
  subs[0]!.unsubscribe();
  hot.next(6);
  return log;
}

function ending(hot: Hot<number>, how: "error" | "complete"): string[] {
  const log: string[] = [];
  const observer = (name: string) => ({
    next: (v: number) => log.push(`${name}:${v}`),
    error: (e: unknown) => log.push(`${name}:error ${String(e)}`),
    complete: () => log.push(`${name}:complete`),
  });
  hot.subscribe(observer("a"));
  hot.next(1);
  if (how === "error") hot.error("boom");
  else hot.complete();
  hot.next(2);
  hot.subscribe(observer("late"));
  log.push(`observed ${hot.observed}`);
  return log;
}

describe("Multicast", () => {
  it("hands values on as a Subject does, re-entrant and changing subscribers included", () => {
    assert.deepEqual(script(new Multicast<number>()), script(new Subject<number>()));
  });

  it("ends as a Subject does, and tells later subscribers at once", () => {
    for (const how of ["error", "complete"] as const) {
      assert.deepEqual(ending(new Multicast<number>(), how), ending(new Subject<number>(), how), how);
    }
  });

  it("serves as share()'s connector as a Subject does", () => {
    const run = (connector: () => Hot<number>) => {
      const source = new Subject<number>();
      const log: string[] = [];
      const shared = source.pipe(share({ connector }));
      const a = shared.subscribe((v) => log.push(`a:${v}`));
      source.next(1);
      const b = shared.subscribe((v) => log.push(`b:${v}`));
      source.next(2);
      a.unsubscribe();
      b.unsubscribe();
      source.next(3);
      shared.subscribe((v) => log.push(`c:${v}`));
      source.next(4);
      return log;
    };
    assert.deepEqual(
      run(() => new Multicast<number>()),
      run(() => new Subject<number>()),
    );
  });

  it("makes no garbage per value where a Subject makes some per observer", () => {
    const heapGrowth = (hot: Hot<{ n: number }>) => {
      let sum = 0;
      hot.subscribe((v) => {
        sum += v.n;
      });
      hot.subscribe((v) => {
        sum -= v.n;
      });
      const value = { n: 1 };
      for (let i = 0; i < 20_000; i++) hot.next(value); // warm-up: optimised code
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 100_000; i++) hot.next(value);
      return process.memoryUsage().heapUsed - before + sum;
    };
    const subject = heapGrowth(new Subject());
    const multicast = heapGrowth(new Multicast());
    // A collection may run in either window; a Subject's ~100 bytes a value show either way.
    assert.ok(
      multicast < 1_000_000 || multicast < subject / 4,
      `Multicast grew the heap ${multicast} B over 100,000 values (Subject ${subject} B)`,
    );
  });
});

describe("LatestValue", () => {
  it("hands on its latest value first, then values as a BehaviorSubject does", () => {
    assert.deepEqual(script(new LatestValue<number>(0)), script(new BehaviorSubject<number>(0)));
    const latest = new LatestValue<number>(7);
    latest.next(8);
    assert.equal(latest.value, 8);
  });

  it("ends as a BehaviorSubject does", () => {
    for (const how of ["error", "complete"] as const) {
      assert.deepEqual(
        ending(new LatestValue<number>(0), how),
        ending(new BehaviorSubject<number>(0), how),
        how,
      );
    }
  });
});
