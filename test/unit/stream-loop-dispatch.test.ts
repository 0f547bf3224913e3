// The loop hands each effect only to the handlers and observers that name its kind (streams/loop.ts
// LoopHandler.kinds, Loop.effectsOf), in a fixed order: `effect$`'s observers, then the sinks in the
// order they were registered; handlers without kinds hear every effect.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ignoreElements, type Observable, tap } from "rxjs";
import { createLoop, type LoopHandler, type Reducer } from "../../streams/loop.js";

type Input = { type: "Go"; n: number };
type Effect = { type: "A"; n: number } | { type: "B"; n: number } | { type: "Unheard"; n: number };

// Each input asks for one effect of every kind.
const reducer: Reducer<number, Input, Effect> = (state, input) => ({
  state: state + 1,
  effects: [
    { type: "A", n: input.n },
    { type: "B", n: input.n },
    { type: "Unheard", n: input.n },
  ],
});

// A handler with no filter of its own: what it records is exactly what the loop handed it.
function recorder(
  name: string,
  heard: string[],
  kinds?: readonly string[],
): LoopHandler<number, Input, Effect> {
  const handler = (effect$: Observable<Effect>): Observable<Input> =>
    effect$.pipe(
      tap((e) => heard.push(`${name}:${e.type}${e.n}`)),
      ignoreElements(),
    );
  return kinds ? Object.assign(handler, { kinds }) : handler;
}

function loopWith(handlers: LoopHandler<number, Input, Effect>[]) {
  return createLoop<number, Input, Effect, Input>({
    initialState: 0,
    reducer,
    sources: [],
    stamp: (input) => input,
    toInput: (record) => record,
    handlers,
    onFault: (fault) => {
      throw fault.error;
    },
  });
}

test("a handler naming its kinds is handed only effects of those kinds; one without kinds, every effect", () => {
  const heard: string[] = [];
  const loop = loopWith([
    recorder("a", heard, ["A"]),
    recorder("all", heard),
    recorder("ab", heard, ["A", "B"]),
  ]);
  const running = loop.start();
  loop.dispatch({ type: "Go", n: 1 });
  running.unsubscribe();
  assert.deepEqual(heard, ["a:A1", "all:A1", "ab:A1", "all:B1", "ab:B1", "all:Unheard1"]);
});

test("effect$ hears every effect first; effectsOf observers and handlers follow in registration order", () => {
  const heard: string[] = [];
  const loop = loopWith([recorder("h", heard, ["A", "B"])]);
  const all = loop.effect$.subscribe((e) => heard.push(`all:${e.type}${e.n}`));
  const some = loop.effectsOf(["B", "Unheard"]).subscribe((e) => heard.push(`of:${e.type}${e.n}`));
  const running = loop.start();
  loop.dispatch({ type: "Go", n: 1 });
  assert.deepEqual(heard, ["all:A1", "h:A1", "all:B1", "of:B1", "h:B1", "all:Unheard1", "of:Unheard1"]);

  // An observer that leaves hears nothing more; the table is worked out again without it.
  heard.length = 0;
  some.unsubscribe();
  all.unsubscribe();
  loop.dispatch({ type: "Go", n: 2 });
  running.unsubscribe();
  assert.deepEqual(heard, ["h:A2", "h:B2"]);
});

test("an effect of a kind nobody names reaches no handler", () => {
  const heard: string[] = [];
  const loop = loopWith([recorder("a", heard, ["A"]), recorder("b", heard, ["B"])]);
  const running = loop.start();
  loop.dispatch({ type: "Go", n: 1 });
  loop.dispatch({ type: "Go", n: 2 });
  running.unsubscribe();
  assert.equal(heard.filter((h) => h.includes("Unheard")).length, 0);
  assert.deepEqual(heard, ["a:A1", "b:B1", "a:A2", "b:B2"]);
});
