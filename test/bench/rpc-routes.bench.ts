// The RPC's routes on a running single-validator node (kvstore, in a child process so the load
// generator does not share its event loop), over loopback with autocannon:
// - /health, /status, /block?height=h and broadcast_tx_async (unique txs) on the node's uWS
//   server, beside a bare uWebSockets.js server answering a fixed /status-sized body, and beside
//   a node:http server over the same node and context (the fallback backend);
// - WebSocket fan-out: 1,000 subscribers to NewBlock and Tx while txs arrive at ~1,000/s,
//   beside bare uWS pub/sub publishing the same number of same-sized messages to 1,000 sockets.
// Bounded: ~1.5 s per HTTP case, ~3 s of fan-out load. Figures, never pass/fail.
import { type ChildProcess, execFileSync, fork } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";

interface AutocannonResult {
  requests: { average: number };
  latency: { p99: number };
  errors: number;
  non2xx: number;
}
interface AutocannonRequest {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}
const autocannon = createRequire(import.meta.url)("autocannon") as (options: {
  url: string;
  connections: number;
  duration: number;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;

const DURATION_S = 1.5;
const CONNECTIONS = 32;
const SUBSCRIBERS = 1000;
const FANOUT_TX_PER_S = 1000;
const FANOUT_SECONDS = 3;
const BIN = fileURLToPath(new URL("../../bin/run.js", import.meta.url));

interface Ports {
  node: number;
  fallback: number;
  bare: number;
  barePubSub: number;
  statusBytes: number;
}

/** The child: a node (uWS), a node:http server over the same node, bare uWS servers. */
async function serve(home: string): Promise<void> {
  const { prepareNode } = await import("../../streams/boot/prepare-home.js");
  const { startNode } = await import("../../streams/node.js");
  const { createRpcContext, encoders } = await import("../../streams/projections/rpc-context.js");
  const { startRpcServer } = await import("../../src/rpc/index.js");
  const { loadUws } = await import("../../src/rpc/server/uws-backend.js");
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  const prepared = prepareNode({
    home,
    overrides: { "p2p.laddr": "tcp://127.0.0.1:0" },
    logDestination: { write() {} },
  });
  const node = await startNode(prepared, { rpcBackend: "uws" });
  const nodePort = Number(node.nodeInfo.rpcAddress.split(":").pop());
  const fallback = await startRpcServer(
    { laddr: "tcp://127.0.0.1:0", maxOpenConnections: 0, compat: "tendermint" },
    createRpcContext(node),
    { logger: quiet, backend: "node", encoders },
  );
  while (node.stores.blockStore.height() < 3n) await new Promise((r) => setTimeout(r, 50));
  const status = await (await fetch(`http://127.0.0.1:${nodePort}/status`)).text();
  const loaded = loadUws();
  if (!("uws" in loaded)) throw new Error(loaded.reason);
  const uws = loaded.uws;
  const bare = await new Promise<number>((resolve) => {
    uws
      .App()
      .any("/*", (res) => {
        res.cork(() => res.writeStatus("200 OK").writeHeader("Content-Type", "application/json").end(status));
      })
      .listen("127.0.0.1", 0, (socket) => resolve(uws.us_socket_local_port(socket as never)));
  });
  // Bare pub/sub: every socket subscribes to one topic; a GET /publish?n=N&size=S publishes.
  const pubsub = uws.App();
  const barePubSub = await new Promise<number>((resolve) => {
    pubsub
      .ws("/websocket", {
        open: (ws) => {
          ws.subscribe("events");
        },
        maxBackpressure: 64 * 1024 * 1024,
      })
      .get("/publish", (res, req) => {
        const params = new URLSearchParams(req.getQuery() ?? "");
        const n = Number(params.get("n"));
        const message = "x".repeat(Number(params.get("size")));
        res.onAborted(() => {});
        let sent = 0;
        const tick = setInterval(() => {
          const burst = Math.min(n - sent, Math.ceil(n / (FANOUT_SECONDS * 100)));
          for (let i = 0; i < burst; i++) pubsub.publish("events", message);
          sent += burst;
          if (sent >= n) {
            clearInterval(tick);
            res.cork(() => res.end("done"));
          }
        }, 10);
      })
      .listen("127.0.0.1", 0, (socket) => resolve(uws.us_socket_local_port(socket as never)));
  });
  const ports: Ports = {
    node: nodePort,
    fallback: fallback.port ?? 0,
    bare,
    barePubSub,
    statusBytes: status.length,
  };
  process.send?.(ports);
}

interface Figure {
  name: string;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

async function load(name: string, url: string, request: AutocannonRequest): Promise<Figure> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [request],
  });
  const figure = {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
  console.log(
    `${name.padEnd(40)} ${String(figure.requestsPerSecond).padStart(8)} req/s   p99 ${figure.p99Ms} ms   errors ${figure.errors}`,
  );
  return figure;
}

let txCounter = 0;
function asyncTxRequest(): AutocannonRequest {
  return {
    method: "POST",
    path: "/",
    headers: { "content-type": "text/plain" },
    setupRequest: (req) => {
      const tx = Buffer.from(`bench${process.pid}-${txCounter++}=v`).toString("base64");
      return {
        ...req,
        body: `{"jsonrpc":"2.0","id":1,"method":"broadcast_tx_async","params":{"tx":"${tx}"}}`,
      };
    },
  };
}

interface FanOut {
  subscribers: number;
  seconds: number;
  txsSent: number;
  messagesPerSubscriber: { min: number; max: number };
  txEventsPerSubscriber?: { min: number; max: number };
  deliveredPerSecond: number;
  cancelled: number;
}

function connectAll(url: string, onMessage: (i: number, data: Buffer) => void): Promise<WebSocket[]> {
  return Promise.all(
    Array.from(
      { length: SUBSCRIBERS },
      (_, i) =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(url);
          ws.on("open", () => resolve(ws));
          ws.on("error", reject);
          ws.on("message", (data: Buffer) => onMessage(i, data));
        }),
    ),
  );
}

/** Our node: subscribers to NewBlock and Tx, txs at FANOUT_TX_PER_S for FANOUT_SECONDS. */
async function fanOutOurs(port: number): Promise<FanOut> {
  const counts = new Array<number>(SUBSCRIBERS).fill(0);
  const txCounts = new Array<number>(SUBSCRIBERS).fill(0);
  const cancelledMarker = Buffer.from("subscription was cancelled");
  const txMarker = Buffer.from("tendermint/event/Tx");
  let cancelled = 0;
  const sockets = await connectAll(`ws://127.0.0.1:${port}/websocket`, (i, data) => {
    if (data.indexOf(cancelledMarker) >= 0) cancelled++;
    else {
      counts[i]!++;
      if (data.indexOf(txMarker) >= 0) txCounts[i]!++;
    }
  });
  for (const ws of sockets) {
    ws.send('{"jsonrpc":"2.0","id":"b","method":"subscribe","params":{"query":"tm.event=\'NewBlock\'"}}');
    ws.send('{"jsonrpc":"2.0","id":"t","method":"subscribe","params":{"query":"tm.event=\'Tx\'"}}');
  }
  await new Promise((r) => setTimeout(r, 1000));
  counts.fill(0);
  txCounts.fill(0);
  // Txs go over one more WebSocket (pipelined, no connection per tx), paced to the rate.
  const sender = await new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/websocket`);
    ws.on("open", () => resolve(ws));
    ws.on("error", reject);
  });
  let answered = 0;
  sender.on("message", () => {
    answered++;
  });
  const started = Date.now();
  let sent = 0;
  const total = FANOUT_TX_PER_S * FANOUT_SECONDS;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * FANOUT_TX_PER_S));
    for (; sent < due; sent++) {
      const tx = Buffer.from(`fan${process.pid}-${sent}=v`).toString("base64");
      sender.send(`{"jsonrpc":"2.0","id":${sent},"method":"broadcast_tx_async","params":{"tx":"${tx}"}}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  while (answered < sent && Date.now() - started < (FANOUT_SECONDS + 5) * 1000)
    await new Promise((r) => setTimeout(r, 20));
  sender.terminate();
  // until every subscriber saw every tx committed (bounded: the node may admit slower than sent)
  const deadline = Date.now() + 8_000;
  while (Math.min(...txCounts) < sent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const seconds = (Date.now() - started) / 1000;
  for (const ws of sockets) ws.terminate();
  const delivered = counts.reduce((a, b) => a + b, 0);
  return {
    subscribers: SUBSCRIBERS,
    seconds,
    txsSent: sent,
    messagesPerSubscriber: { min: Math.min(...counts), max: Math.max(...counts) },
    txEventsPerSubscriber: { min: Math.min(...txCounts), max: Math.max(...txCounts) },
    deliveredPerSecond: Math.round(delivered / seconds),
    cancelled,
  };
}

/** Bare uWS pub/sub: the same number of messages of the same size to the same subscribers. */
async function fanOutBare(port: number, messages: number, size: number): Promise<FanOut> {
  const counts = new Array<number>(SUBSCRIBERS).fill(0);
  const sockets = await connectAll(`ws://127.0.0.1:${port}/websocket`, (i) => {
    counts[i]!++;
  });
  await new Promise((r) => setTimeout(r, 500));
  const started = Date.now();
  await (await fetch(`http://127.0.0.1:${port}/publish?n=${messages}&size=${size}`)).text();
  const deadline = Date.now() + 10_000;
  while (Math.min(...counts) < messages && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const seconds = (Date.now() - started) / 1000;
  for (const ws of sockets) ws.terminate();
  const delivered = counts.reduce((a, b) => a + b, 0);
  return {
    subscribers: SUBSCRIBERS,
    seconds,
    txsSent: messages,
    messagesPerSubscriber: { min: Math.min(...counts), max: Math.max(...counts) },
    deliveredPerSecond: Math.round(delivered / seconds),
    cancelled: 0,
  };
}

function makeHome(): string {
  const home = mkdtempSync(join(tmpdir(), "rxbft-bench-rpc-"));
  execFileSync(process.execPath, [BIN, "init", "--home", home], { stdio: "ignore" });
  const file = join(home, "config", "config.toml");
  const text = readFileSync(file, "utf8")
    .replace(/^proxy_app = .*$/m, 'proxy_app = "kvstore"')
    .replace(/^log_level = .*$/m, 'log_level = "error"')
    .replace(/^laddr = "tcp:\/\/127\.0\.0\.1:26657"$/m, 'laddr = "tcp://127.0.0.1:0"')
    .replace(/^laddr = "tcp:\/\/0\.0\.0\.0:26656"$/m, 'laddr = "tcp://127.0.0.1:0"')
    .replace(/^max_open_connections = 900$/m, "max_open_connections = 0")
    .replace(/^max_subscription_clients = .*$/m, `max_subscription_clients = ${SUBSCRIBERS + 100}`)
    .replace(/^experimental_subscription_buffer_size = .*$/m, "experimental_subscription_buffer_size = 10000")
    .replace(
      /^experimental_websocket_write_buffer_size = .*$/m,
      "experimental_websocket_write_buffer_size = 10000",
    )
    .replace(/^compat = .*$/m, 'compat = "tendermint"')
    .replace(/^timeout_commit = .*$/m, 'timeout_commit = "500ms"');
  writeFileSync(file, text);
  return home;
}

async function main(): Promise<void> {
  const home = makeHome();
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--serve", home], {
    execArgv: ["--import", "tsx"],
  });
  try {
    const ports = await new Promise<Ports>((resolve, reject) => {
      child.once("message", (m) => resolve(m as Ports));
      child.once("exit", (code) => reject(new Error(`node process exited with ${code}`)));
    });
    const at = (port: number) => `http://127.0.0.1:${port}`;
    const get = (path: string): AutocannonRequest => ({ method: "GET", path });
    const bare = await load("bare uWS, fixed /status-sized body", at(ports.bare), get("/status"));
    const health = await load("rxbft /health (uWS)", at(ports.node), get("/health"));
    const status = await load("rxbft /status (uWS)", at(ports.node), get("/status"));
    const block = await load("rxbft /block?height=2 (uWS)", at(ports.node), get("/block?height=2"));
    const async = await load("rxbft broadcast_tx_async POST (uWS)", at(ports.node), asyncTxRequest());
    const healthNode = await load("rxbft /health (node:http)", at(ports.fallback), get("/health"));
    const statusNode = await load("rxbft /status (node:http)", at(ports.fallback), get("/status"));
    const blockNode = await load(
      "rxbft /block?height=2 (node:http)",
      at(ports.fallback),
      get("/block?height=2"),
    );
    const ratios = {
      statusVsBareUws: status.requestsPerSecond / bare.requestsPerSecond,
      healthVsBareUws: health.requestsPerSecond / bare.requestsPerSecond,
      statusUwsVsNodeHttp: status.requestsPerSecond / statusNode.requestsPerSecond,
      blockUwsVsNodeHttp: block.requestsPerSecond / blockNode.requestsPerSecond,
      healthUwsVsNodeHttp: health.requestsPerSecond / healthNode.requestsPerSecond,
    };
    for (const [k, v] of Object.entries(ratios)) console.log(`ratio ${k.padEnd(22)} ${v.toFixed(2)}`);

    const ours = await fanOutOurs(ports.node);
    console.log(
      `fan-out ours: ${ours.subscribers} subscribers, ${ours.txsSent} txs in ${ours.seconds.toFixed(1)} s, ${ours.deliveredPerSecond} events/s delivered, per subscriber ${ours.messagesPerSubscriber.min}…${ours.messagesPerSubscriber.max} (Tx events ${ours.txEventsPerSubscriber?.min}…${ours.txEventsPerSubscriber?.max} of ${ours.txsSent} sent), cancelled (dropped) ${ours.cancelled}`,
    );
    const perSubscriber = Math.max(1, ours.messagesPerSubscriber.max);
    const bareFan = await fanOutBare(ports.barePubSub, perSubscriber, 600);
    console.log(
      `fan-out bare uWS: ${bareFan.subscribers} subscribers, ${bareFan.txsSent} messages each in ${bareFan.seconds.toFixed(1)} s, ${bareFan.deliveredPerSecond} messages/s delivered`,
    );
    const fanOutRatio = ours.deliveredPerSecond / Math.max(1, bareFan.deliveredPerSecond);
    console.log(
      `ratio fanOutVsBareUws        ${fanOutRatio.toFixed(2)} (ours is paced by the tx rate; bare publishes as fast as it can)`,
    );
    mkdirSync("bench-results", { recursive: true });
    writeFileSync(
      "bench-results/rpc-routes.json",
      `${JSON.stringify(
        {
          connections: CONNECTIONS,
          durationSeconds: DURATION_S,
          figures: [bare, health, status, block, async, healthNode, statusNode, blockNode],
          ratios: { ...ratios, fanOutVsBareUws: fanOutRatio },
          fanOut: { ours, bare: bareFan },
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    child.kill("SIGINT");
    await new Promise((r) => setTimeout(r, 500));
    rmSync(home, { recursive: true, force: true });
  }
}

const serveAt = process.argv.indexOf("--serve");
if (serveAt >= 0) await serve(process.argv[serveAt + 1] as string);
else await main();
