// Assembles a node from a prepared home (config, genesis, keys, lock: boot/prepare-home.ts).
// The boot steps, each in its own file under boot/: stores + reconcile → app + handshake →
// consensus log (torn tail repaired and reported) → signer with double_sign_check_height →
// restart fold of the unfinished height. Then the verify pool, the mempool loop, the consensus
// loop with the one effect-handler table (effects/consensus-handlers.ts) over the node's ports,
// the projections (chain state, recent blocks, events) and the RPC server. The lifecycle (halt,
// work under way, shutdown) is node-lifecycle.ts. Returns a NodeHandle; stop() ends it cleanly, a
// halt ends it with an exit code and a reason.
import { dirname } from "node:path";
import { asyncScheduler, BehaviorSubject, type SchedulerLike, Subject, Subscription } from "rxjs";
import { createDefaultConsensusRules } from "../src/consensus/default-rules.js";
import type { ConsensusEffect } from "../src/consensus/effect.js";
import type { ConsensusInput, ConsensusStarted } from "../src/consensus/input.js";
import { createConsensusReducer } from "../src/consensus/reducer.js";
import type { ConsensusRules } from "../src/consensus/rules.js";
import { type ConsensusState, initialConsensusState } from "../src/consensus/state.js";
import { verifyEd25519 } from "../src/crypto/ed25519-verify.js";
import { VerifyPool } from "../src/crypto/verify-pool.js";
import { reapMaxBytesMaxGas } from "../src/mempool/reap.js";
import { latePeerMetricsSink } from "../src/metrics/index.js";
import { indexerStoreOptions, txIndexStatus } from "../src/store/indexer-options.js";
import { TENDERMINT_COMPAT_VERSION } from "../src/version.js";
import { startNodeBlocksync } from "./blocksync-node.js";
import { connectApp, handshakeApp } from "./boot/app.js";
import { flushPeriodically, openConsensusLog } from "./boot/consensus-log.js";
import type { PreparedNode } from "./boot/prepare-home.js";
import { restoreConsensus } from "./boot/restart.js";
import { openSigner } from "./boot/signer.js";
import { openNodeStores } from "./boot/stores.js";
import { type BlockCommitDeps, commitOne, MempoolCommitLock } from "./effects/block-commit.js";
import { storedEvidenceHistory } from "./effects/block-validation.js";
import { consensusHandlers } from "./effects/consensus-handlers.js";
import { EvidencePoolHolder } from "./effects/evidence.js";
import { createLoop, type Step } from "./loop.js";
import { createMempoolNode } from "./mempool-node.js";
import { consensusConfigOf, mempoolConfigOf } from "./node-config.js";
import type { NodeHandle, NodeInfoView } from "./node-handle.js";
import { NodeLifecycle } from "./node-lifecycle.js";
import { startNodeMetrics } from "./node-metrics.js";
import { startNodePeerLayer } from "./p2p-transport.js";
import { ChainStateProjection } from "./projections/chain-state.js";
import { EventBus } from "./projections/event-bus.js";
import { RecentBlocks } from "./projections/recent-blocks.js";
import type { FoldStep } from "./restart-fold.js";
import { startNodeRpc } from "./rpc-start.js";
import { logFiredRules } from "./rule-trace.js";
import { mempoolTxsAvailableSource } from "./sources/mempool-txs-available.js";
import { type Clock, monotonicClock } from "./sources/stamp-time.js";

export interface StartNodeOptions {
  /** Timers of consensus and the log's flush period (default asyncScheduler). */
  scheduler?: SchedulerLike;
  /** The log's clock (default: wall time, never going backwards). */
  clock?: Clock;
  /** Every consensus fold, restart folds included (tests compare them with `rxbft replay`). */
  onConsensusStep?: (step: FoldStep) => void;
  /** Start the RPC server (default true). */
  rpc?: boolean;
  /** Force the RPC backend (tests). */
  rpcBackend?: "auto" | "uws" | "node";
  /** Worker threads of the verify pool (default 2; 0 verifies on the main thread). */
  verifyWorkers?: number;
  /** Aborts a start still waiting for a socket app to come up (Ctrl-C during start). */
  signal?: AbortSignal;
  /**
   * The in-process kvstore's retain_height policy: keep this many recent blocks (default 0: keep
   * all). The node prunes below Commit's retain_height (block-commit.ts), never below what
   * evidence or a restart still needs.
   */
  kvstoreRetainBlocks?: bigint;
  /**
   * The pure rules the consensus reducer is made with (default: src/consensus's). Tests inject
   * rules that break an invariant to prove the node halts safely on its own exception.
   */
  consensusRules?: ConsensusRules;
  /** --trace: log each upon-rule that fires, with its paper line, at debug level (rule-trace.ts). */
  trace?: boolean;
}

/** Heights of block times and validator sets kept in memory for evidence checks. */
const RECENT_BLOCKS_KEPT = 1000n;

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();

export async function startNode(prepared: PreparedNode, options: StartNodeOptions = {}): Promise<NodeHandle> {
  const life = new NodeLifecycle(prepared.logger.child("node"));
  try {
    return await assemble(prepared, options, life);
  } catch (error) {
    await life.cleanUp();
    throw error;
  }
}

async function assemble(
  prepared: PreparedNode,
  options: StartNodeOptions,
  life: NodeLifecycle,
): Promise<NodeHandle> {
  const { config, genesis, paths, logger } = prepared;
  const log = {
    node: logger.child("node"),
    consensus: logger.child("consensus"),
    mempool: logger.child("mempool"),
    state: logger.child("state"),
    store: logger.child("store"),
    abci: logger.child("proxy"),
    wal: logger.child("wal"),
    privval: logger.child("privval"),
    rpc: logger.child("rpc-server"),
  };
  const clock = options.clock ?? monotonicClock();
  const scheduler = options.scheduler ?? asyncScheduler;
  const { halt, track } = life;

  const { stores, report } = await openNodeStores(
    paths.dataDir,
    indexerStoreOptions(config, genesis.chainId, logger),
    log.store,
  );
  life.onCleanup(() => stores.close());
  const client = await connectApp({
    proxyApp: config.proxy_app,
    dataDir: paths.dataDir,
    ...(options.kvstoreRetainBlocks ? { kvstoreRetainBlocks: options.kvstoreRetainBlocks } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    logger: log.abci,
    halt,
  });
  life.onCleanup(() => client.close());
  const shaken = await handshakeApp(client, genesis, stores, report, log);
  const height = shaken.state.lastBlockHeight;
  const { wal, earlier } = await openConsensusLog(dirname(paths.walFile), height, log.wal);
  life.onCleanup(() => wal.close());
  const signer = await openSigner({
    key: prepared.privValidatorKey,
    stateFile: paths.privValidatorStateFile,
    config,
    blockStore: stores.blockStore,
    chain: shaken.state,
    logger: log.privval,
    onCleanup: (close) => life.onCleanup(close),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const pool = new VerifyPool({ size: options.verifyWorkers ?? 2 });
  life.onCleanup(() => pool.close());
  // The peer layer; with prometheus on, its metrics are kept until the registry exists below.
  const peerMetrics = config.instrumentation.prometheus ? latePeerMetricsSink() : undefined;
  const peers = await startNodePeerLayer(
    prepared,
    shaken.state.chainId,
    shaken.state.version?.consensus?.app ?? 0n,
    { ...(peerMetrics ? { metrics: peerMetrics.sink } : {}), onFault: halt },
  );
  life.onCleanup(() => peers.stop());

  // Projections the handlers and the RPC read: the chain state and recent blocks follow BlockExecuted.
  const recent = new RecentBlocks(RECENT_BLOCKS_KEPT);
  const chain = new ChainStateProjection(shaken.state, recent);
  const events = new EventBus();
  life.onCleanup(() => events.complete());
  const evidence = new EvidencePoolHolder(recent, log.consensus);
  // Admissions go through the lock held around the app's Commit (block-commit.ts).
  const mempoolLock = new MempoolCommitLock(client.mempool);
  const mempool = createMempoolNode({
    config: mempoolConfigOf(config),
    height,
    connection: mempoolLock.connection,
    events$: events.events$,
    logger: log.mempool,
    onFault: (fault) => halt(`the mempool halted on an internal error: ${fault.reason}`),
  });

  // The peer hand-off verifies peer messages with the same rules the reducer folds them with.
  const rules = options.consensusRules ?? createDefaultConsensusRules();
  const reducer = createConsensusReducer(rules, { trace: options.trace === true });
  const chainId = shaken.state.chainId;
  // The last consensus block commit under way (a run stopped for block sync waits for it).
  let committing: Promise<unknown> = Promise.resolve();
  const commitDeps: BlockCommitDeps = {
    consensus: client.consensus,
    stores: { blockStore: stores.blockStore, stateStore: stores.stateStore, indexer: stores.indexer },
    chainState: () => chain.current,
    events,
    endHeight: (h) => track(wal.endHeight(h)),
    blockCommitted: (block, deliverTxs) => mempool.blockCommitted(block, deliverTxs),
    mempoolLock,
    keepRecentHeights: BigInt(config.consensus.double_sign_check_height),
    evidenceUpdated: (s, block) => evidence.afterBlock(s, block),
    halt,
    logger: log.state,
  };
  const validationPorts = {
    checkSignatures: (items: Parameters<VerifyPool["verifyBatch"]>[0]) => pool.verifyBatch(items),
    evidencePool: () => evidence.state(),
    // A block's evidence is checked against the stores at its height.
    evidenceHistory: (heights: readonly bigint[]) =>
      storedEvidenceHistory(
        {
          blockTimeAt: async (h) => (await stores.blockStore.loadBlockMeta(h))?.header?.time,
          validatorsAt: async (h) => (await stores.stateStore.loadValidators(h)).validators,
        },
        heights,
      ),
    verifyEvidenceVote: verifyEd25519,
  };

  // Consensus runs from startConsensus: at once, or when block sync hands over (and again after
  // each return to block sync). Its folds reach the metrics through consensusFold$.
  const consensusFold$ = new Subject<Step<ConsensusState, ConsensusInput, ConsensusEffect>>();
  let latest: ConsensusState = initialConsensusState({
    config: consensusConfigOf(config),
    ...(signer ? { ownAddress: signer.address } : {}),
  });
  const consensusState$ = new BehaviorSubject<ConsensusState>(latest);
  const running = new Subscription();
  life.run(running);
  let consensusRun: Subscription | undefined;
  let consensusRuns = 0;
  const startConsensus = async (synced = 0): Promise<void> => {
    const first = consensusRuns++ === 0;
    // The handshake's state at first, then what block sync and earlier runs applied.
    const state = chain.current;
    const height = state.lastBlockHeight;
    // Blocks synced never went through the log: its end-of-height marker moves to them, and the
    // unfinished height it held is over (v0.34 skips the WAL catch-up after synced blocks).
    if (synced > 0) await wal.endHeight(height);
    let replayed: readonly ConsensusInput[] = synced > 0 ? [] : earlier;
    if (synced === 0 && !first) {
      // Back from block sync with nothing synced: the height the stopped run left unfinished.
      await wal.flush();
      replayed = (await wal.readAfterLastEndHeight()) as ConsensusInput[];
    }
    const lastCommit = height > 0n ? await stores.blockStore.loadSeenCommit(height) : undefined;
    const lastMeta = height > 0n ? await stores.blockStore.loadBlockMeta(height) : undefined;
    const started: ConsensusStarted = {
      type: "ConsensusStarted",
      time: clock(),
      chainState: state,
      lastCommit,
      lastBlockAppHash: lastMeta?.header?.appHash ?? new Uint8Array(0),
    };
    wal.appendInput(started);
    const restored = restoreConsensus({
      reducer,
      initial: initialConsensusState({
        config: consensusConfigOf(config),
        ...(signer ? { ownAddress: signer.address } : {}),
      }),
      started,
      earlier: replayed,
      ...(options.onConsensusStep ? { onStep: options.onConsensusStep } : {}),
      log: log.consensus,
    });
    const handlers = consensusHandlers({
      scheduler,
      ...(signer
        ? {
            signing: {
              signer: {
                signVote: (id, vote) => track(Promise.resolve(signer.signVote(id, vote))),
                signProposal: (id, proposal) => track(Promise.resolve(signer.signProposal(id, proposal))),
              },
              chainId,
              syncLog: () => wal.syncBeforeSigning(),
              logger: log.privval,
            },
          }
        : {}),
      reaping: {
        reapTxs: (maxBytes, maxGas) => reapMaxBytesMaxGas(mempool.state(), maxBytes, maxGas).map((t) => t.tx),
        evidencePool: () => evidence.state(),
      },
      validation: { chainState: () => chain.current, ports: validationPorts },
      execution: {
        execute: (e) => {
          const work = track(commitOne(commitDeps, e));
          committing = work.catch(() => undefined);
          return work;
        },
        halt,
      },
      peers: peers.broadcaster,
      events: {
        publish: (name, data) => events.publishConsensus(name, data),
        halt,
        peerMisbehaved: (peer, reason) => log.consensus.info("peer misbehaved", { peer, reason }),
      },
      evidence,
    });

    const loop = createLoop<ConsensusState, ConsensusInput, ConsensusEffect, ConsensusInput>({
      initialState: restored.state,
      reducer: options.trace ? logFiredRules(reducer, log.consensus) : reducer,
      sources: [
        mempoolTxsAvailableSource(mempool.txsAvailable$),
        peers.consensusInput$({ state: () => latest, rules, verifier: pool, clock }),
      ],
      stamp: (input) => ({ ...input, time: clock() }),
      toInput: (record) => record,
      append: (record) => wal.appendInput(record),
      handlers,
      resumeEffects: restored.pending,
      // Our own exception in the reducer or a handler: consensus stops folding at once (nothing
      // more is signed) and the node halts with the message naming the input.
      onFault: (fault) => halt(`consensus halted on an internal error: ${fault.reason}`),
    });
    latest = restored.state;
    const run = new Subscription();
    run.add(
      loop.state$.subscribe((s) => {
        latest = s;
        consensusState$.next(s);
      }),
    );
    run.add(chain.follow(loop.transition$));
    run.add(loop.transition$.subscribe((s) => consensusFold$.next(s)));
    if (options.onConsensusStep) {
      const onStep = options.onConsensusStep;
      run.add(
        loop.transition$.subscribe((s) =>
          onStep({ input: s.input, state: s.state, effects: s.effects, refolded: false }),
        ),
      );
    }
    run.add(
      loop.transition$.subscribe((s) => {
        if (s.input.type === "VoteSigned" || s.input.type === "ProposalSigned")
          log.consensus.debug("signed", { type: s.input.type, height: latest.height, round: latest.round });
      }),
    );
    run.add(loop.start());
    running.add(run);
    consensusRun = run;
    log.consensus.info("consensus started", {
      height: latest.height,
      round: latest.round,
      validator: signer ? hex(signer.address) : "none",
    });
  };
  // Stops folding and waits for a block commit under way; the chain state is then the store's.
  const stopConsensus = async (): Promise<void> => {
    const run = consensusRun;
    consensusRun = undefined;
    if (run === undefined) return;
    run.unsubscribe();
    running.remove(run);
    await committing;
    const saved = await stores.stateStore.load();
    if (saved !== undefined) chain.advance(saved);
    log.consensus.info("consensus stopped for block sync", { height: chain.current.lastBlockHeight });
  };

  running.add(mempool.start());
  const flushing = flushPeriodically(wal, scheduler);
  life.onCleanup(() => flushing.unsubscribe());
  // Metrics (node-metrics.ts): projections of both loops, served when prometheus = true.
  const metrics = config.instrumentation.prometheus
    ? await startNodeMetrics({
        config,
        chainId: shaken.state.chainId,
        consensusFold$,
        mempool,
        wal,
        blockTimeAt: async (h) => (await stores.blockStore.loadBlockMeta(h))?.header?.time,
        logger: logger.child("metrics"),
      })
    : undefined;
  if (metrics) {
    life.onCleanup(() => metrics.stop());
    peerMetrics?.attach(metrics.metrics.peers);
  }
  // Block sync (blocksync-node.ts): serves peers always; with fast_sync it runs first and starts
  // consensus when caught up, else consensus starts now.
  const blocksync = await startNodeBlocksync({
    ...{ prepared, peers, stores, chain, commitDeps, validationPorts, pool, signer, scheduler, life },
    ...{ startConsensus, stopConsensus, metrics: metrics?.metrics },
  });

  const nodeInfo: NodeInfoView = {
    nodeId: prepared.nodeId,
    moniker: config.moniker,
    network: chainId,
    version: TENDERMINT_COMPAT_VERSION,
    listenAddr: peers.listenAddr,
    channels: peers.nodeInfo.channels,
    rpcAddress: "",
    protocolVersion: { p2p: 8n, block: 11n, app: shaken.state.version?.consensus?.app ?? 0n },
    txIndex: txIndexStatus(config),
  };
  const handle: NodeHandle = {
    config,
    genesis,
    nodeInfo,
    validator: signer
      ? {
          address: signer.address,
          pubKey: signer.publicKey,
          votingPower: () =>
            chain.current.validators?.validators.find((v) =>
              Buffer.from(v.address).equals(Buffer.from(signer.address)),
            )?.votingPower ?? 0n,
        }
      : undefined,
    consensusState$: consensusState$.asObservable(),
    latestConsensusState: () => latest,
    chainState: () => chain.current,
    events$: events.events$,
    subscribeEvents: (listener) => {
      const sub = events.events$.subscribe((e) => {
        try {
          listener(e);
        } catch (error) {
          log.node.error("event listener failed", { err: (error as Error).message });
        }
      });
      return () => sub.unsubscribe();
    },
    stores: {
      blockStore: stores.blockStore,
      stateStore: stores.stateStore,
      txIndexer: stores.txIndexer,
      blockIndexer: stores.blockIndexer,
    },
    mempool,
    abciQuery: client.query,
    evidence: { addEvidence: (item) => evidence.add(item, chain.current, verifyEd25519) },
    appInfo: shaken.appInfo,
    peers: peers.view,
    catchingUp: () => blocksync.syncing,
    stop: () => life.shutdown({ exitCode: 0, reason: "stopped" }),
    stopped: life.stopped,
  };

  if (options.rpc ?? true) {
    const server = await startNodeRpc(handle, prepared.home, log.rpc, options.rpcBackend, metrics);
    if (server) {
      nodeInfo.rpcAddress = server.address;
      // A halt during the start (one re-applied from the log) has already cleaned up: close the
      // server now, or it would keep the process alive. Otherwise it stops accepting requests
      // before anything else closes.
      if (life.isStopping) await server.close();
      else life.onCleanup(() => server.close());
    }
  }
  return handle;
}
