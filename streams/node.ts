// Assembles a node from a prepared home (config, genesis, keys, lock: boot/prepare-home.ts) as a
// sequence of boot steps, each in its own file under boot/: stores + reconcile → app + handshake
// → consensus log (torn tail repaired and reported) → signer with double_sign_check_height →
// verify pool, peer layer → projections (chain state, recent blocks, evidence pool, events) →
// mempool → consensus loop with its restart fold and handler table → metrics → start → RPC.
// The lifecycle (halt, work under way, shutdown) is node-lifecycle.ts. Returns a NodeHandle;
// stop() ends it cleanly, a halt ends it with an exit code and a reason.
import { dirname } from "node:path";
import { asyncScheduler, map } from "rxjs";
import { VerifyPool } from "../src/crypto/verify-pool.js";
import { othersMayPropose } from "../src/state/other-proposers.js";
import { indexerStoreOptions, levelMemoryOf } from "../src/store/indexer-options.js";
import { keepAdmittedTxDigests } from "../src/wire/hashes.js";
import { startNodeBlocksync } from "./blocksync-node.js";
import { connectApp, handshakeApp } from "./boot/app.js";
import { openConsensusLog } from "./boot/consensus-log.js";
import { createConsensusLoop } from "./boot/consensus-loop.js";
import { openEvidencePool } from "./boot/evidence-pool.js";
import { moduleLoggers } from "./boot/loggers.js";
import { openMempool } from "./boot/mempool.js";
import { peerMetricsOf, startMetricsIfEnabled } from "./boot/node-metrics-start.js";
import type { PreparedNode } from "./boot/prepare-home.js";
import { createNodeProjections, RECENT_BLOCKS_KEPT } from "./boot/projections.js";
import { startReactors } from "./boot/reactors.js";
import { serveRpc } from "./boot/rpc.js";
import { nodeHandleOf } from "./boot/rpc-view.js";
import { openSigner } from "./boot/signer.js";
import { openNodeStores } from "./boot/stores.js";
import { nodeEvidenceHistory } from "./effects/block-validation.js";
import type { NodeHandle } from "./node-handle.js";
import { NodeLifecycle } from "./node-lifecycle.js";
import type { StartNodeOptions } from "./node-options.js";
import { startNodePeerLayer } from "./p2p-transport.js";
import { EvidencePoolProjection } from "./projections/evidence-pool.js";
import { RecentBlocks } from "./projections/recent-blocks.js";
import { monotonicClock } from "./sources/stamp-time.js";

export type { StartNodeOptions } from "./node-options.js";

export async function startNode(prepared: PreparedNode, options: StartNodeOptions = {}): Promise<NodeHandle> {
  const life = new NodeLifecycle(prepared.logger.child("node"));
  try {
    return await assemble(prepared, options, life);
  } catch (error) {
    await life.unwindStart();
    throw error;
  }
}

async function assemble(
  prepared: PreparedNode,
  options: StartNodeOptions,
  life: NodeLifecycle,
): Promise<NodeHandle> {
  const { config, genesis, paths, logger } = prepared;
  const log = moduleLoggers(logger);
  const clock = options.clock ?? monotonicClock();
  const scheduler = options.scheduler ?? asyncScheduler;
  const { halt } = life;
  // A stop asked for while starting (a signal) unwinds the start at the next stage: startNode's
  // catch closes what was opened, and the caller sees the abort.
  const stillWanted = () => options.signal?.throwIfAborted();

  const { stores, report } = await openNodeStores(
    paths.dataDir,
    indexerStoreOptions(config, genesis.chainId, logger),
    log.store,
  );
  life.onCleanup(() => stores.close());
  stillWanted();
  const app = await connectApp({
    proxyApp: config.proxy_app,
    dataDir: paths.dataDir,
    ...(options.kvstoreRetainBlocks ? { kvstoreRetainBlocks: options.kvstoreRetainBlocks } : {}),
    kvstoreLevel: levelMemoryOf(config),
    ...(options.signal ? { signal: options.signal } : {}),
    logger: log.abci,
    halt,
  });
  life.onCleanup(() => app.close());
  const shaken = await handshakeApp(app, genesis, stores, report, log);
  stillWanted();
  const height = shaken.state.lastBlockHeight;
  const { wal, earlier } = await openConsensusLog(dirname(paths.walFile), height, log.wal);
  life.onCleanup(() => wal.close());
  stillWanted();
  const signer = await openSigner({
    key: prepared.privValidatorKey,
    stateFile: paths.privValidatorStateFile,
    consensusLog: wal,
    config,
    blockStore: stores.blockStore,
    chain: shaken.state,
    logger: log.privval,
    onCleanup: (close) => life.onCleanup(close),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const pool = new VerifyPool({ size: options.verifyWorkers ?? 2 });
  life.onCleanup(() => pool.close());
  const peerMetrics = peerMetricsOf(config);
  const peers = await startNodePeerLayer(
    prepared,
    shaken.state.chainId,
    shaken.state.version?.consensus?.app ?? 0n,
    // The reactors subscribe later (startReactors, block sync): peers' first messages wait.
    { ...(peerMetrics ? { metrics: peerMetrics.sink } : {}), onFault: halt, holdDeliveries: true },
  );
  life.onCleanup(() => peers.stop());
  stillWanted();

  // The evidence pool, durable in data/evidence.db (boot/evidence-pool.ts), in the projections.
  const recent = new RecentBlocks(RECENT_BLOCKS_KEPT);
  const evidencePool = await openEvidencePool({
    ...{ dataDir: paths.dataDir, chain: shaken.state, blockStore: stores.blockStore, recent },
    ...{ historyFor: nodeEvidenceHistory(stores), logger: log.consensus, onStoreFailure: halt },
    make: (history, logger, options) => new EvidencePoolProjection(history, logger, options),
    level: levelMemoryOf(config),
  });
  life.onCleanup(() => evidencePool.close());
  stillWanted();
  const projections = createNodeProjections(shaken.state, log.consensus, {
    recent,
    evidence: evidencePool.holder,
  });
  life.onCleanup(() => projections.events.complete());
  // The admitted digests' memo only serves other validators' proposals (wire/hashes.ts): kept
  // while one may propose, let go while we are the chain's only validator.
  projections.chain.onState((state) => keepAdmittedTxDigests(othersMayPropose(state, signer?.address)));
  life.onCleanup(() => keepAdmittedTxDigests(true));
  if (options.onEvent) projections.events.events$.subscribe(options.onEvent);
  const { mempool, mempoolLock } = openMempool({ config, height, app, projections, life, log });
  const consensus = await createConsensusLoop({
    config,
    handshaken: shaken.state,
    clock,
    scheduler,
    stores,
    app,
    wal,
    earlier,
    signer,
    pool,
    peers,
    mempool,
    mempoolLock,
    projections,
    life,
    log,
    options,
  });
  const metrics = await startMetricsIfEnabled({
    config,
    chainId: shaken.state.chainId,
    fold$: consensus.loop.transition$,
    mempool,
    wal,
    stores,
    peerMetrics,
    life,
    log,
  });

  // The reactors on the peer layer: consensus, mempool and evidence gossip (boot/reactors.ts).
  // Our state reaches the consensus reactor from the first fold on, never the state held before
  // consensus starts: a node in block sync announces nothing (v0.34), or peers would send it
  // votes it drops and count them as delivered.
  const folded$ = consensus.loop.transition$.pipe(map((step) => step.state));
  // Block sync starts after the reactors; until it has, nothing runs to pause for.
  let blocksyncNow: { readonly syncing: boolean } | undefined;
  startReactors({
    ...{ peers, config, consensus$: folded$, stores, mempool, projections },
    ...{ scheduler, logger, life },
    syncing: () => blocksyncNow?.syncing ?? false,
  });
  // Block sync (blocksync-node.ts): serves peers always; with fast_sync it runs first and starts
  // consensus when caught up, else it starts consensus now.
  const blocksync = await startNodeBlocksync({
    ...{ prepared, peers, stores, chain: projections.chain, consensus, pool, signer, scheduler, life },
    metrics: metrics?.metrics,
  });
  blocksyncNow = blocksync;
  stillWanted();
  // Every reactor and the consensus hand-off are subscribed: peers' joins and messages flow.
  peers.startDelivery();
  wal.flushEvery(scheduler);

  const handle = nodeHandleOf({
    prepared,
    shaken,
    signer,
    peers,
    consensus,
    projections,
    stores,
    mempool,
    app,
    life,
    logger: log.node,
    catchingUp: () => blocksync.syncing,
  });
  if (options.rpc ?? true) await serveRpc(handle, prepared.home, life, log.rpc, options.rpcBackend, metrics);
  stillWanted();
  return handle;
}
