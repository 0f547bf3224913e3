// The guard every checked run goes through (checked-run.ts) sees each way real time or the event
// loop can reach a synchronous run, moves the clocks when asked, and leaves the process as it was.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { of, config as rxjsConfig } from "rxjs";
import { describeRealTimeUse, guardRealTime } from "./real-time-guard.js";

describe("real-time guard", () => {
  it("counts clock reads, Math.random and work put on the event loop", () => {
    const { use } = guardRealTime(() => {
      Date.now();
      Date.now();
      performance.now();
      process.hrtime();
      process.hrtime.bigint();
      Math.random();
      clearTimeout(setTimeout(() => {}, 1));
      clearInterval(setInterval(() => {}, 1000));
      clearImmediate(setImmediate(() => {}));
      queueMicrotask(() => {});
      process.nextTick(() => {});
      void Promise.resolve().then(() => {});
    });
    assert.deepEqual(Object.fromEntries(use.calls), {
      "Date.now": 2,
      "performance.now": 1,
      "process.hrtime": 1,
      "process.hrtime.bigint": 1,
      "Math.random": 1,
      setTimeout: 1,
      setInterval: 1,
      setImmediate: 1,
      queueMicrotask: 1,
      "process.nextTick": 1,
      "Promise.then": 1,
    });
    assert.equal(describeRealTimeUse(use)?.startsWith("Date.now ×2"), true);
  });

  it("sees nothing in work that uses none of them", () => {
    const { result, use } = guardRealTime(() => [3, 1, 2].sort().join());
    assert.equal(result, "1,2,3");
    assert.equal(describeRealTimeUse(use), undefined);
  });

  it("moves the clocks hours ahead and draws another Math.random sequence when perturbing", () => {
    const before = Date.now();
    const perf = performance.now();
    const a = guardRealTime(() => [Date.now(), performance.now(), Math.random(), Math.random()], {
      perturb: true,
    }).result;
    const b = guardRealTime(() => [Math.random(), Math.random()], { perturb: true }).result;
    assert.ok(a[0]! - before > 3600_000);
    assert.ok(a[1]! - perf > 3600_000);
    assert.deepEqual(a.slice(2), b, "a fixed sequence, not the process's");
  });

  it("leaves every primitive as it was, also when the work throws", () => {
    const originals = [
      Date.now,
      performance.now,
      Math.random,
      process.hrtime,
      setTimeout,
      Promise.prototype.then,
    ];
    assert.throws(() => guardRealTime(() => Date.now() + JSON.parse("{")));
    assert.deepEqual(
      [Date.now, performance.now, Math.random, process.hrtime, setTimeout, Promise.prototype.then],
      originals,
    );
    assert.equal(Object.hasOwn(Date, "now"), true);
    assert.equal(Object.hasOwn(Math, "random"), true);
  });

  it("names an exception rxjs swallowed in a subscriber and reports only after the run", async () => {
    // rxjs reports an error thrown in a subscriber through setTimeout: in a synchronous run it
    // would surface after the run, attributed to nothing; the guard makes the run fail instead.
    const reported: unknown[] = [];
    const previous = rxjsConfig.onUnhandledError;
    rxjsConfig.onUnhandledError = (error) => reported.push(error);
    try {
      const { use } = guardRealTime(() =>
        of(1).subscribe(() => {
          throw new Error("thrown in a subscriber");
        }),
      );
      assert.equal(use.calls.get("setTimeout"), 1);
      assert.equal(reported.length, 0, "not reported while the run goes on");
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal((reported[0] as Error | undefined)?.message, "thrown in a subscriber");
    } finally {
      rxjsConfig.onUnhandledError = previous;
    }
  });
});
