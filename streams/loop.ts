// The node's event loop, generic over one state machine:
//   merge(sources, feedback) → stamp → log → fold(reducer) → effects → handlers → feedback
// Inputs from effect handlers come back as feedback, queued (never re-entrant), so a
// transition and all its effects are complete before the next input is folded. Replaying
// the logged inputs through the same reducer yields the same transitions.
//
// An exception of our own (a reducer or an effect handler throwing: a broken invariant, never bad
// outside data) is a fault: the loop stops folding at once (later inputs are neither logged nor
// folded, so nothing more is signed) and reports one message naming the input or effect it was
// on, through `onFault`. The owner halts the node with that message (DESIGN §9).
import { merge, Observable, type Subscription } from "rxjs";
import { share } from "rxjs/operators";
import { LatestValue, Multicast } from "./multicast.js";

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
  /**
   * Effect handlers: each takes the effect stream and returns the inputs it learns. A handler that
   * names its `kinds` is handed only effects of those kinds (see LoopHandler).
   */
  handlers: LoopHandler<S, I, E>[];
  /**
   * Effects handed to the handlers right after start, before any input is folded: the requests a
   * restart found unanswered in the log (restart-fold.ts outstandingEffects).
   */
  resumeEffects?: readonly E[];
  /** Called once when a reducer or a handler throws; the loop has stopped folding by then. */
  onFault: (fault: LoopFault) => void;
}

/**
 * An effect handler. With `kinds` (the `type`s of the effects it carries out) the loop hands it only
 * those effects, through a table from kind to handlers built once per kind: an effect of a kind no
 * handler names costs one lookup, not a pass through every handler's filter. Without `kinds` it is
 * handed every effect. A handler keeps its own filter all the same, so it can be subscribed to a
 * stream of every effect outside the loop (tests) and do the same.
 */
export type LoopHandler<S, I, E> = ((effect$: Observable<E>, state$: Observable<S>) => Observable<I>) & {
  readonly kinds?: readonly string[];
};

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

/** The loop createLoop makes: a Loop, and observers by kind served from its handlers' table. */
export interface KindedLoop<S, I, E> extends Loop<S, I, E> {
  /**
   * The effects of the given kinds (their `type`), in order, through the same table as the handlers:
   * for an observer of a few kinds, which `effect$` would hand every effect (the simulation's checker).
   */
  effectsOf(kinds: readonly string[]): Observable<E>;
}

// Inputs that arrive while a fold or its effects are running wait here, first in first out, and
// are folded once it is done: one queue for every loop of the process, as rxjs's queueScheduler
// gave (an input one loop's effect hands to another loop is folded after the first loop's fold and
// all its effects, not inside them). A plain array drained in place: the scheduler's action object,
// subscription bookkeeping and operator chain per input were a tenth of a simulated validator's
// time, and a node's inputs take the same path.
const waiting: (() => void)[] = [];
let draining = false;

function trampoline(work: () => void): void {
  if (draining) {
    waiting.push(work);
    return;
  }
  draining = true;
  try {
    work();
    for (let i = 0; i < waiting.length; i++) waiting[i]!();
  } finally {
    waiting.length = 0;
    draining = false;
  }
}

/** Where one effect goes: a handler's own stream, or an `effectsOf` observer. */
interface Sink<E> {
  /** Undefined: every kind. */
  readonly kinds: ReadonlySet<string> | undefined;
  readonly next: (effect: E) => void;
}

const kindOf = (effect: unknown): string | undefined => {
  const type = (effect as { type?: unknown } | null)?.type;
  return typeof type === "string" ? type : undefined;
};

export function createLoop<S, I, E, R>(options: LoopOptions<S, I, E, R>): KindedLoop<S, I, E> {
  // The latest state, replayed to late subscribers (as a BehaviorSubject would: ReplaySubject(1) did
  // the same with a buffer trimmed at every fold). This and the loop's other streams are Multicasts,
  // not Subjects: a Subject's every value was garbage per observer (multicast.ts), at every fold
  // and every effect.
  const state$ = new LatestValue<S>(options.initialState);
  let seq = 0;
  let faulted = false;
  // Inputs are taken between connect and stop (an input dispatched before start or after stop is
  // lost, as one pushed into an unsubscribed stream); a failure of our own log ends the fold.
  let connected = false;
  let failed = false;
  // The effect being handed to the handlers right now: a handler failing synchronously failed on it.
  let emitting: { effect: E; seq: number } | undefined;
  const fault = (reason: string, error: unknown) => {
    if (faulted) return;
    faulted = true;
    options.onFault({ reason, error });
  };

  let previous: Step<S, I, E> = {
    seq: -1,
    input: undefined as unknown as I,
    before: options.initialState,
    state: options.initialState,
    effects: [],
  };
  const folded = new Multicast<Step<S, I, E>>();
  const transition$ = folded.pipe(share({ connector: () => new Multicast<Step<S, I, E>>() }));
  const effect$ = new Multicast<E>();
  // The sinks in the order they were registered (handlers at start, in the handlers' order), and per
  // kind the ones it goes to, worked out the first time the kind is seen and again only after a sink
  // comes or goes. Each list is a fresh array, so a sink leaving during an emission leaves the list
  // being walked whole (as a Subject hands a value to the observers it had when next was called).
  let sinks: Sink<E>[] = [];
  let byKind = new Map<string | undefined, Sink<E>[]>();
  const sinksFor = (kind: string | undefined): Sink<E>[] => {
    let list = byKind.get(kind);
    if (list === undefined) {
      list = sinks.filter((s) => s.kinds === undefined || (kind !== undefined && s.kinds.has(kind)));
      byKind.set(kind, list);
    }
    return list;
  };
  const addSink = (sink: Sink<E>): (() => void) => {
    sinks = [...sinks, sink];
    byKind = new Map();
    return () => {
      sinks = sinks.filter((s) => s !== sink);
      byKind = new Map();
    };
  };
  /**
   * One effect out: first to `effect$`'s observers (the node's and the simulation's subscribe before
   * start, so they heard it first when every handler was an observer of `effect$` too), then to the
   * sinks of its kind in registration order.
   */
  const emit = (effect: E): void => {
    if (effect$.observed) effect$.next(effect);
    const targets = sinksFor(kindOf(effect));
    for (let i = 0; i < targets.length; i++) targets[i]!.next(effect);
  };

  /** One input: stamp, log, fold, publish the step (its effects go out through `folded`'s first subscriber). */
  const fold = (input: I): void => {
    // After a fault nothing more enters the log or the fold; after stop nothing at all.
    if (!connected || faulted || failed) return;
    let record: R;
    let logged: I;
    try {
      const index = seq++;
      record = options.stamp(input, index);
      options.append?.(record);
      logged = options.toInput(record);
    } catch (error) {
      // The log refused the record: the fold ends and subscribers hear the error, unfolded.
      failed = true;
      folded.error(error);
      return;
    }
    const index = seq - 1;
    let step: Step<S, I, E>;
    try {
      const { state, effects } = options.reducer(previous.state, logged);
      step = { seq: index, input: logged, before: previous.state, state, effects };
    } catch (error) {
      fault(`the reducer threw on input #${index} (${describeMessage(logged)}): ${messageOf(error)}`, error);
      return;
    }
    previous = step;
    state$.next(step.state);
    folded.next(step);
  };
  const take = (input: I): void => {
    if (connected) trampoline(() => fold(input));
  };

  return {
    state$: state$.asObservable(),
    transition$,
    effect$: effect$.asObservable(),
    effectsOf: (kinds) =>
      new Observable<E>((observer) => addSink({ kinds: new Set(kinds), next: (e) => observer.next(e) })),
    dispatch: take,
    start() {
      // Effects are re-emitted in fold order; handlers subscribe before the loop connects.
      const running = folded.subscribe((step) => {
        for (const effect of step.effects) {
          if (faulted) return;
          emitting = { effect, seq: step.seq };
          emit(effect);
        }
        emitting = undefined;
      });
      options.handlers.forEach((handler, index) => {
        const own = new Multicast<E>();
        running.add(addSink({ kinds: handler.kinds && new Set(handler.kinds), next: (e) => own.next(e) }));
        running.add(
          handler(own.asObservable(), state$.asObservable()).subscribe({
            next: take,
            error: (error: unknown) => {
              const on = emitting
                ? ` on effect ${describeMessage(emitting.effect)} of input #${emitting.seq}`
                : " (outside a fold, on work it had started)";
              fault(`effect handler ${handler.name || index} threw${on}: ${messageOf(error)}`, error);
            },
          }),
        );
      });
      connected = true;
      running.add(() => {
        connected = false;
      });
      running.add(
        merge(...options.sources).subscribe({
          next: take,
          // A source failing ends the fold as a failing log does (no source of ours fails).
          error: (error: unknown) =>
            trampoline(() => {
              if (!connected || failed) return;
              failed = true;
              folded.error(error);
            }),
        }),
      );
      for (const effect of options.resumeEffects ?? []) {
        if (faulted) break;
        emitting = { effect, seq: -1 };
        emit(effect);
      }
      emitting = undefined;
      return running;
    },
  };
}
