// A hot stream that hands each value to its subscribers, in the order they subscribed: what an rxjs
// Subject does for the loop's per-effect and per-fold streams, without the garbage a Subject makes
// on every value. rxjs's CommonJS build (the one Node loads) walks a Subject's observers through
// a down-levelled iterator: each `next` made a closure, an iterator object with a closure of its
// own, and a result object per observer, ~1.5 KB a tx over the six or so Subjects a tx's effects
// pass (a fifth of a loaded node's sampled allocations, docs/mempool.md "Eighth pass"). Here a
// value is handed on by an index loop over an array that is replaced, never changed, when a
// subscriber comes or goes: a subscriber added while a value is being handed on does not get it,
// and one that left meanwhile is skipped by its own closed Subscriber, as with a Subject.
import { Observable, type Subscriber, type TeardownLogic } from "rxjs";

export class Multicast<T> extends Observable<T> {
  #subscribers: Subscriber<T>[] = [];
  /** Set once error or complete ended the stream: what a later subscriber hears at once. */
  #ended: { error: unknown } | { completed: true } | undefined;

  /** @internal rxjs's hook for a subscriber: it is added, or told at once how the stream ended. */
  protected _subscribe(subscriber: Subscriber<T>): TeardownLogic {
    const ended = this.#ended;
    if (ended !== undefined) {
      if ("error" in ended) subscriber.error(ended.error);
      else subscriber.complete();
      return undefined;
    }
    this.#subscribers = [...this.#subscribers, subscriber];
    return () => {
      this.#subscribers = this.#subscribers.filter((s) => s !== subscriber);
    };
  }

  /** Whether anyone is subscribed (Subject's `observed`). */
  get observed(): boolean {
    return this.#subscribers.length > 0;
  }

  next(value: T): void {
    if (this.#ended !== undefined) return;
    const subscribers = this.#subscribers;
    for (let i = 0; i < subscribers.length; i++) subscribers[i]!.next(value);
  }

  error(error: unknown): void {
    if (this.#ended !== undefined) return;
    this.#ended = { error };
    const subscribers = this.#subscribers;
    this.#subscribers = [];
    for (let i = 0; i < subscribers.length; i++) subscribers[i]!.error(error);
  }

  complete(): void {
    if (this.#ended !== undefined) return;
    this.#ended = { completed: true };
    const subscribers = this.#subscribers;
    this.#subscribers = [];
    for (let i = 0; i < subscribers.length; i++) subscribers[i]!.complete();
  }

  /** The stream without next/error/complete (Subject's `asObservable`). */
  asObservable(): Observable<T> {
    return new Observable<T>((subscriber) => this.subscribe(subscriber));
  }
}

/**
 * A Multicast that keeps its latest value and hands it to each new subscriber first (what a
 * BehaviorSubject does): the loop's state, handed on at every fold.
 */
export class LatestValue<T> extends Multicast<T> {
  #value: T;

  constructor(initial: T) {
    super();
    this.#value = initial;
  }

  get value(): T {
    return this.#value;
  }

  override next(value: T): void {
    this.#value = value;
    super.next(value);
  }

  /** @internal rxjs calls this on subscribe: the subscriber is added, then handed the latest value. */
  protected override _subscribe(subscriber: Subscriber<T>): TeardownLogic {
    const teardown = super._subscribe(subscriber);
    if (!subscriber.closed) subscriber.next(this.#value);
    return teardown;
  }
}
