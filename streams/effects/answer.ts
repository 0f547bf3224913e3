// An effect handler's port answers now (a simulation on virtual time), later (a promise: the
// node's disk, worker pool, signer) or as a stream (a simulated delay on the virtual scheduler).
// `answerOf` makes an Observable of any of them that emits synchronously when the answer is
// already here, so the same handler runs a simulated validator within one step of virtual time.
import { defer, from, isObservable, type Observable, of } from "rxjs";
import { isPromise, type MaybePromise } from "../../src/types/maybe-async.js";

export type PortAnswer<T> = MaybePromise<T> | Observable<T>;

/** The answer of `work()` as an Observable; a synchronous throw becomes the Observable's error. */
export function answerOf<T>(work: () => PortAnswer<T>): Observable<T> {
  return defer(() => {
    const answer = work();
    if (isObservable(answer)) return answer;
    return isPromise(answer) ? from(answer) : of(answer);
  });
}
