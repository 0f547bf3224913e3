// Which indexer the stores open (and LevelDB's memory bounds for every store), from [tx_index]: kv, null, or psql with its connection URL,
// the chain's id (written per height, as v0.34 writes blocks.chain_id) and its own logger.
import type { NodeConfig } from "../config/config-schema.js";
import type { Logger } from "../logger/index.js";
import type { LevelMemoryOptions } from "./level-database.js";
import type { StoresOptions } from "./open-stores.js";

export function indexerStoreOptions(
  config: NodeConfig,
  chainId: string,
  logger: Logger,
): Pick<StoresOptions, "indexer" | "psql" | "level" | "txIndexLevel" | "homeFilterBytes"> {
  const indexer = config.tx_index.indexer;
  const level = levelMemoryOf(config);
  if (indexer === "psql") {
    return {
      indexer,
      level,
      psql: { conn: config.tx_index["psql-conn"], chainId, logger: logger.child("indexer") },
    };
  }
  return {
    indexer: indexer === "kv" ? "kv" : "null",
    level,
    txIndexLevel: txIndexLevelMemoryOf(config),
    homeFilterBytes: config.db_tx_index_home_filter_mb * 1024 * 1024,
  };
}

/** LevelDB's memory bounds per database from config.toml (db_cache_size_mb and the rest). */
export function levelMemoryOf(config: NodeConfig): LevelMemoryOptions {
  const mb = 1024 * 1024;
  return {
    cacheSize: config.db_cache_size_mb * mb,
    writeBufferSize: config.db_write_buffer_size_mb * mb,
    maxOpenFiles: config.db_max_open_files,
    maxFileSize: config.db_max_file_size_mb * mb,
  };
}

/**
 * tx_index.db's bounds: every db_* key but its table file size (db_tx_index_max_file_size_mb), its
 * memtable (db_tx_index_write_buffer_size_mb: its random keys make compaction's work per byte
 * fall as the memtable grows) and its open tables (db_tx_index_max_open_files: a height looks up
 * its txs' earlier homes there, only those the home filter may hold, and a lookup in a table not
 * kept open opens it). LevelDB maps the tables it opens, and the pages read (each table's index
 * and filter blocks) stay in RSS while the table stays open: up to (db_tx_index_max_open_files - 10)
 * tables, the part of RSS that grew with the index in a ten-minute load (docs/storage.md "Memory").
 */
export function txIndexLevelMemoryOf(config: NodeConfig): LevelMemoryOptions {
  return {
    ...levelMemoryOf(config),
    writeBufferSize: config.db_tx_index_write_buffer_size_mb * 1024 * 1024,
    maxFileSize: config.db_tx_index_max_file_size_mb * 1024 * 1024,
    maxOpenFiles: config.db_tx_index_max_open_files,
  };
}

/** node_info.other.tx_index: "on" with any indexer but null. */
export const txIndexStatus = (config: NodeConfig): "on" | "off" =>
  config.tx_index.indexer === "null" ? "off" : "on";
