// The PostgreSQL schema of the psql indexer: Tendermint v0.34's tables and views, unchanged
// (state/indexer/sink/psql/schema.sql), so tools written for a v0.34 sink read ours:
//   blocks      one row per indexed height and chain_id, UNIQUE (height, chain_id)
//   tx_results  one row per tx: block_id, index in the block, tx_hash (upper-case hex),
//               tx_result (protobuf abci.TxResult: height, index, tx, DeliverTx result)
//   events      one row per event: block_id, tx_id (NULL for BeginBlock/EndBlock events), type
//   attributes  one row per indexed attribute: event_id, key, composite_key ("type.key"), value
//   views       event_attributes, block_events, tx_events (joins of the above)
// Every statement is IF NOT EXISTS / OR REPLACE, so it runs at each start and creates what is
// absent. Our additions are indexes only (v0.34 searches nothing; we serve tx_search): they
// change no table a v0.34 reader sees.
import type { ClientBase } from "pg";

/** Characters of composite_key and value in rxbft's attribute index. */
export const INDEXED_PREFIX = 300;

/** v0.34's UNIQUE (event_id, key) is a btree too: longer keys are not stored (see the writer). */
export const MAX_ATTRIBUTE_KEY_BYTES = 1024;

export const SCHEMA_STATEMENTS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS blocks (
    rowid      BIGSERIAL PRIMARY KEY,
    height     BIGINT NOT NULL,
    chain_id   VARCHAR NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (height, chain_id)
  )`,
  "CREATE INDEX IF NOT EXISTS idx_blocks_height_chain ON blocks(height, chain_id)",
  `CREATE TABLE IF NOT EXISTS tx_results (
    rowid      BIGSERIAL PRIMARY KEY,
    block_id   BIGINT NOT NULL REFERENCES blocks(rowid),
    index      INTEGER NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    tx_hash    VARCHAR NOT NULL,
    tx_result  BYTEA NOT NULL,
    UNIQUE (block_id, index)
  )`,
  `CREATE TABLE IF NOT EXISTS events (
    rowid    BIGSERIAL PRIMARY KEY,
    block_id BIGINT NOT NULL REFERENCES blocks(rowid),
    tx_id    BIGINT NULL REFERENCES tx_results(rowid),
    type     VARCHAR NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS attributes (
    event_id      BIGINT NOT NULL REFERENCES events(rowid),
    key           VARCHAR NOT NULL,
    composite_key VARCHAR NOT NULL,
    value         VARCHAR NULL,
    UNIQUE (event_id, key)
  )`,
  `CREATE OR REPLACE VIEW event_attributes AS
    SELECT block_id, tx_id, type, key, composite_key, value
    FROM events LEFT JOIN attributes ON (events.rowid = attributes.event_id)`,
  `CREATE OR REPLACE VIEW block_events AS
    SELECT blocks.rowid as block_id, height, chain_id, type, key, composite_key, value
    FROM blocks JOIN event_attributes ON (blocks.rowid = event_attributes.block_id)
    WHERE event_attributes.tx_id IS NULL`,
  `CREATE OR REPLACE VIEW tx_events AS
    SELECT height, index, chain_id, type, key, composite_key, value, tx_results.created_at
    FROM blocks JOIN tx_results ON (blocks.rowid = tx_results.block_id)
    JOIN event_attributes ON (tx_results.rowid = event_attributes.tx_id)
    WHERE event_attributes.tx_id IS NOT NULL`,
  // rxbft's search indexes: tx by hash, attribute (key, value) and key walks, events of a tx or block.
  "CREATE INDEX IF NOT EXISTS rxbft_tx_results_hash ON tx_results(tx_hash)",
  // On prefixes: a btree entry must stay under ~2.7 kB, and apps may emit values of any length
  // (a whole-value index would make such a height impossible to write). 300 characters of
  // each (at most 2,400 bytes of UTF-8); searches compare the prefixes, then the whole text.
  `CREATE INDEX IF NOT EXISTS rxbft_attributes_key_value
    ON attributes(left(composite_key, ${INDEXED_PREFIX}), left(value, ${INDEXED_PREFIX}))`,
  "CREATE INDEX IF NOT EXISTS rxbft_events_tx ON events(tx_id)",
  "CREATE INDEX IF NOT EXISTS rxbft_events_block ON events(block_id) WHERE tx_id IS NULL",
];

/**
 * Creates what is absent. Two nodes starting on one database at once could race on CREATE ...
 * IF NOT EXISTS, so the statements run under a transaction-scoped advisory lock.
 */
export async function ensureSchema(client: ClientBase): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('rxbft psql indexer schema'))");
    for (const statement of SCHEMA_STATEMENTS) await client.query(statement);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
