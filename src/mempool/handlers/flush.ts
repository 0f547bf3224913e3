// `unsafe_flush_mempool`: drop every pending tx and forget the cache, as Tendermint does.
import type { MempoolFlushed } from "../input.js";
import type { MempoolState } from "../state.js";
import type { MempoolTransition } from "../transition.js";

export function onMempoolFlushed(state: MempoolState, _input: MempoolFlushed): MempoolTransition {
  const hashes = state.txs.keySeq().toArray();
  return {
    state: {
      ...state,
      txs: state.txs.clear(),
      txsBytes: 0,
      cache: state.cache.clear(),
      recheck: { generation: state.recheck.generation + 1, pending: 0 },
    },
    effects: hashes.length ? [{ type: "TxsEvicted", reason: "flushed", hashes }] : [],
  };
}
