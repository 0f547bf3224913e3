// The kv back end of the search executor: how a driver walks the kv index. Drivers become key
// ranges (a (key, value) pair's entries, a key's entries, in tx_index.db; a height range of
// positions, every position, in the positions' database: tx_index_bodies.db for txs); probes and
// scans read keys only, and same-event equalities are checked by exact entry-key lookups
// (hasMany), so most searches never load a document. A space with lists (txs: a pair repeated
// within a height, index-keys.ts) reads both forms everywhere: a walk takes the entries' range and
// the lists' range and counts each listed occurrence as one entry, so what a search finds, counts
// against its budget and returns is the same whichever form a height was written in (the executor
// orders and pages positions itself, so the two walks need not interleave).
import type { Condition } from "../../query/ast.js";
import { StoreError } from "../errors.js";
import { bytesPrefixEnd, heightKey, readUint64 } from "../key-bytes.js";
import type { BinaryLevel } from "../level-database.js";
import type { DocumentKind, IndexedDocument } from "./event-match.js";
import {
  checkEventList,
  decodeEntryKey,
  EVENT_LIST_ITEM_BYTES,
  EVENT_LIST_MAX_SEQ,
  EVENT_LIST_SPAN,
  entryKey,
  entryKeyPrefix,
  entryValuePrefix,
  eventListHas,
  eventListKey,
  eventListOffset,
  eventListSeq,
} from "./index-keys.js";
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
  /** Prefix of this space's event lists (txs only; their position is height(8) ‖ index(4)). */
  listPrefix?: number;
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

function driverRange(
  space: KvSpaceOptions,
  driver: Driver,
  entryPrefix = space.entryPrefix,
): { gte: Uint8Array; lt: Uint8Array } {
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
      const prefix = entryValuePrefix(entryPrefix, driver.key, driver.value);
      return { gte: prefix, lt: bytesPrefixEnd(prefix) };
    }
    case "event-key": {
      const prefix = entryKeyPrefix(entryPrefix, driver.key);
      return { gte: prefix, lt: bytesPrefixEnd(prefix) };
    }
    case "all":
      return { gte: Uint8Array.of(space.positionPrefix), lt: Uint8Array.of(space.positionPrefix + 1) };
    case "hash":
      throw new StoreError("INDEX_QUERY_INVALID", "a hash lookup has no key range");
  }
}

/** A list chunk as a walk reads it: the pair's value, the height's 8 bytes, the first tx index. */
interface ListChunk {
  value: Uint8Array;
  height: Uint8Array;
  firstIndex: number;
  items: Uint8Array;
}

function listChunk(space: KvSpaceOptions, driver: Driver, key: Uint8Array, items: Uint8Array): ListChunk {
  const keyPrefixLength = entryKeyPrefix(space.listPrefix!, (driver as { key: Uint8Array }).key).length;
  const entry = decodeEntryKey(key, keyPrefixLength, 8);
  checkEventList(items, `tx_index.db event list ${Buffer.from(key).toString("hex")}`);
  return { value: entry.value, height: entry.position, firstIndex: entry.seq * EVENT_LIST_SPAN, items };
}

/**
 * The list chunks of an entry driver's pair or key, in key order, a batch at a time; none for a
 * space without lists or a position walk. Stops when `visit` answers false.
 */
async function walkLists(
  space: KvSpaceOptions,
  driver: Driver,
  visit: (chunk: ListChunk) => boolean,
): Promise<void> {
  if (space.listPrefix === undefined || (driver.kind !== "event-value" && driver.kind !== "event-key"))
    return;
  const iterator = space.db.iterator({ ...driverRange(space, driver, space.listPrefix) });
  try {
    for (;;) {
      const entries = await iterator.nextv(256);
      if (entries.length === 0) return;
      for (const [key, items] of entries) if (!visit(listChunk(space, driver, key, items))) return;
    }
  } finally {
    await iterator.close();
  }
}

const listLength = (chunk: ListChunk): number => chunk.items.length / EVENT_LIST_ITEM_BYTES;

/**
 * Size of a driver's walk, capped at `limit`. For a key filtered by value the count is of
 * entries that pass the filter when the key has fewer than `limit` entries (exact), and
 * `limit` otherwise (unknown but broad). A listed occurrence counts as one entry.
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
  let entries = keys.length;
  const chunks: ListChunk[] = [];
  if (entries < limit) {
    await walkLists(space, driver, (chunk) => {
      chunks.push(chunk);
      entries += listLength(chunk);
      return entries < limit;
    });
  }
  if (driver.kind !== "event-key" || entries >= limit) return Math.min(entries, limit);
  const keyPrefixLength = entryKeyPrefix(space.entryPrefix, driver.key).length;
  const decoder = new TextDecoder();
  let passing = 0;
  for (const key of keys) {
    if (driver.test(decoder.decode(decodeEntryKey(key, keyPrefixLength, space.positionWidth).value)))
      passing++;
  }
  for (const chunk of chunks) if (driver.test(decoder.decode(chunk.value))) passing += listLength(chunk);
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
  const overBudget = () => tooBroad(driverLabel(driver), budget.maxScanEntries, "index entries");
  try {
    for (;;) {
      const keys = await iterator.nextv(4096);
      if (keys.length === 0) break;
      seen += keys.length;
      if (seen > budget.maxScanEntries) throw overBudget();
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
  const position = Buffer.alloc(12);
  await walkLists(space, driver, (chunk) => {
    const items = listLength(chunk);
    seen += items;
    if (seen > budget.maxScanEntries) throw overBudget();
    if (driver.kind === "event-key" && !driver.test(decoder.decode(chunk.value))) return true;
    position.set(chunk.height, 0);
    for (let item = 0; item < items; item++) {
      position.writeUInt32BE(chunk.firstIndex + eventListOffset(chunk.items, item), 8);
      hits.push({ position: position.toString("latin1"), seq: eventListSeq(chunk.items, item) });
    }
    return true;
  });
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
  // Each (hit, pair)'s list chunk, read once however many hits share it.
  const chunkOf: number[] = [];
  const chunkKeys: Uint8Array[] = [];
  const chunkNumbers = new Map<string, number>();
  for (const hit of hits) {
    const position = Buffer.from(hit.position, "latin1");
    const height = readUint64(position, 0);
    const txIndex = space.positionWidth === 12 ? position.readUInt32BE(8) : undefined;
    for (const pair of pairs) {
      lookups.push(entryKey(space.entryPrefix, pair.key, pair.value, height, txIndex, hit.seq));
      if (space.listPrefix === undefined || txIndex === undefined || hit.seq > EVENT_LIST_MAX_SEQ) {
        chunkOf.push(-1);
        continue;
      }
      const key = eventListKey(pair.key, pair.value, height, txIndex);
      const name = Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString("latin1");
      let number = chunkNumbers.get(name);
      if (number === undefined) {
        number = chunkKeys.length;
        chunkNumbers.set(name, number);
        chunkKeys.push(key);
      }
      chunkOf.push(number);
    }
  }
  const [present, chunks] = await Promise.all([
    space.db.hasMany(lookups),
    chunkKeys.length === 0 ? Promise.resolve([]) : space.db.getMany(chunkKeys),
  ]);
  chunks.forEach((items, i) => {
    if (items !== undefined)
      checkEventList(items, `tx_index.db event list ${Buffer.from(chunkKeys[i]!).toString("hex")}`);
  });
  return hits.map((hit, h) => {
    for (let p = 0; p < pairs.length; p++) {
      const at = h * pairs.length + p;
      if (present[at]) continue;
      const chunk = chunkOf[at]! < 0 ? undefined : chunks[chunkOf[at]!];
      if (chunk === undefined) return false;
      const offset = Buffer.from(hit.position, "latin1").readUInt32BE(8) % EVENT_LIST_SPAN;
      if (!eventListHas(chunk, offset, hit.seq)) return false;
    }
    return true;
  });
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
