// Peer addresses as v0.34 reads and judges them (p2p/netaddress.go): `id@host:port` parsing,
// validity, routability and the address book's bucket group key. Pure: a host name is reported
// as needing a DNS lookup, which the caller (streams/) does; nothing here touches the network.
import { isIP } from "node:net";
import { CodedError } from "../coded-error.js";

export interface NetAddress {
  /** 40 hex characters; v0.34 accepts upper case here (its dialled-ID check then fails). */
  id: string;
  /** an IP literal (IPv6 without brackets) */
  ip: string;
  port: number;
}

/** A parsed `id@host:port` whose host may still be a name. */
export interface AddressSpec {
  id: string;
  host: string;
  port: number;
  /** the host is a name: resolve it, then use the first address (v0.34 does the same) */
  needsLookup: boolean;
}

export class NetAddressError extends CodedError<"P2P_ADDRESS_NO_ID" | "P2P_ADDRESS_INVALID"> {}

const HEX_ID = /^[0-9a-fA-F]{40}$/;

export function isValidNodeId(id: string): boolean {
  return HEX_ID.test(id);
}

/** Parses `[scheme://]id@host:port` with v0.34's rules, in its order; throws NetAddressError. */
export function parseAddressSpec(text: string): AddressSpec {
  let s = text;
  const scheme = s.indexOf("://");
  if (scheme >= 0) {
    s = s.slice(scheme + 3);
    const again = s.indexOf("://");
    if (again >= 0) s = s.slice(0, again);
  }
  const parts = s.split("@");
  if (parts.length !== 2)
    throw new NetAddressError("P2P_ADDRESS_NO_ID", `address (${text}) does not contain ID`);
  const [id, hostPort] = parts as [string, string];
  if (!isValidNodeId(id)) {
    throw new NetAddressError(
      "P2P_ADDRESS_INVALID",
      `invalid address (${text}): node id must be 40 hex characters`,
    );
  }
  const { host, port } = splitHostPort(hostPort, text);
  return { id, host, port, needsLookup: isIP(host) === 0 };
}

/** Parses an address whose host must already be an IP literal (PEX, our own listen address). */
export function parseNetAddress(text: string): NetAddress {
  const spec = parseAddressSpec(text);
  if (spec.needsLookup)
    throw new NetAddressError("P2P_ADDRESS_INVALID", `invalid address (${text}): not an IP`);
  return { id: spec.id, ip: normaliseIp(spec.host), port: spec.port };
}

function splitHostPort(hostPort: string, whole: string): { host: string; port: number } {
  const bad = (why: string) =>
    new NetAddressError("P2P_ADDRESS_INVALID", `invalid address (${whole}): ${why}`);
  let host: string;
  let portText: string;
  if (hostPort.startsWith("[")) {
    const close = hostPort.indexOf("]");
    if (close < 0 || hostPort[close + 1] !== ":") throw bad("missing port");
    host = hostPort.slice(1, close);
    portText = hostPort.slice(close + 2);
  } else {
    const colon = hostPort.lastIndexOf(":");
    if (colon < 0) throw bad("missing port");
    host = hostPort.slice(0, colon);
    portText = hostPort.slice(colon + 1);
    if (host.includes(":")) throw bad("too many colons");
  }
  if (host === "") throw bad("empty host");
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535)
    throw bad(`bad port ${JSON.stringify(portText)}`);
  return { host, port: Number(portText) };
}

/** `id@ip:port`, IPv6 bracketed; the `id@` part is left out when the id is empty (as Go prints). */
export function formatNetAddress(a: NetAddress): string {
  const host = a.ip.includes(":") ? `[${a.ip}]` : a.ip;
  return a.id === "" ? `${host}:${a.port}` : `${a.id}@${host}:${a.port}`;
}

/** `ip:port` of an address: the key the duplicate-IP rules and dial records use. */
export function dialString(a: NetAddress): string {
  return formatNetAddress(a);
}

// ---- IP bytes -------------------------------------------------------------------------------

// Parsing an IP is most of the cost of judging an address, and the book judges each one several
// times (validity, routability, group key): parsed forms are remembered (bounded; a pure memo).
const PARSED_LIMIT = 4096;
const parsed = new Map<string, Uint8Array | undefined>();

/** 16 bytes of an IP literal (IPv4 as IPv4-mapped IPv6), or undefined when it is not one. Do not mutate. */
export function ipBytes(ip: string): Uint8Array | undefined {
  if (parsed.has(ip)) return parsed.get(ip);
  const bytes = parseIpBytes(ip);
  if (parsed.size >= PARSED_LIMIT) parsed.clear();
  parsed.set(ip, bytes);
  return bytes;
}

function parseIpBytes(ip: string): Uint8Array | undefined {
  const kind = isIP(ip);
  if (kind === 4) return mapped(ip.split(".").map(Number));
  if (kind !== 6) return undefined;
  let text = ip;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    const v4 = text
      .slice(lastColon + 1)
      .split(".")
      .map(Number);
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    text = `${text.slice(0, lastColon + 1)}0:0`;
    tail = tail.length === 2 ? tail : [];
  }
  const [head, rest] = text.includes("::") ? text.split("::") : [text, undefined];
  const parse = (s: string | undefined) => (s ? s.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(rest);
  const groups =
    rest === undefined ? left : [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  if (tail.length === 2) {
    groups[6] = tail[0]!;
    groups[7] = tail[1]!;
  }
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    out[2 * i] = (groups[i]! >> 8) & 0xff;
    out[2 * i + 1] = groups[i]! & 0xff;
  }
  return out;
}

function mapped(v4: number[]): Uint8Array {
  const out = new Uint8Array(16);
  out[10] = 0xff;
  out[11] = 0xff;
  out.set(v4, 12);
  return out;
}

/** The IPv4 bytes of an IPv4 or IPv4-mapped address (Go's To4), else undefined. */
function to4(b: Uint8Array): Uint8Array | undefined {
  for (let i = 0; i < 10; i++) if (b[i] !== 0) return undefined;
  return b[10] === 0xff && b[11] === 0xff ? b.subarray(12) : undefined;
}

/** Go's net.IP.String(): dotted quad for IPv4 (and mapped), compressed lower-case IPv6. */
export function normaliseIp(ip: string): string {
  const b = ipBytes(ip);
  if (b === undefined) return ip;
  const v4 = to4(b);
  if (v4) return [...v4].join(".");
  return ipv6String(b);
}

function ipv6String(b: Uint8Array): string {
  const groups: number[] = [];
  for (let i = 0; i < 8; i++) groups.push((b[2 * i]! << 8) | b[2 * i + 1]!);
  // the longest run of ≥ 2 zero groups becomes "::" (the first such run on a tie)
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (g: number[]) => g.map((x) => x.toString(16)).join(":");
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLen))}`;
}

const inNet = (b: Uint8Array, prefix: number[], bits: number): boolean => {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if ((b[byte]! & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
};
const v4net = (b: Uint8Array, a: number[], bits: number): boolean => {
  const v4 = to4(b);
  return v4 !== undefined && inNet(v4, a, bits);
};

const isRfc1918 = (b: Uint8Array) => v4net(b, [10], 8) || v4net(b, [172, 16], 12) || v4net(b, [192, 168], 16);
const isRfc3927 = (b: Uint8Array) => v4net(b, [169, 254], 16);
const isRfc3849 = (b: Uint8Array) => to4(b) === undefined && inNet(b, [0x20, 0x01, 0x0d, 0xb8], 32);
const isRfc4862 = (b: Uint8Array) => to4(b) === undefined && inNet(b, [0xfe, 0x80, 0, 0, 0, 0, 0, 0], 64);
const isRfc4193 = (b: Uint8Array) => to4(b) === undefined && inNet(b, [0xfc], 7);
const isRfc4843 = (b: Uint8Array) => to4(b) === undefined && inNet(b, [0x20, 0x01, 0x00, 0x10], 28);
const isOnionCat = (b: Uint8Array) => inNet(b, [0xfd, 0x87, 0xd8, 0x7e, 0xeb, 0x43], 48);
const isRfc3964 = (b: Uint8Array) => to4(b) === undefined && inNet(b, [0x20, 0x02], 16);
const isRfc4380 = (b: Uint8Array) => to4(b) === undefined && inNet(b, [0x20, 0x01, 0, 0], 32);
const isRfc6052 = (b: Uint8Array) => inNet(b, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96);
const isRfc6145 = (b: Uint8Array) => inNet(b, [0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0], 96);

function isLoopback(b: Uint8Array): boolean {
  const v4 = to4(b);
  if (v4) return v4[0] === 127;
  return b.every((x, i) => (i === 15 ? x === 1 : x === 0));
}
function isUnspecified(b: Uint8Array): boolean {
  const v4 = to4(b);
  return v4 ? v4.every((x) => x === 0) : b.every((x) => x === 0);
}

/** v0.34's Local(): loopback or 0.0.0.0/8. */
export function isLocal(ip: string): boolean {
  const b = ipBytes(ip);
  return b !== undefined && (isLoopback(b) || v4net(b, [0], 8));
}

/** v0.34's Valid(): a valid id and an IP that is not unspecified, documentation or broadcast. */
export function isValidAddress(a: NetAddress): boolean {
  const b = ipBytes(a.ip);
  if (!isValidNodeId(a.id) || b === undefined) return false;
  const v4 = to4(b);
  const broadcast = v4?.every((x) => x === 255) === true;
  return !isUnspecified(b) && !isRfc3849(b) && !broadcast;
}

/** v0.34's Routable(): valid and in none of the private, link-local or local ranges. */
export function isRoutable(a: NetAddress): boolean {
  if (!isValidAddress(a)) return false;
  const b = ipBytes(a.ip)!;
  return !(isRfc1918(b) || isRfc3927(b) || isRfc4862(b) || isRfc4193(b) || isRfc4843(b) || isLocal(a.ip));
}

/**
 * The bucket group of an IP (v0.34's groupKey): addresses of one group share buckets, so one
 * network cannot fill the book. IPv4 /16; the IPv4 inside 6to4, Teredo, NAT64 and SIIT; tor:<nibble>
 * for OnionCat; IPv6 /32 (/36 for Hurricane Electric). Strict books file private ones under
 * "local" / "unroutable".
 */
export function groupKey(ip: string, strict: boolean): string {
  const b = ipBytes(ip);
  if (b === undefined) return "unroutable";
  if (strict && isLocal(ip)) return "local";
  if (strict && !isRoutable({ id: "0".repeat(40), ip, port: 1 })) return "unroutable";
  const v4 = to4(b);
  if (v4) return `${v4[0]}.${v4[1]}.0.0`;
  if (isRfc6145(b) || isRfc6052(b)) return `${b[12]}.${b[13]}.0.0`;
  if (isRfc3964(b)) return `${b[2]}.${b[3]}.0.0`;
  if (isRfc4380(b)) return `${b[12]! ^ 0xff}.${b[13]! ^ 0xff}.0.0`;
  if (isOnionCat(b)) return `tor:${b[6]! & 0x0f}`;
  const bits = inNet(b, [0x20, 0x01, 0x04, 0x70], 32) ? 36 : 32;
  const masked = new Uint8Array(16);
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    masked[byte]! |= b[byte]! & mask;
  }
  return ipv6String(masked);
}
