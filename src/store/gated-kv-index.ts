// The kv indexer's three faces (the writer, the tx reader, the block reader) with every call run
// through its databases' reopen gate (src/level/quiet-reopen.ts), so the idle release can close
// and reopen tx_index.db and tx_index_bodies.db: a call that arrives meanwhile waits for them to
// be open again instead of failing, and a reopen never starts while a call is in flight.
import type { QuietReopen } from "../level/quiet-reopen.js";
import type {
  BlockIndexReader,
  EventIndexer,
  HeightIndexer,
  TxIndexReader,
} from "./indexer/event-indexer.js";

export function gatedKvIndex(
  indexer: EventIndexer,
  gate: QuietReopen,
): { indexer: HeightIndexer; txIndexer: TxIndexReader; blockIndexer: BlockIndexReader } {
  return {
    indexer: {
      enabled: true,
      indexedHeight: () => indexer.indexedHeight(),
      indexHeight: (input) => gate.use(() => indexer.indexHeight(input)),
    },
    txIndexer: {
      enabled: true,
      getByHash: (hash) => gate.use(() => indexer.txs.getByHash(hash)),
      search: (request) => gate.use(() => indexer.txs.search(request)),
    },
    blockIndexer: {
      enabled: true,
      has: (height) => gate.use(() => indexer.blocks.has(height)),
      search: (request) => gate.use(() => indexer.blocks.search(request)),
    },
  };
}
