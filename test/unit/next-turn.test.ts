// src/next-turn.ts: turnsAfterWork yields a turn of the event loop only once its budget of work has
// run since the job began or last yielded, and counts the budget afresh after each turn; the pauses
// due on one turn (nextTurn, TurnQueue) run at most a budget of work before the poll phase reads
// what arrived, the rest resuming first on the next turn.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { nextTurn, TURN_BUDGET_MS, TurnQueue, turnsAfterWork } from "../../src/next-turn.js";

/** Whether `pause()` waited for a turn: a setImmediate queued before it fires first if so. */
async function waitedATurn(pause: () => Promise<void>): Promise<boolean> {
  let fired = false;
  setImmediate(() => {
    fired = true;
  });
  await pause();
  return fired;
}

describe("turnsAfterWork", () => {
  it("takes no turn while the work since the start is under the budget", async () => {
    let clock = 100;
    const pause = turnsAfterWork(4, () => clock);
    clock = 103.9;
    assert.equal(await waitedATurn(pause), false);
  });

  it("takes a turn once the budget is spent, then counts it afresh", async () => {
    let clock = 100;
    const pause = turnsAfterWork(4, () => clock);
    clock = 104;
    assert.equal(await waitedATurn(pause), true);
    clock = 107;
    assert.equal(await waitedATurn(pause), false);
    clock = 108;
    assert.equal(await waitedATurn(pause), true);
  });

  it("a zero budget yields at every pause", async () => {
    const pause = turnsAfterWork(0, () => 0);
    assert.equal(await waitedATurn(pause), true);
    assert.equal(await waitedATurn(pause), true);
  });

  it("refuses a budget that is not a finite number of ms >= 0", () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY])
      assert.throws(() => turnsAfterWork(bad), /turnsAfterWork: the budget must be/);
  });
});

/** Spins for `ms` of wall time: a piece of work on the main thread. */
function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
}

describe("TurnQueue", () => {
  it("resumes the pauses due in their order until the budget is spent, the rest on the next turn", async () => {
    let clock = 0;
    const turns: (() => void)[] = [];
    const queue = new TurnQueue(
      4,
      () => clock,
      (turn) => turns.push(turn),
    );
    const order: string[] = [];
    const job = async (name: string) => {
      await queue.next();
      order.push(name);
      clock += 3;
    };
    const jobs = ["a", "b", "c"].map(job);
    assert.equal(turns.length, 1, "one turn armed for all three pauses");
    turns.shift()!();
    await Promise.resolve().then(() => new Promise((r) => setImmediate(r)));
    // a (3 ms) is under the budget, so b runs; after b (6 ms) c waits for the next turn.
    assert.deepEqual(order, ["a", "b"]);
    assert.equal(turns.length, 1, "the next turn is armed for the rest");
    turns.shift()!();
    await Promise.all(jobs);
    assert.deepEqual(order, ["a", "b", "c"]);
  });

  it("resumes one pause per turn even when the budget is already spent", async () => {
    let clock = 0;
    const turns: (() => void)[] = [];
    const queue = new TurnQueue(
      0,
      () => clock,
      (turn) => turns.push(turn),
    );
    const order: number[] = [];
    const jobs = [1, 2].map(async (n) => {
      await queue.next();
      order.push(n);
      clock += 10;
    });
    turns.shift()!();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(order, [1]);
    turns.shift()!();
    await Promise.all(jobs);
    assert.deepEqual(order, [1, 2]);
  });

  it("a pause asked during a turn waits for a later turn", async () => {
    const turns: (() => void)[] = [];
    const queue = new TurnQueue(
      1000,
      () => 0,
      (turn) => turns.push(turn),
    );
    const order: string[] = [];
    const job = (async () => {
      await queue.next();
      order.push("first piece");
      await queue.next();
      order.push("second piece");
    })();
    turns.shift()!();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(order, ["first piece"]);
    assert.equal(turns.length, 1);
    turns.shift()!();
    await job;
    assert.deepEqual(order, ["first piece", "second piece"]);
  });

  it("refuses a budget that is not a finite number of ms >= 0", () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY])
      assert.throws(() => new TurnQueue(bad), /TurnQueue: the budget must be/);
  });
});

describe("nextTurn", () => {
  it("lets the event loop's next phase run once a turn's pieces have spent the budget", async () => {
    // Ten jobs each pausing once, then a piece of 2 ms: with a setImmediate per pause all ten
    // pieces (20 ms) ran before an immediate queued after them; now the budget's worth does.
    const pieces = 10;
    let resumed = 0;
    let resumedBeforeMarker = -1;
    const jobs = Array.from({ length: pieces }, async () => {
      await nextTurn();
      resumed += 1;
      work(2);
    });
    setImmediate(() => {
      resumedBeforeMarker = resumed;
    });
    await Promise.all(jobs);
    assert.ok(resumedBeforeMarker >= 1, "at least one piece runs on the first turn");
    assert.ok(
      resumedBeforeMarker <= Math.ceil(TURN_BUDGET_MS / 2) + 1,
      `${resumedBeforeMarker} pieces of 2 ms ran before the next immediate (budget ${TURN_BUDGET_MS} ms)`,
    );
  });
});
