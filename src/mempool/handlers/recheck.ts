// Recheck answers: a tx the application now refuses leaves the pool at once, so a reap never
// returns a tx known to have failed. Answers of an earlier recheck (another generation: a block or
// a flush came since) change nothing; so does an answer for a tx not in the pool.
import { cacheRemove } from "../cache.js";
import type { MempoolEffect } from "../effect.js";
import type { RecheckCompleted, RechecksCompleted } from "../input.js";
import type { MempoolState } from "../state.js";
import type { MempoolTransition } from "../transition.js";
import { noticeTxsAvailable } from "./txs-available.js";

export function onRecheckCompleted(state: MempoolState, input: RecheckCompleted): MempoolTransition {
  const { recheck } = state;
  const pending = state.txs.get(input.hash);
  if (input.generation !== recheck.generation || recheck.pending === 0 || pending === undefined)
    return { state, effects: [] };
  const effects: MempoolEffect[] = [];
  let next: MempoolState = { ...state, recheck: { ...recheck, pending: recheck.pending - 1 } };
  if (input.code !== 0) {
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
  if (input.generation !== state.recheck.generation) return { state, effects: [] };
  const refused: string[] = [];
  let { txsBytes, cache } = state;
  let answered = 0;
  const txs = state.txs.withMutations((pool) => {
    for (const { hash, code } of input.results) {
      if (answered === state.recheck.pending) break;
      const pending = pool.get(hash);
      if (pending === undefined) continue;
      answered++;
      if (code !== 0) {
        pool.delete(hash);
        txsBytes -= pending.tx.length;
        if (!state.config.keepInvalidTxsInCache) cache = cacheRemove(cache, hash);
        refused.push(hash);
      }
    }
  });
  const effects: MempoolEffect[] = [];
  if (refused.length > 0) effects.push({ type: "TxsEvicted", reason: "recheck-failed", hashes: refused });
  const recheck = { ...state.recheck, pending: state.recheck.pending - answered };
  return noticeTxsAvailable({ ...state, recheck, txs, txsBytes, cache }, effects);
}
