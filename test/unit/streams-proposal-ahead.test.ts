// Our proposal's hashing started before our turn (streams/effects/proposal-ahead.ts): when the
// NewHeight timer of a height whose round 0 we propose is scheduled, the pool is hashed ahead
// PROPOSAL_AHEAD_LEAD_MS before the state's startTime; never for another's turn, and a newer
// timeout cancels the pending one.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BehaviorSubject, Subject, VirtualTimeScheduler } from "rxjs";
import { DEFAULT_CONSENSUS_CONFIG } from "../../src/consensus/config.js";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import { RoundStep } from "../../src/consensus/round-step.js";
import { type ConsensusState, initialConsensusState } from "../../src/consensus/state.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import type { Validator, ValidatorSet } from "../../src/wire/generated/tendermint/types/validator.js";
import { PROPOSAL_AHEAD_LEAD_MS, proposalAheadHandler } from "../../streams/effects/proposal-ahead.js";

const at = (ms: number): Timestamp => {
  const seconds = Math.floor(ms / 1000);
  return { seconds: 1000n + BigInt(seconds), nanos: (ms - seconds * 1000) * 1_000_000 };
};
const OURS = new Uint8Array(20).fill(1);
const THEIRS = new Uint8Array(20).fill(2);
const setProposedBy = (address: Uint8Array) =>
  ({ validators: [], proposer: { address } as Validator }) as unknown as ValidatorSet;
/** The set's proposer, as the rules read it. */
const rules = { proposerOf: (set: ValidatorSet) => set.proposer! };

/** The state waiting in NewHeight for height 6, startTime 1,000 ms, round 0 proposed by `proposer`. */
function waiting(proposer: Uint8Array, step = RoundStep.NewHeight): ConsensusState {
  const base = initialConsensusState({ config: DEFAULT_CONSENSUS_CONFIG });
  return {
    ...base,
    started: true,
    height: 6n,
    round: 0,
    step,
    startTime: at(1000),
    ownAddress: OURS,
    ownIndex: 0,
    roundValidators: setProposedBy(proposer),
  };
}

/** The instants `prepare` ran, for timeouts scheduled at the given instants. */
function run(
  state: ConsensusState,
  schedules: { atMs: number; step?: RoundStep; height?: bigint; durationMs?: number }[],
  proposerRules: { proposerOf(set: ValidatorSet): Validator } = rules,
) {
  const scheduler = new VirtualTimeScheduler();
  const effect$ = new Subject<ConsensusEffect>();
  const state$ = new BehaviorSubject<ConsensusState>(state);
  const prepared: [number, bigint][] = [];
  proposalAheadHandler({
    scheduler,
    clock: () => at(scheduler.now()),
    rules: proposerRules,
    prepare: (height) => prepared.push([scheduler.now(), height]),
  })(effect$, state$).subscribe();
  for (const s of schedules)
    scheduler.schedule(() => {
      effect$.next({
        type: "ScheduleTimeout",
        height: s.height ?? 6n,
        round: 0,
        step: s.step ?? RoundStep.NewHeight,
        durationMs: s.durationMs ?? 1000 - 200,
      });
    }, s.atMs);
  scheduler.flush();
  return prepared;
}

describe("streams: our proposal's hashing ahead", () => {
  it("starts the lead before startTime when we propose round 0", () => {
    assert.deepEqual(run(waiting(OURS), [{ atMs: 260 }]), [[1000 - PROPOSAL_AHEAD_LEAD_MS, 6n]]);
  });

  it("starts at once when less than the lead is left", () => {
    assert.deepEqual(run(waiting(OURS), [{ atMs: 900 }]), [[900, 6n]]);
  });

  it("never when another validator proposes, or for another step or height", () => {
    assert.deepEqual(run(waiting(THEIRS), [{ atMs: 260 }]), []);
    assert.deepEqual(run(waiting(OURS), [{ atMs: 260, step: RoundStep.Propose }]), []);
    assert.deepEqual(run(waiting(OURS), [{ atMs: 260, height: 7n }]), []);
    assert.deepEqual(run(waiting(OURS, RoundStep.Propose), [{ atMs: 260 }]), []);
  });

  it("never when no wait is left (timeout_commit = 0, or startTime passed)", () => {
    assert.deepEqual(run(waiting(OURS), [{ atMs: 260, durationMs: 0 }]), []);
    assert.deepEqual(run(waiting(OURS), [{ atMs: 1200 }]), []);
  });

  it("rules that throw make no head start and no error: the reducer meets them and halts", () => {
    const broken = {
      proposerOf: (): Validator => {
        throw new Error("broken invariant");
      },
    };
    assert.deepEqual(run(waiting(OURS), [{ atMs: 260 }], broken), []);
  });

  it("a newer NewHeight timeout replaces the pending one", () => {
    assert.deepEqual(run(waiting(OURS), [{ atMs: 100 }, { atMs: 500 }]), [
      [1000 - PROPOSAL_AHEAD_LEAD_MS, 6n],
    ]);
  });
});
