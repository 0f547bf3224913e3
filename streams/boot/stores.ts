// Boot step 1: the block, state and index stores, reconciled (a crash between block, state and
// index writes is repaired here; what was repaired is logged).
import type { Logger } from "../../src/logger/index.js";
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
  const stores = await openStores(dataDir, { ...indexer, advanceProposerPriority });
  try {
    const report = await stores.reconcile();
    for (const finding of report.findings) log.info(finding);
    return { stores, report };
  } catch (error) {
    await stores.close();
    throw error;
  }
}
