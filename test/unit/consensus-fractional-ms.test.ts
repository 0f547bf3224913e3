// Review: config durations are Go durations decoded to milliseconds, which may have a fraction
// ("500us" is 0.5 ms, "1.0005s" is 1000.5 ms); Go and Tendermint accept them. The reducer's time
// arithmetic must take them (to the nanosecond) rather than throw from BigInt(0.5).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { addMillis } from "../../src/consensus/consensus-time.js";
import { RoundStep } from "../../src/consensus/index.js";
import { only, TestNode } from "./consensus-harness.js";

describe("review: fractional milliseconds in the consensus config", () => {
  it("timeout_commit = 500us starts and schedules round 0", () => {
    const node = new TestNode({ own: 3, config: { timeoutCommitMs: 0.5 } });
    const started = node.start();
    assert.deepEqual(
      only(started, "ScheduleTimeout").map((t) => [t.step, t.durationMs]),
      [[RoundStep.NewHeight, 1]],
    );
    assert.deepEqual(node.state.startTime, { seconds: 1_700_000_000n, nanos: 500_000 });
  });

  it("addMillis is exact to the nanosecond for whole and fractional milliseconds", () => {
    const t = { seconds: 10n, nanos: 999_999_000 };
    assert.deepEqual(addMillis(t, 1000.5), { seconds: 12n, nanos: 499_000 });
    assert.deepEqual(addMillis(t, 2), { seconds: 11n, nanos: 1_999_000 });
    assert.deepEqual(addMillis(t, 2n), { seconds: 11n, nanos: 1_999_000 });
  });
});
