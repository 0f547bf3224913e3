// Which bucket an address goes to (v0.34's calcNewBucket / calcOldBucket). v0.34 hashes with
// HighwayHash keyed per process; we hash with SHA-256 over the book's own key. The indexes are
// stored in addrbook.json and trusted when the file is read (as v0.34 does), so a v0.34 file
// loads into the same buckets and ours loads into v0.34.
import { createHash } from "node:crypto";
import { formatNetAddress, groupKey, type NetAddress } from "../net-address.js";
import {
  NEW_BUCKET_COUNT,
  NEW_BUCKETS_PER_GROUP,
  OLD_BUCKET_COUNT,
  OLD_BUCKETS_PER_GROUP,
} from "./params.js";

function hash64(text: string): bigint {
  return createHash("sha256").update(text).digest().readBigUInt64BE(0);
}

export function newBucketIndex(key: string, addr: NetAddress, src: NetAddress, strict: boolean): number {
  const srcGroup = groupKey(src.ip, strict);
  const h1 = hash64(key + groupKey(addr.ip, strict) + srcGroup) % BigInt(NEW_BUCKETS_PER_GROUP);
  return Number(hash64(key + srcGroup + h1.toString()) % BigInt(NEW_BUCKET_COUNT));
}

export function oldBucketIndex(key: string, addr: NetAddress, strict: boolean): number {
  const h1 = hash64(key + formatNetAddress(addr)) % BigInt(OLD_BUCKETS_PER_GROUP);
  return Number(hash64(key + groupKey(addr.ip, strict) + h1.toString()) % BigInt(OLD_BUCKET_COUNT));
}
