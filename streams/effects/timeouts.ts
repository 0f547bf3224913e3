// ScheduleTimeout → TimeoutElapsed on the injected scheduler. A newer timeout replaces an older
// one (switchMap), as Tendermint's ticker keeps only the latest.
import { filter, map, type Observable, type SchedulerLike, switchMap, timer } from "rxjs";
import type { ConsensusEffect, ScheduleTimeout } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { UNSTAMPED } from "../sources/stamp-time.js";

export function timeoutHandler(scheduler: SchedulerLike) {
  return function timeouts(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    return effect$.pipe(
      filter((e): e is ScheduleTimeout => e.type === "ScheduleTimeout"),
      switchMap((e) =>
        timer(Math.max(0, e.durationMs), scheduler).pipe(
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
