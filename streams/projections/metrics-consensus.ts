// The consensus metrics as a projection of the consensus loop: a tap on every fold (input, state
// before and after, effects) sets v0.34's gauges and counters. Nothing here runs inside the
// reducer; time comes from the inputs' log stamps, so a replayed log would give the same figures.
import type { Observable, Subscription } from "rxjs";
import type { CommitBlock, ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { type RoundStep, roundStepName } from "../../src/consensus/round-step.js";
import type { ConsensusState } from "../../src/consensus/state.js";
import { commitFigures, prevoteDelays, timeMs } from "../../src/metrics/commit-figures.js";
import type { NodeMetrics } from "../../src/metrics/node-metrics.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import { consensusInputSource } from "./metrics-input-source.js";

export interface ConsensusFold {
  input: ConsensusInput;
  before: ConsensusState;
  state: ConsensusState;
  effects: readonly ConsensusEffect[];
}

export interface ConsensusMetricsDeps {
  metrics: NodeMetrics;
  /** The header time of a committed block (for the first interval after a start). */
  blockTimeAt(height: bigint): Promise<Timestamp | undefined>;
  /** Monotonic milliseconds (block processing time is wall time, not log time). */
  now(): number;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();
const stepLabel = (step: RoundStep) => roundStepName(step).slice("RoundStep".length);

export function projectConsensusMetrics(
  fold$: Observable<ConsensusFold>,
  deps: ConsensusMetricsDeps,
): Subscription {
  const m = deps.metrics.consensus;
  const folded = deps.metrics.rxbft.inputsFolded;
  const processing = deps.metrics.state.blockProcessingTime;
  const inputCounters = new Map<string, { inc(): void }>();
  let stepStartMs: number | undefined;
  let lastBlockTime: { height: bigint; ms: number } | undefined;
  const executing = new Map<bigint, number>();
  m.fastSyncing.set(0);
  m.stateSyncing.set(0);

  const observeInterval = (height: bigint, ms: number) => {
    const previous = lastBlockTime;
    lastBlockTime = { height, ms };
    if (height <= 1n) return;
    if (previous?.height === height - 1n) {
      m.blockIntervalSeconds.observe((ms - previous.ms) / 1000);
      return;
    }
    void deps.blockTimeAt(height - 1n).then(
      (t) => {
        if (t) m.blockIntervalSeconds.observe((ms - timeMs(t)) / 1000);
      },
      () => {},
    );
  };

  const onCommit = (e: CommitBlock, s: ConsensusState) => {
    executing.set(e.height, deps.now());
    const f = commitFigures(e.block, {
      validators: s.chain.validators?.validators ?? [],
      lastValidators: s.chain.lastValidators?.validators ?? [],
      initialHeight: s.chain.initialHeight,
      ownAddress: s.ownAddress,
    });
    m.validators.set(f.validators);
    m.validatorsPower.set(Number(f.validatorsPower));
    m.missingValidators.set(f.missingValidators);
    m.missingValidatorsPower.set(Number(f.missingValidatorsPower));
    m.byzantineValidators.set(f.byzantineValidators);
    m.byzantineValidatorsPower.set(Number(f.byzantineValidatorsPower));
    if (f.own) {
      const label = { validator_address: f.own.address };
      m.validatorPower.set(label, Number(f.own.power));
      if (f.own.signed) m.validatorLastSignedHeight.set(label, Number(f.height));
      else m.validatorMissedBlocks.inc(label);
    }
    observeInterval(e.height, timeMs(e.block.header.time!));
    m.numTxs.set(f.numTxs);
    m.totalTxs.inc(f.numTxs);
    m.blockSizeBytes.set(f.blockSizeBytes);
    m.committedHeight.set(Number(e.height));
    // Prevote delays of the deciding round (v0.34: at finalizeCommit, with the proposal we hold).
    const round = s.votes.rounds[e.round];
    if (s.proposal?.timestamp && round && s.proposer) {
      const d = prevoteDelays(
        timeMs(s.proposal.timestamp),
        round.prevotes.votes,
        s.votes.weights.powers,
        s.votes.weights.totalPower,
      );
      const label = { proposer_address: hex(s.proposer.address) };
      if (d.quorum !== undefined) m.quorumPrevoteMessageDelay.set(label, d.quorum);
      if (d.full !== undefined) m.fullPrevoteMessageDelay.set(label, d.full);
    }
  };

  const onFold = ({ input, before, state, effects }: ConsensusFold) => {
    const source = consensusInputSource(input);
    const key = `${source}/${input.type}`;
    let counter = inputCounters.get(key);
    if (counter === undefined) {
      counter = folded.labels({ machine: "consensus", source, input: input.type });
      inputCounters.set(key, counter);
    }
    counter.inc();
    if (!state.started) return;
    const at = timeMs(input.time);
    if (input.type === "ConsensusStarted") {
      const vals = state.chain.validators?.validators ?? [];
      m.validators.set(vals.length);
      m.validatorsPower.set(Number(vals.reduce((sum, v) => sum + v.votingPower, 0n)));
      const own = state.ownAddress && vals.find((v) => Buffer.from(v.address).equals(state.ownAddress!));
      if (own) m.validatorPower.set({ validator_address: hex(own.address) }, Number(own.votingPower));
      m.committedHeight.set(Number(state.height - 1n));
    }
    if (state.height !== before.height) m.height.set(Number(state.height));
    if (state.round !== before.round || state.height !== before.height) m.rounds.set(state.round);
    if (state.step !== before.step || state.round !== before.round || state.height !== before.height) {
      if (stepStartMs !== undefined && before.started) {
        m.stepDurationSeconds.observe({ step: stepLabel(before.step) }, Math.max(0, at - stepStartMs) / 1000);
      }
      stepStartMs = at;
    }
    if (input.type === "BlockPartReceived") {
      if (input.from) m.blockParts.inc({ peer_id: input.from });
      if (input.height === before.height) {
        const held = state.proposalParts;
        const matches =
          held !== undefined &&
          before.proposalParts !== undefined &&
          held.parts[input.part.index] !== undefined;
        m.blockGossipPartsReceived.inc({ matches_current: matches ? "true" : "false" });
      }
    }
    if (input.type === "BlockExecuted") {
      const started = executing.get(input.height);
      if (started !== undefined) {
        executing.delete(input.height);
        processing.observe(deps.now() - started);
      }
    }
    for (const e of effects) if (e.type === "CommitBlock") onCommit(e, state);
  };

  return fold$.subscribe(onFold);
}
