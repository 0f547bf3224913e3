// tx_index.indexer = "null": nothing is indexed, and reads fail with Tendermint's messages.
import { StoreError } from "../errors.js";
import type { BlockIndexReader, HeightIndexer, TxIndexReader } from "./event-indexer.js";

const txDisabled = (): never => {
  throw new StoreError("TX_INDEXING_DISABLED", "transaction indexing is disabled");
};
const blockDisabled = (): never => {
  throw new StoreError("BLOCK_INDEXING_DISABLED", "block indexing is disabled");
};

export const NULL_TX_INDEX: TxIndexReader = {
  enabled: false,
  getByHash: async () => txDisabled(),
  search: async () => txDisabled(),
};

export const NULL_BLOCK_INDEX: BlockIndexReader = {
  enabled: false,
  has: async () => blockDisabled(),
  search: async () => blockDisabled(),
};

export const NULL_HEIGHT_INDEXER: HeightIndexer = {
  enabled: false,
  indexedHeight: () => 0n,
  indexHeight: async () => {},
};
