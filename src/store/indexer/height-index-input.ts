// What one height contributes to the index, and how to build it from a block and its ABCI
// responses (used by the node after executing a block, and by start-up repair).
import type { Event, ResponseDeliverTx } from "../../wire/generated/tendermint/abci/types.js";
import type { ABCIResponses } from "../../wire/generated/tendermint/state/types.js";
import type { Block } from "../../wire/generated/tendermint/types/block.js";
import { rememberedTxHashes } from "../../wire/hashes.js";
import { deliverTxSpans, type ResultSpans } from "../deliver-tx-bytes.js";
import { StoreError } from "../errors.js";

export interface IndexedTx {
  tx: Uint8Array;
  /** sha256(tx); computed when absent. */
  hash?: Uint8Array;
  result: ResponseDeliverTx;
  /** ResponseDeliverTx.encode(result); taken from the input's resultSpans, or encoded, when absent. */
  resultBytes?: Uint8Array;
}

export interface HeightIndexInput {
  height: bigint;
  /** The block's txs with their DeliverTx results, in block order (index = position). */
  txs: readonly IndexedTx[];
  beginBlockEvents: readonly Event[];
  endBlockEvents: readonly Event[];
  /** Where each tx's ResponseDeliverTx bytes are (by index in `txs`), for txs without resultBytes. */
  resultSpans?: ResultSpans;
  /**
   * The same txs by column, read by the kv indexer instead of `txs` when given (heightIndexInputFrom
   * gives them, and makes `txs` only if another reader asks): an IndexedTx per tx lived from Commit
   * until the height was indexed, through the young generation's collections of that second.
   */
  columns?: IndexedTxColumns;
}

/** A height's txs by column, by index in the block: each tx, its DeliverTx result, its hash if known. */
export interface IndexedTxColumns {
  readonly txs: readonly Uint8Array[];
  readonly results: readonly ResponseDeliverTx[];
  /** sha256 of each tx, when known (the block's remembered hashes); computed when absent. */
  readonly hashes?: readonly (Uint8Array | undefined)[];
  /** Each result's bytes, when given with the tx (IndexedTx.resultBytes). */
  readonly resultBytes?: readonly (Uint8Array | undefined)[];
}

export function heightIndexInputFrom(block: Block, responses: ABCIResponses): HeightIndexInput {
  const height = block.header.height;
  const txs = block.data.txs;
  if (responses.deliverTxs.length !== txs.length) {
    throw new StoreError(
      "STORE_INCONSISTENT",
      `height ${height}: block has ${txs.length} txs but ABCI responses hold ${responses.deliverTxs.length} results`,
    );
  }
  // The results' bytes as the ABCI responses record was saved from (encoded once per height).
  const resultSpans = deliverTxSpans(responses.deliverTxs);
  // The hashes the block's data hash was computed from, when this block object was made or
  // checked here; otherwise (start-up repair) none: the indexer computes them a slice at a time,
  // off one long synchronous run.
  const hashes = rememberedTxHashes(txs);
  const columns: IndexedTxColumns = { txs, results: responses.deliverTxs, hashes };
  let indexed: IndexedTx[] | undefined;
  return {
    height,
    get txs() {
      indexed ??= txs.map((tx, i) => ({ tx, hash: hashes?.[i], result: responses.deliverTxs[i]! }));
      return indexed;
    },
    beginBlockEvents: responses.beginBlock?.events ?? [],
    endBlockEvents: responses.endBlock?.events ?? [],
    resultSpans,
    columns,
  };
}
