// Folds a home's consensus log through the consensus reducer without network, signer or app
// (`rxbft replay`): every input the node folded, in order, with the restart rule of
// restart-fold.ts at each ConsensusStarted. Reports each height's outcome as it is decided.

import { createDefaultConsensusRules } from "../src/consensus/default-rules.js";
import type { CommitBlock } from "../src/consensus/effect.js";
import type { ConsensusInput } from "../src/consensus/input.js";
import { consensusRecordCheck } from "../src/consensus/log-record-schema.js";
import { createConsensusReducer } from "../src/consensus/reducer.js";
import type { ConsensusState } from "../src/consensus/state.js";
import { readWal } from "../src/wal/log-reader.js";
import type { EventBus } from "./projections/event-bus.js";
import { type ExecutedBlockResults, ExecutedBlocks, publishFoldEvents } from "./projections/node-events.js";
import { type FoldStep, foldRestart } from "./restart-fold.js";

export interface HeightOutcome {
  height: bigint;
  round: number;
  blockHash: Uint8Array;
  txs: number;
  /** Inputs logged for this height (after the previous end-of-height marker, up to the decision). */
  inputs: number;
}

export interface ReplaySummary {
  inputs: number;
  heights: number;
  /** ConsensusStarted records: the first start and every restart. */
  starts: number;
  endMarkers: number;
  /** Where the log ended in a torn record (read-only: nothing changed on disk). */
  tornTail: string | undefined;
  finalState: ConsensusState;
}

/** What a replay needs to re-emit the node's events (`rxbft replay --events`). */
export interface ReplayEvents {
  bus: EventBus;
  /** A committed block and the app's answers to it, from the stores. */
  results(height: bigint): Promise<ExecutedBlockResults | undefined>;
}

export interface ReplayLogOptions {
  /** The reducer's state before the first input (initialConsensusState with the node's config). */
  initial: ConsensusState;
  onStep?(step: FoldStep): void;
  onHeight?(outcome: HeightOutcome): void;
  /** Publish each fold's events as the live node did (projections/node-events.ts). */
  events?: ReplayEvents;
}

export async function replayLog(walDir: string, options: ReplayLogOptions): Promise<ReplaySummary> {
  const reducer = createConsensusReducer(createDefaultConsensusRules());
  let state = options.initial;
  let segment: ConsensusInput[] = [];
  let inputsOfHeight = 0;
  const summary = {
    inputs: 0,
    heights: 0,
    starts: 0,
    endMarkers: 0,
    tornTail: undefined as string | undefined,
  };
  const seen = (step: FoldStep) => {
    options.onStep?.(step);
    if (step.refolded) return;
    for (const effect of step.effects) {
      if (effect.type !== "CommitBlock") continue;
      const e = effect as CommitBlock;
      summary.heights++;
      options.onHeight?.({
        height: e.height,
        round: e.round,
        blockHash: e.blockId.hash,
        txs: e.block.data.txs.length,
        inputs: inputsOfHeight,
      });
    }
  };
  for await (const entry of readWal(walDir, {
    checkRecord: consensusRecordCheck,
    onTornTail: (t) => {
      summary.tornTail = `${t.file} offset ${t.offset} (${t.fault})`;
    },
  })) {
    if (entry.kind === "end-height") {
      summary.endMarkers++;
      segment = [];
      inputsOfHeight = 0;
      continue;
    }
    const input = entry.input;
    summary.inputs++;
    inputsOfHeight++;
    if (input.type === "ConsensusStarted") {
      summary.starts++;
      state = foldRestart(reducer, options.initial, input, segment, seen);
    } else {
      // The block's results are read before the fold, so its events are published in it.
      const executed = new ExecutedBlocks();
      if (options.events && input.type === "BlockExecuted") {
        const results = await options.events.results(input.height);
        if (results) executed.put(input.height, results);
      }
      const t = reducer(state, input);
      state = t.state;
      seen({ input, state, effects: t.effects, refolded: false });
      // As live, a restart fold above publishes nothing: its events were published before it.
      if (options.events) publishFoldEvents(options.events.bus, { input, effects: t.effects }, executed);
    }
    segment.push(input);
  }
  return { ...summary, finalState: state };
}
