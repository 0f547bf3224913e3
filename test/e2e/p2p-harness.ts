// Helpers of the p2p e2e tests: free loopback ports, config.toml edits, and net_info polling.
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { NodeProcess } from "./node-harness.js";

/** `n` distinct loopback ports free right now (bound to :0 and released). */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<import("node:net").Server>((resolve, reject) => {
          const s = createServer();
          s.once("error", reject);
          s.listen(0, "127.0.0.1", () => resolve(s));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

/** Sets `key = value` (TOML-quoted strings, raw booleans/numbers) in [section] of a home's config.toml. */
export function setConfig(
  home: string,
  section: string,
  values: Record<string, string | boolean | number>,
): void {
  const file = join(home, "config", "config.toml");
  const lines = readFileSync(file, "utf8").split("\n");
  let current = "";
  const seen = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const header = /^\[([^\]]+)\]/.exec(lines[i]!);
    if (header) current = header[1]!;
    const kv = /^([a-z_]+)\s*=/.exec(lines[i]!);
    if (current === section && kv && kv[1]! in values) {
      const v = values[kv[1]!]!;
      lines[i] = `${kv[1]} = ${typeof v === "string" ? JSON.stringify(v) : String(v)}`;
      seen.add(kv[1]!);
    }
  }
  for (const key of Object.keys(values))
    if (!seen.has(key)) throw new Error(`[${section}] ${key} not in ${file}`);
  writeFileSync(file, lines.join("\n"));
}

export function readConfigValue(home: string, section: string, key: string): string {
  const text = readFileSync(join(home, "config", "config.toml"), "utf8");
  const start = text.indexOf(`[${section}]`);
  const m = new RegExp(`^${key} = "(.*)"$`, "m").exec(text.slice(start));
  if (!m) throw new Error(`[${section}] ${key} not found`);
  return m[1]!;
}

export interface NetInfoPeer {
  node_id?: string;
  node_info: { id: string; listen_addr: string; moniker: string; channels: string };
  is_outbound: boolean;
  remote_ip: string;
  connection_status: { Duration: string; SendMonitor: { Bytes: string }; Channels: { ID: number }[] };
}

export async function netInfo(
  node: NodeProcess,
): Promise<{ n_peers: string; listening: boolean; listeners: string[]; peers: NetInfoPeer[] }> {
  const body = (await node.rpc("/net_info")) as {
    result: { n_peers: string; listening: boolean; listeners: string[]; peers: NetInfoPeer[] };
  };
  return body.result;
}

/** Polls net_info until the node has `n` peers (the ids, when given); returns the peers. */
export async function waitForPeers(
  node: NodeProcess,
  n: number,
  timeoutMs: number,
  ids?: string[],
): Promise<NetInfoPeer[]> {
  const deadline = Date.now() + timeoutMs;
  let last: NetInfoPeer[] = [];
  while (Date.now() < deadline) {
    last = (await netInfo(node)).peers;
    const have = new Set(last.map((p) => p.node_info.id));
    if (last.length >= n && (!ids || ids.every((id) => have.has(id)))) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${n} peers; have ${last.map((p) => p.node_info.moniker).join(",") || "none"}; output:\n${node.output.slice(-4000)}`,
  );
}
