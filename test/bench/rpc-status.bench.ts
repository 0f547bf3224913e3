// GET /status and /health of a running node (the BUILT node, in-process kvstore, blocks every
// second) beside a bare uWebSockets.js server in its own process answering the same bytes (the
// node's own status line, Content-Type, X-Server-Time and body, fetched first): the ceiling of
// a route on that library (issue 19: /status ≥ 0.8×, /health ≥ 0.9×). Load from wrk (-t1 -c32),
// a C client cheaper than either server; a Node client saturates first on 2 cores and makes
// every server look equal. Runs alternate ours/bare, ROUNDS times, and each server's CPU time
// per request is read from /proc beside its rate (the node's CPU with no requests, measured
// first, subtracted): on a shared machine the CPU per request is the steadier ratio. Env: RPC_STATUS_SECONDS (per run, default 3), RPC_STATUS_ROUNDS (2),
// RPC_STATUS_PROF=<dir> runs the node under --cpu-prof. Says so and skips without wrk.
// Writes bench-results/rpc-status.json; never fails on time.
import { type ChildProcess, fork } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BenchNode, buildIfMissing, findWrk, load, root, round, runWrk } from "./rpc-bench-node.js";

const SECONDS = Number(process.env.RPC_STATUS_SECONDS ?? 3);
const ROUNDS = Number(process.env.RPC_STATUS_ROUNDS ?? 2);
const PATHS = ["/health", "/status"] as const;

const wrk = findWrk();
if (wrk === undefined) {
  console.log("rpc-status: wrk is not installed (apt-get install wrk, or `npm test`'s pretest); skipped");
  process.exit(0);
}
buildIfMissing();

/** CPU time (user + system) of a process, in ms, from /proc. */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

async function startBare(pages: { path: string; headers: [string, string][]; body: string }[]) {
  const child: ChildProcess = fork(join(root, "test", "bench", "bare-uws-server.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m) => resolve((m as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`bare uWS server exited (${code})`)));
    child.send(pages);
  });
  return { child, port };
}

interface Run {
  path: string;
  server: "ours" | "bare";
  requestsPerSecond: number;
  cpuUsPerRequest: number;
  p99Ms: number;
  errors: number;
}

const node = new BenchNode();
let bare: { child: ChildProcess; port: number } | undefined;
try {
  await node.start(process.env.RPC_STATUS_PROF);
  const pages = [];
  for (const path of PATHS) {
    const reply = await fetch(`http://${node.address}${path}`);
    pages.push({
      path,
      headers: [
        ["Content-Type", reply.headers.get("content-type") ?? ""],
        ["X-Server-Time", reply.headers.get("x-server-time") ?? ""],
      ] as [string, string][],
      body: await reply.text(),
    });
  }
  bare = await startBare(pages);
  const targets = {
    ours: { url: `http://${node.address}`, pid: node.pid },
    bare: { url: `http://127.0.0.1:${bare.port}`, pid: bare.child.pid },
  };
  // The node makes a block every second meanwhile: its CPU with no requests (measured here,
  // over 2 s) is subtracted from its runs, so the CPU per request is the requests' own.
  const idle0 = cpuMs(node.pid);
  await new Promise((r) => setTimeout(r, 2000));
  const idleMsPerSecond = (cpuMs(node.pid) - idle0) / 2;
  const loadBefore = load();
  const runs: Run[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const path of PATHS) {
      for (const server of ["ours", "bare"] as const) {
        const target = targets[server];
        const before = cpuMs(target.pid);
        const figure = runWrk(wrk, `${target.url}${path}`, SECONDS);
        const cpu = cpuMs(target.pid) - before - (server === "ours" ? idleMsPerSecond * SECONDS : 0);
        const requests = figure.requestsPerSecond * SECONDS;
        runs.push({
          path,
          server,
          requestsPerSecond: figure.requestsPerSecond,
          cpuUsPerRequest: requests > 0 ? round((cpu * 1000) / requests, 2) : 0,
          p99Ms: figure.p99Ms,
          errors: figure.errors,
        });
      }
    }
  }
  const loadAfter = load();
  const best = (path: string, server: string) => {
    const mine = runs.filter((x) => x.path === path && x.server === server);
    return {
      requestsPerSecond: Math.max(...mine.map((x) => x.requestsPerSecond)),
      cpuUsPerRequest: Math.min(...mine.map((x) => x.cpuUsPerRequest)),
    };
  };
  console.log(
    `rpc-status: wrk -t1 -c32 -d${SECONDS}s, ${ROUNDS} alternating rounds; node idle CPU ${round(idleMsPerSecond, 1)} ms/s (subtracted); load ${loadBefore} -> ${loadAfter}`,
  );
  const summary = PATHS.map((path) => {
    const ours = best(path, "ours");
    const base = best(path, "bare");
    const rateRatio = round(ours.requestsPerSecond / base.requestsPerSecond, 2);
    const cpuRatio = round(base.cpuUsPerRequest / ours.cpuUsPerRequest, 2);
    console.log(
      `  GET ${path.padEnd(8)} ours ${ours.requestsPerSecond} req/s (${ours.cpuUsPerRequest} µs CPU/req) | bare uWS ${base.requestsPerSecond} req/s (${base.cpuUsPerRequest} µs CPU/req) | rate ${rateRatio}×, CPU per request ${cpuRatio}× (bare/ours)`,
    );
    return { path, ours, bare: base, rateRatio, cpuRatio };
  });
  const errors = runs.reduce((sum, x) => sum + x.errors, 0);
  if (errors > 0) console.log(`  (${errors} wrk errors or non-2xx answers)`);
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(
    join(root, "bench-results", "rpc-status.json"),
    `${JSON.stringify({ seconds: SECONDS, rounds: ROUNDS, idleMsPerSecond, loadBefore, loadAfter, summary, runs }, null, 2)}\n`,
  );
} finally {
  bare?.child.kill("SIGTERM");
  await node.stop();
}
