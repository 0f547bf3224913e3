// ScheduleTimeout → TimeoutElapsed on the injected scheduler. A newer timeout replaces an older
// one, as Tendermint's ticker keeps only the latest. A timeout already due (0 ms: the
// next height's start with timeout_commit = 0) may go on `due` instead: the node passes rxjs's
// asapScheduler, which fires once the current fold and its effects are done, not a timer tick
// (≥ 1 ms, and a turn of the event loop) later; a simulation keeps its virtual time for both.
//
// One scheduled action at a time, cancelled when the next timeout comes: what `switchMap` to a
// `timer` per timeout did (the same `schedule` call with the same delay, the earlier action
// unsubscribed first, completion once the source has completed and no timer is pending), without
// the operator chain, inner Observable and subscribers it built for every ScheduleTimeout.
import { Observable, type SchedulerLike, type Subscription } from "rxjs";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { UNSTAMPED } from "../sources/stamp-time.js";
import { isOfKinds } from "./effect-kinds.js";

/** The effect kinds this handler carries out (the factory routes these to it). */
export const TIMEOUT_KINDS = ["ScheduleTimeout"] as const;
const isTimeout = isOfKinds(TIMEOUT_KINDS);

export function timeoutHandler(scheduler: SchedulerLike, due: SchedulerLike = scheduler) {
  return function timeouts(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    return new Observable<ConsensusInput>((subscriber) => {
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
            Math.max(0, e.durationMs),
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
      };
    });
  };
}
