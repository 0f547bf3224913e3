// The "txs available" notice: at most once per height, when the pool holds txs.
import type { MempoolEffect } from "../effect.js";
import type { MempoolState } from "../state.js";
import type { MempoolTransition } from "../transition.js";

export function noticeTxsAvailable(state: MempoolState, effects: MempoolEffect[]): MempoolTransition {
  // While a recheck is running, the remaining txs may still be dropped: wait for it to finish.
  if (state.notifiedTxsAvailable || state.txs.size === 0 || state.recheck.pending > 0)
    return { state, effects };
  return {
    state: { ...state, notifiedTxsAvailable: true },
    effects: [...effects, { type: "TxsAvailable", height: state.height + 1n }],
  };
}
