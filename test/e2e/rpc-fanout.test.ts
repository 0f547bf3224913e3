// WebSocket fan-out on a real node (the built binary, in-process kvstore): the bench's mix at a
// small scale (filtered `tm.event='Tx' AND app.key='k<N>'` subscribers, firehose `tm.event='Tx'`
// ones, a connection holding two subscriptions) while txs arrive in bursts: every committed tx
// reaches every matching subscription exactly once, with the subscription's id and query, and
// nothing reaches a subscription after unsubscribe or unsubscribe_all. (A client that stops
// reading: test/e2e/rpc-server.test.ts and test/unit/rpc-subscriptions.test.ts.)
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import WebSocket from "ws";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

const KEYS = 20;
const FIREHOSE = 3;
const TXS = 400;

interface Pushed {
  id: unknown;
  query: string;
  tx: string;
  appKey: string[];
}

interface Client {
  ws: WebSocket;
  pushed: Pushed[];
  errors: unknown[];
  /** the next answer to a call (not a pushed event) */
  answer(): Promise<Record<string, unknown>>;
}

let node: NodeProcess;
let wsUrl: string;
const clients: Client[] = [];

async function connect(): Promise<Client> {
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    ws.once("open", resolve);
    ws.once("error", reject);
  });
  const answers: Record<string, unknown>[] = [];
  const waiting: ((m: Record<string, unknown>) => void)[] = [];
  const client: Client = {
    ws,
    pushed: [],
    errors: [],
    answer: () =>
      new Promise((resolve) => {
        const ready = answers.shift();
        if (ready) resolve(ready);
        else waiting.push(resolve);
      }),
  };
  ws.on("message", (data) => {
    const m = JSON.parse(data.toString()) as {
      id: unknown;
      result?: {
        query?: string;
        data?: { value: { TxResult: { tx: string } } };
        events?: Record<string, string[]>;
      };
      error?: unknown;
    };
    if (m.result?.query !== undefined && m.result.data !== undefined) {
      client.pushed.push({
        id: m.id,
        query: m.result.query,
        tx: Buffer.from(m.result.data.value.TxResult.tx, "base64").toString(),
        appKey: m.result.events?.["app.key"] ?? [],
      });
      return;
    }
    if (m.error !== undefined && typeof m.id === "string" && m.id.startsWith("sub"))
      client.errors.push(m.error);
    const next = waiting.shift();
    if (next) next(m);
    else answers.push(m);
  });
  clients.push(client);
  return client;
}

async function call(client: Client, id: string, method: string, params: Record<string, unknown> = {}) {
  client.ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  return client.answer();
}

before(async () => {
  const home = await initFastHome({ timeout_commit: "200ms" }, "rxbft-fanout-");
  const file = join(home, "config", "config.toml");
  writeFileSync(
    file,
    readFileSync(file, "utf8").replace(/^max_subscription_clients = .*$/m, "max_subscription_clients = 50"),
  );
  node = new NodeProcess(home);
  await node.waitFor(() => node.rpcUrl !== undefined && node.height >= 1n, "the node's first block");
  wsUrl = `${node.rpcUrl!.replace("http://", "ws://")}/websocket`;
});

after(async () => {
  for (const c of clients) c.ws.terminate();
  node?.kill("SIGINT");
  await node?.exited;
  killAllNodes();
});

test("every committed tx reaches every matching subscription once; none after unsubscribing", {
  timeout: 120_000,
}, async () => {
  const filtered: Client[] = [];
  for (let n = 0; n < KEYS; n++) {
    const c = await connect();
    assert.deepEqual(await call(c, `sub${n}`, "subscribe", { query: `tm.event='Tx' AND app.key='k${n}'` }), {
      jsonrpc: "2.0",
      id: `sub${n}`,
      result: {},
    });
    filtered.push(c);
  }
  const firehose: Client[] = [];
  for (let n = 0; n < FIREHOSE; n++) {
    const c = await connect();
    assert.deepEqual((await call(c, "sub-all", "subscribe", { query: "tm.event='Tx'" })).result, {});
    firehose.push(c);
  }
  // one connection, two subscriptions: each event comes once per subscription, under its id
  const both = await connect();
  await call(both, "sub-a", "subscribe", { query: "tm.event='Tx' AND app.key='k1'" });
  await call(both, "sub-b", "subscribe", { query: "app.key='k2'" });
  // subscribed, then unsubscribed: gets nothing
  const left = await connect();
  await call(left, "sub-l", "subscribe", { query: "tm.event='Tx' AND app.key='k3'" });
  assert.deepEqual(
    (await call(left, "u1", "unsubscribe", { query: "tm.event='Tx' AND app.key='k3'" })).result,
    {},
  );
  const leftAll = await connect();
  await call(leftAll, "sub-x", "subscribe", { query: "tm.event='Tx'" });
  await call(leftAll, "sub-y", "subscribe", { query: "app.key='k4'" });
  assert.deepEqual((await call(leftAll, "u2", "unsubscribe_all")).result, {});
  const again = await call(leftAll, "u3", "unsubscribe_all");
  assert.equal((again.error as { data: string }).data, "subscription not found");

  // txs in bursts of 50 concurrent broadcasts
  const sent: string[] = [];
  for (let i = 0; i < TXS; i += 50) {
    const burst = [];
    for (let j = i; j < Math.min(TXS, i + 50); j++) {
      const tx = `k${j % KEYS}=fanout-${j}`;
      sent.push(tx);
      burst.push(fetch(`${node.rpcUrl}/broadcast_tx_async?tx="${tx}"`).then((r) => r.json()));
    }
    for (const reply of await Promise.all(burst))
      assert.equal((reply as { result: { code: string } }).result.code, "0");
  }
  const deadline = Date.now() + 90_000;
  while (firehose.some((c) => c.pushed.length < TXS) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  // anything late or duplicated would show up now
  await new Promise((r) => setTimeout(r, 1000));

  const all = [...sent].sort();
  for (const c of firehose) {
    assert.deepEqual(c.pushed.map((p) => p.tx).sort(), all);
    assert.ok(c.pushed.every((p) => p.id === "sub-all" && p.query === "tm.event='Tx'"));
  }
  for (let n = 0; n < KEYS; n++) {
    const c = filtered[n] as Client;
    const mine = sent.filter((tx) => tx.startsWith(`k${n}=`)).sort();
    assert.equal(mine.length, TXS / KEYS);
    assert.deepEqual(c.pushed.map((p) => p.tx).sort(), mine, `subscriber k${n}`);
    assert.ok(c.pushed.every((p) => p.id === `sub${n}` && p.appKey[0] === `k${n}`));
  }
  const a = both.pushed.filter((p) => p.id === "sub-a").map((p) => p.tx);
  const b = both.pushed.filter((p) => p.id === "sub-b").map((p) => p.tx);
  assert.deepEqual(a.sort(), sent.filter((tx) => tx.startsWith("k1=")).sort());
  assert.deepEqual(b.sort(), sent.filter((tx) => tx.startsWith("k2=")).sort());
  assert.equal(both.pushed.length, a.length + b.length);
  assert.deepEqual(left.pushed, []);
  assert.deepEqual(leftAll.pushed, []);
  for (const c of clients) assert.deepEqual(c.errors, [], "no subscription was cancelled");
});
