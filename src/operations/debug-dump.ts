// `rxbft debug dump` and `rxbft debug kill` (v0.34's debug commands): one ZIP archive an operator
// attaches to a bug report. It holds what the node says about itself over RPC (status, net_info,
// consensus_state, dump_consensus_state), config.toml with secrets redacted, the signer's
// last-signed state (no key), the tail of the node's log file and of the consensus log, and the
// node process's memory figures (from /proc: a Node process offers no heap snapshot from outside
// unless started with an inspector). Key files are never read. A source that cannot be reached
// is recorded in manifest.json and the rest is still collected: a stuck node is when this matters.
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname } from "node:path";
import { upperHex } from "../bytes.js";
import { readLockHolder } from "../config/home-lock.js";
import { RXBFT_VERSION } from "../version.js";
import { DEFAULT_MAX_RECORD_BYTES, readScannedEntries } from "../wal/log-reader.js";
import { scanLog } from "../wal/log-scan.js";
import { OperationError } from "./errors.js";
import type { OperatorHome } from "./operator-home.js";
import { redactConfigToml } from "./redact-config.js";
import { buildZip, type ZipEntry } from "./zip-writer.js";

export const RPC_DUMP_ROUTES = ["status", "net_info", "consensus_state", "dump_consensus_state"] as const;

export interface DebugDumpOptions {
  /** The node's RPC (default: from config.toml rpc.laddr). */
  rpcUrl?: string;
  /** The file the node's output goes to (its log); the last `logLines` lines are kept. */
  logFile?: string;
  logLines?: number;
  /** Consensus log records kept from its end. */
  consensusRecords?: number;
  rpcTimeoutMs?: number;
}

export interface DebugBundle {
  entries: ZipEntry[];
  manifest: DebugManifest;
}

export interface DebugManifest {
  rxbft_version: string;
  created: string;
  home: string;
  rpc: string | undefined;
  node_pid: number | undefined;
  files: string[];
  /** What could not be collected, by file, with why. */
  missing: Record<string, string>;
}

const MAX_RPC_BYTES = 64 * 1024 * 1024;
const MAX_LOG_TAIL_BYTES = 64 * 1024 * 1024;
export const DEFAULT_LOG_LINES = 1000;
export const DEFAULT_CONSENSUS_RECORDS = 1000;

/** The RPC URL config.toml's rpc.laddr gives (a wildcard host is reached on loopback). */
export function rpcUrlFromConfig(home: OperatorHome): string | undefined {
  const laddr = home.config.rpc.laddr;
  const m = /^tcp:\/\/(.*):(\d+)$/.exec(laddr);
  if (!m) return undefined;
  let host = m[1]!;
  if (host === "0.0.0.0" || host === "" || host === "[::]") host = "127.0.0.1";
  const tls = home.config.rpc.tls_cert_file !== "" && home.config.rpc.tls_key_file !== "";
  return `${tls ? "https" : "http"}://${host}:${m[2]}`;
}

/** Collects what can be reached while the node runs (RPC, memory): the first half of a bundle. */
export async function collectLive(
  home: OperatorHome,
  options: DebugDumpOptions,
  bundle: DebugBundle,
): Promise<void> {
  const rpc = options.rpcUrl ?? rpcUrlFromConfig(home);
  bundle.manifest.rpc = rpc;
  for (const route of RPC_DUMP_ROUTES) {
    const name = `${route}.json`;
    if (rpc === undefined) {
      bundle.manifest.missing[name] =
        `rpc.laddr ${home.config.rpc.laddr} is not a tcp:// address; pass --rpc http://host:port`;
      continue;
    }
    try {
      add(
        bundle,
        name,
        await fetchCapped(`${rpc.replace(/\/$/, "")}/${route}`, options.rpcTimeoutMs ?? 10_000),
      );
    } catch (error) {
      bundle.manifest.missing[name] = `GET ${rpc}/${route}: ${(error as Error).message}`;
    }
  }
  const holder = readLockHolder(home.paths.dataDir);
  if (holder?.alive) {
    bundle.manifest.node_pid = holder.pid;
    try {
      const status = readFileSync(`/proc/${holder.pid}/status`, "utf8");
      const figures = status
        .split("\n")
        .filter((l) =>
          /^(Name|State|Pid|Threads|Vm\w+|Rss\w+|voluntary_ctxt_switches|nonvoluntary_ctxt_switches):/.test(
            l,
          ),
        );
      let rollup = "";
      try {
        rollup = readFileSync(`/proc/${holder.pid}/smaps_rollup`, "utf8");
      } catch {
        rollup = "(smaps_rollup not readable)\n";
      }
      add(
        bundle,
        "memory.txt",
        Buffer.from(
          `# /proc/${holder.pid}/status\n${figures.join("\n")}\n\n# /proc/${holder.pid}/smaps_rollup\n${rollup}`,
        ),
      );
    } catch (error) {
      bundle.manifest.missing["memory.txt"] = `/proc/${holder.pid}: ${(error as Error).message}`;
    }
  } else {
    bundle.manifest.missing["memory.txt"] =
      `no live node holds ${home.paths.dataDir}/rxbft.lock on this machine: no process to read memory figures from`;
  }
  bundle.manifest.missing["heap.heapsnapshot"] =
    "a Node process gives no heap snapshot from outside; memory.txt holds its memory figures";
}

/** Collects the files of the home (config, signer state, log tails): the second half. */
export async function collectFiles(
  home: OperatorHome,
  options: DebugDumpOptions,
  bundle: DebugBundle,
): Promise<void> {
  const { configFile, privValidatorStateFile, walFile } = home.paths;
  if (existsSync(configFile))
    add(bundle, "config.toml", Buffer.from(redactConfigToml(readFileSync(configFile, "utf8"))));
  else bundle.manifest.missing["config.toml"] = `${configFile} does not exist`;
  if (existsSync(privValidatorStateFile))
    add(bundle, "priv_validator_state.json", readFileSync(privValidatorStateFile));
  if (options.logFile !== undefined) {
    try {
      add(bundle, "node.log", tailLines(options.logFile, options.logLines ?? DEFAULT_LOG_LINES));
    } catch (error) {
      bundle.manifest.missing["node.log"] = `${options.logFile}: ${(error as Error).message}`;
    }
  } else {
    bundle.manifest.missing["node.log"] =
      "no --log-file given: the node logs to its standard output; pass the file it is redirected to";
  }
  try {
    add(
      bundle,
      "consensus-log-tail.jsonl",
      await consensusLogTail(dirname(walFile), options.consensusRecords ?? DEFAULT_CONSENSUS_RECORDS),
    );
  } catch (error) {
    bundle.manifest.missing["consensus-log-tail.jsonl"] = `${dirname(walFile)}: ${(error as Error).message}`;
  }
}

export function newBundle(home: OperatorHome, now: Date): DebugBundle {
  return {
    entries: [],
    manifest: {
      rxbft_version: RXBFT_VERSION,
      created: now.toISOString(),
      home: home.home,
      rpc: undefined,
      node_pid: undefined,
      files: [],
      missing: {},
    },
  };
}

/** Writes the bundle (manifest.json first) to `out` atomically, mode 0600; refuses to overwrite. */
export function writeBundle(out: string, bundle: DebugBundle, now: Date): void {
  if (existsSync(out)) {
    throw new OperationError("OP_DEBUG_FAILED", `${out} already exists; choose another output file`);
  }
  if (!existsSync(dirname(out))) {
    throw new OperationError("OP_DEBUG_FAILED", `${dirname(out)}: no such directory for the archive`);
  }
  bundle.manifest.files = ["manifest.json", ...bundle.entries.map((e) => e.name)];
  const manifest = {
    name: "manifest.json",
    data: Buffer.from(`${JSON.stringify(bundle.manifest, null, 2)}\n`),
  };
  const zip = buildZip([manifest, ...bundle.entries], now);
  const tmp = `${out}.tmp-${process.pid}`;
  writeFileSync(tmp, zip, { mode: 0o600 });
  renameSync(tmp, out);
}

function add(bundle: DebugBundle, name: string, data: Uint8Array): void {
  bundle.entries.push({ name, data });
}

async function fetchCapped(url: string, timeoutMs: number): Promise<Buffer> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (res.body === null) throw new Error(`HTTP ${res.status} with no body`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_RPC_BYTES) throw new Error(`answer larger than ${MAX_RPC_BYTES} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** The last `lines` lines of a file, read from its end (at most 64 MiB). */
export function tailLines(file: string, lines: number): Buffer {
  const size = statSync(file).size;
  const fd = openSync(file, "r");
  try {
    const chunks: Buffer[] = [];
    let position = size;
    let newlines = 0;
    let read = 0;
    while (position > 0 && newlines <= lines && read < MAX_LOG_TAIL_BYTES) {
      const length = Math.min(64 * 1024, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      readSync(fd, chunk, 0, length, position);
      chunks.unshift(chunk);
      read += length;
      for (const byte of chunk) if (byte === 0x0a) newlines++;
    }
    const text = Buffer.concat(chunks);
    const all = text.toString("utf8").split("\n");
    if (all.at(-1) === "") all.pop();
    return Buffer.from(`${all.slice(-lines).join("\n")}\n`);
  } finally {
    closeSync(fd);
  }
}

/** The last `count` records of the consensus log's latest segments, as JSON lines (read only). */
async function consensusLogTail(dir: string, count: number): Promise<Buffer> {
  if (!existsSync(dir)) throw new Error("no consensus log here");
  const scan = await scanLog(dir, DEFAULT_MAX_RECORD_BYTES, "read-only");
  if (scan.segments.length === 0) return Buffer.from("");
  const tail: string[] = [];
  // The last two segments hold the latest heights (a segment is 64 MiB by default).
  const segments = scan.segments.slice(-2);
  for await (const entry of readScannedEntries(segments, segments[0]!.index, 0, DEFAULT_MAX_RECORD_BYTES)) {
    tail.push(JSON.stringify(entry.kind === "input" ? entry.input : { end_height: entry.height }, jsonSafe));
    if (tail.length > count) tail.shift();
  }
  return Buffer.from(tail.length === 0 ? "" : `${tail.join("\n")}\n`);
}

function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return upperHex(value);
  return value;
}
