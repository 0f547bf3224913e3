// Fan-out off the height's critical path: the slicer that delivers the node's events on later
// turns, and the hub over it. What must hold: the publisher's run delivers nothing (below the
// bound), each subscriber gets every event it matches in publishing order across slices, a
// slice stops at its message count and its time, and at the bound the publisher delivers the
// oldest itself, dropping nothing.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RpcEvent } from "../../src/rpc/context.js";
import { passThroughEncoder } from "../../src/rpc/encoder.js";
import { DeliverySlicer, type SlicerClock } from "../../src/rpc/subscriptions/delivery-slicer.js";
import { RecordingConnection as Connection, hubOverSource } from "./rpc-hub-fixture.js";

/** A clock whose turns run when the test says, and whose time moves only when told. */
function manualClock() {
  const tasks: Array<() => void> = [];
  let time = 0;
  const clock: SlicerClock = {
    schedule: (task) => tasks.push(task),
    now: () => time,
  };
  return {
    clock,
    tasks,
    advance: (ms: number) => {
      time += ms;
    },
    /** runs the next scheduled turn; false when none is scheduled */
    turn: () => {
      const task = tasks.shift();
      task?.();
      return task !== undefined;
    },
  };
}

/**
 * A slicer of numbered items that records each delivery, each item worth `messages` messages and
 * taking `msPerItem` of the manual clock's time.
 */
function recordingSlicer(
  m: ReturnType<typeof manualClock>,
  messages: number,
  limits: { maxPending: number; messagesPerSlice: number; sliceMs: number },
  msPerItem = 0,
) {
  const got: number[] = [];
  const slicer = new DeliverySlicer<number>(
    (n) => {
      got.push(n);
      m.advance(msPerItem);
      return messages;
    },
    limits,
    m.clock,
  );
  return { got, slicer };
}

describe("delivery slicer", () => {
  it("delivers nothing in the publisher's run, then in order, a slice's messages at a time", () => {
    const m = manualClock();
    // each item is worth two messages: a slice of 5 messages ends after the third item
    const { got, slicer } = recordingSlicer(m, 2, { maxPending: 100, messagesPerSlice: 5, sliceMs: 1000 });
    for (let i = 0; i < 10; i++) slicer.push(i);
    assert.deepEqual(got, []);
    assert.equal(m.tasks.length, 1, "one turn scheduled, not one per item");
    assert.equal(m.turn(), true);
    assert.deepEqual(got, [0, 1, 2]);
    assert.equal(slicer.pending, 7);
    let turns = 1;
    while (m.turn()) turns++;
    assert.deepEqual(
      got,
      Array.from({ length: 10 }, (_, i) => i),
    );
    assert.equal(turns, 4);
    assert.equal(slicer.pending, 0);
  });

  it("ends a slice when its time is spent", () => {
    const m = manualClock();
    const { got, slicer } = recordingSlicer(m, 1, { maxPending: 100, messagesPerSlice: 1000, sliceMs: 3 }, 1);
    for (let i = 0; i < 7; i++) slicer.push(i);
    m.turn();
    assert.deepEqual(got, [0, 1, 2]);
    m.turn();
    assert.deepEqual(got, [0, 1, 2, 3, 4, 5]);
    m.turn();
    assert.deepEqual(got, [0, 1, 2, 3, 4, 5, 6]);
    assert.equal(m.turn(), false);
  });

  it("at the bound, the publisher delivers the oldest itself and drops nothing", () => {
    const m = manualClock();
    const { got, slicer } = recordingSlicer(m, 1, { maxPending: 3, messagesPerSlice: 2, sliceMs: 1000 });
    for (let i = 0; i < 3; i++) slicer.push(i);
    assert.deepEqual(got, []);
    slicer.push(3);
    assert.deepEqual(got, [0], "one past the bound: the oldest goes out in the publisher's run");
    slicer.push(4);
    slicer.push(5);
    assert.deepEqual(got, [0, 1, 2]);
    assert.equal(slicer.pending, 3);
    while (m.turn());
    assert.deepEqual(got, [0, 1, 2, 3, 4, 5]);
  });

  it("flush delivers everything waiting, and clear forgets it", () => {
    const m = manualClock();
    const { got, slicer } = recordingSlicer(m, 1, { maxPending: 100, messagesPerSlice: 1, sliceMs: 1000 });
    slicer.push(1);
    slicer.push(2);
    slicer.flush();
    assert.deepEqual(got, [1, 2]);
    slicer.push(3);
    slicer.clear();
    while (m.turn());
    assert.deepEqual(got, [1, 2]);
  });
});

function blockEvents(height: number, txs: number): RpcEvent[] {
  const events: RpcEvent[] = [
    { type: "NewBlock", data: { height }, events: { "tm.event": ["NewBlock"], "tx.height": [`${height}`] } },
  ];
  for (let i = 0; i < txs; i++) {
    events.push({
      type: "Tx",
      data: { height, index: i },
      events: { "tm.event": ["Tx"], "tx.height": [`${height}`], "app.key": [`k${i % 10}`] },
    });
  }
  return events;
}

describe("subscription hub over the slicer", () => {
  const hubWith = (limits: { maxPending: number; messagesPerSlice: number; sliceMs: number }) =>
    hubOverSource(passThroughEncoder, limits);

  const received = (c: Connection) =>
    c.sent.map((t) => {
      const { result } = JSON.parse(t);
      return `${result.data.type.replace("tendermint/event/", "")}@${result.data.value.height}:${result.data.value.index ?? "-"}`;
    });
  const expectedFor = (events: RpcEvent[], key?: string) =>
    events
      .filter((e) => (key === undefined ? true : e.events["app.key"]?.[0] === key))
      .map((e) => {
        const d = e.data as { height: number; index?: number };
        return `${e.type}@${d.height}:${d.index ?? "-"}`;
      });

  it("returns from the publish at once and delivers every height in order over many turns", async () => {
    const { hub, publish } = hubWith({ maxPending: 100_000, messagesPerSlice: 50, sliceMs: 1000 });
    const all = new Connection("firehose", true);
    const txs = new Connection("txs", true);
    const k3 = new Connection("k3", true);
    hub.subscribe(all, "tx.height EXISTS", 1);
    hub.subscribe(txs, "tm.event='Tx'", 1);
    hub.subscribe(k3, "tm.event='Tx' AND app.key='k3'", 1);
    const heights = [blockEvents(1, 300), blockEvents(2, 300)];
    for (const e of heights[0] as RpcEvent[]) publish(e);
    assert.equal(
      all.sent.length + txs.sent.length + k3.sent.length,
      0,
      "nothing written in the publisher's run",
    );
    let turns = 0;
    // the second height is published while the first is still being delivered
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
    assert.ok(hub.pendingEvents > 0, "one slice does not deliver a whole height");
    for (const e of heights[1] as RpcEvent[]) publish(e);
    while (hub.pendingEvents > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      turns++;
    }
    const published = heights.flat();
    assert.deepEqual(received(all), expectedFor(published));
    assert.deepEqual(received(txs), expectedFor(published.filter((e) => e.type === "Tx")));
    assert.deepEqual(received(k3), expectedFor(published, "k3"));
    // 602 + 600 + 60 messages at most 50 (plus one event's) a slice
    assert.ok(turns >= 20, `${turns} turns`);
  });

  it("gives a subscription only the events published after it was made", async () => {
    const { hub, publish } = hubWith({ maxPending: 100_000, messagesPerSlice: 1000, sliceMs: 1000 });
    const early = new Connection("early", true);
    hub.subscribe(early, "tm.event='Tx'", 1);
    const events = blockEvents(1, 4);
    publish(events[1] as RpcEvent);
    publish(events[2] as RpcEvent);
    const late = new Connection("late", true);
    hub.subscribe(late, "tm.event='Tx'", 1);
    publish(events[3] as RpcEvent);
    hub.flush();
    assert.deepEqual(received(early), ["Tx@1:0", "Tx@1:1", "Tx@1:2"]);
    assert.deepEqual(received(late), ["Tx@1:2"]);
  });

  it("holds at most its bound of events, delivering the oldest in the publisher's run", () => {
    const { hub, publish } = hubWith({ maxPending: 100, messagesPerSlice: 10, sliceMs: 1000 });
    const c = new Connection("c", true);
    hub.subscribe(c, "tm.event='Tx'", 1);
    const events = blockEvents(1, 1000).slice(1);
    for (const e of events) publish(e);
    assert.equal(hub.pendingEvents, 100);
    assert.equal(c.sent.length, 900);
    hub.flush();
    assert.deepEqual(received(c), expectedFor(events));
  });
});
