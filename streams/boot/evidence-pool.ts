// The evidence pool at start: its store (data/evidence.db) opened and read back, then caught up
// with the blocks committed after its last update.
//
// Why a crash never makes the node re-propose or re-accept committed evidence: a height is made
// durable in this order: block and state (persistExecutedHeight), then the evidence store's batch
// that marks the block's evidence committed, drops it from pending and records the height. A
// crash between the two leaves the evidence store one or more heights behind the block store;
// here, before consensus starts, every stored block above the store's height is read and its
// evidence marked committed (the same rule, updateEvidencePool, as after a live block), so the
// pool never holds as pending what a block already carries, and the committed set refuses it.
// A store new to an existing chain (an upgrade) reads at most the last max_age_num_blocks
// blocks: older evidence is expired and refused anyway.
import { join } from "node:path";
import {
  type EvidenceHistory,
  type EvidencePoolState,
  evidencePoolChanges,
  evidencePoolFromStore,
  updateEvidencePool,
} from "../../src/evidence/index.js";
import type { Logger } from "../../src/logger/index.js";
import { EVIDENCE_DB, EvidenceStore } from "../../src/store/evidence-store.js";
import type { LevelMemoryOptions } from "../../src/store/level-database.js";
import type { MaybePromise } from "../../src/types/maybe-async.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import { EvidencePoolHolder, type EvidencePoolHolderOptions } from "../effects/evidence.js";

export interface OpenEvidencePoolOptions<H extends EvidencePoolHolder = EvidencePoolHolder> {
  /** Builds the holder (a subclass, e.g. one that follows the consensus loop); default EvidencePoolHolder. */
  make?: (recent: EvidenceHistory, logger: Logger, options: EvidencePoolHolderOptions) => H;
  dataDir: string;
  /** The chain state the node starts from (after the handshake). */
  chain: ChainState;
  blockStore: { loadBlock(height: bigint): Promise<Block | undefined>; base(): bigint };
  /** Block times and validator sets of recent heights (the recent-block cache). */
  recent: EvidenceHistory;
  /** The stores' history for checking evidence from outside (as block validation does). */
  historyFor: (heights: readonly bigint[]) => MaybePromise<EvidenceHistory>;
  logger: Logger;
  onStoreFailure(reason: string): void;
  /** LevelDB's memory bounds for data/evidence.db (config.toml's db_* keys); LevelDB defaults otherwise. */
  level?: LevelMemoryOptions;
}

export interface OpenedEvidencePool<H extends EvidencePoolHolder = EvidencePoolHolder> {
  readonly holder: H;
  /** Waits for pending writes, then closes the store. */
  close(): Promise<void>;
}

export async function openEvidencePool<H extends EvidencePoolHolder = EvidencePoolHolder>(
  options: OpenEvidencePoolOptions<H>,
): Promise<OpenedEvidencePool<H>> {
  const store = await EvidenceStore.open(join(options.dataDir, EVIDENCE_DB), options.level);
  try {
    const stored = await store.load();
    let pool: EvidencePoolState = evidencePoolFromStore(stored.pending, stored.committed);
    const latest = options.chain.lastBlockHeight;
    const oldest = latest - options.chain.consensusParams.evidence.maxAgeNumBlocks;
    let from = (stored.height ?? oldest) + 1n;
    const base = options.blockStore.base();
    if (from < base) from = base;
    if (from < 1n) from = 1n;
    const before = pool;
    const committedNow = [];
    for (let h = from; h <= latest; h++) {
      const block = await options.blockStore.loadBlock(h);
      const evidence = block?.evidence?.evidence ?? [];
      committedNow.push(...evidence);
      pool = updateEvidencePool(pool, options.chain, evidence, options.recent);
    }
    if (latest > 0n && (stored.height === undefined || stored.height < latest)) {
      await store.apply(evidencePoolChanges(before, pool, committedNow, latest));
      if (from <= latest)
        options.logger.info("evidence store caught up with the block store", { from, to: latest });
    }
    options.logger.info("evidence pool loaded", {
      pending: pool.pending.length,
      committed: pool.committed.length,
    });
    const holderOptions: EvidencePoolHolderOptions = {
      initial: pool,
      store,
      historyFor: options.historyFor,
      onStoreFailure: options.onStoreFailure,
    };
    const make = options.make ?? ((r, l, o) => new EvidencePoolHolder(r, l, o) as H);
    const holder = make(options.recent, options.logger, holderOptions);
    return {
      holder,
      close: async () => {
        await holder.flushed();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
