// RPC server throughput over loopback with autocannon: GET /health on our server (uWS), on a
// bare uWS server answering a fixed body (the ceiling), and on our node:http fallback; and
// JSON-RPC POST on both backends. The servers run in a child process so the load generator
// does not share their event loop. The machine is shared, so each case runs twice, interleaved
// with the others (~1.5 s a run, ~15 s in all), and the better run is kept; figures, never
// pass/fail.
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

const DURATION_S = 1.5;
const ROUNDS = 2;
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

async function loadOnce(name: string, url: string, post?: string): Promise<Figure> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    method: post === undefined ? "GET" : "POST",
    body: post,
    headers: post === undefined ? {} : { "content-type": "text/plain" },
  });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

interface Case {
  name: string;
  url: string;
  post?: string;
}

/** Every case ROUNDS times, interleaved, keeping each case's best run. */
async function measure(cases: Case[]): Promise<Figure[]> {
  const best = new Map<string, Figure>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const c of cases) {
      const figure = await loadOnce(c.name, c.url, c.post);
      const kept = best.get(c.name);
      if (kept === undefined || figure.requestsPerSecond > kept.requestsPerSecond) best.set(c.name, figure);
    }
  }
  const figures = cases.map((c) => best.get(c.name) as Figure);
  for (const f of figures) {
    console.log(
      `${f.name.padEnd(34)} ${String(f.requestsPerSecond).padStart(8)} req/s   p99 ${f.p99Ms} ms   errors ${f.errors}`,
    );
  }
  return figures;
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
    const [bare, ours, fallback, postOurs, postFallback] = (await measure([
      { name: "bare uWS, fixed body", url: `http://127.0.0.1:${ports.bare}/health` },
      { name: "rxbft /health on uWS", url: `http://127.0.0.1:${ports.ours}/health` },
      { name: "rxbft /health on node:http", url: `http://127.0.0.1:${ports.fallback}/health` },
      { name: "rxbft JSON-RPC POST on uWS", url: `http://127.0.0.1:${ports.ours}/`, post: rpcPost },
      { name: "rxbft JSON-RPC POST on node:http", url: `http://127.0.0.1:${ports.fallback}/`, post: rpcPost },
    ])) as [Figure, Figure, Figure, Figure, Figure];
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
      `${JSON.stringify({ connections: CONNECTIONS, durationSeconds: DURATION_S, rounds: ROUNDS, figures: [bare, ours, fallback, postOurs, postFallback], ratios }, null, 2)}\n`,
    );
  } finally {
    child.kill();
  }
}

if (process.argv.includes("--serve")) await serve();
else await main();
