// addrbook.json in v0.34's layout (p2p/pex/file.go): Go encoding/json with tab indentation,
// {"key": 24 hex, "addrs": [{addr, src, buckets, attempts, bucket_type, last_attempt,
// last_success, last_ban_time}]}, times in RFC 3339 with nanoseconds and Go's zero time for
// "never". Bucket indexes are trusted on load (checked against the bucket counts).

import { isIP } from "node:net";
import { Map as IMap, OrderedSet } from "immutable";
import { CodedError } from "../../coded-error.js";
import { isValidNodeId, type NetAddress, normaliseIp } from "../net-address.js";
import { type AddrBook, emptyBook } from "./book.js";
import { BUCKET_NEW, BUCKET_OLD, type KnownAddress } from "./known-address.js";
import { BUCKET_SIZE, MAX_NEW_BUCKETS_PER_ADDRESS, NEW_BUCKET_COUNT, OLD_BUCKET_COUNT } from "./params.js";

const GO_ZERO_TIME = "0001-01-01T00:00:00Z";

export class AddrBookFileError extends CodedError<"P2P_ADDRBOOK_INVALID"> {
  constructor(message: string) {
    super("P2P_ADDRBOOK_INVALID", message);
  }
}

/** Go's RFC3339Nano: fractional seconds with trailing zeros dropped. */
export function goTime(ms: number): string {
  if (ms === 0) return GO_ZERO_TIME;
  const iso = new Date(ms).toISOString(); // 2026-01-02T03:04:05.678Z
  const [whole, frac] = iso.slice(0, -1).split(".");
  const trimmed = (frac ?? "").replace(/0+$/, "");
  return trimmed === "" ? `${whole}Z` : `${whole}.${trimmed}Z`;
}

function parseGoTime(value: unknown, where: string): number {
  if (typeof value !== "string") throw new AddrBookFileError(`${where}: expected an RFC 3339 time string`);
  if (value.startsWith("0001-01-01T00:00:00")) return 0;
  const ms = Date.parse(value);
  if (Number.isNaN(ms))
    throw new AddrBookFileError(`${where}: ${JSON.stringify(value)} is not an RFC 3339 time`);
  return ms;
}

const addrJson = (a: NetAddress) => ({ id: a.id, ip: a.ip, port: a.port });

export function encodeAddrBook(book: AddrBook): string {
  const addrs = [...book.addrs.values()].map((ka) => ({
    addr: addrJson(ka.addr),
    src: addrJson(ka.src),
    buckets: ka.buckets,
    attempts: ka.attempts,
    bucket_type: ka.bucketType,
    last_attempt: goTime(ka.lastAttempt),
    last_success: goTime(ka.lastSuccess),
    last_ban_time: goTime(ka.lastBanTime),
  }));
  return `${JSON.stringify({ key: book.key, addrs }, null, "\t")}\n`;
}

function parseAddr(value: unknown, where: string): NetAddress {
  const v = value as { id?: unknown; ip?: unknown; port?: unknown } | null;
  if (typeof v !== "object" || v === null) throw new AddrBookFileError(`${where}: expected {id, ip, port}`);
  if (typeof v.id !== "string" || (v.id !== "" && !isValidNodeId(v.id)))
    throw new AddrBookFileError(`${where}.id: expected 40 hex characters`);
  if (typeof v.ip !== "string" || isIP(v.ip) === 0)
    throw new AddrBookFileError(`${where}.ip: expected an IP address`);
  if (typeof v.port !== "number" || !Number.isInteger(v.port) || v.port < 0 || v.port > 65535)
    throw new AddrBookFileError(`${where}.port: expected 0..65535`);
  return { id: v.id, ip: normaliseIp(v.ip), port: v.port };
}

/** Reads a file's text into a book; throws AddrBookFileError naming the entry and field. */
export function decodeAddrBook(text: string, strict: boolean, privateIds: ReadonlySet<string>): AddrBook {
  let json: { key?: unknown; addrs?: unknown };
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AddrBookFileError(`not JSON: ${(error as Error).message}`);
  }
  if (typeof json !== "object" || json === null)
    throw new AddrBookFileError("expected an object {key, addrs}");
  if (typeof json.key !== "string" || !/^[0-9a-f]{24}$/.test(json.key))
    throw new AddrBookFileError("key: expected 24 lower-case hex characters");
  const list = json.addrs ?? [];
  if (!Array.isArray(list)) throw new AddrBookFileError("addrs: expected an array");
  const book = emptyBook(json.key, strict, privateIds);
  let addrs = IMap<string, KnownAddress>().asMutable();
  const newBuckets = new Map<number, string[]>();
  const oldBuckets = new Map<number, string[]>();
  list.forEach((entry: Record<string, unknown>, i: number) => {
    const at = `addrs[${i}]`;
    if (typeof entry !== "object" || entry === null) throw new AddrBookFileError(`${at}: expected an object`);
    const addr = parseAddr(entry.addr, `${at}.addr`);
    const src = parseAddr(entry.src, `${at}.src`);
    const type = entry.bucket_type;
    if (type !== BUCKET_NEW && type !== BUCKET_OLD)
      throw new AddrBookFileError(`${at}.bucket_type: expected 1 or 2`);
    const count = type === BUCKET_NEW ? NEW_BUCKET_COUNT : OLD_BUCKET_COUNT;
    const max = type === BUCKET_NEW ? MAX_NEW_BUCKETS_PER_ADDRESS : 1;
    const buckets = entry.buckets;
    if (
      !Array.isArray(buckets) ||
      buckets.length === 0 ||
      buckets.length > max ||
      !buckets.every((b) => Number.isInteger(b) && b >= 0 && b < count)
    )
      throw new AddrBookFileError(`${at}.buckets: expected 1..${max} indexes below ${count}`);
    const attempts = entry.attempts ?? 0;
    if (typeof attempts !== "number" || !Number.isInteger(attempts) || attempts < 0)
      throw new AddrBookFileError(`${at}.attempts: expected a whole number`);
    if (addrs.has(addr.id)) return; // a duplicate id: the first entry stands
    const ka: KnownAddress = {
      addr,
      src,
      buckets: [...new Set(buckets as number[])],
      attempts,
      bucketType: type,
      lastAttempt: parseGoTime(entry.last_attempt ?? GO_ZERO_TIME, `${at}.last_attempt`),
      lastSuccess: parseGoTime(entry.last_success ?? GO_ZERO_TIME, `${at}.last_success`),
      lastBanTime: parseGoTime(entry.last_ban_time ?? GO_ZERO_TIME, `${at}.last_ban_time`),
    };
    const target = type === BUCKET_NEW ? newBuckets : oldBuckets;
    const fits = ka.buckets.filter((b) => (target.get(b)?.length ?? 0) < BUCKET_SIZE);
    if (fits.length === 0) return; // every bucket it names is full: dropped, as v0.34 would evict
    for (const b of fits) target.set(b, [...(target.get(b) ?? []), addr.id]);
    addrs = addrs.set(addr.id, { ...ka, buckets: fits });
  });
  const toBuckets = (m: Map<number, string[]>) =>
    IMap([...m].map(([b, ids]) => [b, OrderedSet(ids)] as const));
  return {
    ...book,
    addrs: addrs.asImmutable(),
    newBuckets: toBuckets(newBuckets),
    oldBuckets: toBuckets(oldBuckets),
  };
}
