// Runs the built `rxbft node` as a child process in a temporary home, on loopback with an
// ephemeral RPC port, and reads what it says: committed heights and hashes from its log lines,
// the RPC address it listens on.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RXBFT_BIN, runCli, tempHome } from "./cli-harness.js";

/** Initialises a home and sets [consensus] timeouts (Go durations) in its config.toml. */
export async function initFastHome(
  timeouts: Record<string, string>,
  prefix = "rxbft-node-",
): Promise<string> {
  const home = tempHome(prefix);
  const out = await runCli(["init", "--home", home, "--chain-id", "node-e2e"]);
  if (out.code !== 0) throw new Error(`init failed: ${out.stderr}`);
  const file = join(home, "config", "config.toml");
  let text = readFileSync(file, "utf8");
  for (const [key, value] of Object.entries(timeouts)) {
    const re = new RegExp(`^${key} = .*$`, "m");
    if (!re.test(text)) throw new Error(`config.toml has no ${key}`);
    text = text.replace(re, `${key} = ${JSON.stringify(value)}`);
  }
  writeFileSync(file, text);
  return home;
}

export interface Committed {
  height: bigint;
  txs: number;
  hash: string;
}

const COMMITTED = /committed block\s.*height=(\d+) .*txs=(\d+) hash=([0-9A-F]{64})/;
const RPC_LISTENING = /RPC server listening\s.*address=(tcp:\/\/[0-9.]+:\d+)/;

const running = new Set<NodeProcess>();

/** Kills (SIGKILL) every node a test started and has not seen exit: call it from after(). */
export function killAllNodes(): void {
  for (const node of running) node.kill("SIGKILL");
}

/** How a NodeProcess is started, when not as `node bin/run.js` with the test's environment. */
export interface NodeStart {
  /** An executable taking rxbft's arguments (e.g. bin/rxbft, the installed entry). */
  readonly entry?: string;
  readonly env?: NodeJS.ProcessEnv;
}

export class NodeProcess {
  readonly child: ChildProcess;
  readonly committed: Committed[] = [];
  output = "";
  rpcUrl: string | undefined;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private waiters: (() => void)[] = [];

  constructor(home: string, extraArgs: string[] = [], start: NodeStart = {}) {
    const [command, entryArgs] =
      start.entry === undefined ? [process.execPath, [RXBFT_BIN]] : [start.entry, []];
    this.child = spawn(
      command,
      [
        ...entryArgs,
        "node",
        "--home",
        home,
        // kvstore unless the test names another app.
        ...(extraArgs.includes("--proxy_app") ? [] : ["--proxy_app", "kvstore"]),
        "--rpc.laddr",
        "tcp://127.0.0.1:0",
        // an ephemeral loopback p2p port, so parallel tests never collide; a test that needs a
        // known port passes its own --p2p.laddr, or "--p2p.laddr=config" to keep config.toml's
        ...(extraArgs.some((a) => a.startsWith("--p2p.laddr")) ? [] : ["--p2p.laddr", "tcp://127.0.0.1:0"]),
        ...extraArgs.filter((a) => a !== "--p2p.laddr=config"),
      ],
      { stdio: ["ignore", "pipe", "pipe"], ...(start.env === undefined ? {} : { env: start.env }) },
    );
    // killAllNodes (a test file's `after`) stops whatever a failed test left running.
    running.add(this);
    this.child.once("exit", () => running.delete(this));
    let pending = "";
    const onData = (chunk: Buffer) => {
      this.output += chunk.toString();
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const c = COMMITTED.exec(line);
        if (c) this.committed.push({ height: BigInt(c[1]!), txs: Number(c[2]), hash: c[3]! });
        const r = RPC_LISTENING.exec(line);
        if (r) this.rpcUrl = r[1]!.replace("tcp://", "http://");
      }
      for (const w of this.waiters.splice(0)) w();
    };
    this.child.stdout!.on("data", onData);
    this.child.stderr!.on("data", onData);
    this.exited = new Promise((resolve) =>
      this.child.on("exit", (code, signal) => resolve({ code, signal })),
    );
  }

  get height(): bigint {
    return this.committed.at(-1)?.height ?? 0n;
  }

  /** Resolves once `check()` holds, checking after every output chunk; rejects after `timeoutMs`. */
  waitFor(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}; output:\n${this.output.slice(-3000)}`)),
        timeoutMs,
      );
      const test = () => {
        if (check()) {
          clearTimeout(timer);
          resolve();
        } else this.waiters.push(test);
      };
      void this.exited.then(() => {
        if (!check()) {
          clearTimeout(timer);
          reject(new Error(`node exited before ${what}; output:\n${this.output.slice(-3000)}`));
        }
      });
      test();
    });
  }

  async rpc(path: string): Promise<Record<string, unknown>> {
    await this.waitFor(() => this.rpcUrl !== undefined, "the RPC server");
    const res = await fetch(`${this.rpcUrl}${path}`);
    return (await res.json()) as Record<string, unknown>;
  }

  kill(signal: NodeJS.Signals): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }
}
