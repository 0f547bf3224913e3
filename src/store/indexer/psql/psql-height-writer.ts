// Writes one height into the v0.34 schema in ONE transaction: the blocks row, each tx's
// tx_results row, and the events and attributes of the block and of each tx, with the meta
// events v0.34 adds (block.height for the block; tx.hash and tx.height for each tx). The blocks
// row is inserted first with ON CONFLICT DO NOTHING: if the height is there, the whole height is
// (it was committed in one transaction), so writing a height again changes nothing. That is
// what makes a crash or a lost connection safe: a height is all there or not at all.
// As v0.34 writes them: events with an empty type are skipped, only attributes with index=true
// are stored, tx_hash is upper-case hex. PostgreSQL text cannot hold U+0000: it is stored as
// U+FFFD, and an attribute key over 1,024 bytes is not stored (v0.34's UNIQUE (event_id, key)
// cannot hold a very long one); v0.34's sink fails the height instead, which would stall
// indexing for good.
import type { ClientBase } from "pg";
import { sha256 } from "../../../crypto/hash.js";
import { type Event, TxResult } from "../../../wire/generated/tendermint/abci/types.js";
import type { HeightIndexInput } from "../height-index-input.js";
import { MAX_ATTRIBUTE_KEY_BYTES } from "./psql-schema.js";

const utf8 = new TextDecoder();
const text = (bytes: Uint8Array): string => utf8.decode(bytes).replaceAll("\u0000", "\uFFFD");
const clean = (s: string): string => (s.includes("\u0000") ? s.replaceAll("\u0000", "\uFFFD") : s);

/** Rows of one height, as column arrays for INSERT ... SELECT FROM unnest(...). */
export interface HeightRows {
  height: bigint;
  txs: { index: number[]; hash: string[]; result: Buffer[] };
  /** Events in order; `tx` is the position of the owning tx in `txs` (-1 for block events). */
  events: { tx: number[]; type: string[] };
  /** Attributes; `event` is the position of the owning event in `events`. */
  attributes: { event: number[]; key: string[]; compositeKey: string[]; value: string[] };
}

function addEvents(rows: HeightRows, tx: number, events: readonly Event[]): void {
  for (const event of events) {
    if (event.type === "") continue;
    const type = clean(event.type);
    const eventPosition = rows.events.type.length;
    rows.events.tx.push(tx);
    rows.events.type.push(type);
    for (const attribute of event.attributes) {
      if (!attribute.index || attribute.key.length > MAX_ATTRIBUTE_KEY_BYTES) continue;
      const key = text(attribute.key);
      rows.attributes.event.push(eventPosition);
      rows.attributes.key.push(key);
      rows.attributes.compositeKey.push(`${type}.${key}`);
      rows.attributes.value.push(text(attribute.value));
    }
  }
}

const enc = new TextEncoder();
const metaEvent = (type: string, key: string, value: string): Event => ({
  type,
  attributes: [{ key: enc.encode(key), value: enc.encode(value), index: true }],
});

/** The rows of one height (pure). */
export function heightRows(input: HeightIndexInput): HeightRows {
  const rows: HeightRows = {
    height: input.height,
    txs: { index: [], hash: [], result: [] },
    events: { tx: [], type: [] },
    attributes: { event: [], key: [], compositeKey: [], value: [] },
  };
  const height = input.height.toString();
  addEvents(rows, -1, [
    metaEvent("block", "height", height),
    ...input.beginBlockEvents,
    ...input.endBlockEvents,
  ]);
  input.txs.forEach((indexed, index) => {
    const hash = Buffer.from(indexed.hash ?? sha256(indexed.tx))
      .toString("hex")
      .toUpperCase();
    const result: TxResult = { height: input.height, index, tx: indexed.tx, result: indexed.result };
    rows.txs.index.push(index);
    rows.txs.hash.push(hash);
    rows.txs.result.push(Buffer.from(TxResult.encode(result).finish()));
    addEvents(rows, index, [
      metaEvent("tx", "hash", hash),
      metaEvent("tx", "height", height),
      ...indexed.result.events,
    ]);
  });
  return rows;
}

async function reserveIds(client: ClientBase, table: string, count: number): Promise<string[]> {
  if (count === 0) return [];
  const result = await client.query<{ id: string }>({
    text: `SELECT nextval(pg_get_serial_sequence('${table}', 'rowid'))::text AS id FROM generate_series(1, $1)`,
    values: [count],
  });
  // Ascending, so rowid order is the order events were emitted in (as v0.34's inserts give).
  return result.rows
    .map((r) => r.id)
    .sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
}

/**
 * Writes the height in one transaction; returns false when it was already there (nothing
 * written). The caller owns the client (one at a time per client).
 */
export async function writeHeight(client: ClientBase, chainId: string, rows: HeightRows): Promise<boolean> {
  await client.query("BEGIN");
  try {
    const inserted = await client.query<{ rowid: string }>({
      text: "INSERT INTO blocks (height, chain_id, created_at) VALUES ($1, $2, now()) ON CONFLICT DO NOTHING RETURNING rowid::text",
      values: [rows.height.toString(), chainId],
    });
    if (inserted.rows.length === 0) {
      await client.query("ROLLBACK");
      return false;
    }
    const blockId = inserted.rows[0]!.rowid;
    const txIds = await reserveIds(client, "tx_results", rows.txs.index.length);
    if (txIds.length > 0) {
      await client.query({
        text: `INSERT INTO tx_results (rowid, block_id, index, created_at, tx_hash, tx_result)
          SELECT u.rowid, $1, u.index, now(), u.hash, u.result
          FROM unnest($2::bigint[], $3::integer[], $4::varchar[], $5::bytea[]) AS u(rowid, index, hash, result)`,
        values: [blockId, txIds, rows.txs.index, rows.txs.hash, rows.txs.result],
      });
    }
    const eventIds = await reserveIds(client, "events", rows.events.type.length);
    if (eventIds.length > 0) {
      await client.query({
        text: `INSERT INTO events (rowid, block_id, tx_id, type)
          SELECT u.rowid, $1, u.tx_id, u.type FROM unnest($2::bigint[], $3::bigint[], $4::varchar[]) AS u(rowid, tx_id, type)`,
        values: [blockId, eventIds, rows.events.tx.map((t) => (t < 0 ? null : txIds[t]!)), rows.events.type],
      });
    }
    if (rows.attributes.key.length > 0) {
      // An event listing one key twice keeps the first (UNIQUE (event_id, key) in v0.34's schema).
      await client.query({
        text: `INSERT INTO attributes (event_id, key, composite_key, value)
          SELECT * FROM unnest($1::bigint[], $2::varchar[], $3::varchar[], $4::varchar[])
          ON CONFLICT DO NOTHING`,
        values: [
          rows.attributes.event.map((e) => eventIds[e]!),
          rows.attributes.key,
          rows.attributes.compositeKey,
          rows.attributes.value,
        ],
      });
    }
    await client.query("COMMIT");
    return true;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
