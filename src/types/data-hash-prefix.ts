// A proposal's data hash and Data bytes made ahead over the pool's txs as they stand, and finished
// at the reap over the few txs admitted since. The proposer's reap (streams/effects/reaping.ts) is
// on the height's critical path: under load, the tree over ~7,000 txs and their Data encoding were
// ~35 ms of the proposer's work between the NewHeight timeout and its proposal, paid in pieces that
// each waited a loaded turn of the event loop (~100 ms p50 in all, docs/network.md). The pool keeps
// arrival order and a block reaps its oldest txs, so the txs reaped at NewHeight are, in the usual
// case, the txs of the pool a moment earlier followed by the ones admitted since: every aligned run
// of leaves of the earlier prefix is a node of the final tree (wire/merkle-incremental.ts), and a
// repeated field's encoding is its items' encodings one after another.
//
// Nothing is assumed: the prefix is used only when the reaped array starts with the very tx objects
// hashed ahead (compared one by one); otherwise the caller hashes as before. The root and the bytes
// are the ones dataHash and Data.encode give for the reaped txs, so blocks, replay and the
// simulation (which makes nothing ahead) are unchanged.

import { putTxDigests, rememberDataHashAhead, type TxDigests } from "../wire/hashes.js";
import { IncrementalMerkleRoot } from "../wire/merkle-incremental.js";
import {
  field1ItemsInPieces,
  taggedItemsLength,
  writeField1ItemsInPieces,
} from "../wire/repeated-bytes-in-pieces.js";
import { BLOCK_DATA_PIECE, dataWithRoom, rememberBlockDataBytes } from "./block-data-ahead.js";

/** One pool tx as the reap gives it: its bytes and the digests its admission made. */
export interface PooledTx {
  readonly tx: Uint8Array;
  readonly digests: TxDigests | undefined;
}

const noPause = async (): Promise<void> => {};

/**
 * Txs hashed into the tree between two looks at the pause (a job's budget of work, reaping.ts): at
 * 2,048 (the data hash's own piece, AHEAD_PIECE) a piece ran the budget's 4 ms plus up to 2,048
 * txs' tree pushes, 5–15 ms more under load, among the reap's turns over 20 ms (docs/storage.md,
 * twenty-fourth and twenty-fifth passes). A look is a clock read when the budget is not spent.
 */
export const PREFIX_HASH_PIECE = 256;

/** Bytes of the prefix's Data copied between two pauses (about a piece of txs). */
const PREFIX_COPY_SLICE = 256 * 1024;

export class DataHashPrefix {
  private constructor(
    /** The txs hashed, in order: the reaped array must start with these very objects. */
    private readonly txs: readonly Uint8Array[],
    private readonly hashes: Uint8Array[],
    private readonly keys: (string | undefined)[],
    private readonly tree: IncrementalMerkleRoot,
    /** Data {txs} of the prefix: field 1 per tx. */
    private readonly dataBytes: Uint8Array,
  ) {}

  /** The prefix over `pooled`, made in pieces with `pause()` awaited between them. */
  static async of(pooled: readonly PooledTx[], pause: () => Promise<void>): Promise<DataHashPrefix> {
    const n = pooled.length;
    const txs: Uint8Array[] = new Array(n);
    const hashes: Uint8Array[] = new Array(n);
    const leaves: Uint8Array[] = new Array(n);
    const keys: (string | undefined)[] = new Array(n);
    const tree = new IncrementalMerkleRoot();
    for (let i = 0; i < n; i++) {
      const { tx, digests } = pooled[i]!;
      txs[i] = tx;
      keys[i] = putTxDigests(hashes, leaves, i, tx, digests);
      tree.push(leaves[i]!);
      if ((i + 1) % PREFIX_HASH_PIECE === 0) await pause();
    }
    const dataBytes = await field1ItemsInPieces(txs, pause, BLOCK_DATA_PIECE);
    return new DataHashPrefix(txs, hashes, keys, tree, dataBytes);
  }

  /** Txs hashed ahead. */
  get length(): number {
    return this.txs.length;
  }

  /**
   * When `reaped` starts with this prefix's very txs: the rest's digests are added, and the data
   * hash and Data bytes of `txs` (reaped's txs, the array the proposal will hold) are remembered
   * for it, as dataHashAhead and blockDataBytesAhead would; answers true. Otherwise nothing is
   * remembered and it answers false. A prefix is finished once (its tree moves on): a second call
   * answers false. The txs admitted since are hashed and encoded in pieces, with a pause of a job
   * from `pauses` between them (PREFIX_HASH_PIECE), as the reap's hashing is:
   * on one validator at ~17k tx/s they are ~4,000 txs, and done in one run they held the event loop long enough to take `broadcast_tx_async`'s p99 from ~38 to
   * ~60 ms (docs/network.md, "Our proposal's hashing ahead").
   */
  async finish(
    reaped: readonly PooledTx[],
    txs: readonly Uint8Array[],
    pauses: () => () => Promise<void> = () => noPause,
  ): Promise<boolean> {
    const m = this.txs.length;
    const n = txs.length;
    if (this.finished || m === 0 || n < m || reaped.length !== n) return false;
    for (let i = 0; i < m; i++) if (txs[i] !== this.txs[i] || reaped[i]!.tx !== txs[i]) return false;
    this.finished = true;
    // A pause job only for a rest longer than one piece: a short one is a single run of work.
    const pause = n - m > PREFIX_HASH_PIECE ? pauses() : noPause;
    const hashes = this.hashes.slice();
    const keys = this.keys.slice();
    const leaves: Uint8Array[] = new Array(n);
    for (let i = m; i < n; i++) {
      keys[i] = putTxDigests(hashes, leaves, i, txs[i]!, reaped[i]!.digests);
      this.tree.push(leaves[i]!);
      if ((i - m + 1) % PREFIX_HASH_PIECE === 0) await pause();
    }
    rememberDataHashAhead(txs, hashes, this.tree.root(), keys);
    // The whole Data in one array with room for the block around it (block-data-ahead.ts): the
    // prefix's bytes copied a slice between two pauses, since the copy's first touch of fresh
    // memory is what costs (~3 ms a MB here), then the rest's encoded after them.
    const prefixBytes = this.dataBytes;
    const bytes = dataWithRoom(prefixBytes.length + taggedItemsLength(txs, m, n));
    let copyPause: (() => Promise<void>) | undefined;
    for (let at = 0; at < prefixBytes.length; at += PREFIX_COPY_SLICE) {
      if (at > 0) {
        copyPause ??= pause === noPause ? pauses() : pause;
        await copyPause();
      }
      bytes.set(prefixBytes.subarray(at, Math.min(prefixBytes.length, at + PREFIX_COPY_SLICE)), at);
    }
    await writeField1ItemsInPieces(txs, m, n, bytes, prefixBytes.length, pause, BLOCK_DATA_PIECE);
    rememberBlockDataBytes(txs, bytes);
    return true;
  }

  private finished = false;
}
