// The order in which a committed height reaches disk: block, then state (with the height's
// ABCI responses), then index. Each step is one atomic batch; reconcileStores relies on this
// order to repair what a crash left half-done. Publish the height's Tx events only after this
// resolves: a client that saw the event always finds the tx.

import type { ABCIResponses, State } from "../wire/generated/tendermint/state/types.js";
import type { BlockStore, SaveBlockInput } from "./block-store.js";
import { StoreError } from "./errors.js";
import type { HeightIndexer } from "./indexer/event-indexer.js";
import { heightIndexInputFrom } from "./indexer/height-index-input.js";
import type { StateStore } from "./state-store.js";

export interface ExecutedHeight {
  /** The block as committed; skipped when the block store already holds this height. */
  block: SaveBlockInput;
  /** The state after executing the block (state.lastBlockHeight = block height). */
  state: State;
  abciResponses: ABCIResponses;
  /** The responses are already in state.db (saved before the app's Commit): not written again. */
  abciResponsesSaved?: boolean;
}

export async function persistExecutedHeight(
  stores: { blockStore: BlockStore; stateStore: StateStore; indexer: HeightIndexer },
  executed: ExecutedHeight,
): Promise<void> {
  await persistHeightState(stores, executed);
  await stores.indexer.indexHeight(heightIndexInputFrom(executed.block.block, executed.abciResponses));
}

/**
 * The block (unless stored) and the state, without the index: for a node that indexes the height
 * on its own queue (reconcileStores re-indexes a height whose index a crash lost).
 */
export async function persistHeightState(
  stores: { blockStore: BlockStore; stateStore: StateStore },
  executed: ExecutedHeight,
): Promise<void> {
  const height = executed.block.block.header.height;
  if (executed.state.lastBlockHeight !== height) {
    throw new StoreError(
      "STORE_INVALID_SAVE",
      `state after block ${height} says last_block_height ${executed.state.lastBlockHeight}`,
    );
  }
  if (stores.blockStore.height() < height) await stores.blockStore.saveBlock(executed.block);
  await stores.stateStore.save(
    executed.state,
    executed.abciResponsesSaved ? undefined : executed.abciResponses,
  );
}
