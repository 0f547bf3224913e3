// Boot step 5: consensus restarts from the log (restart-fold.ts). The new ConsensusStarted is
// logged first, then the unfinished height's earlier inputs are folded again (not logged again),
// and only their unanswered requests are carried out once the loop runs. A throw while re-folding
// is a broken invariant of our own (the log holds only our inputs): the start stops, naming the
// input.
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput, ConsensusStarted } from "../../src/consensus/input.js";
import type { ConsensusReducer } from "../../src/consensus/reducer.js";
import type { ConsensusState } from "../../src/consensus/state.js";
import type { Logger } from "../../src/logger/index.js";
import { describeMessage } from "../loop.js";
import { NodeError } from "../node-errors.js";
import { type FoldStep, foldRestart, outstandingEffects } from "../restart-fold.js";

export interface RestoredConsensus {
  state: ConsensusState;
  /** Requests of the restored height still unanswered, and the latest timeout. */
  pending: ConsensusEffect[];
}

export function restoreConsensus(args: {
  reducer: ConsensusReducer;
  initial: ConsensusState;
  started: ConsensusStarted;
  earlier: readonly ConsensusInput[];
  onStep?: (step: FoldStep) => void;
  log: Logger;
}): RestoredConsensus {
  const steps: FoldStep[] = [];
  let refolding: ConsensusInput = args.started;
  const tracked: ConsensusReducer = (state, input) => {
    refolding = input;
    return args.reducer(state, input);
  };
  let state: ConsensusState;
  try {
    state = foldRestart(tracked, args.initial, args.started, args.earlier, (step) => {
      steps.push(step);
      args.onStep?.(step);
    });
  } catch (error) {
    throw new NodeError(
      "NODE_HALTED",
      `consensus cannot restart: the reducer threw re-folding ${describeMessage(refolding)} from the consensus log: ${(error as Error).message}`,
      undefined,
      { cause: error },
    );
  }
  const pending = outstandingEffects(steps);
  if (args.earlier.length > 0)
    args.log.info("replayed the unfinished height from the consensus log", {
      height: state.height,
      round: state.round,
      inputs: steps.length - 1,
      outstanding: pending.map((e) => e.type).join(",") || "none",
    });
  return { state, pending };
}
