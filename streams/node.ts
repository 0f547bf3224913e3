// Assembles a node from a prepared home (config, genesis, keys, lock: src/cli/prepare-node.ts):
//   stores + reconcile → ABCI client + handshake → consensus log open (torn tail repaired and
//   reported) → the restart fold of the unfinished height (restart-fold.ts) → signer with
//   double_sign_check_height → verify pool → mempool loop → consensus loop → RPC server.
// Returns a NodeHandle; stop() ends it cleanly, a halt ends it with an exit code and a reason.
import { dirname, join } from "node:path";
import { asyncScheduler, type SchedulerLike, type Subscription } from "rxjs";
import type { AbciClient } from "../src/abci/client/abci-client.js";
import { createAbciClient } from "../src/abci/client/create-client.js";
import { haltOnAbciFailure } from "../src/abci/halt-on-failure.js";
import { handshake } from "../src/abci/handshake.js";
import type { PreparedNode } from "../src/cli/prepare-node.js";
import { createDefaultConsensusRules } from "../src/consensus/default-rules.js";
import type { ConsensusEffect } from "../src/consensus/effect.js";
import type { ConsensusInput } from "../src/consensus/input.js";
import { createConsensusReducer } from "../src/consensus/reducer.js";
import type { ConsensusRules } from "../src/consensus/rules.js";
import { type ConsensusState, initialConsensusState } from "../src/consensus/state.js";
import { verifyEd25519 } from "../src/crypto/ed25519-verify.js";
import { VerifyPool } from "../src/crypto/verify-pool.js";
import type { Logger } from "../src/logger/index.js";
import { reapMaxBytesMaxGas } from "../src/mempool/reap.js";
import { checkRecentSignatures } from "../src/privval/double-sign-check.js";
import { FileSigner } from "../src/privval/file-signer.js";
import { stateFromGenesis } from "../src/state/genesis-state.js";
import { openStores, type Stores } from "../src/store/open-stores.js";
import { ValidatorSet } from "../src/types/validator-set.js";
import { TENDERMINT_COMPAT_VERSION } from "../src/version.js";
import { Wal } from "../src/wal/wal.js";
import type { Timestamp } from "../src/wire/generated/google/protobuf/timestamp.js";
import type { State as ChainState } from "../src/wire/generated/tendermint/state/types.js";
import type { Validator } from "../src/wire/generated/tendermint/types/validator.js";
import { type BlockCommitDeps, commitOne, MempoolCommitLock } from "./effects/block-commit.js";
import { storedEvidenceHistory } from "./effects/block-validation.js";
import { NO_PEERS } from "./effects/broadcasts.js";
import { consensusHandlers } from "./effects/consensus-handlers.js";
import { EvidencePoolHolder } from "./effects/evidence.js";
import { createLoop, describeMessage, type Step } from "./loop.js";
import { createMempoolNode } from "./mempool-node.js";
import { consensusConfigOf, mempoolConfigOf } from "./node-config.js";
import { EXIT_HALTED, NodeError } from "./node-errors.js";
import type { NodeExit, NodeHandle, NodeInfoView } from "./node-handle.js";
import { EventBus } from "./projections/event-bus.js";
import { type FoldStep, foldRestart, outstandingEffects } from "./restart-fold.js";
import { startNodeRpc } from "./rpc-start.js";
import { mempoolTxsAvailableSource } from "./sources/mempool-txs-available.js";
import { type Clock, monotonicClock } from "./sources/stamp-time.js";

export interface StartNodeOptions {
  /** Timers of consensus (default asyncScheduler); a virtual-time scheduler in simulations. */
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
}

/** The proposer-priority advance the state store needs to load a validator set saved earlier. */
const advanceProposerPriority = (
  set: Parameters<typeof ValidatorSet.fromProto>[0],
  times: bigint,
): Parameters<typeof ValidatorSet.fromProto>[0] =>
  ValidatorSet.fromProto(set).incrementProposerPriority(Number(times)).toProto();

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();

export async function startNode(prepared: PreparedNode, options: StartNodeOptions = {}): Promise<NodeHandle> {
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
  const cleanups: (() => Promise<unknown> | unknown)[] = [];
  const cleanUp = async () => {
    for (const c of cleanups.reverse()) {
      try {
        await c();
      } catch (error) {
        log.node.error("error while stopping", { err: (error as Error).message });
      }
    }
    cleanups.length = 0;
  };

  try {
    return await assemble();
  } catch (error) {
    await cleanUp();
    throw error;
  }

  async function assemble(): Promise<NodeHandle> {
    // Stores, reconciled: a crash between block, state and index writes is repaired here.
    const stores: Stores = await openStores(paths.dataDir, {
      indexer: config.tx_index.indexer === "kv" ? "kv" : "null",
      advanceProposerPriority,
    });
    cleanups.push(() => stores.close());
    const report = await stores.reconcile();
    for (const finding of report.findings) log.store.info(finding);

    // The app: in-process example or socket; any connection dying halts the node.
    // A socket app is dialled until it is up (as Tendermint waits for its app), or the start is aborted.
    const client: AbciClient = await createAbciClient(config.proxy_app, {
      kvstoreDir: join(paths.dataDir, "kvstore.db"),
      ...(options.kvstoreRetainBlocks ? { retainBlocks: options.kvstoreRetainBlocks } : {}),
      logger: log.abci,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    cleanups.push(() => client.close());
    let haltNode: (reason: string, exitCode: number) => void = () => {};
    haltOnAbciFailure(client, log.abci, (h) => haltNode(h.message, h.exitCode));

    const startState = stores.stateStore.load() ?? stateFromGenesis(genesis);
    const shaken = await handshake(
      { client, genesis, blockStore: stores.blockStore, stateStore: stores.stateStore, logger: log.abci },
      startState,
    );
    let chain: ChainState = shaken.state;
    if (stores.stateStore.load() === undefined) await stores.stateStore.save(chain);
    // A block the handshake executed (saved before a crash, never executed) is indexed now, not
    // at the next restart: the stores are reconciled again once the handshake replayed anything.
    if (report.replayHeight !== undefined || shaken.replayedBlocks > 0) {
      for (const finding of (await stores.reconcile()).findings) log.store.info(finding);
    }
    const height = chain.lastBlockHeight;

    // The consensus log: a torn tail is cut and reported; corruption elsewhere stops the start.
    const wal = await Wal.open(dirname(paths.walFile));
    cleanups.push(() => wal.close());
    if (wal.repair) log.wal.warn(wal.repair.message);
    const earlier = await unfinishedHeightInputs(wal, height, log.wal);

    // The signer, after checking that no other process signed recent commits with our key.
    let signer: FileSigner | undefined;
    if (prepared.privValidatorKey) {
      signer = FileSigner.fromStateFile(prepared.privValidatorKey.privateKey, paths.privValidatorStateFile);
      await checkRecentSignatures(
        signer.address,
        config.consensus.double_sign_check_height,
        (h) => stores.blockStore.loadBlockCommit(h),
        stores.blockStore.height(),
        { signedUpTo: signer.lastSignState.height },
      );
    }
    const pool = new VerifyPool({ size: options.verifyWorkers ?? 2 });
    cleanups.push(() => pool.close());

    const events = new EventBus();
    cleanups.push(() => events.complete());
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

    // Recent block times and validator sets for the evidence pool (kept in memory, bounded).
    const recent = new Map<bigint, { time: Timestamp; validators: readonly Validator[] }>();
    const remember = (s: ChainState) => {
      recent.set(s.lastBlockHeight, {
        time: s.lastBlockTime!,
        validators: s.lastValidators?.validators ?? [],
      });
      for (const h of recent.keys()) if (h + 1000n < s.lastBlockHeight) recent.delete(h);
    };
    const evidence = new EvidencePoolHolder(
      {
        blockTimeAt: (h) => recent.get(h)?.time,
        validatorsAt: (h) => recent.get(h)?.validators,
      },
      log.consensus,
    );

    // Restart fold: the new ConsensusStarted is logged first, then the height's earlier inputs
    // are folded again (not logged again), and only their unanswered requests are carried out.
    const reducer = createConsensusReducer(options.consensusRules ?? createDefaultConsensusRules());
    const initial = initialConsensusState({
      config: consensusConfigOf(config),
      ...(signer ? { ownAddress: signer.address } : {}),
    });
    const lastCommit = height > 0n ? await stores.blockStore.loadSeenCommit(height) : undefined;
    const lastMeta = height > 0n ? await stores.blockStore.loadBlockMeta(height) : undefined;
    const started: ConsensusInput = {
      type: "ConsensusStarted",
      time: clock(),
      chainState: chain,
      lastCommit,
      lastBlockAppHash: lastMeta?.header?.appHash ?? new Uint8Array(0),
    };
    wal.appendInput(started);
    const restartSteps: FoldStep[] = [];
    let restored: ConsensusState;
    let refolding: ConsensusInput = started;
    const tracked: typeof reducer = (state, input) => {
      refolding = input;
      return reducer(state, input);
    };
    try {
      restored = foldRestart(tracked, initial, started, earlier, (step) => {
        restartSteps.push(step);
        options.onConsensusStep?.(step);
      });
    } catch (error) {
      // The log's inputs are ours: a throw re-folding them is the same broken invariant that
      // halted the last run (its input is the last record), so the start stops with the reason.
      throw new NodeError(
        "NODE_HALTED",
        `consensus cannot restart: the reducer threw re-folding ${describeMessage(refolding)} from the consensus log: ${(error as Error).message}`,
        undefined,
        { cause: error },
      );
    }
    const pending = outstandingEffects(restartSteps);
    if (earlier.length > 0) {
      log.consensus.info("replayed the unfinished height from the consensus log", {
        height: restored.height,
        round: restored.round,
        inputs: restartSteps.length - 1,
        outstanding: pending.map((e) => e.type).join(",") || "none",
      });
    }

    // Halting: no further signatures (the loop is unsubscribed), the log synced, a clear reason.
    let resolveStopped!: (exit: NodeExit) => void;
    const stopped = new Promise<NodeExit>((resolve) => {
      resolveStopped = resolve;
    });
    let stopping: Promise<NodeExit> | undefined;
    let running: Subscription | undefined;
    const inFlight = new Set<Promise<unknown>>();
    const shutdown = (exit: NodeExit): Promise<NodeExit> => {
      if (stopping) return stopping;
      stopping = (async () => {
        running?.unsubscribe();
        if (exit.exitCode !== 0)
          log.node.error("node halted", { reason: exit.reason, exitCode: exit.exitCode });
        else log.node.info("stopping node");
        // The step under way finishes (a half-written height is repaired at start anyway).
        await Promise.allSettled([...inFlight]);
        await cleanUp();
        log.node.info("node stopped", { exitCode: exit.exitCode });
        resolveStopped(exit);
        return exit;
      })();
      return stopping;
    };
    haltNode = (reason, exitCode) => void shutdown({ exitCode, reason });
    const halt = (reason: string) => haltNode(reason, EXIT_HALTED);
    const track = <T>(p: Promise<T>): Promise<T> => {
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p)).catch(() => {});
      return p;
    };

    const chainId = chain.chainId;
    const commitDeps: BlockCommitDeps = {
      consensus: client.consensus,
      stores: { blockStore: stores.blockStore, stateStore: stores.stateStore, indexer: stores.indexer },
      chainState: () => chain,
      setChainState: (s) => {
        chain = s;
        remember(s);
      },
      events,
      endHeight: (h) => track(wal.endHeight(h)),
      blockCommitted: (block, deliverTxs) => mempool.blockCommitted(block, deliverTxs),
      mempoolLock,
      keepRecentHeights: BigInt(config.consensus.double_sign_check_height),
      evidenceUpdated: (s, block) => evidence.afterBlock(s, block),
      halt,
      logger: log.state,
    };
    const handlers = consensusHandlers({
      scheduler,
      ...(signer
        ? {
            signing: {
              signer: {
                signVote: (id, vote) => track(signer.signVote(id, vote)),
                signProposal: (id, proposal) => track(signer.signProposal(id, proposal)),
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
      validation: {
        chainState: () => chain,
        ports: {
          checkSignatures: (items) => pool.verifyBatch(items),
          evidencePool: () => evidence.state(),
          // A block's evidence is checked against the stores at its height.
          evidenceHistory: (heights) =>
            storedEvidenceHistory(
              {
                blockTimeAt: async (h) => (await stores.blockStore.loadBlockMeta(h))?.header?.time,
                validatorsAt: async (h) => (await stores.stateStore.loadValidators(h)).validators,
              },
              heights,
            ),
          verifyEvidenceVote: verifyEd25519,
        },
      },
      execution: { execute: (e) => track(commitOne(commitDeps, e)), halt },
      peers: NO_PEERS,
      events: {
        publish: (name, data) => events.publishConsensus(name, data),
        halt,
        peerMisbehaved: (peer, reason) => log.consensus.info("peer misbehaved", { peer, reason }),
      },
      evidence,
    });

    const loop = createLoop<ConsensusState, ConsensusInput, ConsensusEffect, ConsensusInput>({
      initialState: restored,
      // Requests of the restored height still unanswered, and the latest timeout.
      resumeEffects: pending,
      reducer,
      sources: [mempoolTxsAvailableSource(mempool.txsAvailable$)],
      stamp: (input) => ({ ...input, time: clock() }),
      toInput: (record) => record,
      append: (record) => wal.appendInput(record),
      handlers,
      // Our own exception in the reducer or a handler: consensus stops folding at once (nothing
      // more is signed) and the node halts with the message naming the input.
      onFault: (fault) => halt(`consensus halted on an internal error: ${fault.reason}`),
    });
    let latest = restored;
    const consensusState$ = loop.state$;

    running = loop.state$.subscribe((s) => {
      latest = s;
    });
    if (options.onConsensusStep) {
      const onStep = options.onConsensusStep;
      running.add(
        loop.transition$.subscribe((s: Step<ConsensusState, ConsensusInput, ConsensusEffect>) =>
          onStep({ input: s.input, state: s.state, effects: s.effects, refolded: false }),
        ),
      );
    }
    running.add(
      loop.transition$.subscribe((s) => {
        if (s.input.type === "VoteSigned" || s.input.type === "ProposalSigned") {
          log.consensus.debug("signed", { type: s.input.type, height: latest.height, round: latest.round });
        }
      }),
    );
    running.add(mempool.start());
    running.add(loop.start());
    // Buffered log records reach the file often (a kill -9 keeps them; a power cut may not).
    const flushTimer = setInterval(() => {
      wal.flush().catch(() => {});
    }, 100);
    flushTimer.unref();
    cleanups.push(() => clearInterval(flushTimer));
    log.consensus.info("consensus started", {
      height: latest.height,
      round: latest.round,
      validator: signer ? hex(signer.address) : "none",
    });

    const nodeInfo: NodeInfoView = {
      nodeId: prepared.nodeId,
      moniker: config.moniker,
      network: chainId,
      version: TENDERMINT_COMPAT_VERSION,
      listenAddr: config.p2p.laddr,
      rpcAddress: "",
      protocolVersion: { p2p: 8n, block: 11n, app: chain.version?.consensus?.app ?? 0n },
      txIndex: config.tx_index.indexer === "kv" ? "on" : "off",
    };
    const validatorInfo = signer
      ? {
          address: signer.address,
          pubKey: signer.publicKey,
          votingPower: () =>
            chain.validators?.validators.find((v) =>
              Buffer.from(v.address).equals(Buffer.from(signer.address)),
            )?.votingPower ?? 0n,
        }
      : undefined;

    const handle: NodeHandle = {
      config,
      genesis,
      nodeInfo,
      validator: validatorInfo,
      consensusState$,
      latestConsensusState: () => latest,
      chainState: () => chain,
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
      evidence: { addEvidence: (item) => evidence.add(item, chain, verifyEd25519) },
      appInfo: shaken.appInfo,
      catchingUp: () => false,
      stop: () => shutdown({ exitCode: 0, reason: "stopped" }),
      stopped,
    };

    if (options.rpc ?? true) {
      const server = await startNodeRpc(
        handle,
        prepared.home,
        paths.genesisFile,
        log.rpc,
        options.rpcBackend,
      );
      if (server) {
        nodeInfo.rpcAddress = server.address;
        // A halt during the start (one re-applied from the log) has already cleaned up: close the
        // server now, or it would keep the process alive. Otherwise it stops accepting requests
        // before anything else closes.
        if (stopping) await server.close();
        else cleanups.push(() => server.close());
      }
    }
    return handle;
  }
}

/**
 * The inputs logged for the height after `height` (the last committed one). When the log's last
 * end-of-height marker is older (a crash between saving the state and writing the marker, or a
 * log moved aside), the marker is written now and nothing is replayed.
 */
async function unfinishedHeightInputs(wal: Wal, height: bigint, log: Logger): Promise<ConsensusInput[]> {
  const marker = wal.lastEndHeight;
  if (marker !== undefined && marker > height) {
    throw new NodeError(
      "NODE_WAL_AHEAD_OF_STORE",
      `consensus log ${wal.dir} ends height ${marker} but the stores hold height ${height}: data/ was restored or damaged without its log; restore both together`,
    );
  }
  if ((marker === undefined && height > 0n) || (marker !== undefined && marker < height)) {
    log.info("writing the missing end-of-height marker", { height, previous: marker ?? "none" });
    await wal.endHeight(height);
    return [];
  }
  const inputs = (await wal.readAfterLastEndHeight()) as ConsensusInput[];
  if (inputs.length > 0)
    log.info("read the unfinished height from the consensus log", {
      height: height + 1n,
      inputs: inputs.length,
    });
  return inputs;
}
