// Runs a planned search over one index space (txs or blocks) of tx_index.db. It probes each
// candidate driver's size (a keys-only scan capped at PROBE_LIMIT), walks the narrowest in
// full (keys only), then checks the remaining conditions: from the key itself where it can
// (height conditions, equalities on the driver's event type, checked for the same event by
// exact-key lookups), otherwise by loading the documents and matching within events. The total
// count is exact, so every candidate is checked; only the requested page is loaded afterwards.
// Going past the scan or verification budget is an error, never a partial answer.
import type { Condition } from "../../query/ast.js";
import { StoreError } from "../errors.js";
import { bytesPrefixEnd, heightKey, readUint64 } from "../key-bytes.js";
import type { BinaryLevel } from "../level-database.js";
import { describeCondition, valueTestOf } from "./condition-test.js";
import {
  compileDocumentMatcher,
  type DocumentKind,
  eventTypeOf,
  type IndexedDocument,
} from "./event-match.js";
import { decodeEntryKey, entryKey, entryKeyPrefix, entryValuePrefix } from "./index-keys.js";
import { type Driver, planQuery } from "./query-plan.js";

export interface IndexSpace {
  db: BinaryLevel;
  kind: DocumentKind;
  /** Prefix of this space's event entries. */
  entryPrefix: number;
  /** Prefix of this space's position keys (prefix ‖ position → document or its hash). */
  positionPrefix: number;
  /** 12 for txs (height ‖ index), 8 for blocks (height). */
  positionWidth: number;
  /** Position of the document with this hash (txs only). */
  positionOfHash?(hash: Uint8Array): Promise<Uint8Array | undefined>;
  /** Documents at these positions (undefined where none). */
  loadDocuments(positions: readonly Uint8Array[]): Promise<(IndexedDocument | undefined)[]>;
}

export interface SearchBudget {
  /** Index keys one search may walk (probes excluded). */
  maxScanEntries: number;
  /** Documents one search may load to check conditions. */
  maxVerifiedDocuments: number;
}

export const DEFAULT_SEARCH_BUDGET: SearchBudget = {
  maxScanEntries: 2_000_000,
  maxVerifiedDocuments: 200_000,
};

export interface SearchRequest {
  conditions: readonly Condition[];
  /** 1-based page. */
  page: number;
  perPage: number;
  order: "asc" | "desc";
}

export interface SearchPage {
  total: number;
  /** Positions of the page's documents, in the requested order. */
  positions: Uint8Array[];
}

/** A driver's size estimate is capped here: enough to tell narrow from broad. */
export const PROBE_LIMIT = 1024;
const CHUNK = 512;
const NO_EVENT = -1;

interface Hit {
  /** The position's bytes as a latin1 string: sorts like the bytes. */
  position: string;
  seq: number;
}

const toPositionString = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
const fromPositionString = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, "latin1"));

function driverRange(space: IndexSpace, driver: Driver): { gte: Uint8Array; lt: Uint8Array } {
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
 * Size of a driver's walk, capped at PROBE_LIMIT. For a key filtered by value the count is of
 * entries that pass the filter when the key has fewer than PROBE_LIMIT entries (exact), and
 * PROBE_LIMIT otherwise (unknown but broad).
 */
async function probe(space: IndexSpace, driver: Driver, limit: number): Promise<number> {
  const range = driverRange(space, driver);
  const keys = await space.db.keys({ ...range, limit }).all();
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

function driverLabel(driver: Driver): string {
  switch (driver.kind) {
    case "event-value":
    case "event-key":
      return `condition ${describeCondition(driver.condition)}`;
    case "height-range":
      return `height range ${driver.from}..${driver.to}`;
    default:
      return "the whole index (no condition narrows it)";
  }
}

function tooBroad(what: string, limit: number, noun: string): StoreError {
  return new StoreError(
    "INDEX_QUERY_TOO_BROAD",
    `query is too broad: ${what} needs more than ${limit} ${noun}; add a narrower condition (e.g. a tx.height range)`,
  );
}

async function scan(space: IndexSpace, driver: Driver, budget: SearchBudget): Promise<Hit[]> {
  const range = driverRange(space, driver);
  const hits: Hit[] = [];
  const iterator = space.db.keys({ ...range, limit: budget.maxScanEntries + 1 });
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

/** Conditions that can be decided from a hit's key alone, or undefined if some cannot. */
function keyOnlyChecks(
  space: IndexSpace,
  driver: Driver,
  conditions: readonly Condition[],
): { heightTests: ((height: string) => boolean)[]; sameEventEqualities: Condition[] } | undefined {
  const heightTests: ((height: string) => boolean)[] = [];
  const sameEventEqualities: Condition[] = [];
  const driverCondition =
    driver.kind === "event-value" || driver.kind === "event-key" ? driver.condition : undefined;
  const driverType = driverCondition === undefined ? undefined : eventTypeOf(driverCondition.key);
  for (const condition of conditions) {
    if (condition === driverCondition || condition.key === "tm.event") continue; // tm.event: planned
    if (condition.key === space.kind.heightKey) {
      heightTests.push(valueTestOf(condition));
    } else if (
      driverType !== undefined &&
      condition.op === "=" &&
      condition.operand?.kind === "string" &&
      condition.key.includes(".") &&
      eventTypeOf(condition.key) === driverType &&
      condition.key !== space.kind.hashKey
    ) {
      sameEventEqualities.push(condition);
    } else {
      return undefined;
    }
  }
  return { heightTests, sameEventEqualities };
}

async function filterByKeys(
  space: IndexSpace,
  hits: Hit[],
  checks: NonNullable<ReturnType<typeof keyOnlyChecks>>,
): Promise<Set<string>> {
  const passing = new Set<string>();
  const encoder = new TextEncoder();
  let survivors = hits;
  if (checks.heightTests.length > 0) {
    survivors = hits.filter((hit) => {
      const height = readUint64(Buffer.from(hit.position, "latin1"), 0).toString();
      return checks.heightTests.every((test) => test(height));
    });
  }
  if (checks.sameEventEqualities.length === 0) {
    for (const hit of survivors) passing.add(hit.position);
    return passing;
  }
  const pairs = checks.sameEventEqualities.map((c) => ({
    key: encoder.encode(c.key),
    value: encoder.encode(c.operand!.value),
  }));
  for (let start = 0; start < survivors.length; start += CHUNK) {
    const chunk = survivors.slice(start, start + CHUNK);
    const lookups: Uint8Array[] = [];
    for (const hit of chunk) {
      const position = Buffer.from(hit.position, "latin1");
      const height = readUint64(position, 0);
      const txIndex = space.positionWidth === 12 ? position.readUInt32BE(8) : undefined;
      for (const pair of pairs)
        lookups.push(entryKey(space.entryPrefix, pair.key, pair.value, height, txIndex, hit.seq));
    }
    const present = await space.db.hasMany(lookups);
    chunk.forEach((hit, i) => {
      if (present.slice(i * pairs.length, (i + 1) * pairs.length).every(Boolean)) passing.add(hit.position);
    });
  }
  return passing;
}

async function filterByDocuments(
  space: IndexSpace,
  positions: readonly string[],
  conditions: readonly Condition[],
  budget: SearchBudget,
): Promise<Set<string>> {
  if (positions.length > budget.maxVerifiedDocuments) {
    throw tooBroad(
      `checking ${positions.length} candidates`,
      budget.maxVerifiedDocuments,
      "documents loaded",
    );
  }
  const matcher = compileDocumentMatcher(conditions, space.kind);
  const passing = new Set<string>();
  for (let start = 0; start < positions.length; start += CHUNK) {
    const chunk = positions.slice(start, start + CHUNK);
    const documents = await space.loadDocuments(chunk.map(fromPositionString));
    documents.forEach((document, i) => {
      if (document !== undefined && matcher(document)) passing.add(chunk[i]!);
    });
  }
  return passing;
}

/** Tendermint's page check: pages = max(1, ceil(total / perPage)); page must be within [1, pages]. */
export function pageBounds(total: number, page: number, perPage: number): { skip: number; take: number } {
  if (!Number.isInteger(perPage) || perPage < 1) {
    throw new StoreError("INDEX_PAGE_OUT_OF_RANGE", `per_page must be a positive integer, given ${perPage}`);
  }
  const pages = total === 0 ? 1 : Math.floor((total - 1) / perPage) + 1;
  if (!Number.isInteger(page) || page < 1 || page > pages) {
    throw new StoreError(
      "INDEX_PAGE_OUT_OF_RANGE",
      `page should be within [1, ${pages}] range, given ${page}`,
    );
  }
  return { skip: (page - 1) * perPage, take: perPage };
}

export async function executeSearch(
  space: IndexSpace,
  request: SearchRequest,
  budget: SearchBudget = DEFAULT_SEARCH_BUDGET,
): Promise<SearchPage> {
  const plan = planQuery(request.conditions, space.kind);
  let matched: string[] = [];
  if (!plan.empty) {
    const hashDriver = plan.drivers.find((d) => d.kind === "hash");
    if (hashDriver !== undefined) {
      const position =
        hashDriver.hash === undefined || space.positionOfHash === undefined
          ? undefined
          : await space.positionOfHash(hashDriver.hash);
      if (position !== undefined) {
        matched = [
          ...(await filterByDocuments(space, [toPositionString(position)], request.conditions, budget)),
        ];
      }
    } else {
      // Walking every document is the fallback, never a contender when a condition narrows.
      const contenders =
        plan.drivers.length > 1 ? plan.drivers.filter((d) => d.kind !== "all") : plan.drivers;
      let best = contenders[0]!;
      let bestSize = PROBE_LIMIT;
      for (const driver of contenders) {
        // A probe stops where it can no longer win (ties keep the earlier, preferred driver);
        // a filtered key reads up to PROBE_LIMIT entries, since its filter may leave few.
        const size = await probe(space, driver, driver.kind === "event-key" ? PROBE_LIMIT : bestSize);
        if (size < bestSize || driver === contenders[0]) {
          best = driver;
          bestSize = size;
        }
        if (bestSize === 0) break;
      }
      const hits = bestSize === 0 ? [] : await scan(space, best, budget);
      const checks = keyOnlyChecks(space, best, request.conditions);
      if (checks !== undefined) {
        matched = [...(await filterByKeys(space, hits, checks))];
      } else {
        const distinct = [...new Set(hits.map((h) => h.position))];
        matched = [...(await filterByDocuments(space, distinct, request.conditions, budget))];
      }
    }
  }
  matched.sort();
  if (request.order === "desc") matched.reverse();
  const { skip, take } = pageBounds(matched.length, request.page, request.perPage);
  return { total: matched.length, positions: matched.slice(skip, skip + take).map(fromPositionString) };
}
