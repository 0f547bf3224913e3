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
): Pick<StoresOptions, "indexer" | "psql" | "level"> {
  const indexer = config.tx_index.indexer;
  const level = levelMemoryOf(config);
  if (indexer === "psql") {
    return {
      indexer,
      level,
      psql: { conn: config.tx_index["psql-conn"], chainId, logger: logger.child("indexer") },
    };
  }
  return { indexer: indexer === "kv" ? "kv" : "null", level };
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

/** node_info.other.tx_index: "on" with any indexer but null. */
export const txIndexStatus = (config: NodeConfig): "on" | "off" =>
  config.tx_index.indexer === "null" ? "off" : "on";
