// An effect handler's port answers now (a simulation on virtual time), later (a promise: the
// node's disk, worker pool, signer) or as a stream (a simulated delay on the virtual scheduler).
// `answerOf` makes an Observable of any of them that emits synchronously when the answer is
// already here, so the same handler runs a simulated validator within one step of virtual time.
import { from, isObservable, Observable } from "rxjs";
import { isPromise, type MaybePromise } from "../../src/types/maybe-async.js";

export type PortAnswer<T> = MaybePromise<T> | Observable<T>;

/**
 * The answer of `work()` as an Observable; a synchronous throw becomes the Observable's error (rxjs
 * sends what a subscribe function throws to the subscriber). An answer already here is emitted
 * directly: this runs for every signature, validation and execution of a simulated validator,
 * and defer wrapping of(answer) cost two more Observables and their subscriptions each time.
 */
export function answerOf<T>(work: () => PortAnswer<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const answer = work();
    if (isObservable(answer)) return answer.subscribe(subscriber);
    if (isPromise(answer)) return from(answer).subscribe(subscriber);
    subscriber.next(answer);
    subscriber.complete();
    return undefined;
  });
}
