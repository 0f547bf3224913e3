// Runs a planned search over one search space (txs or blocks) of either back end: the kv index
// (kv-search-space.ts) or PostgreSQL (psql/psql-search-space.ts). The planner (query-plan.ts)
// and this executor are shared, so both back ends answer the same query with the same matches,
// order, paging and errors; a space only says how to count, walk and load.
// It probes each candidate driver's size (capped at PROBE_LIMIT), walks the narrowest in full,
// then checks the remaining conditions: from the hit itself where it can (height conditions;
// equalities on the driver's event type when the space can look them up by key), otherwise by
// loading the documents and matching within events. The total count is exact, so every
// candidate is checked; only the requested page is loaded afterwards.
// Going past the scan or verification budget is an error, never a partial answer.
import type { Condition } from "../../query/ast.js";
import { StoreError } from "../errors.js";
import { readUint64 } from "../key-bytes.js";
import { describeCondition, valueTestOf } from "./condition-test.js";
import {
  compileDocumentMatcher,
  type DocumentKind,
  eventTypeOf,
  type IndexedDocument,
} from "./event-match.js";
import { type Driver, planQuery } from "./query-plan.js";

/** One document a driver's walk reached: its position and the event it was found in. */
export interface SearchHit {
  /** The position's bytes (height(8) ‖ index(4) for txs, height(8) for blocks) as latin1: sorts like the bytes. */
  position: string;
  /** The event's number within its document, or NO_EVENT for position walks. */
  seq: number;
}

export const NO_EVENT = -1;

/** What a back end provides for one index (txs or blocks). */
export interface SearchSpace {
  kind: DocumentKind;
  /** Size of a driver's walk, capped at `limit` (for a key filtered by value: entries passing it). */
  probe(driver: Driver, limit: number): Promise<number>;
  /** Every hit of a driver; more than budget.maxScanEntries is a TOO_BROAD error. */
  scan(driver: Driver, budget: SearchBudget): Promise<SearchHit[]>;
  /** Position of the document with this hash (txs only). */
  positionOfHash?(hash: Uint8Array): Promise<Uint8Array | undefined>;
  /** Documents at these positions (undefined where none). */
  loadDocuments(positions: readonly Uint8Array[]): Promise<(IndexedDocument | undefined)[]>;
  /**
   * For each hit, whether its event (hit.seq) also holds every one of these string equalities;
   * absent when the back end cannot look that up by key (documents are loaded instead).
   */
  sameEventHas?(hits: readonly SearchHit[], equalities: readonly Condition[]): Promise<boolean[]>;
}

export interface SearchBudget {
  /** Index entries one search may walk (probes excluded). */
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

export const toPositionString = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
export const fromPositionString = (text: string): Uint8Array => Uint8Array.from(Buffer.from(text, "latin1"));

export function driverLabel(driver: Driver): string {
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

export function tooBroad(what: string, limit: number, noun: string): StoreError {
  return new StoreError(
    "INDEX_QUERY_TOO_BROAD",
    `query is too broad: ${what} needs more than ${limit} ${noun}; add a narrower condition (e.g. a tx.height range)`,
  );
}

interface KeyOnlyChecks {
  heightTests: ((height: string) => boolean)[];
  sameEventEqualities: Condition[];
}

/** Conditions that can be decided from a hit alone, or undefined if some cannot. */
function keyOnlyChecks(
  space: SearchSpace,
  driver: Driver,
  conditions: readonly Condition[],
): KeyOnlyChecks | undefined {
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
      space.sameEventHas !== undefined &&
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
  space: SearchSpace,
  hits: SearchHit[],
  checks: KeyOnlyChecks,
): Promise<Set<string>> {
  const passing = new Set<string>();
  let survivors = hits;
  if (checks.heightTests.length > 0) {
    survivors = hits.filter((hit) => {
      const height = readUint64(Buffer.from(hit.position, "latin1"), 0).toString();
      return checks.heightTests.every((test) => test(height));
    });
  }
  if (checks.sameEventEqualities.length === 0 || space.sameEventHas === undefined) {
    for (const hit of survivors) passing.add(hit.position);
    return passing;
  }
  for (let start = 0; start < survivors.length; start += CHUNK) {
    const chunk = survivors.slice(start, start + CHUNK);
    const present = await space.sameEventHas(chunk, checks.sameEventEqualities);
    chunk.forEach((hit, i) => {
      if (present[i]) passing.add(hit.position);
    });
  }
  return passing;
}

async function filterByDocuments(
  space: SearchSpace,
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
  space: SearchSpace,
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
        const size = await space.probe(driver, driver.kind === "event-key" ? PROBE_LIMIT : bestSize);
        if (size < bestSize || driver === contenders[0]) {
          best = driver;
          bestSize = size;
        }
        if (bestSize === 0) break;
      }
      const hits = bestSize === 0 ? [] : await space.scan(best, budget);
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
