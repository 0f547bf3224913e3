// The NewHeight timer ends at the state's startTime (the commit's time + timeout_commit), however
// long the fold that asked for it took between its stamp and its effects (streams/effects/timeouts.ts).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BehaviorSubject, Subject, VirtualTimeScheduler } from "rxjs";
import { DEFAULT_CONSENSUS_CONFIG } from "../../src/consensus/config.js";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import { RoundStep } from "../../src/consensus/round-step.js";
import { type ConsensusState, initialConsensusState } from "../../src/consensus/state.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import { timeoutHandler } from "../../streams/effects/timeouts.js";

/** Virtual instant `ms` as a time of day (a clock that starts at 1,000 s). */
const at = (ms: number): Timestamp => {
  const seconds = Math.floor(ms / 1000);
  return { seconds: 1000n + BigInt(seconds), nanos: (ms - seconds * 1000) * 1_000_000 };
};

function newHeightState(height: bigint, startMs: number): ConsensusState {
  const base = initialConsensusState({ config: DEFAULT_CONSENSUS_CONFIG });
  return { ...base, started: true, height, round: 0, step: RoundStep.NewHeight, startTime: at(startMs) };
}

/**
 * The fold of BlockExecuted stamped at 200 ms, its state's startTime 1,000 ms (committed at 0 ms),
 * its effects out `lagMs` later; the instant each TimeoutElapsed fired.
 */
function run(options: { lagMs: number; step?: RoundStep; withClock?: boolean; clockOffsetMs?: number }) {
  const scheduler = new VirtualTimeScheduler();
  const effect$ = new Subject<ConsensusEffect>();
  const step = options.step ?? RoundStep.NewHeight;
  const state$ = new BehaviorSubject<ConsensusState>({ ...newHeightState(6n, 1000), step });
  const clock = () => at(scheduler.now() + (options.clockOffsetMs ?? 0));
  const fired: number[] = [];
  timeoutHandler(
    scheduler,
    scheduler,
    options.withClock === false ? undefined : clock,
  )(effect$, state$).subscribe(() => fired.push(scheduler.now()));
  scheduler.schedule(() => {
    // The reducer's duration: from the fold's stamp (200 ms) to startTime.
    effect$.next({ type: "ScheduleTimeout", height: 6n, round: 0, step, durationMs: 800 });
  }, 200 + options.lagMs);
  scheduler.flush();
  return fired;
}

describe("streams: the NewHeight timer", () => {
  it("fires at startTime when the fold's effects came out late", () => {
    assert.deepEqual(run({ lagMs: 0 }), [1000]);
    assert.deepEqual(run({ lagMs: 60 }), [1000], "not 60 ms after startTime");
  });

  it("fires at once when startTime has already passed by the time it is scheduled", () => {
    assert.deepEqual(run({ lagMs: 900 }), [1100]);
  });

  it("waits the effect's duration without a clock, or for other steps", () => {
    assert.deepEqual(run({ lagMs: 60, withClock: false }), [1060]);
    assert.deepEqual(run({ lagMs: 60, step: RoundStep.Propose }), [1060]);
  });

  it("never waits longer than the effect's duration (a clock stepped back)", () => {
    assert.deepEqual(run({ lagMs: 60, clockOffsetMs: -500 }), [1060]);
    assert.deepEqual(run({ lagMs: 60, clockOffsetMs: 30 }), [970], "a clock ahead ends it sooner");
  });
});
