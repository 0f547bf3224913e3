// `rxbft node --trace`: each rule of Algorithm 1 the consensus reducer fires is logged at debug
// level (consensus module) with its paper line. The reducer stays pure: it only lists the rules it
// fired (a traced reducer, src/consensus/reducer.ts); this wrapper, outside it, writes the log.

import { PAPER_LINES } from "../src/consensus/paper-lines.js";
import type { ConsensusReducer } from "../src/consensus/reducer.js";
import type { Logger } from "../src/logger/index.js";

export function logFiredRules(reducer: ConsensusReducer, log: Logger): ConsensusReducer {
  if (!log.isEnabled("debug")) return reducer;
  return (state, input) => {
    const t = reducer(state, input);
    for (const rule of t.fired ?? []) {
      log.debug(`upon-rule ${rule}`, {
        height: t.state.height,
        round: t.state.round,
        input: input.type,
        paper: PAPER_LINES[rule],
      });
    }
    return t;
  };
}
