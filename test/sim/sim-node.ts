// One simulated validator: the real consensus reducer folded by the node's loop (streams/loop.ts
// createLoop) on the shared virtual clock, with simulated effect handlers (timeouts on the
// virtual scheduler, the signer's rules over an in-memory sign state, a mempool stand-in, block
// validation and execution in memory, the evidence pool's pure rules) and the node's source step
// (verifyConsensusInput) in front of its log. What survives a crash is what a node keeps on disk:
// its log (every stamped input, with end-of-height markers), its stored blocks and seen commits,
// the chain state and the signer's last-sign state. A restart goes through the node's restart
// rule (streams/restart-fold.ts): a new ConsensusStarted, the unfinished height's inputs folded
// again, and only their unanswered requests carried out.

import type { VirtualTimeScheduler } from "rxjs";
import { filter, map, merge, Observable, Subject, type Subscription, switchMap, timer } from "rxjs";
import { type ConsensusConfig, waitsForTxs } from "../../src/consensus/config.js";
import { createDefaultConsensusRules } from "../../src/consensus/default-rules.js";
import type {
  BroadcastBlockPart,
  BroadcastProposal,
  BroadcastVote,
  CommitBlock,
  ConsensusEffect,
  ScheduleTimeout,
} from "../../src/consensus/effect.js";
import {
  addConflictingVotes,
  EMPTY_EVIDENCE_POOL,
  type EvidenceHistory,
  type EvidencePoolState,
  pendingEvidence,
  updateEvidencePool,
} from "../../src/consensus/evidence-pool.js";
import type { ConsensusInput, ConsensusStarted } from "../../src/consensus/input.js";
import type { ConsensusReducer } from "../../src/consensus/reducer.js";
import { createConsensusReducer } from "../../src/consensus/reducer.js";
import type { ConsensusRules } from "../../src/consensus/rules.js";
import { type ConsensusState, initialConsensusState } from "../../src/consensus/state.js";
import { verifyConsensusInput } from "../../src/consensus/verify-input.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type { BlockID, Commit, Part } from "../../src/wire/generated/tendermint/types/types.js";
import { SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";
import type { Validator } from "../../src/wire/generated/tendermint/types/validator.js";
import { createLoop, type Loop } from "../../streams/loop.js";
import { type FoldStep, foldRestart, outstandingEffects } from "../../streams/restart-fold.js";
import type { Prng } from "./prng.js";
import { simBlockProblem } from "./sim-block-validation.js";
import { executeSimBlock, GENESIS_TIME, SIM_CHAIN_ID, type SimKey } from "./sim-chain.js";
import type { PeerMessage } from "./sim-network.js";
import { newSignStateStore, SimSigner } from "./sim-signer.js";
import type { MemoVerifier } from "./sim-verify.js";

/** One record of a validator's log: a stamped input, or the end-of-height marker. */
export type LogRecord = { readonly input: ConsensusInput } | { readonly endHeight: bigint };

export interface StoredBlock {
  readonly block: Block;
  readonly blockId: BlockID;
  readonly parts: readonly Part[];
  readonly seenCommit: Commit;
}

/** What the run's checker hears from a validator. */
export interface NodeObserver {
  decided(node: number, e: CommitBlock): void;
  executed(node: number, height: bigint, block: Block): void;
  halted(node: number, reason: string): void;
  rejected(node: number, from: number, reason: string): void;
  /** The validator saw two conflicting votes of `address` at `height` (ReportConflictingVotes). */
  reported(node: number, address: Uint8Array, height: bigint): void;
  crashed(node: number): void;
  /** Something threw inside the validator's loop or handlers: always a failure of the run. */
  error(node: number, error: unknown): void;
}

/** Takes over a broadcast (Byzantine behaviours); returns true when it sent the message itself. */
export type BroadcastHook = (e: BroadcastProposal | BroadcastBlockPart | BroadcastVote) => boolean;

export interface SimNodeDeps {
  readonly index: number;
  readonly key: SimKey;
  readonly genesis: ChainState;
  readonly config: ConsensusConfig;
  readonly scheduler: VirtualTimeScheduler;
  readonly verifier: MemoVerifier;
  readonly mempool: Prng;
  readonly network: {
    broadcast(from: number, message: PeerMessage): void;
    send(from: number, to: number, message: PeerMessage): void;
  };
  readonly observer: NodeObserver;
  /** Virtual ms between CommitBlock and the block being saved and executed. */
  readonly executionMs: number;
}

const UNSTAMPED: Timestamp = { seconds: 0n, nanos: 0 };
const NANOS_PER_MS = 1_000_000;

/** The time of virtual instant `ms` (ms after genesis). */
export function virtualTime(ms: number): Timestamp {
  const whole = Math.floor(ms);
  const seconds = Math.floor(whole / 1000);
  return { seconds: GENESIS_TIME.seconds + BigInt(seconds), nanos: (whole - seconds * 1000) * NANOS_PER_MS };
}

type Sendable = BroadcastProposal | BroadcastBlockPart | BroadcastVote;

export class SimNode {
  readonly index: number;
  readonly address: Uint8Array;
  readonly signer: SimSigner;
  /** Durable: survives crashes. */
  readonly log: LogRecord[] = [];
  readonly blocks = new Map<bigint, StoredBlock>();
  chain: ChainState;
  /** Volatile. */
  state: ConsensusState;
  alive = false;
  /** Increases at each crash: work scheduled before it is void. */
  epoch = 0;
  restarts = 0;
  broadcastHook: BroadcastHook | undefined;
  /** The height the mempool stand-in last received transactions for (create_empty_blocks = false). */
  private txsHeight = 0n;

  private readonly reducer: ConsensusReducer;
  private readonly rules: ConsensusRules;
  private readonly initial: ConsensusState;
  private readonly history = new Map<bigint, { time: Timestamp; validators: readonly Validator[] }>();
  private readonly evidenceHistory: EvidenceHistory = {
    blockTimeAt: (h) => this.history.get(h)?.time,
    validatorsAt: (h) => this.history.get(h)?.validators,
  };
  pool: EvidencePoolState = EMPTY_EVIDENCE_POOL;
  private loop: Loop<ConsensusState, ConsensusInput, ConsensusEffect> | undefined;
  private running: Subscription | undefined;
  private lastMarker = -1;

  constructor(private readonly deps: SimNodeDeps) {
    this.index = deps.index;
    this.address = deps.key.address;
    this.signer = new SimSigner(deps.key.privateKey, newSignStateStore());
    this.chain = deps.genesis;
    this.rules = createDefaultConsensusRules();
    this.reducer = createConsensusReducer(this.rules);
    this.initial = initialConsensusState({ config: deps.config, ownAddress: this.address });
    this.state = this.initial;
  }

  get now(): number {
    return this.deps.scheduler.now();
  }

  /** Starts (or restarts) consensus from what is stored, as the node does. */
  start(): void {
    if (this.alive) return;
    const height = this.chain.lastBlockHeight;
    const stored = height > 0n ? this.blocks.get(height) : undefined;
    const started: ConsensusStarted = {
      type: "ConsensusStarted",
      time: virtualTime(this.now),
      chainState: this.chain,
      lastCommit: stored?.seenCommit,
      lastBlockAppHash: stored?.block.header.appHash ?? new Uint8Array(0),
    };
    const earlier: ConsensusInput[] = [];
    for (let i = this.lastMarker + 1; i < this.log.length; i++) {
      const record = this.log[i]!;
      if ("input" in record) earlier.push(record.input);
    }
    this.log.push({ input: started });
    const steps: FoldStep[] = [];
    const restored = foldRestart(this.reducer, this.initial, started, earlier, (step) => steps.push(step));
    const pending = outstandingEffects(steps);
    this.state = restored;

    const replayed$ = new Subject<ConsensusEffect>();
    const loop = createLoop<ConsensusState, ConsensusInput, ConsensusEffect, ConsensusInput>({
      initialState: restored,
      reducer: this.reducer,
      sources: [],
      stamp: (input) => ({ ...input, time: virtualTime(this.now) }) as ConsensusInput,
      toInput: (record) => record,
      append: (record) => {
        this.log.push({ input: record });
      },
      onFault: (fault) => this.deps.observer.error(this.index, fault.error),
      handlers: [
        (effect$) => this.timeouts(merge(effect$, replayed$)),
        (effect$) => this.effects(merge(effect$, replayed$)),
      ],
    });
    this.loop = loop;
    this.alive = true;
    this.running = loop.state$.subscribe((s) => {
      this.state = s;
    });
    // The loop has no error path of its own: a throw in the reducer ends it; say so at once.
    this.running.add(
      loop.transition$.subscribe({ error: (error) => this.deps.observer.error(this.index, error) }),
    );
    this.running.add(loop.start());
    for (const effect of pending) replayed$.next(effect);
    this.txsArriveFor(restored.height);
  }

  /**
   * The mempool stand-in's TxsAvailable: when round 0 waits for transactions, clients' txs reach
   * this validator's mempool a seeded 0–2 s after the height starts, and the mempool says so once.
   */
  private txsArriveFor(height: bigint): void {
    if (!waitsForTxs(this.deps.config)) return;
    const epoch = this.epoch;
    this.deps.scheduler.schedule(
      () => {
        if (epoch !== this.epoch) return;
        this.txsHeight = height;
        this.loop?.dispatch({ type: "TxsAvailable", time: UNSTAMPED, height });
      },
      this.deps.mempool.int(0, 3000),
    );
  }

  /** Stops at once: timers, answers under way and messages in flight to it are lost. */
  crash(): void {
    if (!this.alive) return;
    this.alive = false;
    this.epoch++;
    this.deps.observer.crashed(this.index);
    this.running?.unsubscribe();
    this.running = undefined;
    this.loop = undefined;
    this.pool = EMPTY_EVIDENCE_POOL; // the node keeps its evidence pool in memory
    this.state = this.initial;
  }

  /** Ends the run for this validator: its loop stops, its last state stays readable. */
  stop(): void {
    this.alive = false;
    this.epoch++;
    this.running?.unsubscribe();
    this.running = undefined;
    this.loop = undefined;
  }

  restart(): void {
    this.restarts++;
    this.start();
  }

  /** A peer message arriving: the source step, then the log. */
  deliver(from: number, message: PeerMessage): void {
    if (!this.alive || this.loop === undefined) return;
    const outcome = verifyConsensusInput(this.state, message, this.rules, this.deps.verifier.verify);
    if (outcome.kind === "accept") this.loop.dispatch(message);
    else if (outcome.kind === "reject") this.deps.observer.rejected(this.index, from, outcome.reason);
  }

  /** Feeds an input to the loop as an effect handler's answer would. */
  dispatch(input: ConsensusInput): void {
    this.loop?.dispatch(input);
  }

  /** The stored block of `height` (this validator committed it). */
  storedBlock(height: bigint): StoredBlock | undefined {
    return this.blocks.get(height);
  }

  /** The node's timer semantics: a newer timeout replaces the older one (switchMap), as v0.34's ticker. */
  private timeouts(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    return effect$.pipe(
      filter((e): e is ScheduleTimeout => e.type === "ScheduleTimeout"),
      switchMap((e) =>
        timer(Math.max(0, e.durationMs), this.deps.scheduler).pipe(
          map(
            (): ConsensusInput => ({
              type: "TimeoutElapsed",
              time: UNSTAMPED,
              height: e.height,
              round: e.round,
              step: e.step,
            }),
          ),
        ),
      ),
    );
  }

  private effects(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    return new Observable<ConsensusInput>((out) =>
      effect$.subscribe((e) => {
        let answer: ConsensusInput | undefined;
        try {
          answer = this.carryOut(e);
        } catch (error) {
          this.deps.observer.error(this.index, error);
          return;
        }
        if (answer !== undefined) out.next(answer);
      }),
    );
  }

  private carryOut(e: ConsensusEffect): ConsensusInput | undefined {
    switch (e.type) {
      case "SignVote":
        try {
          return { type: "VoteSigned", time: UNSTAMPED, vote: this.signer.signVote(SIM_CHAIN_ID, e.vote) };
        } catch (error) {
          const what = e.vote.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE ? "prevote" : "precommit";
          return {
            type: "SignFailed",
            time: UNSTAMPED,
            height: e.vote.height,
            round: e.vote.round,
            what,
            reason: String(error),
          };
        }
      case "SignProposal":
        try {
          return {
            type: "ProposalSigned",
            time: UNSTAMPED,
            proposal: this.signer.signProposal(SIM_CHAIN_ID, e.proposal),
          };
        } catch (error) {
          return {
            type: "SignFailed",
            time: UNSTAMPED,
            height: e.proposal.height,
            round: e.proposal.round,
            what: "proposal",
            reason: String(error),
          };
        }
      case "ReapProposalBlock": {
        const { evidence } = pendingEvidence(this.pool, e.maxEvidenceBytes);
        return {
          type: "ProposalBlockReaped",
          time: UNSTAMPED,
          height: e.height,
          round: e.round,
          txs: this.reapTxs(),
          evidence,
        };
      }
      case "ValidateBlock": {
        const error = simBlockProblem(
          this.chain,
          e.block,
          this.deps.verifier.verify,
          this.pool,
          this.evidenceHistory,
        );
        return {
          type: "BlockValidated",
          time: UNSTAMPED,
          height: e.height,
          blockHash: e.blockId.hash,
          ...(error === undefined ? {} : { error }),
        };
      }
      case "BroadcastProposal":
      case "BroadcastBlockPart":
      case "BroadcastVote":
        this.send(e);
        return undefined;
      case "CommitBlock":
        this.deps.observer.decided(this.index, e);
        this.commitLater(e);
        return undefined;
      case "ReportConflictingVotes":
        this.pool = addConflictingVotes(this.pool, e.voteA, e.voteB);
        this.deps.observer.reported(this.index, e.voteA.validatorAddress, e.voteA.height);
        return undefined;
      case "Halt":
        this.deps.observer.halted(this.index, e.reason);
        return undefined;
      default:
        return undefined;
    }
  }

  /**
   * The mempool stand-in: a few seeded transactions, different for every reap. When round 0 waits
   * for transactions, the mempool is empty until they arrive for the height (so a proof block,
   * proposed without waiting after an app hash change, is empty) and holds 1–3 after.
   */
  reapTxs(): Uint8Array[] {
    const rng = this.deps.mempool;
    if (waitsForTxs(this.deps.config) && this.txsHeight !== this.state.height) return [];
    const least = waitsForTxs(this.deps.config) ? 1 : 0;
    return Array.from({ length: rng.int(least, 3) }, () => rng.bytes(rng.int(8, 40)));
  }

  private send(e: Sendable): void {
    if (this.broadcastHook?.(e)) return;
    this.deps.network.broadcast(this.index, toMessage(e, this.index));
  }

  /**
   * Saves and executes the decided block a little later (the store and the app take time), then
   * writes the end-of-height marker and answers BlockExecuted. A crash in between loses the
   * answer; the restart folds the height again and commits it then.
   */
  private commitLater(e: CommitBlock): void {
    const epoch = this.epoch;
    this.deps.scheduler.schedule(() => {
      if (epoch !== this.epoch || e.height !== this.chain.lastBlockHeight + 1n) return;
      this.blocks.set(e.height, {
        block: e.block,
        blockId: e.blockId,
        parts: e.parts,
        seenCommit: e.seenCommit,
      });
      const before = this.chain;
      this.chain = executeSimBlock(before, e.block, e.blockId);
      this.history.set(e.height, {
        time: e.block.header.time,
        validators: before.validators?.validators ?? [],
      });
      for (const h of this.history.keys()) if (h + 200n < e.height) this.history.delete(h);
      this.pool = updateEvidencePool(
        this.pool,
        this.chain,
        e.block.evidence?.evidence ?? [],
        this.evidenceHistory,
      );
      this.log.push({ endHeight: e.height });
      this.lastMarker = this.log.length - 1;
      this.deps.observer.executed(this.index, e.height, e.block);
      this.loop?.dispatch({
        type: "BlockExecuted",
        time: UNSTAMPED,
        height: e.height,
        chainState: this.chain,
      });
      this.txsArriveFor(e.height + 1n);
    }, this.deps.executionMs);
  }
}

export function toMessage(e: Sendable, from: number): PeerMessage {
  const peer = `v${from}`;
  switch (e.type) {
    case "BroadcastProposal":
      return { type: "ProposalReceived", time: UNSTAMPED, proposal: e.proposal, from: peer };
    case "BroadcastBlockPart":
      return {
        type: "BlockPartReceived",
        time: UNSTAMPED,
        height: e.height,
        round: e.round,
        part: e.part,
        from: peer,
      };
    case "BroadcastVote":
      return { type: "VoteReceived", time: UNSTAMPED, vote: e.vote, from: peer };
  }
}

export { UNSTAMPED };
