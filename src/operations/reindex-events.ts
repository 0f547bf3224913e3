// `rxbft reindex-event [--start-height] [--end-height]` (v0.34's reindex-event): rebuilds the
// tx and block event index from the stored blocks and ABCI results, through the same indexer the
// node writes with (openStores' HeightIndexer for tx_index.indexer), so any indexer added there
// is rebuilt by this code too. Idempotent: indexing a height again writes the same entries (a
// tx's entries move to its latest height, as at commit). A run stopped midway leaves an index
// that is complete up to the last height it wrote; running it again finishes it.
import { join } from "node:path";
import { createLogger } from "../logger/index.js";
import { StoreError } from "../store/errors.js";
import { heightIndexInputFrom } from "../store/indexer/height-index-input.js";
import { PsqlIndexer } from "../store/indexer/psql/psql-indexer.js";
import { indexerStoreOptions } from "../store/indexer-options.js";
import { openStores } from "../store/open-stores.js";
import { parseGenesisFile } from "../types/genesis.js";
import { OperationError } from "./errors.js";
import { type OperatorHome, withStoppedHome } from "./operator-home.js";
import type { Progress } from "./progress-bar.js";

export interface ReindexOptions {
  /** First height (default: the block store's base). */
  startHeight?: bigint;
  /** Last height (default: the state's last height). */
  endHeight?: bigint;
}

export interface ReindexReport {
  from: bigint;
  to: bigint;
  heights: number;
  txs: number;
}

export async function reindexEvents(
  home: OperatorHome,
  options: ReindexOptions,
  say: (line: string) => void,
  progressFor: (total: number) => Progress,
): Promise<ReindexReport> {
  const kind = home.config.tx_index.indexer;
  // Every indexer but "null" is opened as the node opens it (openStores), so an indexer added
  // there (PostgreSQL) is rebuilt by this same loop.
  if (kind === "null") {
    throw new OperationError(
      "OP_REINDEX_REFUSED",
      `${home.paths.configFile}: tx_index.indexer is "${kind}": there is no event index to rebuild. ` +
        'Set indexer = "kv" under [tx_index] first (the node then indexes new heights, and this command the old ones)',
    );
  }
  return withStoppedHome(home, "rebuild the event index", async () => {
    // PostgreSQL rows carry the chain id (blocks.chain_id), as the node writes them.
    const chainId = kind === "psql" ? parseGenesisFile(home.paths.genesisFile).chainId : "";
    const logger = createLogger({
      level: home.config.log_level,
      format: home.config.log_format,
      destination: 2,
    });
    const stores = await openStores(home.paths.dataDir, indexerStoreOptions(home.config, chainId, logger));
    try {
      const base = stores.blockStore.base();
      const blockHeight = stores.blockStore.height();
      const stateHeight = stores.stateStore.lastBlockHeight() ?? 0n;
      // Only executed heights have results to index: not a block saved but never executed.
      const last = blockHeight < stateHeight ? blockHeight : stateHeight;
      if (blockHeight === 0n || last < base) {
        throw new OperationError(
          "OP_REINDEX_REFUSED",
          `${join(home.paths.dataDir, "blockstore.db")}: no executed block stored: nothing to index`,
        );
      }
      const from = options.startHeight ?? base;
      const to = options.endHeight ?? last;
      if (from < base) {
        throw new OperationError(
          "OP_REINDEX_REFUSED",
          `--start-height ${from} is below the block store's base ${base} (earlier blocks are pruned)`,
        );
      }
      if (to > last) {
        throw new OperationError(
          "OP_REINDEX_REFUSED",
          `--end-height ${to} is above the last executed height ${last}`,
        );
      }
      if (from > to) {
        throw new OperationError("OP_REINDEX_REFUSED", `--start-height ${from} is above --end-height ${to}`);
      }
      const total = Number(to - from + 1n);
      say(
        `Re-indexing heights ${from}..${to} (${total} heights) into ${join(home.paths.dataDir, "tx_index.db")}`,
      );
      const progress = progressFor(total);
      let txs = 0;
      for (let h = from; h <= to; h++) {
        const [block, responses] = await Promise.all([
          stores.blockStore.loadBlock(h),
          stores.stateStore.loadABCIResponses(h),
        ]);
        if (block === undefined || responses === undefined) {
          throw new StoreError(
            "STORE_HEIGHT_UNAVAILABLE",
            `height ${h}: ${block === undefined ? "the block" : "its ABCI responses"} cannot be loaded (pruned?): ` +
              `heights ${from}..${h - 1n} were re-indexed; run again with --start-height ${h + 1n} to go on past it`,
          );
        }
        await stores.indexer.indexHeight(heightIndexInputFrom(block, responses));
        txs += block.data.txs.length;
        progress.update(Number(h - from + 1n), { txs });
      }
      // The psql indexer hands a height above a gap, or any height after a failed write, to its
      // background catch-up loop, which close() stops: wait for that loop, and fail unless
      // PostgreSQL holds every height up to the last (it fills a gap below --start-height too,
      // as the node does at start).
      if (stores.indexer instanceof PsqlIndexer) {
        await stores.indexer.catchUp(to);
        if (stores.indexer.indexedHeight() < to) {
          throw new StoreError(
            "STORE_HEIGHT_UNAVAILABLE",
            `the psql indexer holds heights up to ${stores.indexer.indexedHeight()} of ${to}: ` +
              `${stores.indexer.unavailable() ?? "a height could not be written"}; run reindex-event again once PostgreSQL answers`,
          );
        }
      }
      progress.finish();
      say(`Re-indexed ${total} heights (${txs} txs).`);
      return { from, to, heights: total, txs };
    } finally {
      await stores.close();
    }
  });
}
