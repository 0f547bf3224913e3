import type { MempoolEffect } from "./effect.js";
import type { MempoolState } from "./state.js";

/** The mempool reducer's answer to one input. */
export interface MempoolTransition {
  state: MempoolState;
  effects: MempoolEffect[];
}
