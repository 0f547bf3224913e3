// The PostgreSQL back end of the search executor: each driver of the shared planner becomes one
// SQL walk over the v0.34 tables, positions are the kv index's bytes (height ‖ index, or
// height), and documents are loaded from tx_results (the stored TxResult's events) or from a
// block's events and attributes. The executor does the rest exactly as for the kv index, so
// both back ends answer a query with the same matches, order, paging and errors.
// Only this chain's rows take part (blocks.chain_id). A tx hash indexed again later (the same
// tx committed twice) counts at its latest position only, as the kv index moves it.
import { createHash } from "node:crypto";
import type { Pool } from "pg";
import { sha256 } from "../../../crypto/hash.js";
import type { Condition } from "../../../query/ast.js";
import { TxResult } from "../../../wire/generated/tendermint/abci/types.js";
import { StoreError } from "../../errors.js";
import { readUint32, readUint64 } from "../../key-bytes.js";
import { BLOCK_DOCUMENT, type DocumentKind, type IndexedDocument, TX_DOCUMENT } from "../event-match.js";
import type { Driver } from "../query-plan.js";
import { driverLabel, NO_EVENT, type SearchHit, type SearchSpace, tooBroad } from "../search-executor.js";
import { INDEXED_PREFIX } from "./psql-schema.js";

const utf8 = new TextEncoder();
const text = new TextDecoder();

/** Only the latest position of a tx hash is its home (t, b: the row's tx_results and blocks). */
const LATEST_HOME = `NOT EXISTS (
  SELECT 1 FROM tx_results t2 JOIN blocks b2 ON b2.rowid = t2.block_id
  WHERE t2.tx_hash = t.tx_hash AND b2.chain_id = $1
    AND (b2.height > b.height OR (b2.height = b.height AND t2.index > t.index)))`;

export function txPosition(height: bigint, index: number): string {
  const out = Buffer.alloc(12);
  out.writeBigUInt64BE(height, 0);
  out.writeUInt32BE(index, 8);
  return out.toString("latin1");
}

export function blockPosition(height: bigint): string {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(height, 0);
  return out.toString("latin1");
}

const statementName = (text: string): string =>
  `rxbft_${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;

/** Attribute conditions that the prefix index answers, then the whole text decides. */
const attributeMatch = (byValue: boolean): string =>
  `left(a.composite_key, ${INDEXED_PREFIX}) = left($2, ${INDEXED_PREFIX}) AND a.composite_key = $2` +
  (byValue ? ` AND left(a.value, ${INDEXED_PREFIX}) = left($3, ${INDEXED_PREFIX}) AND a.value = $3` : "");

interface DriverSql {
  /** SELECT of height (text), index (txs), value (key walks) with $1 = chain_id. */
  text: string;
  values: unknown[];
}

/**
 * A probe only sizes a walk (to pick the narrowest), so it skips the latest-home check: a tx
 * committed twice may count twice there, never in a scan's hits.
 */
function txDriverSql(driver: Driver, probe = false): DriverSql {
  const home = probe ? "TRUE" : LATEST_HOME;
  switch (driver.kind) {
    case "event-value":
    case "event-key": {
      const byValue = driver.kind === "event-value";
      return {
        text: `SELECT b.height::text AS height, t.index, a.value, e.rowid::text AS event
          FROM attributes a JOIN events e ON e.rowid = a.event_id
          JOIN tx_results t ON t.rowid = e.tx_id JOIN blocks b ON b.rowid = t.block_id
          WHERE b.chain_id = $1 AND ${attributeMatch(byValue)} AND ${home}`,
        values: byValue ? [text.decode(driver.key), text.decode(driver.value)] : [text.decode(driver.key)],
      };
    }
    case "height-range":
      return {
        text: `SELECT b.height::text AS height, t.index FROM tx_results t JOIN blocks b ON b.rowid = t.block_id
          WHERE b.chain_id = $1 AND b.height BETWEEN $2 AND $3 AND ${home}`,
        values: [driver.from.toString(), driver.to.toString()],
      };
    case "all":
      return {
        text: `SELECT b.height::text AS height, t.index FROM tx_results t JOIN blocks b ON b.rowid = t.block_id
          WHERE b.chain_id = $1 AND ${home}`,
        values: [],
      };
    case "hash":
      throw new StoreError("INDEX_QUERY_INVALID", "a hash lookup is not a walk");
  }
}

function blockDriverSql(driver: Driver): DriverSql {
  switch (driver.kind) {
    case "event-value":
    case "event-key": {
      const byValue = driver.kind === "event-value";
      return {
        text: `SELECT b.height::text AS height, a.value, e.rowid::text AS event
          FROM attributes a JOIN events e ON e.rowid = a.event_id AND e.tx_id IS NULL
          JOIN blocks b ON b.rowid = e.block_id
          WHERE b.chain_id = $1 AND ${attributeMatch(byValue)}`,
        values: byValue ? [text.decode(driver.key), text.decode(driver.value)] : [text.decode(driver.key)],
      };
    }
    case "height-range":
      return {
        text: "SELECT height::text AS height FROM blocks b WHERE chain_id = $1 AND height BETWEEN $2 AND $3",
        values: [driver.from.toString(), driver.to.toString()],
      };
    case "all":
      return { text: "SELECT height::text AS height FROM blocks b WHERE chain_id = $1", values: [] };
    case "hash":
      throw new StoreError("INDEX_QUERY_INVALID", "a hash lookup is not a walk");
  }
}

interface Row {
  height: string;
  index?: number;
  value?: string | null;
  /** The event's rowid (walks over attributes). */
  event?: string;
}

/** A key walk keeps the entries whose value passes the condition (NULL values never do). */
const passes = (driver: Driver, row: Row): boolean =>
  driver.kind !== "event-key" || (row.value != null && driver.test(row.value));

interface Spaces {
  txs: SearchSpace;
  blocks: SearchSpace;
  /** The tx results at these positions (undefined where none), for the page of a search. */
  loadTxs(positions: readonly Uint8Array[]): Promise<(TxResult | undefined)[]>;
}

export function psqlSearchSpaces(pool: Pool, chainId: string): Spaces {
  const walk = async (sql: DriverSql, limit: number): Promise<Row[]> => {
    const text = `${sql.text} LIMIT $${sql.values.length + 2}`;
    const result = await pool.query<Row>({
      // Named: each connection plans the statement once.
      name: statementName(text),
      text,
      values: [chainId, ...sql.values, Math.max(0, Math.floor(limit))],
    });
    return result.rows;
  };
  const space = (
    kind: DocumentKind,
    sqlOf: (d: Driver, probe?: boolean) => DriverSql,
    position: (r: Row) => string,
  ) => ({
    probe: async (driver: Driver, limit: number) => {
      const rows = await walk(sqlOf(driver, true), limit);
      if (driver.kind !== "event-key" || rows.length >= limit) return rows.length;
      return rows.filter((r) => passes(driver, r)).length;
    },
    scan: async (driver: Driver, budget: { maxScanEntries: number }): Promise<SearchHit[]> => {
      const rows = await walk(sqlOf(driver), budget.maxScanEntries + 1);
      if (rows.length > budget.maxScanEntries)
        throw tooBroad(driverLabel(driver), budget.maxScanEntries, "index entries");
      const hits: SearchHit[] = [];
      for (const row of rows) {
        if (passes(driver, row))
          hits.push({ position: position(row), seq: row.event === undefined ? NO_EVENT : Number(row.event) });
      }
      return hits;
    },
    kind,
    // Equalities on the driver's event, checked on the hit's event row (its rowid is the seq).
    sameEventHas: async (
      hits: readonly SearchHit[],
      equalities: readonly Condition[],
    ): Promise<boolean[]> => {
      const events = [...new Set(hits.map((h) => h.seq).filter((seq) => seq !== NO_EVENT))];
      const holding: Set<number>[] = [];
      for (const equality of equalities) {
        const text = `SELECT DISTINCT event_id::text AS event FROM attributes
          WHERE event_id = ANY($1::bigint[]) AND composite_key = $2 AND value = $3`;
        const result = await pool.query<{ event: string }>({
          name: statementName(text),
          text,
          values: [events.map(String), equality.key, equality.operand!.value],
        });
        holding.push(new Set(result.rows.map((r) => Number(r.event))));
      }
      return hits.map((hit) => holding.every((set) => set.has(hit.seq)));
    },
  });

  const loadTxs = async (positions: readonly Uint8Array[]): Promise<(TxResult | undefined)[]> => {
    if (positions.length === 0) return [];
    const heights = positions.map((p) => readUint64(p, 0).toString());
    const indexes = positions.map((p) => readUint32(p, 8));
    const result = await pool.query<{ height: string; index: number; tx_result: Buffer }>({
      text: `SELECT b.height::text AS height, t.index, t.tx_result
        FROM unnest($2::bigint[], $3::integer[]) AS p(height, index)
        JOIN blocks b ON b.chain_id = $1 AND b.height = p.height
        JOIN tx_results t ON t.block_id = b.rowid AND t.index = p.index`,
      values: [chainId, heights, indexes],
    });
    const byPosition = new Map<string, TxResult>();
    for (const row of result.rows) {
      byPosition.set(txPosition(BigInt(row.height), row.index), TxResult.decode(row.tx_result));
    }
    return positions.map((p) => byPosition.get(Buffer.from(p).toString("latin1")));
  };

  const txs: SearchSpace = {
    ...space(TX_DOCUMENT, txDriverSql, (r) => txPosition(BigInt(r.height), r.index!)),
    positionOfHash: async (hash) => {
      const result = await pool.query<{ height: string; index: number }>({
        text: `SELECT b.height::text AS height, t.index FROM tx_results t JOIN blocks b ON b.rowid = t.block_id
          WHERE b.chain_id = $1 AND t.tx_hash = $2 ORDER BY b.height DESC, t.index DESC LIMIT 1`,
        values: [chainId, Buffer.from(hash).toString("hex").toUpperCase()],
      });
      const row = result.rows[0];
      return row === undefined ? undefined : Buffer.from(txPosition(BigInt(row.height), row.index), "latin1");
    },
    loadDocuments: async (positions) => {
      const results = await loadTxs(positions);
      return results.map((r): IndexedDocument | undefined =>
        r === undefined
          ? undefined
          : {
              height: r.height,
              hashHex: Buffer.from(sha256(r.tx)).toString("hex").toUpperCase(),
              events: r.result?.events ?? [],
            },
      );
    },
  };

  const blocks: SearchSpace = {
    ...space(BLOCK_DOCUMENT, blockDriverSql, (r) => blockPosition(BigInt(r.height))),
    loadDocuments: async (positions) => {
      if (positions.length === 0) return [];
      const heights = positions.map((p) => readUint64(p, 0).toString());
      const result = await pool.query<{
        height: string;
        event: string | null;
        type: string | null;
        key: string | null;
        value: string | null;
      }>({
        text: `SELECT b.height::text AS height, e.rowid::text AS event, e.type, a.key, a.value
          FROM blocks b LEFT JOIN events e ON e.block_id = b.rowid AND e.tx_id IS NULL
          LEFT JOIN attributes a ON a.event_id = e.rowid
          WHERE b.chain_id = $1 AND b.height = ANY($2::bigint[])
          ORDER BY b.height, e.rowid`,
        values: [chainId, heights],
      });
      const documents = new Map<
        string,
        { height: bigint; events: Map<string, IndexedDocument["events"][number]> }
      >();
      for (const row of result.rows) {
        let document = documents.get(row.height);
        if (document === undefined) {
          document = { height: BigInt(row.height), events: new Map() };
          documents.set(row.height, document);
        }
        if (row.event === null) continue;
        let event = document.events.get(row.event);
        if (event === undefined) {
          event = { type: row.type ?? "", attributes: [] };
          document.events.set(row.event, event);
        }
        if (row.key !== null)
          event.attributes.push({
            key: utf8.encode(row.key),
            value: utf8.encode(row.value ?? ""),
            index: true,
          });
      }
      return heights.map((h): IndexedDocument | undefined => {
        const document = documents.get(h);
        if (document === undefined) return undefined;
        // The first event of a block is the block.height meta event the writer adds: not the app's.
        const events = [...document.events.values()];
        const first = events[0];
        if (first?.type === "block" && first.attributes.length === 1) events.shift();
        return { height: document.height, events };
      });
    },
  };
  return { txs, blocks, loadTxs };
}
