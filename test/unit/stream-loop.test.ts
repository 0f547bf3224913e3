import assert from "node:assert/strict";
import { test } from "node:test";
import { delay, filter, map, type Observable, of, Subject, VirtualTimeScheduler } from "rxjs";
import { mergeMap } from "rxjs/operators";
import { createLoop, type Reducer, type Step } from "../../streams/loop.js";

type Input =
  | { type: "Added"; amount: number; time?: number }
  | { type: "Echoed"; value: number; time?: number };
type Effect = { type: "Echo"; value: number } | { type: "Notify"; total: number };
interface State {
  total: number;
  echoes: number[];
}

// A toy reducer: every addition asks for an echo of the new total; echoes are recorded.
const reducer: Reducer<State, Input, Effect> = (state, input) => {
  switch (input.type) {
    case "Added": {
      const total = state.total + input.amount;
      return {
        state: { ...state, total },
        effects: [
          { type: "Echo", value: total },
          { type: "Notify", total },
        ],
      };
    }
    case "Echoed":
      return { state: { ...state, echoes: [...state.echoes, input.value] }, effects: [] };
  }
};

const echoHandler = (effect$: Observable<Effect>): Observable<Input> =>
  effect$.pipe(
    filter((e): e is Extract<Effect, { type: "Echo" }> => e.type === "Echo"),
    map((e) => ({ type: "Echoed", value: e.value }) as Input),
  );

function makeLoop(sources: Observable<Input>[], clock: () => number, log: Input[]) {
  return createLoop<State, Input, Effect, Input>({
    initialState: { total: 0, echoes: [] },
    reducer,
    sources,
    stamp: (input) => ({ ...input, time: clock() }),
    toInput: (record) => record,
    append: (record) => log.push(record),
    handlers: [echoHandler],
    onFault: (fault) => {
      throw fault.error;
    },
  });
}

test("synchronous feedback is queued behind the transition that caused it", () => {
  const source = new Subject<Input>();
  const log: Input[] = [];
  const loop = makeLoop([source], () => 0, log);
  const steps: Step<State, Input, Effect>[] = [];
  const trace: string[] = [];
  loop.transition$.subscribe((s) => {
    steps.push(s);
    trace.push(`fold:${s.input.type}`);
  });
  loop.effect$.subscribe((e) => trace.push(`effect:${e.type}`));
  const running = loop.start();
  source.next({ type: "Added", amount: 2 });
  // Re-entrant feedback would fold Echoed between Echo and Notify.
  assert.deepEqual(trace, ["fold:Added", "effect:Echo", "effect:Notify", "fold:Echoed"]);
  source.next({ type: "Added", amount: 3 });
  running.unsubscribe();
  assert.deepEqual(
    log.map((r) => r.type),
    ["Added", "Echoed", "Added", "Echoed"],
  );
  assert.deepEqual(steps.at(-1)?.state, { total: 5, echoes: [2, 5] });
  assert.deepEqual(
    steps.map((s) => s.seq),
    [0, 1, 2, 3],
  );
});

test("an input one loop hands to another during its fold waits, first in first out, until that fold and its effects are done", () => {
  const trace: string[] = [];
  const second = makeLoop([], () => 0, []);
  second.transition$.subscribe((s) => trace.push(`second fold:${s.input.type}`));
  const first = makeLoop([], () => 0, []);
  first.transition$.subscribe((s) => trace.push(`first fold:${s.input.type}`));
  first.effect$.subscribe((e) => {
    trace.push(`first effect:${e.type}`);
    if (e.type === "Echo") second.dispatch({ type: "Added", amount: e.value });
  });
  const running = [first.start(), second.start()];
  first.dispatch({ type: "Added", amount: 1 });
  for (const r of running) r.unsubscribe();
  assert.deepEqual(trace, [
    "first fold:Added",
    "first effect:Echo",
    "first effect:Notify",
    // Handed over (by the subscriber ahead of the echo handler) before the echo came back.
    "second fold:Added",
    "first fold:Echoed",
    "second fold:Echoed",
  ]);
});

test("inputs dispatched before start or after stop are not folded", () => {
  const log: Input[] = [];
  const loop = makeLoop([], () => 0, log);
  loop.dispatch({ type: "Added", amount: 1 });
  const running = loop.start();
  loop.dispatch({ type: "Added", amount: 2 });
  running.unsubscribe();
  loop.dispatch({ type: "Added", amount: 3 });
  assert.deepEqual(
    log.map((r) => (r.type === "Added" ? r.amount : `echo ${r.value}`)),
    [2, "echo 2"],
  );
});

test("replaying the logged records through the reducer reproduces every state and effect", () => {
  const source = new Subject<Input>();
  const log: Input[] = [];
  const loop = makeLoop([source], () => 7, log);
  const live: Step<State, Input, Effect>[] = [];
  loop.transition$.subscribe((s) => live.push(s));
  const running = loop.start();
  for (let i = 1; i <= 20; i++) source.next({ type: "Added", amount: i });
  running.unsubscribe();

  let state: State = { total: 0, echoes: [] };
  const replayed = log.map((record) => {
    const t = reducer(state, record);
    state = t.state;
    return t;
  });
  assert.equal(replayed.length, live.length);
  assert.equal(
    JSON.stringify(replayed.map((t) => [t.state, t.effects])),
    JSON.stringify(live.map((s) => [s.state, s.effects])),
  );
  assert.ok(
    log.every((r) => r.time === 7),
    "every record carries the stamped time",
  );
});

test("timers on an injected virtual-time scheduler drive the loop without real waiting", () => {
  const scheduler = new VirtualTimeScheduler();
  const log: Input[] = [];
  const timed = of(1, 2, 3).pipe(
    mergeMap((n) => of({ type: "Added", amount: n } as Input).pipe(delay(n * 1000, scheduler))),
  );
  const loop = makeLoop([timed], () => scheduler.now(), log);
  let latest: State | undefined;
  loop.state$.subscribe((s) => {
    latest = s;
  });
  const running = loop.start();
  assert.equal(latest?.total, 0);
  scheduler.flush();
  running.unsubscribe();
  assert.equal(latest?.total, 6);
  assert.deepEqual(
    log.filter((r) => r.type === "Added").map((r) => r.time),
    [1000, 2000, 3000],
  );
});

test("state$ replays the latest state to a late subscriber", () => {
  const source = new Subject<Input>();
  const loop = makeLoop([source], () => 0, []);
  const running = loop.start();
  source.next({ type: "Added", amount: 4 });
  let seen: State | undefined;
  loop.state$.subscribe((s) => {
    seen = s;
  });
  running.unsubscribe();
  assert.equal(seen?.total, 4);
});
