// A recorded consensus log held in memory as a timeline the replay console moves along: position
// p is "the first p inputs folded". States are never guessed: any position's state is recomputed
// by folding the log from the nearest snapshot before it (one every `snapshotEvery` inputs),
// through the traced reducer and the node's restart rule (restart-fold.ts), so stepping back is as
// exact as stepping forward and costs at most `snapshotEvery` folds.

import { createDefaultConsensusRules } from "../../src/consensus/default-rules.js";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { consensusRecordCheck } from "../../src/consensus/log-record-schema.js";
import type { RuleId } from "../../src/consensus/paper-lines.js";
import { type ConsensusReducer, createConsensusReducer } from "../../src/consensus/reducer.js";
import type { ConsensusState } from "../../src/consensus/state.js";
import { readWal } from "../../src/wal/log-reader.js";
import { foldRestart } from "../restart-fold.js";

/** One folded input, as the console shows it. */
export interface TimelineStep {
  /** 1-based: the step that brings the timeline from position index-1 to position index. */
  index: number;
  input: ConsensusInput;
  before: ConsensusState;
  after: ConsensusState;
  effects: readonly ConsensusEffect[];
  fired: readonly RuleId[];
  /** For a ConsensusStarted: how many earlier inputs of the height the restart folded again. */
  refolded: number;
}

export const DEFAULT_SNAPSHOT_EVERY = 64;

export class ReplayTimeline {
  /** Height and round after each position (index = position), for moves by height and round. */
  readonly heights: Float64Array;
  readonly rounds: Int32Array;
  private readonly snapshots: ConsensusState[] = [];
  private readonly reducer: ConsensusReducer;
  /** The last state computed, so walking forward folds one input, not a refold from a snapshot. */
  private last: { p: number; state: ConsensusState } | undefined;

  /**
   * `inputs`: the log's inputs in order; `segmentStarts[j]`: the index of the first input after the
   * last end-of-height marker before input j (what a restart at j re-folds).
   */
  constructor(
    readonly inputs: readonly ConsensusInput[],
    private readonly segmentStarts: Int32Array,
    readonly initial: ConsensusState,
    readonly snapshotEvery = DEFAULT_SNAPSHOT_EVERY,
  ) {
    this.reducer = createConsensusReducer(createDefaultConsensusRules(), { trace: true });
    this.heights = new Float64Array(inputs.length + 1);
    this.rounds = new Int32Array(inputs.length + 1);
    let state = initial;
    this.snapshots.push(state);
    this.note(0, state);
    for (let j = 0; j < inputs.length; j++) {
      state = this.fold(state, j).after;
      this.note(j + 1, state);
      if ((j + 1) % snapshotEvery === 0) this.snapshots.push(state);
    }
  }

  get length(): number {
    return this.inputs.length;
  }

  /** The state at position p (0 = before the first input). */
  stateAt(p: number): ConsensusState {
    const k = Math.floor(p / this.snapshotEvery);
    let from = k * this.snapshotEvery;
    let state = this.snapshots[k]!;
    if (this.last !== undefined && this.last.p <= p && this.last.p >= from) {
      from = this.last.p;
      state = this.last.state;
    }
    for (let j = from; j < p; j++) state = this.fold(state, j).after;
    this.last = { p, state };
    return state;
  }

  /** The step that reaches position p (1..length). */
  stepTo(p: number): TimelineStep {
    return this.stepFrom(this.stateAt(p - 1), p);
  }

  /** The step that reaches position p, given the state at p − 1 (walking forward without snapshots). */
  stepFrom(before: ConsensusState, p: number): TimelineStep {
    return { index: p, ...this.fold(before, p - 1) };
  }

  /** Input j folded onto `state` (its restart rule included). */
  private fold(state: ConsensusState, j: number): Omit<TimelineStep, "index"> {
    const input = this.inputs[j]!;
    if (input.type === "ConsensusStarted") {
      const earlier = this.inputs.slice(this.segmentStarts[j]!, j);
      let first: { effects: readonly ConsensusEffect[] } | undefined;
      let refolded = 0;
      const after = foldRestart(this.reducer, this.initial, input, earlier, (s) => {
        if (s.refolded) refolded++;
        else first = s;
      });
      // The restart's own fired rules are those of folding ConsensusStarted from the initial state.
      const t = this.reducer(this.initial, input);
      return { input, before: state, after, effects: first?.effects ?? [], fired: t.fired ?? [], refolded };
    }
    const t = this.reducer(state, input);
    return { input, before: state, after: t.state, effects: t.effects, fired: t.fired ?? [], refolded: 0 };
  }

  private note(p: number, s: ConsensusState): void {
    this.heights[p] = Number(s.height);
    this.rounds[p] = s.round;
  }
}

/** Reads a log directory (a home's data/cs.wal/, or a simulation validator's v<i>/). */
export async function readTimelineInputs(
  walDir: string,
): Promise<{ inputs: ConsensusInput[]; segmentStarts: Int32Array; tornTail: string | undefined }> {
  const inputs: ConsensusInput[] = [];
  const starts: number[] = [];
  let segmentStart = 0;
  let tornTail: string | undefined;
  for await (const entry of readWal(walDir, {
    checkRecord: consensusRecordCheck,
    onTornTail: (t) => {
      tornTail = `${t.file} offset ${t.offset} (${t.fault})`;
    },
  })) {
    if (entry.kind === "end-height") {
      segmentStart = inputs.length;
      continue;
    }
    starts.push(segmentStart);
    inputs.push(entry.input);
  }
  return { inputs, segmentStarts: Int32Array.from(starts), tornTail };
}
