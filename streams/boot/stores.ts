// Boot step 1: the block, state and index stores, reconciled (a crash between block, state and
// index writes is repaired here; what was repaired is logged).
import type { Logger } from "../../src/logger/index.js";
import type { HomeFilterFill, HomeFilterState } from "../../src/store/indexer/event-indexer.js";
import { openStores, type Stores, type StoresOptions } from "../../src/store/open-stores.js";
import type { ReconcileReport } from "../../src/store/reconcile.js";
import { ValidatorSet } from "../../src/types/validator-set.js";

/** The proposer-priority advance the state store needs to load a validator set saved earlier. */
const advanceProposerPriority = (
  set: Parameters<typeof ValidatorSet.fromProto>[0],
  times: bigint,
): Parameters<typeof ValidatorSet.fromProto>[0] =>
  ValidatorSet.fromProto(set).incrementProposerPriority(Number(times)).toProto();

export async function openNodeStores(
  dataDir: string,
  indexer: Pick<StoresOptions, "indexer" | "psql" | "level" | "txIndexLevel" | "homeFilterBytes">,
  log: Logger,
): Promise<{ stores: Stores; report: ReconcileReport }> {
  const stores = await openStores(dataDir, {
    ...indexer,
    advanceProposerPriority,
    onHomeFilterFill: (fill) => logHomeFilterFill(log, fill),
    onHomeFilterCrowded: (state) => logHomeFilterCrowded(log, state),
  });
  try {
    const report = await stores.reconcile();
    for (const finding of report.findings) log.info(finding);
    return { stores, report };
  } catch (error) {
    await stores.close();
    throw error;
  }
}

/**
 * The tx index's home filter, filled in the background over an index that held txs at start: said
 * when it answers (until then every committed tx's earlier home is read from tx_index.db), or that
 * it never will this run. Silent when there was nothing to fill, or the node closed first.
 */
export function logHomeFilterFill(log: Logger, fill: HomeFilterFill & { ms: number }): void {
  if (fill.outcome === "complete") log.info("tx index home filter filled", { keys: fill.keys, ms: fill.ms });
  else if (fill.outcome === "failed")
    log.error("tx index home filter not filled: every tx's earlier home is read from tx_index.db", {
      keys: fill.keys,
      ms: fill.ms,
      err: fill.error instanceof Error ? fill.error.message : String(fill.error),
    });
}

/**
 * The home filter crowded (home-filter.ts, HOME_FILTER_CROWDED_RATE): from here a growing share of
 * committed txs' earlier homes is read from tx_index.db again, which a filtered index's bounded open
 * tables (db_tx_index_max_open_files) make slower. Said once a run, with what to raise.
 */
export function logHomeFilterCrowded(log: Logger, state: HomeFilterState): void {
  log.warn(
    "tx index home filter crowded: raise db_tx_index_home_filter_mb (about 1 MB per 1.3M txs indexed keeps lookups under 5 % false positives)",
    {
      keys: state.added,
      mb: Math.round((state.bytes / 1024 / 1024) * 10) / 10,
      falsePositivePercent: Math.round(state.falsePositiveRate * 1000) / 10,
    },
  );
}
