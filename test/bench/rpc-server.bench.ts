// RPC server throughput over loopback with autocannon: GET /health on our server (uWS), on a
// bare uWS server answering a fixed body (the ceiling), and on our node:http fallback; and
// JSON-RPC POST on both backends. The servers run in a child process so the load generator
// does not share their event loop. Each case runs ~2 s; figures, never pass/fail.
import { type ChildProcess, fork } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/** The part of autocannon's API used here (the package ships no types). */
interface AutocannonResult {
  requests: { average: number };
  latency: { p99: number };
  errors: number;
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)("autocannon") as (options: {
  url: string;
  connections: number;
  duration: number;
  method: string;
  body?: string;
  headers: Record<string, string>;
}) => Promise<AutocannonResult>;

const DURATION_S = 2;
const CONNECTIONS = 32;

async function serve(): Promise<void> {
  const { startRpcServer } = await import("../../src/rpc/index.js");
  const { loadUws } = await import("../../src/rpc/server/uws-backend.js");
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  const context = { status: () => ({ node_info: { moniker: "bench" } }) };
  const ours = await startRpcServer({ laddr: "tcp://127.0.0.1:0", maxOpenConnections: 0 }, context, {
    logger: quiet,
    backend: "uws",
  });
  const fallback = await startRpcServer({ laddr: "tcp://127.0.0.1:0", maxOpenConnections: 0 }, context, {
    logger: quiet,
    backend: "node",
  });
  const loaded = loadUws();
  if (!("uws" in loaded)) throw new Error(loaded.reason);
  const body = '{"jsonrpc":"2.0","id":-1,"result":{}}';
  const bare = await new Promise<number>((resolve) => {
    loaded.uws
      .App()
      .any("/*", (res) => {
        res.cork(() => res.writeStatus("200 OK").writeHeader("Content-Type", "application/json").end(body));
      })
      .listen("127.0.0.1", 0, (socket) => resolve(loaded.uws.us_socket_local_port(socket as never)));
  });
  process.send?.({ ours: ours.port, fallback: fallback.port, bare });
}

interface Figure {
  name: string;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

async function load(name: string, url: string, post?: string): Promise<Figure> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    method: post === undefined ? "GET" : "POST",
    body: post,
    headers: post === undefined ? {} : { "content-type": "text/plain" },
  });
  const figure = {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
  console.log(
    `${name.padEnd(34)} ${String(figure.requestsPerSecond).padStart(8)} req/s   p99 ${figure.p99Ms} ms   errors ${figure.errors}`,
  );
  return figure;
}

async function main(): Promise<void> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--serve"], {
    execArgv: ["--import", "tsx"],
  });
  try {
    const ports = await new Promise<{ ours: number; fallback: number; bare: number }>((resolve, reject) => {
      child.once("message", (m) => resolve(m as never));
      child.once("exit", (code) => reject(new Error(`server process exited with ${code}`)));
    });
    const rpcPost = '{"jsonrpc":"2.0","id":1,"method":"status"}';
    const bare = await load("bare uWS, fixed body", `http://127.0.0.1:${ports.bare}/health`);
    const ours = await load("rxbft /health on uWS", `http://127.0.0.1:${ports.ours}/health`);
    const fallback = await load("rxbft /health on node:http", `http://127.0.0.1:${ports.fallback}/health`);
    const postOurs = await load("rxbft JSON-RPC POST on uWS", `http://127.0.0.1:${ports.ours}/`, rpcPost);
    const postFallback = await load(
      "rxbft JSON-RPC POST on node:http",
      `http://127.0.0.1:${ports.fallback}/`,
      rpcPost,
    );
    const ratios = {
      healthVsBareUws: ours.requestsPerSecond / bare.requestsPerSecond,
      healthUwsVsNodeHttp: ours.requestsPerSecond / fallback.requestsPerSecond,
      postUwsVsNodeHttp: postOurs.requestsPerSecond / postFallback.requestsPerSecond,
    };
    console.log(`ratio /health ours(uWS) / bare uWS:        ${ratios.healthVsBareUws.toFixed(2)}`);
    console.log(`ratio /health ours(uWS) / ours(node:http): ${ratios.healthUwsVsNodeHttp.toFixed(2)}`);
    console.log(`ratio POST    ours(uWS) / ours(node:http): ${ratios.postUwsVsNodeHttp.toFixed(2)}`);
    mkdirSync("bench-results", { recursive: true });
    writeFileSync(
      "bench-results/rpc-server.json",
      `${JSON.stringify({ connections: CONNECTIONS, durationSeconds: DURATION_S, figures: [bare, ours, fallback, postOurs, postFallback], ratios }, null, 2)}\n`,
    );
  } finally {
    child.kill();
  }
}

if (process.argv.includes("--serve")) await serve();
else await main();
