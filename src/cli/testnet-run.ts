// `rxbft testnet start|stop|status`: runs the homes `rxbft testnet` wrote as a local network.
// start spawns one detached `rxbft node` per home (output appended to <home>/node.log, its PID
// in <home>/node.pid), stop signals the recorded PIDs (SIGTERM, SIGKILL after a grace period),
// status asks each node's RPC for its height, last block hash and peers.
// A PID file is trusted only while /proc says the process is an rxbft node of that home, so a
// PID reused by another program after a crash is never signalled.
import { type SpawnOptions, spawn } from "node:child_process";
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../config/config-loader.js";
import { CliError } from "./errors.js";

export const PID_FILE = "node.pid";
export const LOG_FILE = "node.log";
/** How much of a log start reads back to find the RPC address, and shows when a node dies. */
const LOG_TAIL_BYTES = 64 * 1024;

export interface TestnetHome {
  /** Directory name (node0, node1, …). */
  name: string;
  home: string;
}

/** The node homes under `dir` (sub-directories holding config/genesis.json), by their number. */
export function findTestnetHomes(dir: string, only?: readonly string[]): TestnetHome[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new CliError(
      "CLI_NOT_INITIALISED",
      `${dir}: no such directory (create one with rxbft testnet --o ${dir})`,
    );
  const homes = readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, "config", "genesis.json")))
    .map((name) => ({ name, home: join(dir, name) }))
    .sort((a, b) => trailingNumber(a.name) - trailingNumber(b.name) || a.name.localeCompare(b.name));
  if (homes.length === 0)
    throw new CliError(
      "CLI_NOT_INITIALISED",
      `${dir}: holds no node home (a sub-directory with config/genesis.json); create them with rxbft testnet --o ${dir}`,
    );
  if (only === undefined || only.length === 0) return homes;
  const picked: TestnetHome[] = [];
  for (const want of only) {
    const found = homes.find((h) => h.name === want || String(trailingNumber(h.name)) === want);
    if (!found)
      throw new CliError(
        "CLI_FLAG_INVALID",
        `flag --node: ${JSON.stringify(want)} is not a node of ${dir} (it has ${homes.map((h) => h.name).join(", ")})`,
      );
    if (!picked.includes(found)) picked.push(found);
  }
  return picked;
}

function trailingNumber(name: string): number {
  const m = /(\d+)$/.exec(name);
  return m ? Number(m[1]) : Number.MAX_SAFE_INTEGER;
}

/** The PID recorded for a home when that process is still an rxbft node of it; else undefined. */
export function runningPid(home: string): number | undefined {
  const file = join(home, PID_FILE);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, "utf8").trim());
  if (!Number.isSafeInteger(pid) || pid <= 1) return undefined;
  return isNodeOf(pid, home) ? pid : undefined;
}

function isNodeOf(pid: number, home: string): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const cmdline = `/proc/${pid}/cmdline`;
  if (!existsSync(cmdline)) return true; // no procfs: a live PID from our own file is the best we know
  try {
    const args = readFileSync(cmdline, "utf8").split("\0");
    const at = args.indexOf("--home");
    return args.includes("node") && at >= 0 && args[at + 1] === home;
  } catch {
    return false;
  }
}

export interface StartOptions {
  dir: string;
  nodes?: readonly string[];
  /** `rxbft node`'s entry script (bin/run.js) and the Node binary to run it with. */
  bin: string;
  execPath: string;
  /** Passed to every node as --proxy_app (kvstore, counter, noop or an address). */
  proxyApp?: string;
  /** Further `rxbft node` flags for every node. */
  nodeArgs?: readonly string[];
  /** How long to wait for each node's RPC to answer before calling the start failed. */
  waitMs: number;
}

export interface StartedNode {
  name: string;
  pid: number;
  log: string;
  /** Already running before this start. */
  already: boolean;
  rpc?: string;
}

export async function startTestnetNodes(options: StartOptions): Promise<StartedNode[]> {
  const homes = findTestnetHomes(options.dir, options.nodes);
  const started: { node: StartedNode; home: string; logStart: number }[] = [];
  for (const { name, home } of homes) {
    const log = join(home, LOG_FILE);
    const pid = runningPid(home);
    if (pid !== undefined) {
      started.push({ node: { name, pid, log, already: true }, home, logStart: 0 });
      continue;
    }
    const logFd = openSync(log, "a", 0o600);
    const spawnOptions: SpawnOptions = { detached: true, stdio: ["ignore", logFd, logFd] };
    const args = [
      options.bin,
      "node",
      "--home",
      home,
      ...(options.proxyApp !== undefined ? ["--proxy_app", options.proxyApp] : []),
      ...(options.nodeArgs ?? []),
    ];
    const logStart = statSync(log).size;
    const child = spawn(options.execPath, args, spawnOptions);
    closeSync(logFd);
    if (child.pid === undefined)
      throw new CliError("CLI_NODE_START_FAILED", `${name}: could not start ${options.execPath}`);
    child.unref();
    writeFileSync(join(home, PID_FILE), `${child.pid}\n`, { mode: 0o644 });
    started.push({ node: { name, pid: child.pid, log, already: false }, home, logStart });
  }
  const deadline = Date.now() + options.waitMs;
  for (const { node, home, logStart } of started) {
    const rpc = node.already ? rpcUrlOf(home) : await waitForRpc(home, node, logStart, deadline);
    if (rpc !== undefined) node.rpc = rpc;
  }
  return started.map((s) => s.node);
}

async function waitForRpc(
  home: string,
  node: StartedNode,
  logStart: number,
  deadline: number,
): Promise<string> {
  for (;;) {
    if (!isAlive(node.pid)) {
      rmSync(join(home, PID_FILE), { force: true });
      throw new CliError(
        "CLI_NODE_START_FAILED",
        `${node.name}: the node exited during start-up; the end of ${node.log}:\n${readLogTail(node.log, logStart, 3000)}`,
      );
    }
    const url = rpcUrlOf(home, logStart);
    if (url !== undefined && (await rpcAnswers(url))) return url;
    if (Date.now() > deadline)
      throw new CliError(
        "CLI_NODE_START_FAILED",
        `${node.name}: running (pid ${node.pid}) but its RPC ${url ?? "(address not known yet)"} did not answer in time; see ${node.log}`,
      );
    await new Promise((r) => setTimeout(r, 200));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = `/proc/${pid}/stat`;
    // a zombie (exited, not yet reaped by its new parent) counts as gone
    return !existsSync(stat) || !/^\d+ \(.*\) Z/.test(readFileSync(stat, "utf8"));
  } catch {
    return false;
  }
}

async function rpcAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) });
    return res.ok;
  } catch {
    return false;
  }
}

function readLogTail(log: string, from: number, max: number): string {
  try {
    const text = readFileSync(log).subarray(from).toString("utf8");
    return text.slice(-max);
  } catch {
    return "(no log)";
  }
}

/**
 * The node's RPC base URL: config.toml's rpc.laddr, or, when that asks for port 0 (ephemeral),
 * the address the node logged ("RPC server listening … address=tcp://…") since `logFrom`.
 */
export function rpcUrlOf(home: string, logFrom = 0): string | undefined {
  const laddr = loadConfig(home).config.rpc.laddr;
  const m = /^tcp:\/\/([^:]+|\[[^\]]+\]):(\d+)$/.exec(laddr);
  if (!m) return undefined; // unix sockets: not queried
  const host = m[1] === "0.0.0.0" || m[1] === "" ? "127.0.0.1" : m[1];
  if (m[2] !== "0") return `http://${host}:${m[2]}`;
  const log = join(home, LOG_FILE);
  if (!existsSync(log)) return undefined;
  const size = statSync(log).size;
  const text = readLogTail(log, Math.max(logFrom, size - LOG_TAIL_BYTES), LOG_TAIL_BYTES);
  const found = [...text.matchAll(/RPC server listening.*address=tcp:\/\/([0-9.]+:\d+)/g)].at(-1);
  return found ? `http://${found[1]}` : undefined;
}

export interface StopOptions {
  dir: string;
  nodes?: readonly string[];
  /** SIGTERM, then SIGKILL after this long; 0 with `kill` sends SIGKILL at once. */
  graceMs: number;
  /** kill -9 at once (a crash drill), no SIGTERM. */
  kill: boolean;
}

export interface StoppedNode {
  name: string;
  pid?: number;
  /** "not running", "stopped" (exited after SIGTERM) or "killed" (SIGKILL). */
  outcome: "not running" | "stopped" | "killed";
}

export async function stopTestnetNodes(options: StopOptions): Promise<StoppedNode[]> {
  const homes = findTestnetHomes(options.dir, options.nodes);
  const targets = homes.map(({ name, home }) => ({ name, home, pid: runningPid(home) }));
  for (const t of targets) if (t.pid !== undefined) process.kill(t.pid, options.kill ? "SIGKILL" : "SIGTERM");
  const deadline = Date.now() + (options.kill ? 5000 : options.graceMs);
  const results: StoppedNode[] = [];
  for (const t of targets) {
    if (t.pid === undefined) {
      rmSync(join(t.home, PID_FILE), { force: true });
      results.push({ name: t.name, outcome: "not running" });
      continue;
    }
    while (isAlive(t.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    let outcome: StoppedNode["outcome"] = options.kill ? "killed" : "stopped";
    if (isAlive(t.pid)) {
      process.kill(t.pid, "SIGKILL");
      outcome = "killed";
      const hard = Date.now() + 5000;
      while (isAlive(t.pid) && Date.now() < hard) await new Promise((r) => setTimeout(r, 50));
    }
    rmSync(join(t.home, PID_FILE), { force: true });
    results.push({ name: t.name, pid: t.pid, outcome });
  }
  return results;
}

export interface NodeStatus {
  name: string;
  pid?: number;
  running: boolean;
  rpc?: string;
  height?: string;
  hash?: string;
  time?: string;
  peers?: number;
  catchingUp?: boolean;
  /** Why the RPC figures are missing, when the node runs but did not answer. */
  error?: string;
}

export async function testnetStatus(dir: string, nodes?: readonly string[]): Promise<NodeStatus[]> {
  const homes = findTestnetHomes(dir, nodes);
  return Promise.all(
    homes.map(async ({ name, home }): Promise<NodeStatus> => {
      const pid = runningPid(home);
      const status: NodeStatus = { name, running: pid !== undefined, ...(pid !== undefined ? { pid } : {}) };
      if (pid === undefined) return status;
      const rpc = rpcUrlOf(home);
      if (rpc === undefined)
        return { ...status, error: "RPC address unknown (unix socket or not logged yet)" };
      status.rpc = rpc;
      try {
        const [s, n] = await Promise.all([rpcResult(`${rpc}/status`), rpcResult(`${rpc}/net_info`)]);
        const sync = (s as { sync_info: Record<string, unknown> }).sync_info;
        status.height = String(sync.latest_block_height);
        status.hash = String(sync.latest_block_hash);
        status.time = String(sync.latest_block_time);
        status.catchingUp = sync.catching_up === true;
        status.peers = Number((n as { n_peers: string }).n_peers);
      } catch (error) {
        status.error = (error as Error).message;
      }
      return status;
    }),
  );
}

async function rpcResult(url: string): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  const body = (await res.json()) as { result?: unknown; error?: { message?: string } };
  if (body.result === undefined) throw new Error(`${url}: ${body.error?.message ?? "no result"}`);
  return body.result;
}

/** The status table: one row per node. */
export function formatStatusTable(rows: readonly NodeStatus[]): string {
  const header = ["NODE", "PID", "HEIGHT", "PEERS", "CATCHING_UP", "LAST_BLOCK_HASH", "RPC"];
  const lines = rows.map((r) => [
    r.name,
    r.pid !== undefined ? String(r.pid) : "stopped",
    r.height ?? "-",
    r.peers !== undefined ? String(r.peers) : "-",
    r.catchingUp === undefined ? "-" : String(r.catchingUp),
    r.hash ?? (r.error !== undefined ? `(${r.error})` : "-"),
    r.rpc ?? "-",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  return [header, ...lines]
    .map((l) =>
      l
        .map((c, i) => c.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
