// One simulated validator: the real consensus reducer folded by the node's loop (streams/loop.ts
// createLoop) on the shared virtual clock, with the node's own effect handlers
// (streams/effects/consensus-handlers.ts) over synchronous ports: the node's signer (src/privval
// FileSigner) over an in-memory sign state, block validation by src/state's rule with the run's
// memoised verifier, the evidence pool holder with the recent-block projection, timeouts on the
// virtual scheduler. What is simulated is only what a node gets from outside: the network, the
// mempool (a seeded stand-in), the app and the stores (in memory, executing after a delay), and
// the node's source step (verifyConsensusInput) in front of its log. What survives a crash is
// what a node keeps on disk: its log (every stamped input, with end-of-height markers), its stored
// blocks and seen commits, the chain state, the recent blocks and the signer's last-sign state. A
// restart goes through the node's restart step (streams/boot/restart.ts): a new ConsensusStarted,
// the unfinished height's inputs folded again, and only their unanswered requests carried out.

import { sign } from "node:crypto";
import { Observable, type Subscription, type VirtualTimeScheduler } from "rxjs";
import { type ConsensusConfig, waitsForTxs } from "../../src/consensus/config.js";
import { createDefaultConsensusRules } from "../../src/consensus/default-rules.js";
import type {
  BroadcastBlockPart,
  BroadcastProposal,
  BroadcastVote,
  CommitBlock,
  ConsensusEffect,
} from "../../src/consensus/effect.js";
import type { GossipInput } from "../../src/consensus/gossip/input.js";
import type { ConsensusMessage } from "../../src/consensus/gossip/message.js";
import type { ConsensusInput, ConsensusStarted } from "../../src/consensus/input.js";
import type { ConsensusReducer } from "../../src/consensus/reducer.js";
import { createConsensusReducer } from "../../src/consensus/reducer.js";
import type { ConsensusRules } from "../../src/consensus/rules.js";
import { type ConsensusState, initialConsensusState } from "../../src/consensus/state.js";
import { verifyConsensusInput } from "../../src/consensus/verify-input.js";
import { createLogger } from "../../src/logger/index.js";
import { FileSigner } from "../../src/privval/file-signer.js";
import { memorySignStateStore } from "../../src/privval/sign-state-store.js";
import { isPromise, type MaybePromise } from "../../src/types/maybe-async.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type {
  BlockID,
  Commit,
  Part,
  Proposal,
  Vote,
} from "../../src/wire/generated/tendermint/types/types.js";
import { restoreConsensus } from "../../streams/boot/restart.js";
import { type ConsensusHandlerDeps, consensusHandlers } from "../../streams/effects/consensus-handlers.js";
import { EvidencePoolHolder } from "../../streams/effects/evidence.js";
import { createLoop, type Loop } from "../../streams/loop.js";
import { RecentBlocks } from "../../streams/projections/recent-blocks.js";
import type { Prng } from "./prng.js";
import { GENESIS_TIME, SharedExecution, SIM_CHAIN_ID, type SimKey } from "./sim-chain.js";
import { SimGossip } from "./sim-gossip.js";
import type { PeerMessage } from "./sim-network.js";
import type { MemoVerifier } from "./sim-verify.js";
import { WireCrossing } from "./sim-wire.js";

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
    send(from: number, to: number, message: PeerMessage): void;
  };
  readonly observer: NodeObserver;
  /** Virtual ms between CommitBlock and the block being saved and executed. */
  readonly executionMs: number;
  /** The run's wire (shared by its validators, so a message crosses the codec once); else this validator's own. */
  readonly wire?: WireCrossing;
  /** The run's block executions (shared by its validators, so a block runs once); else this validator's own. */
  readonly execution?: SharedExecution;
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
  /** Durable: survives crashes (it stands for priv_validator_state.json). */
  readonly signState = memorySignStateStore();
  /** Durable: survives crashes. */
  readonly log: LogRecord[] = [];
  readonly blocks = new Map<bigint, StoredBlock>();
  chain: ChainState;
  /** Durable (the stores): the time and validator set of recent heights, for evidence. */
  private readonly recent = new RecentBlocks(200n);
  /** Volatile. */
  state: ConsensusState;
  /** The evidence pool, in memory as in the node: a crash loses it. */
  evidence: EvidencePoolHolder;
  alive = false;
  restarts = 0;
  broadcastHook: BroadcastHook | undefined;
  /** The consensus reactor (volatile: a crash loses what it believed of its peers). */
  gossip: SimGossip | undefined;
  /** The height the mempool stand-in last received transactions for (create_empty_blocks = false). */
  private txsHeight = 0n;

  private readonly reducer: ConsensusReducer;
  private readonly rules: ConsensusRules;
  private readonly initial: ConsensusState;
  private loop: Loop<ConsensusState, ConsensusInput, ConsensusEffect> | undefined;
  private running: Subscription | undefined;
  private lastMarker = -1;
  private readonly wire: WireCrossing;
  private readonly execution: SharedExecution;

  constructor(private readonly deps: SimNodeDeps) {
    this.wire = deps.wire ?? new WireCrossing();
    this.execution = deps.execution ?? new SharedExecution();
    this.index = deps.index;
    this.address = deps.key.address;
    this.chain = deps.genesis;
    this.rules = createDefaultConsensusRules();
    this.reducer = createConsensusReducer(this.rules);
    this.initial = initialConsensusState({ config: deps.config, ownAddress: this.address });
    this.state = this.initial;
    this.evidence = new EvidencePoolHolder(this.recent, SILENT);
  }

  get now(): number {
    return this.deps.scheduler.now();
  }

  /** A signature with no protection at all: only Byzantine behaviours call this. */
  rawSign(bytes: Uint8Array): Uint8Array {
    return new Uint8Array(sign(null, bytes, this.deps.key.privateKey));
  }

  /**
   * The node's handler table with this validator's ports (all synchronous, or on the virtual
   * clock). A new signer is made at each start from the durable sign state, as the node reads
   * priv_validator_state.json.
   */
  handlerDeps(): ConsensusHandlerDeps {
    const signer = new FileSigner(this.deps.key.secret, this.signState, this.signState.state);
    const verify = this.deps.verifier.verify;
    // What the signer signed (its stored last-sign state: the bytes and the signature) is made
    // known valid to the run's verifier, so peers need no real check of it. The first signature
    // of each signer is checked for real, which proves the signer's key is this validator's.
    // Reading the stored state right after sign() returns names the signature just made only
    // because the simulation's signer answers now (its state store saves synchronously); a signer
    // answering later would leave the previous signature there, so that is refused, not misread.
    let keyChecked = false;
    const signed = <T>(answer: MaybePromise<T>): T => {
      if (isPromise(answer))
        throw new Error(
          "the simulation's signer answered later (a Promise): its last-sign state is read as soon as sign() returns, so it must sign synchronously",
        );
      const message = answer;
      const { signBytes, signature } = this.signState.state;
      if (signBytes === undefined || signature === undefined) return message;
      if (keyChecked) this.deps.verifier.signed(this.deps.key.publicKey, signBytes, signature);
      else if (verify(this.deps.key.publicKey, signBytes, signature)) keyChecked = true;
      else
        this.deps.observer.error(
          this.index,
          new Error("the signer's signature does not verify with the validator's key"),
        );
      return message;
    };
    return {
      scheduler: this.deps.scheduler,
      signing: {
        signer: {
          signVote: (chainId, vote) =>
            signed(signer.sign({ kind: "vote", chainId, vote }) as MaybePromise<Vote>),
          signProposal: (chainId, proposal) =>
            signed(signer.sign({ kind: "proposal", chainId, proposal }) as MaybePromise<Proposal>),
        },
        chainId: SIM_CHAIN_ID,
        syncLog: () => undefined,
        logger: SILENT,
      },
      reaping: { reapTxs: () => this.reapTxs(), evidencePool: () => this.evidence.state() },
      validation: {
        chainState: () => this.chain,
        ports: {
          checkSignatures: (items) => items.map((i) => verify(i.publicKey, i.message, i.signature)),
          evidencePool: () => this.evidence.state(),
          evidenceHistory: () => this.recent,
          verifyEvidenceVote: verify,
        },
      },
      execution: {
        execute: (e) => this.executeLater(e),
        halt: (reason) => this.deps.observer.halted(this.index, reason),
      },
      peers: { broadcast: (e) => this.send(e) },
      events: {
        halt: (reason) => this.deps.observer.halted(this.index, reason),
        peerMisbehaved: () => {},
      },
      evidence: this.evidence,
    };
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
    const restored = restoreConsensus({
      reducer: this.reducer,
      initial: this.initial,
      started,
      earlier,
      log: SILENT,
    });
    this.state = restored.state;

    const loop = createLoop<ConsensusState, ConsensusInput, ConsensusEffect, ConsensusInput>({
      initialState: restored.state,
      reducer: this.reducer,
      sources: [],
      stamp: (input) => ({ ...input, time: virtualTime(this.now) }) as ConsensusInput,
      toInput: (record) => record,
      append: (record) => {
        this.log.push({ input: record });
      },
      handlers: consensusHandlers(this.handlerDeps()),
      resumeEffects: restored.pending,
      onFault: (fault) =>
        this.deps.observer.error(this.index, new Error(fault.reason, { cause: fault.error })),
    });
    this.loop = loop;
    this.alive = true;
    const gossip: SimGossip = new SimGossip({
      index: this.index,
      scheduler: this.deps.scheduler,
      epochMs: Number(GENESIS_TIME.seconds) * 1000,
      send: (to, message) => this.deps.network.send(this.index, to, message),
      stored: (h): GossipInput | undefined => {
        const b = this.blocks.get(h);
        return b === undefined
          ? undefined
          : {
              type: "StoredBlockLoaded",
              nowMs: gossip.nowMs,
              height: h,
              header: b.blockId.partSetHeader,
              parts: b.parts,
              commit: b.seenCommit,
            };
      },
      reported: (peer, reason) => this.deps.observer.rejected(this.index, peer, `gossip: ${reason}`),
    });
    this.gossip = gossip;
    this.running = loop.state$.subscribe((s) => {
      this.state = s;
      gossip.ourState(s);
    });
    // What the run's checker hears: decisions and conflicting votes, read off the effects (only
    // those two kinds: subscribed before start, it hears each before the handlers do, as before).
    this.running.add(
      loop.effectsOf(["CommitBlock", "ReportConflictingVotes"]).subscribe((e) => {
        if (e.type === "CommitBlock") this.deps.observer.decided(this.index, e);
        else if (e.type === "ReportConflictingVotes")
          this.deps.observer.reported(this.index, e.voteA.validatorAddress, e.voteA.height);
      }),
    );
    this.running.add(loop.start());
    this.txsArriveFor(restored.state.height);
  }

  /**
   * The mempool stand-in's TxsAvailable: when round 0 waits for transactions, clients' txs reach
   * this validator's mempool a seeded 0–2 s after the height starts, and the mempool says so once.
   */
  private txsArriveFor(height: bigint): void {
    if (!waitsForTxs(this.deps.config)) return;
    const loop = this.loop;
    this.deps.scheduler.schedule(
      () => {
        if (loop === undefined || loop !== this.loop) return;
        this.txsHeight = height;
        loop.dispatch({ type: "TxsAvailable", time: UNSTAMPED, height });
      },
      this.deps.mempool.int(0, 3000),
    );
  }

  /** Stops at once: timers, answers under way and messages in flight to it are lost. */
  crash(): void {
    if (!this.alive) return;
    this.alive = false;
    this.deps.observer.crashed(this.index);
    this.running?.unsubscribe();
    this.running = undefined;
    this.loop = undefined;
    this.gossip?.stop();
    this.gossip = undefined;
    this.evidence = new EvidencePoolHolder(this.recent, SILENT);
    this.state = this.initial;
  }

  /** Ends the run for this validator: its loop stops, its last state stays readable. */
  stop(): void {
    this.alive = false;
    this.running?.unsubscribe();
    this.running = undefined;
    this.loop = undefined;
    this.gossip?.stop();
    this.gossip = undefined;
  }

  /** A connection to `peer` came up (start, restart, or a broken one re-established). */
  connect(peer: number): void {
    this.gossip?.peerAdded(peer);
  }

  disconnect(peer: number): void {
    this.gossip?.peerRemoved(peer);
  }

  restart(): void {
    this.restarts++;
    this.start();
  }

  /**
   * A peer message arriving, through the wire codec as the node receives it: the gossip learns
   * what the peer holds; a proposal, part or vote then goes through the source step to the log.
   */
  deliver(from: number, sent: PeerMessage): void {
    if (!this.alive || this.loop === undefined) return;
    const decoded = this.wire.cross(sent);
    if (decoded.kind === "invalid") {
      this.deps.observer.rejected(this.index, from, decoded.reason);
      return;
    }
    const message = decoded.message;
    this.gossip?.received(from, message);
    if (this.loop === undefined) return;
    const input = consensusInputOf(message, from);
    if (input === undefined) return;
    const outcome = verifyConsensusInput(this.state, input, this.rules, this.deps.verifier.verify);
    if (outcome.kind === "accept") this.loop.dispatch(input);
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

  /**
   * Our own proposal, parts and votes reach peers through the gossip (which sends what each
   * lacks), as in the node; only a Byzantine validator's hook sends some of them itself.
   */
  private send(e: Sendable): void {
    this.broadcastHook?.(e);
  }

  /**
   * The block executor port: saves and executes the decided block a little later (the store and
   * the app take time), writes the end-of-height marker and answers the chain state after it. A
   * crash in between (the subscription ends) loses the answer; the restart folds the height
   * again and commits it then. A scheduled action, not an operator, so that the run's stop
   * signal thrown by the checker leaves the virtual clock at once.
   */
  private executeLater(e: CommitBlock): Observable<ChainState> {
    return new Observable<ChainState>((out) => {
      const action = this.deps.scheduler.schedule(() => {
        if (e.height !== this.chain.lastBlockHeight + 1n) return out.complete();
        this.blocks.set(e.height, {
          block: e.block,
          blockId: e.blockId,
          parts: e.parts,
          seenCommit: e.seenCommit,
        });
        this.chain = this.execution.execute(this.chain, e.block, e.blockId);
        this.recent.add(this.chain);
        this.evidence.afterBlock(this.chain, e.block);
        this.log.push({ endHeight: e.height });
        this.lastMarker = this.log.length - 1;
        this.deps.observer.executed(this.index, e.height, e.block);
        out.next(this.chain);
        out.complete();
        this.txsArriveFor(e.height + 1n);
      }, this.deps.executionMs);
      return () => action.unsubscribe();
    });
  }
}

const SILENT = createLogger({ level: "none" });

/** A consensus broadcast as the wire message carrying it. */
export function toMessage(e: Sendable): ConsensusMessage {
  switch (e.type) {
    case "BroadcastProposal":
      return { $case: "proposal", proposal: { proposal: e.proposal } };
    case "BroadcastBlockPart":
      return { $case: "blockPart", blockPart: { height: e.height, round: e.round, part: e.part } };
    case "BroadcastVote":
      return voteMessage(e.vote);
  }
}

export const voteMessage = (vote: Vote): ConsensusMessage => ({ $case: "vote", vote: { vote } });

/** The consensus input a Proposal, BlockPart or Vote message of peer `from` becomes. */
function consensusInputOf(m: ConsensusMessage, from: number): ConsensusInput | undefined {
  const peer = `v${from}`;
  switch (m.$case) {
    case "proposal":
      return { type: "ProposalReceived", time: UNSTAMPED, proposal: m.proposal.proposal, from: peer };
    case "blockPart":
      return {
        type: "BlockPartReceived",
        time: UNSTAMPED,
        height: m.blockPart.height,
        round: m.blockPart.round,
        part: m.blockPart.part,
        from: peer,
      };
    case "vote":
      return m.vote.vote === undefined
        ? undefined
        : { type: "VoteReceived", time: UNSTAMPED, vote: m.vote.vote, from: peer };
    default:
      return undefined;
  }
}

export { UNSTAMPED };
