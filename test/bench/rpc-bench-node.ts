// What the RPC benches that load a real node share: the BUILT node (`bin/run.js node`, in-process
// kvstore) in a temporary home on loopback ephemeral ports, read through its log lines (RPC
// address, committed heights); wrk, the C load generator (a client cheaper than the server, so
// it does not saturate first on 2 shared cores), found on PATH; the node's CPU time from /proc.
// The node is stopped by its PID (SIGINT, then SIGKILL after 15 s) and its home removed.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));
const BIN = process.env.RPC_BENCH_BIN ?? join(root, "bin", "run.js");

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const round = (n: number, d = 2) => Number(n.toFixed(d));
export const load = () => loadavg().map((l) => round(l, 2));

/** wrk's path, or undefined when it is not installed (benches then say so and skip). */
export function findWrk(): string | undefined {
  const found = spawnSync("sh", ["-c", "command -v wrk"], { encoding: "utf8" });
  const path = found.stdout.trim();
  return found.status === 0 && path !== "" ? path : undefined;
}

export function buildIfMissing(): void {
  if (existsSync(join(root, "dist", "streams", "node.js"))) return;
  const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("npm run build failed");
}

export interface WrkFigure {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

/** One wrk run: `wrk -t1 -c<connections> -d<seconds>s --latency [-s script] url`. */
export function runWrk(
  wrk: string,
  url: string,
  seconds: number,
  connections = 32,
  script?: string,
): WrkFigure & { output: string } {
  const args = [
    "-t1",
    `-c${connections}`,
    `-d${seconds}s`,
    "--latency",
    ...(script ? ["-s", script] : []),
    url,
  ];
  const run = spawnSync(wrk, args, { encoding: "utf8", timeout: (seconds + 30) * 1000 });
  const output = `${run.stdout}${run.stderr}`;
  const rate = /Requests\/sec:\s+([0-9.]+)/.exec(output);
  const p99 = /99%\s+([0-9.]+)(us|ms|s)/.exec(output);
  const scale = p99?.[2] === "us" ? 0.001 : p99?.[2] === "s" ? 1000 : 1;
  const errors = /Non-2xx or 3xx responses:\s+(\d+)/.exec(output);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    requestsPerSecond: rate ? Math.round(Number(rate[1])) : 0,
    p99Ms: p99 ? round(Number(p99[1]) * scale, 3) : 0,
    errors:
      Number(errors?.[1] ?? 0) +
      (socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0),
    output,
  };
}

/** A node started from a fresh home; `config` sets `[section] key = value` lines first. */
export class BenchNode {
  readonly home = mkdtempSync(join(tmpdir(), "rxbft-rpc-bench-"));
  address = "";
  height = 0;
  committedTxs = 0;
  /** Each committed height as logged: its txs and when the line arrived (performance.now()). */
  readonly commits: { height: number; txs: number; at: number }[] = [];
  private child: ChildProcess | undefined;
  private tail = "";
  private waiters: (() => void)[] = [];
  private exited: Promise<void> = Promise.resolve();

  constructor(config: Record<string, string> = {}) {
    const init = spawnSync(process.execPath, [BIN, "init", "--home", this.home, "--chain-id", "rpc-bench"], {
      encoding: "utf8",
    });
    if (init.status !== 0) throw new Error(`init failed: ${init.stderr}`);
    const file = join(this.home, "config", "config.toml");
    let text = readFileSync(file, "utf8");
    for (const [where, value] of Object.entries(config)) {
      const [section, key] = where.split(".") as [string, string];
      const start = text.indexOf(`[${section}]`);
      const m = new RegExp(`^${key} = .*$`, "m").exec(text.slice(start));
      if (start < 0 || !m) throw new Error(`config.toml has no [${section}] ${key}`);
      const at = start + m.index;
      text = `${text.slice(0, at)}${key} = ${value}${text.slice(at + m[0].length)}`;
    }
    writeFileSync(file, text);
  }

  /** Starts the node (under --cpu-prof into `profileDir` when given) and waits for a first block. */
  async start(profileDir?: string): Promise<void> {
    const args = [
      ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
      BIN,
      "node",
      "--home",
      this.home,
      "--proxy_app",
      "kvstore",
      "--rpc.laddr",
      "tcp://127.0.0.1:0",
      "--p2p.laddr",
      "tcp://127.0.0.1:0",
    ];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    this.child = child;
    this.exited = new Promise((resolve) => child.on("exit", () => resolve()));
    let pending = "";
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      this.tail = (this.tail + text).slice(-4000);
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const c = /committed block\s.*height=(\d+) .*txs=(\d+)/.exec(line);
        if (c) {
          this.height = Number(c[1]);
          this.committedTxs += Number(c[2]);
          this.commits.push({ height: this.height, txs: Number(c[2]), at: performance.now() });
        }
        const r = /RPC server listening\s.*address=tcp:\/\/([0-9.]+:\d+)/.exec(line);
        if (r) this.address = r[1] as string;
      }
      for (const w of this.waiters.splice(0)) w();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    await this.waitFor(
      () => this.address !== "" && this.height >= 1,
      "its RPC server and a first block",
      60_000,
    );
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  waitFor(check: () => boolean, what: string, ms: number): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve(check()), ms);
      void this.exited.then(() => {
        clearTimeout(timer);
        if (!check()) reject(new Error(`node exited before ${what}:\n${this.tail}`));
      });
      const test = () => {
        if (check()) {
          clearTimeout(timer);
          resolve(true);
        } else this.waiters.push(test);
      };
      test();
    });
  }

  /** CPU time (user + system) the node has used, in ms (0 where /proc is absent). */
  cpuMs(): number {
    try {
      const fields = readFileSync(`/proc/${this.child?.pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      return 0;
    }
  }

  /** Stops the node; its home is removed unless `keepHome` (then it is printed). */
  async stop(keepHome = false): Promise<void> {
    const child = this.child;
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid, "SIGINT");
      const done = await Promise.race([this.exited.then(() => true), sleep(15_000).then(() => false)]);
      if (!done && child.exitCode === null) process.kill(child.pid, "SIGKILL");
      await this.exited;
    }
    if (keepHome) console.log(`home kept: ${this.home}`);
    else rmSync(this.home, { recursive: true, force: true });
  }
}
