// After a block: committed txs leave the pool, the cache learns their outcome (a large block's
// a piece at a time, BlockTxsCommitted, then the rest with BlockCommitted), expired txs are
// dropped, and the rest are rechecked against the new application state.
import { cacheRemove, type TxCacheDraft } from "../cache.js";
import type { MempoolEffect } from "../effect.js";
import type { BlockCommitted, BlockTxsCommitted } from "../input.js";
import type { MempoolState } from "../state.js";
import type { MempoolTransition } from "../transition.js";
import { noticeTxsAvailable } from "./txs-available.js";

/** The pool, running checks, cache and bytes once `hashes` left with a block; the ones that were pooled. */
function withoutCommitted(
  state: MempoolState,
  hashes: readonly string[],
  deliverTxCodes: readonly number[],
): Pick<MempoolState, "txs" | "cache" | "checking" | "txsBytes"> & { left: string[] } {
  const { config } = state;
  let { txsBytes } = state;
  // One transient copy of the pool and the running checks for the whole block (withMutations),
  // not one per tx: the state passed in is never changed.
  let txs = state.txs;
  let cache = state.cache;
  let checking = state.checking;
  const left: string[] = [];
  if (hashes.length > 0) {
    txs = txs.withMutations((pool) => {
      for (const hash of hashes) {
        const pending = pool.take(hash);
        if (pending) {
          txsBytes -= pending.tx.length;
          left.push(hash);
        }
      }
    });
    if (checking.size > 0) {
      // A CheckTx still running for a tx that is now committed must not add it afterwards.
      // Walks the few checks in flight against the block's hashes (a JS Set: V8 keeps a string's
      // hash), not one persistent-map lookup per committed tx.
      const inBlock = new Set(hashes);
      const before = checking;
      checking = checking.withMutations((running) => {
        for (const [hash, tx] of before) if (inBlock.has(hash)) running.set(hash, { ...tx, committed: true });
      });
    }
    // A valid tx refreshes its cache entry, an invalid one leaves it (unless kept), in block order:
    // one transient edit of the cache for the whole block, begun at its first change (as
    // TxCache.update does), with no list of changes made per tx first.
    let draft: TxCacheDraft | undefined;
    for (let i = 0; i < hashes.length; i++) {
      const valid = (deliverTxCodes[i] ?? 0) === 0;
      if (!valid && config.keepInvalidTxsInCache) continue;
      draft ??= cache.edit();
      if (valid) draft.push(hashes[i]!, config.cacheSize);
      else draft.remove(hashes[i]!);
    }
    if (draft !== undefined) cache = draft.done();
  }
  return { txs, cache, checking, txsBytes, left };
}

/** A piece of the block's txs leaves ahead of BlockCommitted; nothing else changes. */
export function onBlockTxsCommitted(state: MempoolState, input: BlockTxsCommitted): MempoolTransition {
  // The pool's log is rebuilt once the block has left (BlockCommitted), over the txs still pending
  // then, not in the piece where its dead entries first outnumber the live ones (versioned-map.ts).
  const held = { ...state, txs: state.txs.holdingRebuild(true) };
  const { left, ...rest } = withoutCommitted(held, input.txHashes, input.deliverTxCodes);
  const effects: MempoolEffect[] = left.length > 0 ? [{ type: "StopGossipingTxs", hashes: left }] : [];
  return { state: { ...state, ...rest }, effects };
}

export function onBlockCommitted(state: MempoolState, input: BlockCommitted): MempoolTransition {
  const { config } = state;
  const removed = withoutCommitted(state, input.txHashes, input.deliverTxCodes);
  let { cache, checking, txsBytes } = removed;
  const { left } = removed;
  // The rebuild held by the block's earlier pieces (onBlockTxsCommitted), if its log is over the bound.
  let txs = removed.txs.holdingRebuild(false);

  const expired: string[] = [];
  if (config.ttlNumBlocks > 0 || config.ttlDurationMs > 0) {
    for (const entry of txs.values()) {
      const tooOld =
        (config.ttlNumBlocks > 0 && input.height - entry.height > BigInt(config.ttlNumBlocks)) ||
        (config.ttlDurationMs > 0 && input.time - entry.addedAtMs > config.ttlDurationMs);
      if (tooOld) expired.push(entry.hash);
    }
    for (const hash of expired) {
      txsBytes -= txs.get(hash)?.tx.length ?? 0;
      txs = txs.delete(hash);
      cache = cacheRemove(cache, hash);
    }
  }

  const effects: MempoolEffect[] = [];
  if (left.length) effects.push({ type: "StopGossipingTxs", hashes: left });
  if (expired.length) effects.push({ type: "TxsEvicted", reason: "ttl-expired", hashes: expired });
  const next: MempoolState = {
    ...state,
    height: input.height,
    txs,
    txsBytes,
    cache,
    checking,
    recheck: { generation: state.recheck.generation + 1, pending: 0 },
    notifiedTxsAvailable: false,
  };
  if (config.recheck && txs.size > 0) {
    const remaining = txs.toValueArray();
    const generation = next.recheck.generation;
    return {
      state: { ...next, recheck: { generation, pending: remaining.length } },
      effects: [
        ...effects,
        {
          type: "RunRecheck",
          height: input.height,
          generation,
          // The pool's own entries (they carry hash and tx): no second copy of the pool per height.
          txs: remaining,
        },
      ],
    };
  }
  return noticeTxsAvailable(next, effects);
}
