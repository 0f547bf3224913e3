// One entry of the address book, with v0.34's notion of a "bad" new entry (known_address.go).
import type { NetAddress } from "../net-address.js";
import { DAY_MS, MAX_FAILURES, MIN_BAD_DAYS, NUM_MISSING_DAYS, NUM_RETRIES } from "./params.js";

export const BUCKET_NEW = 1;
export const BUCKET_OLD = 2;

export interface KnownAddress {
  addr: NetAddress;
  /** who told us about it */
  src: NetAddress;
  buckets: readonly number[];
  attempts: number;
  bucketType: typeof BUCKET_NEW | typeof BUCKET_OLD;
  /** ms since the epoch; 0 = never */
  lastAttempt: number;
  lastSuccess: number;
  lastBanTime: number;
}

/** A new entry that may be evicted: not tried in the last minute, and stale or failing. */
export function isBad(ka: KnownAddress, now: number): boolean {
  if (ka.bucketType === BUCKET_OLD) return false;
  if (ka.lastAttempt > now - 60_000) return false;
  if (ka.lastAttempt < now - NUM_MISSING_DAYS * DAY_MS) return true;
  if (ka.lastSuccess === 0 && ka.attempts >= NUM_RETRIES) return true;
  if (ka.lastSuccess < now - MIN_BAD_DAYS * DAY_MS && ka.attempts >= MAX_FAILURES) return true;
  return false;
}
