// ScheduleTimeout → TimeoutElapsed on the injected scheduler. A newer timeout replaces an older
// one, as Tendermint's ticker keeps only the latest. A timeout already due (0 ms: the
// next height's start with timeout_commit = 0) may go on `due` instead: the node passes rxjs's
// asapScheduler, which fires once the current fold and its effects are done, not a timer tick
// (≥ 1 ms, and a turn of the event loop) later; a simulation keeps its virtual time for both.
//
// timeout_commit's end is a moment, not a length: the state's startTime (the commit's time +
// timeout_commit), as v0.34's scheduleRound0 sleeps from the moment it schedules until StartTime.
// The effect's duration is counted from the stamp of the input whose fold asked for it, and under
// load the fold that ran the block (BlockExecuted) spends 20-80 ms between its stamp and its effects
// (the log, the reducer, the state's subscribers): the timer started that much late and round 0
// began that much after startTime. Given the clock that stamps the inputs, the wait for NewHeight's
// timer is counted to startTime from when it is scheduled: never longer than the effect's duration
// (a clock stepped back changes nothing), and the input it fires is the same, so replay is too.
//
// One scheduled action at a time, cancelled when the next timeout comes: what `switchMap` to a
// `timer` per timeout did (the same `schedule` call with the same delay, the earlier action
// unsubscribed first, completion once the source has completed and no timer is pending), without
// the operator chain, inner Observable and subscribers it built for every ScheduleTimeout.
import { Observable, type SchedulerLike, type Subscription } from "rxjs";
import { millisUntil } from "../../src/consensus/consensus-time.js";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { RoundStep } from "../../src/consensus/round-step.js";
import type { ConsensusState } from "../../src/consensus/state.js";
import { type Clock, UNSTAMPED } from "../sources/stamp-time.js";
import { isOfKinds } from "./effect-kinds.js";

/** The effect kinds this handler carries out (the factory routes these to it). */
export const TIMEOUT_KINDS = ["ScheduleTimeout"] as const;
const isTimeout = isOfKinds(TIMEOUT_KINDS);

type ScheduleTimeout = Extract<ConsensusEffect, { type: "ScheduleTimeout" }>;

/**
 * `clock`: the clock that stamps consensus inputs. Without it (or without `state$`) every timeout
 * waits its effect's duration.
 */
export function timeoutHandler(scheduler: SchedulerLike, due: SchedulerLike = scheduler, clock?: Clock) {
  return function timeouts(
    effect$: Observable<ConsensusEffect>,
    state$?: Observable<ConsensusState>,
  ): Observable<ConsensusInput> {
    return new Observable<ConsensusInput>((subscriber) => {
      // The state after the fold whose effects these are (the loop publishes it before them).
      let state: ConsensusState | undefined;
      const watching =
        clock === undefined
          ? undefined
          : state$?.subscribe((s) => {
              state = s;
            });
      let pending: Subscription | undefined;
      let sourceDone = false;
      // Which timeout is the latest, and which one fired last: a timer fired inside `schedule`
      // itself (an asap or queue action run at once) leaves nothing pending.
      let latest = 0;
      let fired = 0;
      const source = effect$.subscribe({
        next(e) {
          if (!isTimeout(e)) return;
          pending?.unsubscribe();
          pending = undefined;
          const elapsed: ConsensusInput = {
            type: "TimeoutElapsed",
            time: UNSTAMPED,
            height: e.height,
            round: e.round,
            step: e.step,
          };
          const mine = ++latest;
          const action = (e.durationMs <= 0 ? due : scheduler).schedule(
            () => {
              if (mine !== latest) return;
              fired = mine;
              pending = undefined;
              subscriber.next(elapsed);
              if (sourceDone && pending === undefined) subscriber.complete();
            },
            e.durationMs <= 0 ? 0 : waitMs(e, state, clock),
          );
          if (fired !== mine && mine === latest) pending = action;
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          sourceDone = true;
          if (pending === undefined) subscriber.complete();
        },
      });
      return () => {
        pending?.unsubscribe();
        source.unsubscribe();
        watching?.unsubscribe();
      };
    });
  };
}

/** The wait for a timeout still to come: to startTime for the height's NewHeight timer, see above. */
export function waitMs(
  e: ScheduleTimeout,
  latest: ConsensusState | undefined,
  clock: Clock | undefined,
): number {
  if (
    clock === undefined ||
    latest === undefined ||
    e.step !== RoundStep.NewHeight ||
    latest.step !== RoundStep.NewHeight ||
    latest.height !== e.height ||
    latest.round !== e.round
  )
    return e.durationMs;
  return Math.min(e.durationMs, millisUntil(clock(), latest.startTime));
}
