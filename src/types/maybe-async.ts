// A value now or later. The decisions of src/ are synchronous pure functions; what they need
// from outside (a batch of signatures checked, a signer's durable save, history from the stores)
// comes through ports that answer synchronously in a simulation on virtual time and through
// promises in the node. Code written with `andThen` runs synchronously end to end when every port
// did, so one implementation of a rule serves both.

export type MaybePromise<T> = T | Promise<T>;

export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** `next(value)`, now when `value` is here, else once it resolves. */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return isPromise(value) ? value.then(next) : next(value);
}

/** `work()`, with a throw or a rejection mapped through `onError` (now or later, as `work` answered). */
export function recover<T>(work: () => MaybePromise<T>, onError: (error: unknown) => T): MaybePromise<T> {
  let result: MaybePromise<T>;
  try {
    result = work();
  } catch (error) {
    return onError(error);
  }
  return isPromise(result) ? result.catch(onError) : result;
}
