// Which indexer the stores open, from [tx_index]: kv, null, or psql with its connection URL,
// the chain's id (written per height, as v0.34 writes blocks.chain_id) and its own logger.
import type { NodeConfig } from "../config/config-schema.js";
import type { Logger } from "../logger/index.js";
import type { StoresOptions } from "./open-stores.js";

export function indexerStoreOptions(
  config: NodeConfig,
  chainId: string,
  logger: Logger,
): Pick<StoresOptions, "indexer" | "psql"> {
  const indexer = config.tx_index.indexer;
  if (indexer === "psql") {
    return {
      indexer,
      psql: { conn: config.tx_index["psql-conn"], chainId, logger: logger.child("indexer") },
    };
  }
  return { indexer: indexer === "kv" ? "kv" : "null" };
}

/** node_info.other.tx_index: "on" with any indexer but null. */
export const txIndexStatus = (config: NodeConfig): "on" | "off" =>
  config.tx_index.indexer === "null" ? "off" : "on";
