// A multi-node loopback network for e2e tests: the homes of `rxbft testnet` moved to free ports,
// each node a real `rxbft node` process (start, SIGTERM, kill -9 by PID, restart in its home),
// and the checks every network test makes: heights reached, the same block hash and app hash at
// each height on every node (from /commit and /block), a tx found by /tx on every node.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempHome } from "./cli-harness.js";
import { NodeProcess } from "./node-harness.js";
import { freePorts, readConfigValue, setConfig } from "./p2p-harness.js";

/** Consensus timeouts that make heights fast on a loaded 2-core machine and still leave room. */
export const FAST_CONSENSUS = {
  timeout_commit: "200ms",
  timeout_propose: "2s",
  timeout_prevote: "500ms",
  timeout_precommit: "500ms",
};

export interface NetworkOptions {
  validators: number;
  /** Full nodes (`testnet --n`). */
  fullNodes?: number;
  chainId?: string;
  /** [consensus] keys (Go durations); FAST_CONSENSUS unless given. */
  consensus?: Record<string, string>;
  prefix?: string;
}

export interface HeightHashes {
  height: bigint;
  blockHash: string;
  appHash: string;
}

export interface MadeTestnet {
  dir: string;
  homes: string[];
  nodeIds: string[];
  p2pPorts: number[];
}

/**
 * Runs `rxbft testnet` into a temp folder and moves every node to free loopback ports: its p2p
 * laddr (and the other nodes' persistent_peers) to a free port, its RPC to an ephemeral one
 * (port 0: the node logs the address it got), [consensus] timeouts as asked.
 */
export async function testnetOnFreePorts(options: NetworkOptions): Promise<MadeTestnet> {
  const dir = tempHome(options.prefix ?? "rxbft-net-");
  const total = options.validators + (options.fullNodes ?? 0);
  const made = await runCli([
    "testnet",
    "--v",
    String(options.validators),
    "--n",
    String(options.fullNodes ?? 0),
    "--o",
    dir,
    "--chain-id",
    options.chainId ?? "net-e2e",
  ]);
  if (made.code !== 0) throw new Error(`rxbft testnet failed: ${made.stderr}`);
  const homes = Array.from({ length: total }, (_, i) => join(dir, `node${i}`));
  const ports = await freePorts(total);
  const fixed = homes.map((h) => readConfigValue(h, "p2p", "laddr").split(":").pop()!);
  const nodeIds = homes.map((h) => nodeIdOf(made.stdout, h));
  for (const [i, home] of homes.entries()) {
    let peers = readConfigValue(home, "p2p", "persistent_peers");
    for (const [j, port] of fixed.entries()) peers = peers.replace(`:${port}`, `:${ports[j]}`);
    setConfig(home, "p2p", { laddr: `tcp://127.0.0.1:${ports[i]}`, persistent_peers: peers });
    // v0.34's JSON forms (rpc.compat = "tendermint"): what CosmJS and explorers read
    setConfig(home, "rpc", { laddr: "tcp://127.0.0.1:0", compat: "tendermint" });
    setConfig(home, "consensus", options.consensus ?? FAST_CONSENSUS);
  }
  return { dir, homes, nodeIds, p2pPorts: ports };
}

/** The largest of some bigints (0n for none). */
export function highest(values: readonly bigint[]): bigint {
  let top = 0n;
  for (const v of values) if (v > top) top = v;
  return top;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Network {
  /** node i's process (the latest started), undefined before its first start. */
  readonly nodes: (NodeProcess | undefined)[];
  /** Every process ever started per node, to read the output of killed ones. */
  readonly history: NodeProcess[][];

  private constructor(
    readonly dir: string,
    readonly homes: string[],
    readonly nodeIds: string[],
    readonly p2pPorts: number[],
    readonly validatorCount: number,
  ) {
    this.nodes = homes.map(() => undefined);
    this.history = homes.map(() => []);
  }

  /** `rxbft testnet --v --n` into a temp folder, every node moved to free loopback ports. */
  static async create(options: NetworkOptions): Promise<Network> {
    const made = await testnetOnFreePorts(options);
    return new Network(made.dir, made.homes, made.nodeIds, made.p2pPorts, options.validators);
  }

  get size(): number {
    return this.homes.length;
  }

  /** `id@127.0.0.1:port` of node i, for seeds / persistent_peers. */
  address(i: number): string {
    return `${this.nodeIds[i]}@127.0.0.1:${this.p2pPorts[i]}`;
  }

  /** Starts node i in its home (again, after a kill); extra `rxbft node` flags may follow. */
  start(i: number, extraArgs: string[] = []): NodeProcess {
    const running = this.nodes[i];
    if (running && running.child.exitCode === null && running.child.signalCode === null)
      throw new Error(`node${i} is still running (pid ${running.child.pid})`);
    const node = new NodeProcess(this.homes[i]!, ["--p2p.laddr=config", ...extraArgs]);
    this.nodes[i] = node;
    this.history[i]!.push(node);
    return node;
  }

  startAll(extraArgs: (i: number) => string[] = () => []): NodeProcess[] {
    return this.homes.map((_, i) => this.start(i, extraArgs(i)));
  }

  node(i: number): NodeProcess {
    const node = this.nodes[i];
    if (!node) throw new Error(`node${i} was never started`);
    return node;
  }

  isRunning(i: number): boolean {
    const node = this.nodes[i];
    return node !== undefined && node.child.exitCode === null && node.child.signalCode === null;
  }

  /** kill -9 of node i by its PID; resolves once the process is gone. */
  async kill9(i: number): Promise<void> {
    const node = this.node(i);
    if (this.isRunning(i)) process.kill(node.child.pid!, "SIGKILL");
    await node.exited;
  }

  /** SIGTERM (a clean stop); resolves with the exit code. */
  async stop(i: number): Promise<number | null> {
    const node = this.node(i);
    if (this.isRunning(i)) process.kill(node.child.pid!, "SIGTERM");
    return (await node.exited).code;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.homes.map((_, i) => (this.nodes[i] ? this.stop(i) : undefined)));
  }

  /** JSON-RPC GET on node i; throws with the node's error when the route answers one. */
  async rpc<T = Record<string, unknown>>(i: number, path: string): Promise<T> {
    const body = (await this.node(i).rpc(path)) as { result?: T; error?: unknown };
    if (body.error !== undefined || body.result === undefined)
      throw new Error(`node${i} ${path}: ${JSON.stringify(body.error ?? body)}`);
    return body.result;
  }

  /** Latest height from /status (0 when the node has none or does not answer). */
  async statusHeight(i: number): Promise<bigint> {
    try {
      const s = await this.rpc<{ sync_info: { latest_block_height: string } }>(i, "/status");
      return BigInt(s.sync_info.latest_block_height);
    } catch {
      return 0n;
    }
  }

  /** Waits until every listed node has committed `height` (from its log lines). */
  async waitForHeight(indices: number[], height: bigint, timeoutMs: number): Promise<void> {
    await Promise.all(
      indices.map((i) => {
        const node = this.node(i);
        return node.waitFor(() => node.height >= height, `node${i} at height ${height}`, timeoutMs);
      }),
    );
  }

  /** The highest height every listed node has committed (per log lines). */
  commonHeight(indices: number[]): bigint {
    let lowest: bigint | undefined;
    for (const i of indices) {
      const h = this.node(i).height;
      if (lowest === undefined || h < lowest) lowest = h;
    }
    return lowest ?? 0n;
  }

  /**
   * Block hash and app hash at `height` on node i: the block ID from /commit and the header's
   * app_hash of the NEXT block (the app hash after executing `height`) is checked separately by
   * comparing headers; here app_hash is the one recorded in this block's header.
   */
  async hashesAt(i: number, height: bigint): Promise<HeightHashes> {
    const c = await this.rpc<{
      signed_header: { header: { app_hash: string }; commit: { block_id: { hash: string } } };
    }>(i, `/commit?height=${height}`);
    return {
      height,
      blockHash: c.signed_header.commit.block_id.hash,
      appHash: c.signed_header.header.app_hash,
    };
  }

  /**
   * Compares block hash and app hash at every height in [from, to] across the listed nodes;
   * returns the differences (empty when they agree), each naming height, node and both values.
   */
  async compareHashes(indices: number[], from: bigint, to: bigint): Promise<string[]> {
    const diffs: string[] = [];
    for (let h = from; h <= to; h++) {
      const all = await Promise.all(indices.map((i) => this.hashesAt(i, h)));
      const first = all[0]!;
      for (const [k, got] of all.entries()) {
        if (got.blockHash !== first.blockHash || got.appHash !== first.appHash)
          diffs.push(
            `height ${h}: node${indices[k]} has block ${got.blockHash} app ${got.appHash}, node${indices[0]} has block ${first.blockHash} app ${first.appHash}`,
          );
      }
    }
    return diffs;
  }

  /**
   * Every committed block hash a node ever logged (killed processes included), per height;
   * a height logged with two hashes on any node, or two nodes disagreeing, is a fork.
   */
  forks(): string[] {
    const byHeight = new Map<bigint, { hash: string; who: string }>();
    const out: string[] = [];
    for (const [i, runs] of this.history.entries())
      for (const run of runs)
        for (const c of run.committed) {
          const seen = byHeight.get(c.height);
          if (seen === undefined) byHeight.set(c.height, { hash: c.hash, who: `node${i}` });
          else if (seen.hash !== c.hash)
            out.push(`height ${c.height}: node${i} committed ${c.hash}, ${seen.who} committed ${seen.hash}`);
        }
    return out;
  }

  /** Sends a tx to node i with broadcast_tx_sync; returns its hash (uppercase hex). */
  async sendTx(i: number, tx: string): Promise<string> {
    const r = await this.rpc<{ code: number | string; hash: string; log: string }>(
      i,
      `/broadcast_tx_sync?tx=${encodeURIComponent(JSON.stringify(tx))}`,
    );
    if (Number(r.code) !== 0) throw new Error(`node${i} refused tx ${tx}: code ${r.code} ${r.log}`);
    return r.hash;
  }

  /** /tx on node i: the height it was committed at, or undefined when not (yet) found. */
  async txHeight(i: number, hash: string): Promise<bigint | undefined> {
    const body = (await this.node(i).rpc(`/tx?hash=0x${hash}`)) as { result?: { height: string } };
    return body.result ? BigInt(body.result.height) : undefined;
  }

  /** Polls /tx on every listed node until all find `hash`; returns the heights each reports. */
  async waitForTxEverywhere(indices: number[], hash: string, timeoutMs: number): Promise<bigint[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const heights = await Promise.all(indices.map((i) => this.txHeight(i, hash)));
      if (heights.every((h) => h !== undefined)) return heights as bigint[];
      if (Date.now() > deadline)
        throw new Error(
          `tx ${hash} not found within ${timeoutMs} ms on ${indices.filter((_, k) => heights[k] === undefined).map((i) => `node${i}`)}`,
        );
      await sleep(250);
    }
  }

  /** The node's last lines of output, for a failing assertion's message. */
  tail(i: number, chars = 2000): string {
    return `--- node${i} ---\n${this.nodes[i]?.output.slice(-chars) ?? "(never started)"}`;
  }

  genesisText(): string {
    return readFileSync(join(this.homes[0]!, "config", "genesis.json"), "utf8");
  }
}

/** The node id testnet printed for a home (`  node2  validator  <id>@host:port  rpc …`). */
function nodeIdOf(stdout: string, home: string): string {
  const name = home.split("/").pop()!;
  const m = new RegExp(`^\\s+${name}\\s+\\S+(?: node)?\\s+([0-9a-f]{40})@`, "m").exec(stdout);
  if (!m) throw new Error(`no node id for ${name} in testnet's output:\n${stdout}`);
  return m[1]!;
}
