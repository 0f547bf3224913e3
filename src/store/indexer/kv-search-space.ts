// The kv back end of the search executor: how a driver walks the kv index. Drivers become key
// ranges (a (key, value) pair's entries, a key's entries, in tx_index.db; a height range of
// positions, every position, in the positions' database: tx_index_bodies.db for txs); probes and
// scans read keys only, and same-event equalities are checked by exact entry-key lookups
// (hasMany), so most searches never load a document.
import type { Condition } from "../../query/ast.js";
import { StoreError } from "../errors.js";
import { bytesPrefixEnd, heightKey, readUint64 } from "../key-bytes.js";
import type { BinaryLevel } from "../level-database.js";
import type { DocumentKind, IndexedDocument } from "./event-match.js";
import { decodeEntryKey, entryKey, entryKeyPrefix, entryValuePrefix } from "./index-keys.js";
import type { Driver } from "./query-plan.js";
import {
  driverLabel,
  NO_EVENT,
  type SearchBudget,
  type SearchHit,
  type SearchSpace,
  tooBroad,
  toPositionString,
} from "./search-executor.js";

export interface KvSpaceOptions {
  /** Holds the event entries. */
  db: BinaryLevel;
  /**
   * Holds the position keys (tx_index_bodies.db for txs, where each height also has a shorter
   * record key that position walks skip; `db` itself for blocks, or when one database holds all).
   */
  positionDb: BinaryLevel;
  kind: DocumentKind;
  /** Prefix of this space's event entries. */
  entryPrefix: number;
  /** Prefix of this space's position keys (prefix ‖ position → document or its hash). */
  positionPrefix: number;
  /** 12 for txs (height ‖ index), 8 for blocks (height). */
  positionWidth: number;
  positionOfHash?(hash: Uint8Array): Promise<Uint8Array | undefined>;
  loadDocuments(positions: readonly Uint8Array[]): Promise<(IndexedDocument | undefined)[]>;
}

/** A position key, not a height's record beside the positions (index-keys.ts). */
const isPosition = (space: KvSpaceOptions, key: Uint8Array): boolean =>
  key.length === 1 + space.positionWidth;

/** Position walks read the positions' database, entry walks the entries'. */
const walkedDb = (space: KvSpaceOptions, driver: Driver): BinaryLevel =>
  driver.kind === "height-range" || driver.kind === "all" ? space.positionDb : space.db;

function driverRange(space: KvSpaceOptions, driver: Driver): { gte: Uint8Array; lt: Uint8Array } {
  switch (driver.kind) {
    case "height-range": {
      const gte = heightKey(space.positionPrefix, driver.from);
      const lt =
        driver.to >= (1n << 63n) - 1n
          ? Uint8Array.of(space.positionPrefix + 1)
          : heightKey(space.positionPrefix, driver.to + 1n);
      return { gte, lt };
    }
    case "event-value": {
      const prefix = entryValuePrefix(space.entryPrefix, driver.key, driver.value);
      return { gte: prefix, lt: bytesPrefixEnd(prefix) };
    }
    case "event-key": {
      const prefix = entryKeyPrefix(space.entryPrefix, driver.key);
      return { gte: prefix, lt: bytesPrefixEnd(prefix) };
    }
    case "all":
      return { gte: Uint8Array.of(space.positionPrefix), lt: Uint8Array.of(space.positionPrefix + 1) };
    case "hash":
      throw new StoreError("INDEX_QUERY_INVALID", "a hash lookup has no key range");
  }
}

/**
 * Size of a driver's walk, capped at `limit`. For a key filtered by value the count is of
 * entries that pass the filter when the key has fewer than `limit` entries (exact), and
 * `limit` otherwise (unknown but broad).
 */
async function probe(space: KvSpaceOptions, driver: Driver, limit: number): Promise<number> {
  const range = driverRange(space, driver);
  const keys = await walkedDb(space, driver)
    .keys({ ...range, limit })
    .all();
  if (driver.kind === "height-range" || driver.kind === "all") {
    if (keys.length >= limit) return keys.length;
    return keys.filter((key) => isPosition(space, key)).length;
  }
  if (driver.kind !== "event-key" || keys.length >= limit) return keys.length;
  const keyPrefixLength = entryKeyPrefix(space.entryPrefix, driver.key).length;
  const decoder = new TextDecoder();
  let passing = 0;
  for (const key of keys) {
    if (driver.test(decoder.decode(decodeEntryKey(key, keyPrefixLength, space.positionWidth).value)))
      passing++;
  }
  return passing;
}

async function scan(space: KvSpaceOptions, driver: Driver, budget: SearchBudget): Promise<SearchHit[]> {
  const range = driverRange(space, driver);
  const hits: SearchHit[] = [];
  const iterator = walkedDb(space, driver).keys({ ...range, limit: budget.maxScanEntries + 1 });
  const isEntry = driver.kind === "event-value" || driver.kind === "event-key";
  const keyPrefixLength = isEntry ? entryKeyPrefix(space.entryPrefix, driver.key).length : 0;
  const decoder = new TextDecoder();
  let seen = 0;
  try {
    for (;;) {
      const keys = await iterator.nextv(4096);
      if (keys.length === 0) break;
      seen += keys.length;
      if (seen > budget.maxScanEntries)
        throw tooBroad(driverLabel(driver), budget.maxScanEntries, "index entries");
      for (const key of keys) {
        if (!isEntry) {
          if (!isPosition(space, key)) continue;
          hits.push({ position: toPositionString(key.subarray(1)), seq: NO_EVENT });
          continue;
        }
        const entry = decodeEntryKey(key, keyPrefixLength, space.positionWidth);
        if (driver.kind === "event-key" && !driver.test(decoder.decode(entry.value))) continue;
        hits.push({ position: toPositionString(entry.position), seq: entry.seq });
      }
    }
  } finally {
    await iterator.close();
  }
  return hits;
}

async function sameEventHas(
  space: KvSpaceOptions,
  hits: readonly SearchHit[],
  equalities: readonly Condition[],
): Promise<boolean[]> {
  const encoder = new TextEncoder();
  const pairs = equalities.map((c) => ({
    key: encoder.encode(c.key),
    value: encoder.encode(c.operand!.value),
  }));
  const lookups: Uint8Array[] = [];
  for (const hit of hits) {
    const position = Buffer.from(hit.position, "latin1");
    const height = readUint64(position, 0);
    const txIndex = space.positionWidth === 12 ? position.readUInt32BE(8) : undefined;
    for (const pair of pairs)
      lookups.push(entryKey(space.entryPrefix, pair.key, pair.value, height, txIndex, hit.seq));
  }
  const present = await space.db.hasMany(lookups);
  return hits.map((_, i) => present.slice(i * pairs.length, (i + 1) * pairs.length).every(Boolean));
}

export function kvSearchSpace(options: KvSpaceOptions): SearchSpace {
  return {
    kind: options.kind,
    probe: (driver, limit) => probe(options, driver, limit),
    scan: (driver, budget) => scan(options, driver, budget),
    ...(options.positionOfHash ? { positionOfHash: options.positionOfHash } : {}),
    loadDocuments: options.loadDocuments,
    sameEventHas: (hits, equalities) => sameEventHas(options, hits, equalities),
  };
}
