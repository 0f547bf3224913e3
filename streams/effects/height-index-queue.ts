// A committed height's index write, off the commit's critical path.
// The commit (block-commit.ts) queues height H here right after the app's Commit and BEFORE the
// mempool drops H's txs, then goes on to save H's state and end H in the log while H is indexed;
// consensus starts H+1 without waiting for the index. What keeps this safe and bounded:
//   - readers of the index (the `tx`, `tx_search`, `block_search` routes) wait here first for
//     every height queued before their call, so a tx that left the mempool because it was
//     committed is always found: there is no window between mempool and index;
//   - events (NewBlock, Tx, …) are published when BlockExecuted is folded (node-events.ts), maybe
//     before the index write ends: a client that saw a Tx event and asks `tx` waits here, so it
//     finds it;
//   - heights are indexed one at a time, in order, and the commit of H+1 waits for H's index
//     before saving its state (`beforeNext`), so at most two heights are ever in flight;
//   - a crash loses at most the index of the heights in flight, which reconcileStores re-indexes
//     from the stored blocks and ABCI responses at the next start (docs/storage.md).
// A failed index write is a storage failure: the node halts.
import type { Logger } from "../../src/logger/index.js";
import type {
  BlockIndexReader,
  BlockSearchResult,
  TxIndexReader,
  TxSearchResult,
} from "../../src/store/indexer/event-indexer.js";
import type { SearchRequest } from "../../src/store/indexer/search-executor.js";

export interface HeightIndexQueueDeps {
  halt(reason: string, cause: unknown): void;
  /** Registers the work under way, so a stop waits for it before closing the stores. */
  track?<T>(work: Promise<T>): Promise<T>;
  logger: Logger;
}

export class HeightIndexQueue {
  /** Resolves when every height queued so far is indexed and its state saved (never rejects). */
  #tail: Promise<void> = Promise.resolve();
  #queued = 0;

  constructor(private readonly deps: HeightIndexQueueDeps) {}

  /** Heights queued and not yet indexed and its state saved. */
  get pending(): number {
    return this.#queued;
  }

  /**
   * Queues a height: `index` runs after every height queued before it; the height counts as
   * settled once both the index write and `stateSaved` resolved. Returns at once.
   */
  enqueue(height: bigint, index: () => Promise<void>, stateSaved: Promise<unknown>): void {
    this.#queued++;
    const work = this.#tail.then(async () => {
      try {
        await Promise.all([index(), stateSaved]);
      } catch (error) {
        this.deps.halt(
          `indexing block ${height} failed: ${error instanceof Error ? error.message : String(error)}`,
          error,
        );
      } finally {
        this.#queued--;
      }
    });
    this.#tail = this.deps.track ? this.deps.track(work) : work;
  }

  /** Resolves once every height queued before this call is indexed and its state saved. */
  settled(): Promise<void> {
    return this.#tail;
  }

  /** The tx index as the RPC reads it: each read waits for the heights already committed. */
  txReader(inner: TxIndexReader): TxIndexReader {
    return {
      get enabled() {
        return inner.enabled;
      },
      getByHash: async (hash: Uint8Array) => {
        await this.#tail;
        return inner.getByHash(hash);
      },
      search: async (request: SearchRequest): Promise<TxSearchResult> => {
        await this.#tail;
        return inner.search(request);
      },
    };
  }

  /** The block-event index as the RPC reads it, likewise. */
  blockReader(inner: BlockIndexReader): BlockIndexReader {
    return {
      get enabled() {
        return inner.enabled;
      },
      has: async (height: bigint) => {
        await this.#tail;
        return inner.has(height);
      },
      search: async (request: SearchRequest): Promise<BlockSearchResult> => {
        await this.#tail;
        return inner.search(request);
      },
    };
  }
}
