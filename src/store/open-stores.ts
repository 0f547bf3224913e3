// Opens the node's stores under data/: blockstore.db, state.db and (with the kv indexer)
// tx_index.db and tx_index_bodies.db, one LevelDB each; and clears them for unsafe_reset_all.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import {
  DB_TX_INDEX_HOME_FILTER_MB_DEFAULT,
  DB_TX_INDEX_MAX_FILE_SIZE_MB_DEFAULT,
  DB_TX_INDEX_MAX_OPEN_FILES_DEFAULT,
  DB_TX_INDEX_WRITE_BUFFER_SIZE_MB_DEFAULT,
} from "../config/config-schema.js";
import { QuietReopen } from "../level/quiet-reopen.js";
import type { Logger } from "../logger/index.js";
import { BlockStore } from "./block-store.js";
import { StoreError } from "./errors.js";
import { EVIDENCE_DB } from "./evidence-store.js";
import { gatedKvIndex } from "./gated-kv-index.js";
import {
  type BlockIndexReader,
  EventIndexer,
  type EventIndexerOptions,
  type HeightIndexer,
  type HomeFilterFill,
  type HomeFilterState,
  type TxIndexReader,
} from "./indexer/event-indexer.js";
import { heightIndexInputFrom } from "./indexer/height-index-input.js";
import { NULL_BLOCK_INDEX, NULL_HEIGHT_INDEXER, NULL_TX_INDEX } from "./indexer/null-indexer.js";
import type { SearchBudget } from "./indexer/search-executor.js";
import {
  type BinaryLevel,
  DEFAULT_LEVEL_MEMORY,
  type LevelMemoryOptions,
  openBinaryLevel,
} from "./level-database.js";
import { type ReconcileOptions, type ReconcileReport, reconcileStores } from "./reconcile.js";
import { type AdvanceProposerPriority, StateStore } from "./state-store.js";

export const BLOCK_STORE_DB = "blockstore.db";
export const STATE_DB = "state.db";
export const TX_INDEX_DB = "tx_index.db";
/** The kv index's bodies: tx results by position, block events by height (index-keys.ts). */
export const TX_INDEX_BODIES_DB = "tx_index_bodies.db";

export interface StoresOptions {
  /**
   * tx_index.indexer: "kv" indexes txs and block events into tx_index.db, "psql" into
   * PostgreSQL (psql options required), "null" indexes nothing.
   */
  indexer: "kv" | "null" | "psql";
  psql?: {
    /** [tx_index] psql-conn. */
    conn: string;
    chainId: string;
    logger: Logger;
  };
  /** ValidatorSet.IncrementProposerPriority, from the state module (see StateStore). */
  advanceProposerPriority?: AdvanceProposerPriority;
  /** fsync block and state batches (default true). */
  sync?: boolean;
  searchBudget?: SearchBudget;
  /** LevelDB's memory bounds, for each of the stores (config.toml's db_* keys). */
  level?: LevelMemoryOptions;
  /** tx_index.db's own bounds (its table file size, db_tx_index_max_file_size_mb); default `level`. */
  txIndexLevel?: LevelMemoryOptions;
  /** tx_index.db's home filter in bytes (db_tx_index_home_filter_mb; 0: none); default openKvIndex's. */
  homeFilterBytes?: number;
  /**
   * Told how the home filter's background fill ended and how long it took (the node logs it: over a
   * large index the fill takes seconds to minutes, and until it completes every home is read).
   */
  onHomeFilterFill?: (fill: HomeFilterFill & { ms: number }) => void;
  /** Told once when the home filter becomes crowded (the node warns: its size should be raised). */
  onHomeFilterCrowded?: (state: HomeFilterState) => void;
}

export interface Stores {
  blockStore: BlockStore;
  stateStore: StateStore;
  /** Writes a height's index (no-op with the null indexer). */
  indexer: HeightIndexer;
  txIndexer: TxIndexReader;
  blockIndexer: BlockIndexReader;
  reconcile(options?: ReconcileOptions): Promise<ReconcileReport>;
  close(): Promise<void>;
}

export async function openStores(dataDir: string, options: StoresOptions): Promise<Stores> {
  const opened: { close(): Promise<void> }[] = [];
  const closeAll = async () => {
    // The psql indexer (opened last) stops before the stores its catch-up reads from.
    for (const item of [...opened].reverse()) await item.close();
  };
  try {
    const blockDb = await openBinaryLevel(join(dataDir, BLOCK_STORE_DB), options.level);
    opened.push(blockDb);
    const stateDb = await openBinaryLevel(join(dataDir, STATE_DB), options.level);
    opened.push(stateDb);
    const blockStore = await BlockStore.open(blockDb, { sync: options.sync });
    const stateStore = await StateStore.open(stateDb, {
      sync: options.sync,
      advanceProposerPriority: options.advanceProposerPriority,
    });
    let indexer: HeightIndexer = NULL_HEIGHT_INDEXER;
    let txIndexer: TxIndexReader = NULL_TX_INDEX;
    let blockIndexer: BlockIndexReader = NULL_BLOCK_INDEX;
    if (options.indexer === "kv") {
      const kv = await openKvIndex(
        dataDir,
        options.level,
        {
          budget: options.searchBudget,
          ...(options.homeFilterBytes !== undefined ? { homeFilterBytes: options.homeFilterBytes } : {}),
          ...(options.onHomeFilterCrowded !== undefined
            ? { onHomeFilterCrowded: options.onHomeFilterCrowded }
            : {}),
        },
        options.txIndexLevel,
      );
      // Nearly quiet at idle (an empty height writes a few bytes; the tx and search routes read),
      // so the idle release closes and reopens both databases (src/level/quiet-reopen.ts); every
      // use goes through the group's gate.
      const quiet = new QuietReopen(kv.databases);
      opened.push({
        close: async () => {
          await kv.indexer.stopHomeFilterFill();
          await quiet.close();
          await kv.close();
        },
      });
      ({ indexer, txIndexer, blockIndexer } = gatedKvIndex(kv.indexer, quiet));
      // Over an index that holds homes already, the filter reads them in the background, each read
      // through the gate; until it is done every home is looked up, as without it.
      const fillStarted = performance.now();
      void kv.indexer
        .fillHomeFilter((work) => quiet.use(work))
        .then((fill) =>
          options.onHomeFilterFill?.({ ...fill, ms: Math.round(performance.now() - fillStarted) }),
        );
    } else if (options.indexer === "psql") {
      const psql = options.psql;
      if (psql === undefined)
        throw new StoreError("STORE_OPEN_FAILED", 'indexer "psql" needs [tx_index] psql-conn');
      // Loaded only here: the psql indexer brings the pg client (~3 MB of V8 heap once compiled),
      // which a node on the kv or null indexer would otherwise hold for its whole life.
      const { PsqlIndexer } = await import("./indexer/psql/psql-indexer.js");
      const psqlIndexer = await PsqlIndexer.open({
        conn: psql.conn,
        chainId: psql.chainId,
        logger: psql.logger,
        budget: options.searchBudget,
        baseHeight: () => blockStore.base(),
        loadHeight: async (height) => {
          const [block, responses] = await Promise.all([
            blockStore.loadBlock(height),
            stateStore.loadABCIResponses(height),
          ]);
          return block === undefined || responses === undefined
            ? undefined
            : heightIndexInputFrom(block, responses);
        },
      });
      opened.push(psqlIndexer);
      indexer = psqlIndexer;
      txIndexer = psqlIndexer.txs;
      blockIndexer = psqlIndexer.blocks;
    }
    return {
      blockStore,
      stateStore,
      indexer,
      txIndexer,
      blockIndexer,
      reconcile: (reconcileOptions) => reconcileStores(blockStore, stateStore, indexer, reconcileOptions),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** LevelDB's smallest memtable (it raises a smaller write_buffer_size to 64 KiB). */
const MIN_WRITE_BUFFER = 64 * 1024;

/**
 * tx_index_bodies.db's memory bounds: an eighth of db_cache_size_mb (1 MB with the defaults) and
 * half of tx_index.db's memtable, db_tx_index_write_buffer_size_mb (8 MB). It is read only by /tx
 * and tx_search (a page of bodies: a few hundred 4-KB blocks) and once at open, so a full-size
 * block cache would hold blocks nobody reads again. Its memtable is written a height's bodies at a
 * time (~250 bytes a tx: 2.5 MB/s at 10,000 tx/s), and a write that finds it full while the one
 * before is still waiting to be flushed waits too: LevelDB flushes and compacts every database of
 * the process on one background thread, one job at a time, and a job of another database (a
 * compaction of tx_index.db or kvstore.db) takes 1-3.6 s under load. With a quarter of
 * db_write_buffer_size_mb (1 MB) every height filled one, and in a ten-minute run at 10,000 tx/s
 * 37-57 bodies' writes waited, up to 2.2 s each, which the next heights' commits then waited for
 * (docs/storage.md, "Nineteenth pass"); at 8 MB a memtable lasts ~3 s of that load. Its keys are
 * positions, written in increasing order, so the memtable's size changes no compaction.
 */
export function bodiesLevelMemory(
  level: LevelMemoryOptions = DEFAULT_LEVEL_MEMORY,
  indexWriteBufferSize = DB_TX_INDEX_WRITE_BUFFER_SIZE_MB_DEFAULT * 1024 * 1024,
): LevelMemoryOptions {
  return {
    ...level,
    cacheSize: Math.floor(level.cacheSize / 8),
    writeBufferSize: Math.max(MIN_WRITE_BUFFER, Math.floor(indexWriteBufferSize / 2)),
  };
}

/**
 * The kv indexer over its two databases, and the close of both (which stops the home filter's fill
 * first, if one was started). `options.homeFilterBytes` defaults to db_tx_index_home_filter_mb's
 * default, as the node's. `indexLevel` bounds tx_index.db
 * (default: `level` with db_tx_index_max_file_size_mb's, db_tx_index_write_buffer_size_mb's and
 * db_tx_index_max_open_files' defaults, so a tool that opens the index without a config writes the
 * node's table and memtable sizes and keeps as many tables open); the bodies' database takes
 * bodiesLevelMemory(level, indexLevel.writeBufferSize).
 */
export async function openKvIndex(
  dataDir: string,
  level: LevelMemoryOptions | undefined,
  options: Omit<EventIndexerOptions, "bodies"> = {},
  indexLevel: LevelMemoryOptions = {
    ...(level ?? DEFAULT_LEVEL_MEMORY),
    writeBufferSize: DB_TX_INDEX_WRITE_BUFFER_SIZE_MB_DEFAULT * 1024 * 1024,
    maxFileSize: DB_TX_INDEX_MAX_FILE_SIZE_MB_DEFAULT * 1024 * 1024,
    maxOpenFiles: DB_TX_INDEX_MAX_OPEN_FILES_DEFAULT,
  },
): Promise<{ indexer: EventIndexer; databases: BinaryLevel[]; close(): Promise<void> }> {
  const indexDb = await openBinaryLevel(join(dataDir, TX_INDEX_DB), indexLevel);
  let bodiesDb: BinaryLevel | undefined;
  try {
    bodiesDb = await openBinaryLevel(
      join(dataDir, TX_INDEX_BODIES_DB),
      bodiesLevelMemory(level, indexLevel.writeBufferSize),
    );
    const indexer = await EventIndexer.open(indexDb, {
      homeFilterBytes: DB_TX_INDEX_HOME_FILTER_MB_DEFAULT * 1024 * 1024,
      ...options,
      bodies: bodiesDb,
    });
    const bodies = bodiesDb;
    return {
      indexer,
      databases: [indexDb, bodies],
      close: async () => {
        await indexer.stopHomeFilterFill();
        await indexDb.close();
        await bodies.close();
      },
    };
  } catch (error) {
    await indexDb.close();
    await bodiesDb?.close();
    throw error;
  }
}

/** unsafe_reset_all: removes the stores (the node must be stopped). */
export async function clearStores(dataDir: string): Promise<void> {
  for (const name of [BLOCK_STORE_DB, STATE_DB, TX_INDEX_DB, TX_INDEX_BODIES_DB, EVIDENCE_DB]) {
    await rm(join(dataDir, name), { recursive: true, force: true });
  }
}
