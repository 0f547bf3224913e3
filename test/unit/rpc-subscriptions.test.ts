// Subscriptions (reference §1.5) driven without sockets: the hub with fake connections, the
// bounded outgoing queue, and a WebSocket session over a fake transport.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RpcContext, RpcEvent } from "../../src/rpc/context.js";
import { passThroughEncoder } from "../../src/rpc/encoder.js";
import { resolveRpcOptions } from "../../src/rpc/options.js";
import { ServerCore } from "../../src/rpc/server/server-core.js";
import { type SubscriberConnection, SubscriptionHub } from "../../src/rpc/subscriptions/hub.js";
import { OutboundQueue } from "../../src/rpc/subscriptions/outbound-queue.js";

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function eventSource() {
  const listeners = new Set<(e: RpcEvent) => void>();
  const context: RpcContext = {
    subscribeEvents(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const emit = (e: RpcEvent) => {
    for (const listener of [...listeners]) listener(e);
  };
  return { context, listeners, emit };
}

class FakeConnection implements SubscriberConnection {
  readonly sent: string[] = [];
  readonly urgent: string[] = [];
  closedWith: [number, string] | undefined;
  capacity = Number.POSITIVE_INFINITY;
  constructor(readonly remoteAddress = "127.0.0.1:1000") {}
  deliver(text: string): boolean {
    if (this.sent.length >= this.capacity) return false;
    this.sent.push(text);
    return true;
  }
  deliverUrgent(text: string): void {
    this.urgent.push(text);
  }
  close(code: number, reason: string): void {
    this.closedWith = [code, reason];
  }
}

const txEvent: RpcEvent = {
  type: "Tx",
  data: { height: 5n },
  events: { "tm.event": ["Tx"], "tx.height": ["5"], "transfer.amount": ["100stake"] },
};
const blockEvent: RpcEvent = { type: "NewBlock", data: { block: 1 }, events: { "tm.event": ["NewBlock"] } };

function hub(
  limits: Partial<{
    maxSubscriptionClients: number;
    maxSubscriptionsPerClient: number;
    closeOnSlowClient: boolean;
  }> = {},
) {
  const source = eventSource();
  const h = new SubscriptionHub(
    source.context,
    passThroughEncoder,
    { maxSubscriptionClients: 100, maxSubscriptionsPerClient: 5, closeOnSlowClient: false, ...limits },
    quiet,
  );
  // delivery runs on later turns (delivery-slicer.ts); these tests look at what is delivered
  const emit = (e: RpcEvent) => {
    source.emit(e);
    h.flush();
  };
  return { hub: h, ...source, emit };
}

describe("subscription hub", () => {
  it("pushes matching events as success responses with the subscribe id, query, data and events", () => {
    const { hub: h, emit } = hub();
    const c = new FakeConnection();
    h.subscribe(c, "tm.event = 'Tx' AND transfer.amount > 50", 7);
    h.subscribe(c, "tm.event='NewBlock'", "blocks");
    emit(txEvent);
    emit(blockEvent);
    emit({ type: "Tx", data: {}, events: { "tm.event": ["Tx"], "transfer.amount": ["10"] } });
    assert.equal(c.sent.length, 2);
    assert.deepEqual(JSON.parse(c.sent[0] as string), {
      jsonrpc: "2.0",
      id: 7,
      result: {
        query: "tm.event = 'Tx' AND transfer.amount > 50",
        data: { type: "tendermint/event/Tx", value: { height: "5" } },
        events: txEvent.events,
      },
    });
    assert.equal(JSON.parse(c.sent[1] as string).id, "blocks");
    assert.equal(JSON.parse(c.sent[1] as string).result.data.type, "tendermint/event/NewBlock");
  });

  it("encodes an event once, however many subscribers match", () => {
    const source = eventSource();
    let encodings = 0;
    const encoder = {
      ...passThroughEncoder,
      encodeEventData: (e: RpcEvent) => {
        encodings++;
        return passThroughEncoder.encodeEventData(e);
      },
    };
    const h = new SubscriptionHub(
      source.context,
      encoder,
      { maxSubscriptionClients: 100, maxSubscriptionsPerClient: 5, closeOnSlowClient: false },
      quiet,
    );
    const conns = Array.from({ length: 10 }, (_, i) => new FakeConnection(`127.0.0.1:${i}`));
    for (const c of conns) h.subscribe(c, "tm.event = 'Tx'", 1);
    source.emit(txEvent);
    source.emit(blockEvent);
    h.flush();
    assert.equal(encodings, 1);
    assert.ok(conns.every((c) => c.sent.length === 1));
  });

  it("sends nothing more to a subscription removed while its events wait for their slice", () => {
    const { hub: h, emit } = hub();
    const leaving = new FakeConnection("127.0.0.1:1");
    const gone = new FakeConnection("127.0.0.1:2");
    const staying = new FakeConnection("127.0.0.1:3");
    for (const c of [leaving, gone, staying]) h.subscribe(c, "tm.event = 'Tx'", 1);
    h.publish(txEvent); // waiting: delivery is on a later turn
    h.unsubscribe(leaving, "tm.event = 'Tx'");
    h.disconnect(gone);
    emit(txEvent);
    assert.equal(leaving.sent.length, 0);
    assert.equal(gone.sent.length, 0);
    assert.equal(staying.sent.length, 2);
  });

  it("on close, delivers the events still waiting before telling subscribers it exited", () => {
    const { hub: h } = hub();
    const c = new FakeConnection();
    h.subscribe(c, "tm.event = 'Tx'", 1);
    h.publish(txEvent);
    h.publish(txEvent);
    h.close();
    assert.equal(c.sent.length, 2, "the waiting events went out");
    assert.equal(h.pendingEvents, 0);
    assert.match(c.urgent.at(-1) ?? "", /Tendermint exited/);
  });

  it("a delivery that throws costs that event, logged; later events still go out", async () => {
    const source = eventSource();
    const warnings: string[] = [];
    const h = new SubscriptionHub(
      source.context,
      passThroughEncoder,
      { maxSubscriptionClients: 100, maxSubscriptionsPerClient: 5, closeOnSlowClient: false },
      { ...quiet, warn: (message: string) => void warnings.push(message) },
    );
    const c = new FakeConnection();
    let throwOnce = true;
    const deliver = c.deliver.bind(c);
    c.deliver = (text: string) => {
      if (throwOnce) {
        throwOnce = false;
        throw new Error("transport broke");
      }
      return deliver(text);
    };
    h.subscribe(c, "tm.event = 'Tx'", 1);
    source.emit(txEvent);
    source.emit(txEvent);
    // on the node's own turns (setImmediate), where an uncaught throw would end the process
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(c.sent.length, 1, "the second event still went out");
    assert.deepEqual(warnings, ["event delivery failed; its remaining subscribers missed it"]);
    assert.equal(h.pendingEvents, 0);
  });

  it("enforces Tendermint's limits and messages", () => {
    const { hub: h } = hub({ maxSubscriptionClients: 1, maxSubscriptionsPerClient: 2 });
    const a = new FakeConnection("a:1");
    h.subscribe(a, "x.y = 1", 1);
    assert.throws(() => h.subscribe(a, "x.y = 1", 2), /^RpcError: already subscribed$/);
    h.subscribe(a, "x.y = 2", 3);
    assert.throws(() => h.subscribe(a, "x.y = 3", 4), /max_subscriptions_per_client 2 reached/);
    assert.throws(
      () => h.subscribe(new FakeConnection("b:1"), "x.y = 1", 1),
      /max_subscription_clients 1 reached/,
    );
    assert.throws(() => h.subscribe(a, `x.y = '${"z".repeat(520)}'`, 5), /max_subscriptions_per_client/);
    h.unsubscribe(a, "x.y = 2");
    assert.throws(
      () => h.subscribe(a, `x.y = '${"z".repeat(520)}'`, 5),
      /^RpcError: maximum query length exceeded$/,
    );
    assert.throws(
      () => h.subscribe(a, "x.y ==", 5),
      /^RpcError: failed to parse query: at position 5: expected/,
    );
    assert.throws(() => h.unsubscribe(a, "x.y = 9"), /subscription not found/);
    assert.equal(h.subscriptionsOf("a:1"), 1);
    h.unsubscribeAll(a);
    assert.equal(h.clientCount, 0);
    assert.throws(() => h.unsubscribeAll(a), /subscription not found/);
  });

  it("listens to the node's events only while someone is subscribed", () => {
    const { hub: h, listeners } = hub();
    const c = new FakeConnection();
    assert.equal(listeners.size, 0);
    h.subscribe(c, "a.b = 1", 1);
    h.subscribe(c, "a.b = 2", 2);
    assert.equal(listeners.size, 1);
    h.unsubscribe(c, "a.b = 1");
    assert.equal(listeners.size, 1);
    h.disconnect(c);
    assert.equal(listeners.size, 0);
  });

  it("fails subscribe clearly when the node publishes no events", () => {
    const h = new SubscriptionHub({}, passThroughEncoder, resolveRpcOptions(), quiet);
    assert.throws(
      () => h.subscribe(new FakeConnection(), "a.b = 1", 1),
      /subscribe is not available on this node/,
    );
  });

  it("cancels the subscription of a client that does not keep up, with an explicit -32000", () => {
    const { hub: h, emit } = hub();
    const c = new FakeConnection();
    c.capacity = 2;
    h.subscribe(c, "tm.event = 'Tx'", 9);
    for (let i = 0; i < 5; i++) emit(txEvent);
    assert.equal(c.sent.length, 2);
    assert.deepEqual(
      c.urgent.map((t) => JSON.parse(t)),
      [
        {
          jsonrpc: "2.0",
          id: 9,
          error: {
            code: -32000,
            message: "Server error",
            data: "subscription was cancelled (reason: client is not pulling messages fast enough)",
          },
        },
      ],
    );
    assert.equal(h.clientCount, 0);
    assert.equal(c.closedWith, undefined);
  });

  it("closes a slow client when closeOnSlowClient is set", () => {
    const { hub: h, emit } = hub({ closeOnSlowClient: true });
    const c = new FakeConnection();
    c.capacity = 0;
    h.subscribe(c, "tm.event = 'Tx'", 1);
    emit(txEvent);
    assert.match(c.urgent[0] as string, /subscription was cancelled \(reason: slow client\)/);
    assert.deepEqual(c.closedWith, [1008, "slow client"]);
  });

  it("treats an unreadable event value as no match for that subscription only", () => {
    const { hub: h, emit } = hub();
    const c = new FakeConnection();
    h.subscribe(c, "x.n > 5", 1);
    h.subscribe(c, "tm.event = 'Tx'", 2);
    emit({ type: "Tx", data: {}, events: { "tm.event": ["Tx"], "x.n": ["abc"] } });
    assert.deepEqual(
      c.sent.map((t) => JSON.parse(t).id),
      [2],
    );
  });

  it("tells every subscriber when the server stops", () => {
    const { hub: h, listeners } = hub();
    const c = new FakeConnection();
    h.subscribe(c, "a.b = 1", "s");
    h.close();
    assert.match(c.urgent[0] as string, /"id":"s".*subscription was cancelled \(reason: Tendermint exited\)/);
    assert.equal(listeners.size, 0);
  });
});

describe("outbound queue", () => {
  function sink(bufferedStart = 0) {
    const state = { buffered: bufferedStart, sent: [] as string[] };
    return {
      state,
      sink: {
        send: (t: string) => {
          state.sent.push(t);
          state.buffered += t.length;
        },
        bufferedAmount: () => state.buffered,
      },
    };
  }

  it("sends at once below the high-water mark and holds back above it, within bounds", () => {
    const { state, sink: s } = sink();
    const q = new OutboundQueue(s, { maxMessages: 3, maxBytes: 1000, highWaterBytes: 10 });
    assert.equal(q.offer("aaaaaaaaaa"), true);
    assert.equal(state.sent.length, 1);
    assert.equal(q.offer("b"), true);
    assert.equal(q.offer("c"), true);
    assert.equal(q.offer("d"), true);
    assert.equal(q.offer("e"), false);
    assert.equal(q.length, 3);
    q.urgent("!");
    assert.equal(q.length, 4);
    state.buffered = 0;
    q.flush();
    assert.deepEqual(state.sent, ["aaaaaaaaaa", "b", "c", "d", "!"]);
    assert.equal(q.length, 0);
    assert.equal(q.queuedBytes, 0);
  });

  it("bounds the bytes held as well as the count", () => {
    const { sink: s } = sink(100);
    const q = new OutboundQueue(s, { maxMessages: 100, maxBytes: 10, highWaterBytes: 10 });
    assert.equal(q.offer("123456"), true);
    assert.equal(q.offer("123456"), false);
  });
});

describe("websocket session", () => {
  function session(options = {}, context: RpcContext = {}) {
    const core = new ServerCore(resolveRpcOptions(options), context, passThroughEncoder, quiet);
    const out: string[] = [];
    const closed: Array<[number, string]> = [];
    const s = core.openSession("127.0.0.1:9", {
      send: (t) => out.push(t),
      bufferedAmount: () => 0,
      close: (code, reason) => closed.push([code, reason]),
    });
    const settle = () => new Promise((r) => setTimeout(r, 5));
    return { core, s, out, closed, settle };
  }

  it("answers every route, in order, with WebSocket error codes", async () => {
    const { s, out, settle } = session(
      {},
      { chainHeights: () => ({ base: 1n, height: 3n, catchingUp: false }), block: async (h) => ({ h }) },
    );
    s.onMessage('{"jsonrpc":"2.0","id":1,"method":"block","params":{"height":"2"}}');
    s.onMessage('{"id":2,"method":"health"}');
    s.onMessage("{oops");
    s.onMessage('[{"id":3,"method":"health"}]');
    s.onMessage('{"method":"health"}');
    s.onMessage('{"id":4,"method":"nope"}');
    s.onMessage('{"id":5,"method":"block","params":{"height":"zz"}}');
    s.onMessage('{"id":6,"method":"block","params":{"height":"9"}}');
    await settle();
    const answers = out.map((t) => JSON.parse(t));
    assert.deepEqual(answers[0], { jsonrpc: "2.0", id: 1, result: { h: "2" } });
    assert.deepEqual(answers[1], { jsonrpc: "2.0", id: 2, result: {} });
    assert.equal(answers[2].error.code, -32700);
    assert.equal(answers[2].id, undefined);
    assert.equal(answers[3].error.code, -32700);
    assert.deepEqual(answers[4], {
      jsonrpc: "2.0",
      id: 4,
      error: { code: -32601, message: "Method not found" },
    });
    assert.equal(answers[5].error.code, -32603);
    assert.match(answers[5].error.data, /^error converting json params to arguments: height/);
    assert.equal(answers[6].error.code, -32603);
    assert.equal(answers.length, 7);
  });

  it("subscribes and unsubscribes through the routes", async () => {
    const source = eventSource();
    const { s, out, settle, core } = session({}, source.context);
    s.onMessage(`{"id":"sub","method":"subscribe","params":{"query":"tm.event='Tx'"}}`);
    await settle();
    source.emit(txEvent);
    await settle();
    s.onMessage(`{"id":2,"method":"unsubscribe","params":["tm.event='Tx'"]}`);
    s.onMessage(`{"id":3,"method":"unsubscribe_all"}`);
    await settle();
    source.emit(txEvent);
    await settle();
    const answers = out.map((t) => JSON.parse(t));
    assert.deepEqual(answers[0], { jsonrpc: "2.0", id: "sub", result: {} });
    assert.equal(answers[1].id, "sub");
    assert.equal(answers[1].result.query, "tm.event='Tx'");
    assert.deepEqual(answers[2], { jsonrpc: "2.0", id: 2, result: {} });
    assert.equal(answers[3].error.data, "subscription not found");
    assert.equal(answers.length, 4);
    assert.equal(core.hub.clientCount, 0);
  });

  it("closes a client that piles up requests instead of growing memory", async () => {
    const { s, closed } = session({}, { status: () => new Promise(() => {}) });
    for (let i = 0; i < 150; i++) s.onMessage(`{"id":${i},"method":"status"}`);
    assert.deepEqual(closed, [[1008, "too many requests waiting for an answer"]]);
    assert.equal(s.isClosed, true);
  });

  it("drops the subscriptions of a connection that closes", async () => {
    const source = eventSource();
    const { s, settle, core } = session({}, source.context);
    s.onMessage(`{"id":1,"method":"subscribe","params":{"query":"tm.event='Tx'"}}`);
    await settle();
    assert.equal(core.hub.clientCount, 1);
    core.closeSession(s);
    assert.equal(core.hub.clientCount, 0);
    assert.equal(source.listeners.size, 0);
  });
});
