// The node's event loop, generic over one state machine:
//   merge(sources, feedback) → stamp → log → scan(reducer) → effects → handlers → feedback
// Inputs from effect handlers come back through `feedback`, queued (never re-entrant), so a
// transition and all its effects are complete before the next input is folded. Replaying
// the logged inputs through the same reducer yields the same transitions.
//
// An exception of our own (a reducer or an effect handler throwing: a broken invariant, never bad
// outside data) is a fault: the loop stops folding at once (later inputs are neither logged nor
// folded, so nothing more is signed) and reports one message naming the input or effect it was
// on, through `onFault`. The owner halts the node with that message (DESIGN §9).
import {
  connectable,
  merge,
  type Observable,
  observeOn,
  queueScheduler,
  ReplaySubject,
  Subject,
  type Subscription,
} from "rxjs";
import { filter, map, scan, share, tap } from "rxjs/operators";

/** A pure reducer's answer to one input. */
export interface Transition<S, E> {
  state: S;
  effects: readonly E[];
}

export type Reducer<S, I, E> = (state: S, input: I) => Transition<S, E>;

/** One folded input, with the state before and after and the effects it produced. */
export interface Step<S, I, E> {
  seq: number;
  input: I;
  before: S;
  state: S;
  effects: readonly E[];
}

export interface LoopOptions<S, I, E, R> {
  initialState: S;
  reducer: Reducer<S, I, E>;
  /** Outside inputs (peers, timers, admissions), already verified. */
  sources: Observable<I>[];
  /** Adds what only the log may add (the time an input entered it), producing the logged record. */
  stamp: (input: I, seq: number) => R;
  /** The record the reducer folds; identity when stamping does not change the input's shape. */
  toInput: (record: R) => I;
  /** Appends a record to the log before it is folded (synchronous buffering; durability is the log's). */
  append?: (record: R) => void;
  /** Effect handlers: each takes the effect stream and returns the inputs it learns. */
  handlers: ((effect$: Observable<E>, state$: Observable<S>) => Observable<I>)[];
  /**
   * Effects handed to the handlers right after start, before any input is folded: the requests a
   * restart found unanswered in the log (restart-fold.ts outstandingEffects).
   */
  resumeEffects?: readonly E[];
  /** Called once when a reducer or a handler throws; the loop has stopped folding by then. */
  onFault: (fault: LoopFault) => void;
}

/** A reducer or an effect handler threw: what it was doing, and the error. */
export interface LoopFault {
  readonly reason: string;
  readonly error: unknown;
}

/** A short name of an input or effect for a fault message: its type and, when present, height/round. */
export function describeMessage(message: unknown): string {
  if (typeof message !== "object" || message === null) return String(message);
  const m = message as { type?: unknown; height?: unknown; round?: unknown };
  const where =
    typeof m.height === "bigint" || typeof m.height === "number"
      ? ` at height ${m.height}${typeof m.round === "number" ? ` round ${m.round}` : ""}`
      : "";
  return `${typeof m.type === "string" ? m.type : "an untyped message"}${where}`;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface Loop<S, I, E> {
  /** Latest state (replays the current value to late subscribers). */
  state$: Observable<S>;
  /** Every fold, in order. */
  transition$: Observable<Step<S, I, E>>;
  /** Every effect, in order. */
  effect$: Observable<E>;
  /** Pushes an input from outside the declared sources (commands, tests). */
  dispatch(input: I): void;
  /** Starts the loop; returns a subscription whose unsubscribe stops it. */
  start(): Subscription;
}

export function createLoop<S, I, E, R>(options: LoopOptions<S, I, E, R>): Loop<S, I, E> {
  const feedback = new Subject<I>();
  const state$ = new ReplaySubject<S>(1);
  state$.next(options.initialState);
  let seq = 0;
  let faulted = false;
  // The effect being handed to the handlers right now: a handler failing synchronously failed on it.
  let emitting: { effect: E; seq: number } | undefined;
  const fault = (reason: string, error: unknown) => {
    if (faulted) return;
    faulted = true;
    options.onFault({ reason, error });
  };

  const seed: Step<S, I, E> = {
    seq: -1,
    input: undefined as unknown as I,
    before: options.initialState,
    state: options.initialState,
    effects: [],
  };
  const folded$ = merge(...options.sources, feedback).pipe(
    // Trampolines inputs that arrive while a fold or its effects are still running.
    observeOn(queueScheduler),
    // After a fault nothing more enters the log or the fold.
    filter(() => !faulted),
    map((input) => options.stamp(input, seq++)),
    tap((record) => options.append?.(record)),
    scan((previous: Step<S, I, E>, record: R, index: number): Step<S, I, E> => {
      const input = options.toInput(record);
      if (faulted) return { ...previous, effects: [] };
      try {
        const { state, effects } = options.reducer(previous.state, input);
        return { seq: index, input, before: previous.state, state, effects };
      } catch (error) {
        fault(`the reducer threw on input #${index} (${describeMessage(input)}): ${messageOf(error)}`, error);
        return { ...previous, effects: [] };
      }
    }, seed),
    filter(() => !faulted),
    tap((step) => state$.next(step.state)),
  );
  const transitions = connectable(folded$, {
    connector: () => new Subject<Step<S, I, E>>(),
    resetOnDisconnect: false,
  });
  const transition$ = transitions.pipe(share());
  const effect$ = new Subject<E>();

  return {
    state$: state$.asObservable(),
    transition$,
    effect$: effect$.asObservable(),
    dispatch: (input) => feedback.next(input),
    start() {
      // Effects are re-emitted in fold order; handlers subscribe before the loop connects.
      const running = transitions.subscribe((step) => {
        for (const effect of step.effects) {
          if (faulted) return;
          emitting = { effect, seq: step.seq };
          effect$.next(effect);
        }
        emitting = undefined;
      });
      options.handlers.forEach((handler, index) => {
        running.add(
          handler(effect$.asObservable(), state$.asObservable()).subscribe({
            next: (input) => feedback.next(input),
            error: (error: unknown) => {
              const on = emitting
                ? ` on effect ${describeMessage(emitting.effect)} of input #${emitting.seq}`
                : " (outside a fold, on work it had started)";
              fault(`effect handler ${handler.name || index} threw${on}: ${messageOf(error)}`, error);
            },
          }),
        );
      });
      running.add(transitions.connect());
      for (const effect of options.resumeEffects ?? []) {
        if (faulted) break;
        emitting = { effect, seq: -1 };
        effect$.next(effect);
      }
      emitting = undefined;
      return running;
    },
  };
}
