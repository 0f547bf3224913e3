// Boot step 6: the consensus loop. The reducer (with the injected rules), the ConsensusStarted
// input logged first and the restart fold of the unfinished height (restart.ts), the one
// effect-handler table (effects/consensus-handlers.ts) over the node's ports (signer, mempool
// reaping, the verify pool, the stores, the app, the peers, the projections), and the loop that
// logs each input before folding it. start() subscribes the projections and the step hooks
// before the first fold, then starts the mempool's loop and this one. For the return to block
// sync the loop stops and starts again (stop, startAfterSync): each run is an inner loop of its
// own, behind streams (loop.state$, transition$, effect$) that stay the same for everything that
// follows them.
import {
  asapScheduler,
  asyncScheduler,
  ReplaySubject,
  type SchedulerLike,
  Subject,
  Subscription,
} from "rxjs";
import type { AbciClient } from "../../src/abci/client/abci-client.js";
import type { NodeConfig } from "../../src/config/config-schema.js";
import { createDefaultConsensusRules } from "../../src/consensus/default-rules.js";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput, ConsensusStarted } from "../../src/consensus/input.js";
import { createConsensusReducer } from "../../src/consensus/reducer.js";
import { type ConsensusState, initialConsensusState } from "../../src/consensus/state.js";
import { verifyEd25519 } from "../../src/crypto/ed25519-verify.js";
import type { VerifyPool } from "../../src/crypto/verify-pool.js";
import type { Logger } from "../../src/logger/index.js";
import { reapMaxBytesMaxGas } from "../../src/mempool/reap.js";
import type { ProposalBlockPorts } from "../../src/state/validate-proposal-block.js";
import type { Stores } from "../../src/store/open-stores.js";
import type { Wal } from "../../src/wal/wal.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import { type BlockCommitDeps, commitOne, type MempoolCommitLock } from "../effects/block-commit.js";
import { nodeEvidenceHistory } from "../effects/block-validation.js";
import { NO_PEERS } from "../effects/broadcasts.js";
import { consensusHandlers } from "../effects/consensus-handlers.js";
import { HeightIndexQueue } from "../effects/height-index-queue.js";
import { proposalAheadHandler } from "../effects/proposal-ahead.js";
import { mempoolReaping } from "../effects/reaping.js";
import { StateSaveTail } from "../effects/state-save-tail.js";
import { createLoop, type Loop, type Step } from "../loop.js";
import type { MempoolNode } from "../mempool-node.js";
import { consensusConfigOf } from "../node-config.js";
import type { NodeLifecycle } from "../node-lifecycle.js";
import type { StartNodeOptions } from "../node-options.js";
import type { PeerLayer } from "../p2p-layer.js";
import type { NodeSigner } from "../remote-signer.js";
import { logFiredRules } from "../rule-trace.js";
import { mempoolTxsAvailableSource } from "../sources/mempool-txs-available.js";
import type { Clock } from "../sources/stamp-time.js";
import type { NodeProjections } from "./projections.js";
import { restoreConsensus } from "./restart.js";

export interface ConsensusLoopParts {
  config: NodeConfig;
  /** The chain state after the handshake (the stores' latest height). */
  handshaken: ChainState;
  clock: Clock;
  scheduler: SchedulerLike;
  stores: Stores;
  app: AbciClient;
  wal: Wal<ConsensusInput>;
  /** The unfinished height's inputs read from the log (consensus-log.ts). */
  earlier: readonly ConsensusInput[];
  signer: NodeSigner | undefined;
  pool: VerifyPool;
  peers: PeerLayer;
  mempool: MempoolNode;
  mempoolLock: MempoolCommitLock;
  projections: NodeProjections;
  life: Pick<NodeLifecycle, "halt" | "track" | "run">;
  log: { consensus: Logger; state: Logger; privval: Logger };
  options: Pick<StartNodeOptions, "consensusRules" | "trace" | "onConsensusStep">;
}

export interface ConsensusLoop {
  readonly loop: Loop<ConsensusState, ConsensusInput, ConsensusEffect>;
  /** The latest folded state (the peer hand-off and the RPC read it). */
  latest(): ConsensusState;
  /** Heights indexed off the critical path; the RPC's index readers wait on it (no mempool→index window). */
  readonly indexQueue: HeightIndexQueue;
  /**
   * Subscribes the projections and the step hooks, then starts the mempool's loop and this one,
   * all under one subscription the lifecycle holds from the first line: a halt while starting
   * (a request re-issued from the log may halt at once) stops what started and what follows.
   */
  start(): void;
  /**
   * Starts after block sync applied `synced` blocks (0: as start()). The synced heights never went
   * through the log: its end-of-height marker moves to the synced height, the unfinished height
   * restored from it is dropped with its requests (v0.34 skips the WAL catch-up after synced
   * blocks), and a ConsensusStarted at the synced chain state is the loop's first input.
   */
  startAfterSync(synced: number): Promise<void>;
  /**
   * Stops the running loop for a return to block sync: nothing more is folded, signed or sent; the
   * signing and block execution under way finish (a block executed after the stop advances the
   * chain state, its BlockExecuted never folded), and the log is synced. startAfterSync starts it
   * again; loop's streams stay the same across runs.
   */
  stop(): Promise<void>;
  /** A run is under way (started and not stopped). */
  readonly running: boolean;
  /**
   * Starts the mempool's loop alone (once; start() does it too): block sync applies blocks, and
   * takes txs over the RPC, before consensus starts.
   */
  startMempool(): void;
  /** The block commit consensus runs (block sync applies its blocks through the same one). */
  readonly commitDeps: BlockCommitDeps;
  /** The ports block validation runs on (block sync validates its blocks with the same ones). */
  readonly validationPorts: ProposalBlockPorts;
}

export async function createConsensusLoop(parts: ConsensusLoopParts): Promise<ConsensusLoop> {
  const { stores, wal, signer, projections, clock, life, log } = parts;
  const { chain, evidence } = projections;
  const { consensusRules, trace, onConsensusStep } = parts.options;
  const height = parts.handshaken.lastBlockHeight;
  // The peer hand-off verifies peer messages with the same rules the reducer folds them with.
  const rules = consensusRules ?? createDefaultConsensusRules();
  const reducer = createConsensusReducer(rules, { trace: trace === true });
  const lastCommit = height > 0n ? await stores.blockStore.loadSeenCommit(height) : undefined;
  const lastMeta = height > 0n ? await stores.blockStore.loadBlockMeta(height) : undefined;
  const started: ConsensusStarted = {
    type: "ConsensusStarted",
    time: clock(),
    chainState: parts.handshaken,
    lastCommit,
    lastBlockAppHash: lastMeta?.header?.appHash ?? new Uint8Array(0),
  };
  wal.appendInput(started);
  const freshState = () =>
    initialConsensusState({
      config: consensusConfigOf(parts.config),
      ...(signer ? { ownAddress: signer.address } : {}),
    });
  const restored = restoreConsensus({
    reducer,
    initial: freshState(),
    started,
    earlier: parts.earlier,
    ...(onConsensusStep ? { onStep: onConsensusStep } : {}),
    log: log.consensus,
  });

  // A height is indexed and published off the critical path (height-index-queue.ts).
  const indexQueue = new HeightIndexQueue({ halt: life.halt, track: life.track, logger: log.state });
  const commitDeps: BlockCommitDeps = {
    indexQueue,
    // Each height's state is saved behind its commit, while the next height is proposed.
    stateSaves: new StateSaveTail(),
    track: life.track,
    consensus: parts.app.consensus,
    stores: { blockStore: stores.blockStore, stateStore: stores.stateStore, indexer: stores.indexer },
    chainState: () => chain.current,
    executed: projections.executed,
    endHeight: (h) => life.track(wal.endHeight(h)),
    // The marker rides on the log's next sync (before our next signature); written now, so a
    // failing log still halts a node that never signs.
    markEndHeight: (h) => {
      wal.appendEndHeight(h);
      return life.track(wal.flush());
    },
    blockCommitted: (block, deliverTxs) => parts.mempool.blockCommitted(block, deliverTxs),
    mempoolLock: parts.mempoolLock,
    keepRecentHeights: BigInt(parts.config.consensus.double_sign_check_height),
    halt: life.halt,
    logger: log.state,
  };
  const validationPorts: ProposalBlockPorts = {
    checkSignatures: (items) => parts.pool.verifyBatch(items),
    evidencePool: () => evidence.state(),
    // A block's evidence is checked against the stores at its height.
    evidenceHistory: nodeEvidenceHistory(stores),
    verifyEvidenceVote: verifyEd25519,
  };
  // One run of the loop: its handlers hold the signing and block execution it started, so a stop
  // can wait for them; a block whose execution ends after the stop advances the chain state here,
  // since its BlockExecuted is never folded.
  interface ConsensusRun {
    readonly loop: Loop<ConsensusState, ConsensusInput, ConsensusEffect>;
    readonly subscription: Subscription;
    readonly work: Set<Promise<unknown>>;
    stopped: boolean;
  }
  const newRun = (initialState: ConsensusState, resumeEffects: readonly ConsensusEffect[]): ConsensusRun => {
    const work = new Set<Promise<unknown>>();
    const hold = <T>(p: Promise<T>): Promise<T> => {
      work.add(p);
      void p.finally(() => work.delete(p)).catch(() => {});
      return life.track(p);
    };
    const run: ConsensusRun = { loop: undefined!, subscription: new Subscription(), work, stopped: false };
    // A signature asked before the stop may reach the signer after it (the log sync before it was
    // under way): it is refused there, so nothing is signed after the stop. The refusal goes
    // nowhere: the stopped run's handlers are unsubscribed.
    const unlessStopped = <T>(sign: () => T | Promise<T>): Promise<T> =>
      run.stopped
        ? Promise.reject(new Error("consensus stopped for block sync: nothing more is signed"))
        : hold(Promise.resolve(sign()));
    const reaping = mempoolReaping((maxBytes, maxGas) =>
      reapMaxBytesMaxGas(parts.mempool.state(), maxBytes, maxGas),
    );
    const handlers = consensusHandlers({
      scheduler: parts.scheduler,
      // On real time, a timeout already due (timeout_commit = 0) fires without a timer tick;
      // a test's virtual-time scheduler keeps every timeout. On real time the stamping clock
      // keeps the scheduler's time, so NewHeight's timer can end at the state's startTime.
      ...(parts.scheduler === asyncScheduler ? { dueScheduler: asapScheduler, clock: parts.clock } : {}),
      ...(signer
        ? {
            signing: {
              signer: {
                replacesStateAfterLog: signer.replacesStateAfterLog === true,
                signVote: (id, vote, log) => unlessStopped(() => signer.signVote(id, vote, log)),
                signProposal: (id, proposal, log) =>
                  unlessStopped(() => signer.signProposal(id, proposal, log)),
              },
              chainId: parts.handshaken.chainId,
              syncLog: () => wal.syncBeforeSigning(),
              log: wal,
              logger: log.privval,
            },
          }
        : {}),
      reaping: { ...reaping, evidencePool: () => evidence.state() },
      validation: { chainState: () => chain.current, ports: validationPorts },
      execution: {
        execute: (e) =>
          hold(
            commitOne(commitDeps, e).then((state) => {
              if (run.stopped) chain.advance(state);
              return state;
            }),
          ),
        halt: life.halt,
      },
      // Our votes, proposal and parts reach peers through the consensus reactor, not once.
      peers: NO_PEERS,
      events: {
        halt: life.halt,
        peerMisbehaved: (peer, reason) => log.consensus.info("peer misbehaved", { peer, reason }),
      },
    });
    // On real time, our proposal's hashing starts before our turn, once the pool has left the
    // committed block (effects/proposal-ahead.ts).
    if (parts.scheduler === asyncScheduler)
      handlers.push(
        proposalAheadHandler({
          scheduler: parts.scheduler,
          clock: parts.clock,
          rules,
          prepare: (height) => {
            if (parts.mempool.state().height === height - 1n) reaping.prepareAhead();
          },
        }),
      );
    (run as { loop: ConsensusRun["loop"] }).loop = createLoop<
      ConsensusState,
      ConsensusInput,
      ConsensusEffect,
      ConsensusInput
    >({
      initialState,
      reducer: trace ? logFiredRules(reducer, log.consensus) : reducer,
      // A stopped run's sources are unsubscribed with it: peers' consensus messages reach no loop
      // while the node is back in block sync.
      sources: [
        mempoolTxsAvailableSource(parts.mempool.txsAvailable$),
        parts.peers.consensusInput$({ state: () => latest, rules, verifier: parts.pool, clock }),
      ],
      stamp: (input) => ({ ...input, time: clock() }),
      toInput: (record) => record,
      append: (record) => wal.appendInput(record),
      handlers,
      resumeEffects,
      // Our own exception in the reducer or a handler: consensus stops folding at once (nothing
      // more is signed) and the node halts with the message naming the input.
      onFault: (fault) => life.halt(`consensus halted on an internal error: ${fault.reason}`),
    });
    return run;
  };

  // The streams the projections, the reactors, the metrics and the RPC hold: the same across runs.
  const transition$ = new Subject<Step<ConsensusState, ConsensusInput, ConsensusEffect>>();
  const state$ = new ReplaySubject<ConsensusState>(1);
  state$.next(restored.state);
  const effect$ = new Subject<ConsensusEffect>();
  let run: ConsensusRun | undefined;
  const loop: Loop<ConsensusState, ConsensusInput, ConsensusEffect> = {
    state$: state$.asObservable(),
    transition$: transition$.asObservable(),
    effect$: effect$.asObservable(),
    dispatch: (input) => run?.loop.dispatch(input),
    start: () => {
      consensusLoop.start();
      return held!;
    },
  };

  let latest = restored.state;
  let resumed: readonly ConsensusEffect[] = restored.pending;
  let startedAt: bigint | undefined;
  let mempoolRunning: Subscription | undefined;
  let followed = false;
  // What the lifecycle stops first at a stop or halt: the mempool's loop and the current run.
  let held: Subscription | undefined;
  const holding = (): Subscription => {
    if (held === undefined) {
      held = new Subscription();
      life.run(held);
    }
    return held;
  };

  const beginRun = (next: ConsensusRun) => {
    run = next;
    const s = next.subscription;
    holding().add(s);
    s.add(next.loop.transition$.subscribe((step) => transition$.next(step)));
    s.add(next.loop.state$.subscribe((state) => state$.next(state)));
    s.add(next.loop.effect$.subscribe((effect) => effect$.next(effect)));
    s.add(next.loop.start());
    log.consensus.info("consensus started", {
      height: startedAt ?? latest.height,
      round: latest.round,
      validator: signer ? Buffer.from(signer.address).toString("hex").toUpperCase() : "none",
    });
  };

  const startedAtChainState = async (): Promise<ConsensusStarted> => {
    const state = chain.current;
    const h = state.lastBlockHeight;
    return {
      type: "ConsensusStarted",
      time: clock(),
      chainState: state,
      lastCommit: h > 0n ? await stores.blockStore.loadSeenCommit(h) : undefined,
      lastBlockAppHash:
        h > 0n
          ? ((await stores.blockStore.loadBlockMeta(h))?.header?.appHash ?? new Uint8Array(0))
          : new Uint8Array(0),
    };
  };

  const consensusLoop: ConsensusLoop = {
    loop,
    indexQueue,
    commitDeps,
    validationPorts,
    latest: () => latest,
    get running() {
      return run !== undefined && !run.stopped;
    },
    startMempool() {
      if (mempoolRunning) return;
      mempoolRunning = new Subscription();
      holding().add(mempoolRunning);
      mempoolRunning.add(parts.mempool.start());
    },
    async startAfterSync(synced) {
      if (run === undefined && synced === 0) {
        consensusLoop.start();
        return;
      }
      const again = run !== undefined;
      if (again && !run!.stopped) throw new Error("consensus is already running");
      if (synced === 0) {
        // Back from block sync with nothing applied: the height resumes as after a restart, from
        // the consensus log (the log alone says what the stopped run folded and asked for).
        await wal.flush();
        const earlier = await wal.readAfterLastEndHeight();
        const started = await startedAtChainState();
        wal.appendInput(started);
        const back = restoreConsensus({
          reducer,
          initial: freshState(),
          started,
          earlier,
          ...(onConsensusStep ? { onStep: onConsensusStep } : {}),
          log: log.consensus,
        });
        startedAt = undefined;
        beginRun(newRun(back.state, back.pending));
        return;
      }
      const h = chain.current.lastBlockHeight;
      await wal.endHeight(h);
      const started = await startedAtChainState();
      startedAt = h + 1n;
      if (again) beginRun(newRun(latest, []));
      else {
        resumed = [];
        consensusLoop.start();
      }
      loop.dispatch(started);
    },
    start() {
      if (run !== undefined) throw new Error("consensus was started before");
      holding();
      if (!followed) {
        followed = true;
        const following = holding();
        following.add(
          loop.state$.subscribe((s) => {
            latest = s;
          }),
        );
        following.add(projections.follow(loop.transition$, resumed));
        const onStep = onConsensusStep;
        if (onStep)
          following.add(
            loop.transition$.subscribe((s) =>
              onStep({ input: s.input, state: s.state, effects: s.effects, refolded: false }),
            ),
          );
        following.add(
          loop.transition$.subscribe((s) => {
            if (s.input.type === "VoteSigned" || s.input.type === "ProposalSigned")
              log.consensus.debug("signed", {
                type: s.input.type,
                height: latest.height,
                round: latest.round,
              });
          }),
        );
      }
      consensusLoop.startMempool();
      beginRun(newRun(restored.state, resumed));
    },
    async stop() {
      const stopping = run;
      if (stopping === undefined || stopping.stopped) return;
      stopping.stopped = true;
      // Nothing more is folded, signed or sent from here; what was under way finishes.
      held?.remove(stopping.subscription);
      stopping.subscription.unsubscribe();
      await Promise.allSettled([...stopping.work]);
      await wal.sync();
      log.consensus.info("consensus stopped", {
        height: latest.height,
        round: latest.round,
        lastBlockHeight: chain.current.lastBlockHeight,
      });
    },
  };
  return consensusLoop;
}
