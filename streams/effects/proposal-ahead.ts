// Our proposal's hashing started before our turn: when the NewHeight timer of a height whose round 0
// we propose is scheduled, the data hash and Data bytes of the pool as it stands are made a little
// before the timer ends (reaping.ts, prepareAhead), in the quiet end of timeout_commit, so the reap
// at the timeout finishes them over the txs admitted since instead of hashing and encoding the
// whole block on the height's critical path (docs/network.md, "Our proposal's hashing ahead").
// Nothing is folded or logged: the reap happens when it did and reaps what it did; only where its
// hashes are computed moves. The simulation, whose handlers have no clock, does not run it.
import { Observable, type SchedulerLike, type Subscription } from "rxjs";
import { bytesEqual as sameBytes } from "../../src/bytes.js";
import { millisUntil } from "../../src/consensus/consensus-time.js";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { RoundStep } from "../../src/consensus/round-step.js";
import type { ConsensusRules } from "../../src/consensus/rules.js";
import type { ConsensusState } from "../../src/consensus/state.js";
import type { Clock } from "../sources/stamp-time.js";
import { TIMEOUT_KINDS } from "./timeouts.js";

/**
 * How long before the NewHeight timer ends the pool is hashed. Long enough for the prefix to be
 * made on a loaded node (~7,000 txs: a few tens of ms of work in pieces), short enough that most of
 * the block is in it (at 6,000 tx/s offered, 250 ms leaves ~1,500 txs for the reap).
 */
export const PROPOSAL_AHEAD_LEAD_MS = 250;

export interface ProposalAheadDeps {
  scheduler: SchedulerLike;
  /** The clock that stamps the loop's inputs (the state's startTime is on it). */
  clock: Clock;
  rules: Pick<ConsensusRules, "proposerOf">;
  /** Makes the prefix (reaping.ts prepareAhead) for `height`, our next proposal's. */
  prepare(height: bigint): void;
  leadMs?: number;
}

/** Whether we propose round 0 of the state's height, read while the state waits in NewHeight. */
export function oursAtRound0(s: ConsensusState, rules: Pick<ConsensusRules, "proposerOf">): boolean {
  if (s.ownAddress === undefined || s.ownIndex < 0 || s.roundValidators === undefined) return false;
  return sameBytes(rules.proposerOf(s.roundValidators).address, s.ownAddress);
}

/**
 * oursAtRound0, or false when the rules throw: hashing ahead is only a head start, never a decision,
 * so a broken invariant in the proposer selection is left to the reducer, which meets the same rule
 * at the round's start and halts the node naming the input it was folding (DESIGN §9).
 */
function proposesRound0(s: ConsensusState, rules: Pick<ConsensusRules, "proposerOf">): boolean {
  try {
    return oursAtRound0(s, rules);
  } catch {
    return false;
  }
}

export function proposalAheadHandler(deps: ProposalAheadDeps) {
  const lead = deps.leadMs ?? PROPOSAL_AHEAD_LEAD_MS;
  const handler = (
    effect$: Observable<ConsensusEffect>,
    state$: Observable<ConsensusState>,
  ): Observable<ConsensusInput> =>
    new Observable<ConsensusInput>(() => {
      // The state after the fold whose effects these are (the loop publishes it before them).
      let state: ConsensusState | undefined;
      const watching = state$.subscribe((s) => {
        state = s;
      });
      let pending: Subscription | undefined;
      const source = effect$.subscribe((e) => {
        if (e.type !== "ScheduleTimeout" || e.step !== RoundStep.NewHeight || e.round !== 0) return;
        const s = state;
        if (s === undefined || s.step !== RoundStep.NewHeight || s.height !== e.height || s.round !== 0)
          return;
        pending?.unsubscribe();
        pending = undefined;
        if (!proposesRound0(s, deps.rules)) return;
        const untilStart = Math.min(e.durationMs, millisUntil(deps.clock(), s.startTime));
        // No wait left (timeout_commit = 0, or a node behind its clock): the reap comes at once,
        // before a prefix could be made, and one made after it would only be dropped.
        if (untilStart <= 0) return;
        const height = e.height;
        pending = deps.scheduler.schedule(
          () => {
            pending = undefined;
            deps.prepare(height);
          },
          Math.max(0, untilStart - lead),
        );
      });
      return () => {
        pending?.unsubscribe();
        source.unsubscribe();
        watching.unsubscribe();
      };
    });
  return Object.assign(handler, { kinds: TIMEOUT_KINDS });
}
