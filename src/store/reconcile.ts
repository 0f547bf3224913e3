// Start-up reconciliation of the three stores. Heights are saved block → state → index, each
// in one atomic batch, so after a crash the stores can only be in these states:
//   block = state            consistent
//   block = state + 1        the block was saved but not executed: the handshake replays it
//                            (at genesis, "state + 1" is the chain's initial_height)
//   index < state            the index lags: re-indexed here from stored blocks and ABCI responses
// Anything else (state ahead of blocks, blocks two or more ahead) cannot come from a crash in
// our order and is reported as STORE_INCONSISTENT with the heights involved. Call it before
// the ABCI handshake (to learn the replay height) and again after it, which indexes the
// height the handshake replayed.
import type { BlockStore } from "./block-store.js";
import { StoreError } from "./errors.js";
import type { HeightIndexer } from "./indexer/event-indexer.js";
import { heightIndexInputFrom } from "./indexer/height-index-input.js";
import type { StateStore } from "./state-store.js";

export interface ReconcileReport {
  blockBase: bigint;
  blockHeight: bigint;
  /** state.lastBlockHeight, or undefined before genesis was saved. */
  stateHeight: bigint | undefined;
  /** The indexer's last indexed height (undefined with the null indexer). */
  indexedHeight: bigint | undefined;
  /** A block saved but whose state is not: the handshake must execute (replay) it. */
  replayHeight: bigint | undefined;
  /**
   * The replay height's ABCI responses were saved (the block was executed, and the app may
   * have committed it): the handshake can rebuild the state from them.
   */
  replayResponsesSaved: boolean;
  /** Heights re-indexed (repair) or to re-index (dry run) from stored blocks and responses. */
  reindexHeights: bigint[];
  /** Heights the index misses that cannot be rebuilt (block or ABCI responses pruned). */
  unindexableHeights: bigint[];
  /** One line per finding, for the start-up log. */
  findings: string[];
}

export interface ReconcileOptions {
  /** Re-index lagging heights (default true). With false, only report. */
  repair?: boolean;
}

export async function reconcileStores(
  blockStore: BlockStore,
  stateStore: StateStore,
  indexer: HeightIndexer,
  options: ReconcileOptions = {},
): Promise<ReconcileReport> {
  const repair = options.repair ?? true;
  const blockHeight = blockStore.height();
  const stateHeight = stateStore.lastBlockHeight();
  const report: ReconcileReport = {
    blockBase: blockStore.base(),
    blockHeight,
    stateHeight,
    indexedHeight: indexer.enabled ? indexer.indexedHeight() : undefined,
    replayHeight: undefined,
    replayResponsesSaved: false,
    reindexHeights: [],
    unindexableHeights: [],
    findings: [],
  };
  if (stateHeight === undefined) {
    if (blockHeight > 0n) {
      throw new StoreError(
        "STORE_INCONSISTENT",
        `block store holds heights ${report.blockBase}..${blockHeight} but state.db has no state: data/ is damaged`,
      );
    }
    report.findings.push("stores are empty: a new chain starts from genesis");
    return report;
  }
  if (blockHeight > 0n) {
    // The latest block must be whole: its meta was checked at open, its parts are checked here.
    if ((await blockStore.loadBlock(blockHeight)) === undefined) {
      throw new StoreError("STORE_CORRUPT", `block store: latest block ${blockHeight} cannot be loaded`);
    }
  }
  if (blockHeight === 0n && stateHeight > 0n) {
    report.findings.push(`state at ${stateHeight} with no blocks: state-synced, blocks still to fetch`);
  } else if (blockHeight === stateHeight) {
    report.findings.push(`block store and state both at height ${blockHeight}`);
  } else if (blockHeight === nextHeightOfState(stateStore, stateHeight)) {
    report.replayHeight = blockHeight;
    report.replayResponsesSaved = (await stateStore.loadABCIResponses(blockHeight)) !== undefined;
    report.findings.push(
      `block store at ${blockHeight}, state at ${stateHeight}: state will be rebuilt by replay of height ${blockHeight}` +
        (report.replayResponsesSaved ? " (its ABCI responses are saved)" : ""),
    );
  } else if (blockHeight > stateHeight) {
    throw new StoreError(
      "STORE_INCONSISTENT",
      `block store at ${blockHeight} is ${blockHeight - stateHeight} heights ahead of state at ${stateHeight}; ` +
        "a crash leaves at most one: data/ was modified or mixed from different runs",
    );
  } else {
    throw new StoreError(
      "STORE_INCONSISTENT",
      `state at ${stateHeight} is ahead of the block store at ${blockHeight}: blocks ${blockHeight + 1n}..${stateHeight} are missing`,
    );
  }
  if (!indexer.enabled) return report;
  if (indexer.catchUp !== undefined) {
    if (repair) report.findings.push(...(await indexer.catchUp(stateHeight)));
    return report;
  }
  const indexed = indexer.indexedHeight();
  if (indexed > stateHeight) {
    report.findings.push(
      `index at ${indexed} is ahead of state at ${stateHeight}: replay will index those heights again`,
    );
    return report;
  }
  if (indexed === stateHeight) return report;
  const from = indexed + 1n > report.blockBase ? indexed + 1n : report.blockBase;
  for (let h = from; h <= stateHeight; h++) {
    const [block, responses] = await Promise.all([blockStore.loadBlock(h), stateStore.loadABCIResponses(h)]);
    if (block === undefined || responses === undefined) {
      report.unindexableHeights.push(h);
      continue;
    }
    report.reindexHeights.push(h);
    if (repair) await indexer.indexHeight(heightIndexInputFrom(block, responses));
  }
  if (from > indexed + 1n) {
    report.findings.push(
      `index heights ${indexed + 1n}..${from - 1n} were pruned from the block store: not re-indexed`,
    );
  }
  if (report.reindexHeights.length > 0) {
    const verb = repair ? "re-indexed" : "to re-index";
    const first = report.reindexHeights[0];
    const last = report.reindexHeights[report.reindexHeights.length - 1];
    report.findings.push(`index at ${indexed}, state at ${stateHeight}: ${verb} heights ${first}..${last}`);
  }
  if (report.unindexableHeights.length > 0) {
    report.findings.push(
      `${report.unindexableHeights.length} heights cannot be re-indexed: ABCI responses are gone`,
    );
  }
  return report;
}

/** The height the saved state expects next: initial_height while it is at genesis. */
function nextHeightOfState(stateStore: StateStore, stateHeight: bigint): bigint {
  return stateHeight === 0n ? (stateStore.load()?.initialHeight ?? 1n) : stateHeight + 1n;
}
