// Our own exception inside the loop is a fault, never a crash or a hang: a reducer or an effect
// handler that throws stops the fold at once (nothing later is logged, folded or handed to a
// handler, so nothing more is signed) and `onFault` gets one message naming the input or effect.
import assert from "node:assert/strict";
import { test } from "node:test";
import { filter, map, type Observable, Subject } from "rxjs";
import { createLoop, describeMessage, type LoopFault, type Reducer } from "../../streams/loop.js";

type Input = { type: "Added"; amount: number; height?: bigint } | { type: "Echoed"; value: number };
type Effect = { type: "Echo"; value: number };

const reducer: Reducer<number, Input, Effect> = (total, input) => {
  if (input.type === "Echoed") return { state: total, effects: [] };
  if (input.amount < 0) throw new Error(`broken invariant: negative amount ${input.amount}`);
  return { state: total + input.amount, effects: [{ type: "Echo", value: total + input.amount }] };
};

function run(handler: (effect$: Observable<Effect>) => Observable<Input>) {
  const source = new Subject<Input>();
  const logged: Input[] = [];
  const faults: LoopFault[] = [];
  const effects: Effect[] = [];
  const loop = createLoop<number, Input, Effect, Input>({
    initialState: 0,
    reducer,
    sources: [source],
    stamp: (input) => input,
    toInput: (record) => record,
    append: (record) => logged.push(record),
    handlers: [handler],
    onFault: (fault) => faults.push(fault),
  });
  loop.effect$.subscribe((e) => effects.push(e));
  let latest = -1;
  loop.state$.subscribe((s) => {
    latest = s;
  });
  const running = loop.start();
  return { source, logged, faults, effects, running, latest: () => latest };
}

const echo = (effect$: Observable<Effect>): Observable<Input> =>
  effect$.pipe(map((e): Input => ({ type: "Echoed", value: e.value })));

test("a reducer that throws halts the fold and names the input", () => {
  const r = run(echo);
  r.source.next({ type: "Added", amount: 2 });
  r.source.next({ type: "Added", amount: -1, height: 7n });
  r.source.next({ type: "Added", amount: 5 });
  r.running.unsubscribe();
  assert.equal(r.faults.length, 1);
  assert.equal(
    r.faults[0]!.reason,
    "the reducer threw on input #2 (Added at height 7): broken invariant: negative amount -1",
  );
  // The faulty input was logged before its fold (it is what a restart halts on); nothing after it.
  assert.deepEqual(
    r.logged.map((i) => (i.type === "Added" ? i.amount : `echo ${i.value}`)),
    [2, "echo 2", -1],
  );
  assert.equal(r.latest(), 2, "the state stays the last good one");
  assert.deepEqual(r.effects, [{ type: "Echo", value: 2 }]);
});

test("a handler that throws on an effect halts the fold and names the effect and its input", () => {
  const failing = (effect$: Observable<Effect>): Observable<Input> =>
    effect$.pipe(
      filter((e) => {
        if (e.value > 10) throw new Error(`cannot echo ${e.value}`);
        return true;
      }),
      map((e): Input => ({ type: "Echoed", value: e.value })),
    );
  const r = run(failing);
  r.source.next({ type: "Added", amount: 4 });
  r.source.next({ type: "Added", amount: 9 });
  r.source.next({ type: "Added", amount: 1 });
  r.running.unsubscribe();
  assert.equal(r.faults.length, 1);
  assert.match(
    r.faults[0]!.reason,
    /^effect handler failing threw on effect Echo of input #2: cannot echo 13$/,
  );
  assert.equal(r.latest(), 13);
  assert.equal(r.logged.length, 3, "Added 4, its echo, Added 9: the later Added is not logged");
});

test("an asynchronous handler failure halts too, saying it was outside a fold", async () => {
  const late = new Subject<Input>();
  const r = run(() => late);
  r.source.next({ type: "Added", amount: 1 });
  late.error(new Error("socket gone"));
  r.source.next({ type: "Added", amount: 1 });
  r.running.unsubscribe();
  assert.equal(r.faults.length, 1);
  assert.match(
    r.faults[0]!.reason,
    /^effect handler 0 threw \(outside a fold, on work it had started\): socket gone$/,
  );
  assert.equal(r.latest(), 1);
});

test("describeMessage names a message's type and, when it has them, height and round", () => {
  assert.equal(
    describeMessage({ type: "VoteReceived", height: 3n, round: 1 }),
    "VoteReceived at height 3 round 1",
  );
  assert.equal(describeMessage({ type: "TxsAvailable" }), "TxsAvailable");
  assert.equal(describeMessage(undefined), "undefined");
});
