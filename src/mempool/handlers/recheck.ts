// Recheck answers: a tx the application now refuses leaves the pool at once, so a reap never
// returns a tx known to have failed.
import { cacheRemove } from "../cache.js";
import type { MempoolEffect } from "../effect.js";
import type { RecheckCompleted, RechecksCompleted } from "../input.js";
import type { MempoolState } from "../state.js";
import type { MempoolTransition } from "../transition.js";
import { noticeTxsAvailable } from "./txs-available.js";

export function onRecheckCompleted(state: MempoolState, input: RecheckCompleted): MempoolTransition {
  // An answer for a recheck of an earlier height, or for a tx already gone, changes nothing.
  if (!state.rechecking.has(input.hash)) return { state, effects: [] };
  const rechecking = state.rechecking.delete(input.hash);
  const effects: MempoolEffect[] = [];
  let next: MempoolState = { ...state, rechecking };
  const pending = state.txs.get(input.hash);
  if (input.code !== 0 && pending) {
    next = {
      ...next,
      txs: state.txs.delete(input.hash),
      txsBytes: state.txsBytes - pending.tx.length,
      cache: state.config.keepInvalidTxsInCache ? state.cache : cacheRemove(state.cache, input.hash),
    };
    effects.push({ type: "TxsEvicted", reason: "recheck-failed", hashes: [input.hash] });
  }
  return noticeTxsAvailable(next, effects);
}

/** A window of recheck answers in one fold: the same outcome as folding each answer in turn. */
export function onRechecksCompleted(state: MempoolState, input: RechecksCompleted): MempoolTransition {
  const refused: string[] = [];
  let { txs, txsBytes, cache } = state;
  const rechecking = state.rechecking.withMutations((running) => {
    txs = txs.withMutations((pool) => {
      for (const { hash, code } of input.results) {
        if (!running.has(hash)) continue;
        running.delete(hash);
        const pending = code !== 0 ? pool.get(hash) : undefined;
        if (pending) {
          pool.delete(hash);
          txsBytes -= pending.tx.length;
          if (!state.config.keepInvalidTxsInCache) cache = cacheRemove(cache, hash);
          refused.push(hash);
        }
      }
    });
  });
  const effects: MempoolEffect[] = [];
  if (refused.length > 0) effects.push({ type: "TxsEvicted", reason: "recheck-failed", hashes: refused });
  return noticeTxsAvailable({ ...state, rechecking, txs, txsBytes, cache }, effects);
}
