// Peer addresses from config and RPC into dialable ones: `id@host:port` parsed with v0.34's
// rules (src/p2p/net-address.ts), host names resolved once (DNS is I/O, so it lives here), and
// p2p.laddr split into host and port.
import { lookup } from "node:dns/promises";
import type { Logger } from "../src/logger/index.js";
import { type NetAddress, NetAddressError, normaliseIp, parseAddressSpec } from "../src/p2p/net-address.js";

/** Resolves `id@host:port` entries; unresolvable names are skipped (as v0.34 does), bad ones throw. */
export async function resolveAddresses(entries: readonly string[], log: Logger): Promise<NetAddress[]> {
  const out: NetAddress[] = [];
  for (const entry of entries) {
    const spec = parseAddressSpec(entry);
    if (!spec.needsLookup) {
      out.push({ id: spec.id, ip: normaliseIp(spec.host), port: spec.port });
      continue;
    }
    try {
      const { address } = await lookup(spec.host);
      out.push({ id: spec.id, ip: normaliseIp(address), port: spec.port });
    } catch (error) {
      log.error("cannot resolve a peer's host name, skipping it", {
        address: entry,
        err: (error as Error).message,
      });
    }
  }
  return out;
}

export function laddrParts(laddr: string): { host: string; port: number } {
  const rest = laddr.replace(/^tcp:\/\//, "");
  const colon = rest.lastIndexOf(":");
  return { host: rest.slice(0, colon).replace(/^\[|\]$/g, ""), port: Number(rest.slice(colon + 1)) };
}

/** resolveAddresses for an RPC call: a bad entry's error names the route. */
export async function resolveForRoute(
  entries: readonly string[],
  route: string,
  log: Logger,
): Promise<NetAddress[]> {
  try {
    return await resolveAddresses(entries, log);
  } catch (error) {
    if (error instanceof NetAddressError) throw new Error(`${route}: ${error.message}`);
    throw error;
  }
}
