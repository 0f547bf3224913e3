// Storage: the block store, the state store and the kv event indexer, one LevelDB each under
// data/ (blockstore.db, state.db, tx_index.db and tx_index_bodies.db). Heights are written block → state → index,
// one atomic batch per store, and reconciled at start-up. See docs/storage.md.
export {
  BlockStore,
  type BlockStoreOptions,
  MAX_METAS_PER_READ,
  type SaveBlockInput,
} from "./block-store.js";
export { StoreError, type StoreErrorCode } from "./errors.js";
export {
  type BlockIndexReader,
  type BlockSearchResult,
  EventIndexer,
  type EventIndexerOptions,
  type HeightIndexer,
  type TxIndexReader,
  type TxSearchResult,
} from "./indexer/event-indexer.js";
export { type HeightIndexInput, heightIndexInputFrom, type IndexedTx } from "./indexer/height-index-input.js";
export { NULL_BLOCK_INDEX, NULL_HEIGHT_INDEXER, NULL_TX_INDEX } from "./indexer/null-indexer.js";
export {
  DEFAULT_SEARCH_BUDGET,
  pageBounds,
  type SearchBudget,
  type SearchPage,
  type SearchRequest,
} from "./indexer/search-executor.js";
export { type BinaryLevel, openBinaryLevel } from "./level-database.js";
export {
  BLOCK_STORE_DB,
  clearStores,
  openKvIndex,
  openStores,
  STATE_DB,
  type Stores,
  type StoresOptions,
  TX_INDEX_BODIES_DB,
  TX_INDEX_DB,
} from "./open-stores.js";
export { type ExecutedHeight, persistExecutedHeight, persistHeightState } from "./persist-height.js";
export { type ReconcileOptions, type ReconcileReport, reconcileStores } from "./reconcile.js";
export { type AdvanceProposerPriority, StateStore, type StateStoreOptions } from "./state-store.js";
