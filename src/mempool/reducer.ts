// The mempool reducer: (state, input) → {state, effects}. Pure: no clock, no I/O.
import {
  onCheckTxCompleted,
  onCheckTxsCompleted,
  onTxSubmitted,
  onTxsSubmitted,
} from "./handlers/admission.js";
import { onBlockCommitted, onBlockTxsCommitted } from "./handlers/block-committed.js";
import { onMempoolFlushed } from "./handlers/flush.js";
import { onRecheckCompleted, onRechecksCompleted } from "./handlers/recheck.js";
import type { MempoolInput } from "./input.js";
import type { MempoolState } from "./state.js";
import type { MempoolTransition } from "./transition.js";

export type { MempoolTransition } from "./transition.js";

export function mempoolReducer(state: MempoolState, input: MempoolInput): MempoolTransition {
  switch (input.type) {
    case "TxSubmitted":
      return onTxSubmitted(state, input);
    case "TxsSubmitted":
      return onTxsSubmitted(state, input);
    case "CheckTxCompleted":
      return onCheckTxCompleted(state, input);
    case "CheckTxsCompleted":
      return onCheckTxsCompleted(state, input);
    case "BlockTxsCommitted":
      return onBlockTxsCommitted(state, input);
    case "BlockCommitted":
      return onBlockCommitted(state, input);
    case "RecheckCompleted":
      return onRecheckCompleted(state, input);
    case "RechecksCompleted":
      return onRechecksCompleted(state, input);
    case "MempoolFlushed":
      return onMempoolFlushed(state, input);
  }
}
