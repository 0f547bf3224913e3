// src/next-turn.ts: turnsAfterWork yields a turn of the event loop only once its budget of work has
// run since the job began or last yielded, and counts the budget afresh after each turn.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { turnsAfterWork } from "../../src/next-turn.js";

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
