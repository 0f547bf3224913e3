// ScheduleTimeout → TimeoutElapsed on the injected scheduler. A newer timeout replaces an older
// one (switchMap), as Tendermint's ticker keeps only the latest. A timeout already due (0 ms: the
// next height's start with timeout_commit = 0) may go on `due` instead: the node passes rxjs's
// asapScheduler, which fires once the current fold and its effects are done, not a timer tick
// (≥ 1 ms, and a turn of the event loop) later; a simulation keeps its virtual time for both.
import { filter, map, type Observable, type SchedulerLike, switchMap, timer } from "rxjs";
import type { ConsensusEffect, ScheduleTimeout } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { UNSTAMPED } from "../sources/stamp-time.js";

export function timeoutHandler(scheduler: SchedulerLike, due: SchedulerLike = scheduler) {
  return function timeouts(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    return effect$.pipe(
      filter((e): e is ScheduleTimeout => e.type === "ScheduleTimeout"),
      switchMap((e) =>
        timer(Math.max(0, e.durationMs), e.durationMs <= 0 ? due : scheduler).pipe(
          map(
            (): ConsensusInput => ({
              type: "TimeoutElapsed",
              time: UNSTAMPED,
              height: e.height,
              round: e.round,
              step: e.step,
            }),
          ),
        ),
      ),
    );
  };
}
