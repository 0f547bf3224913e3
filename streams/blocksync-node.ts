// Block sync in the node: the reactor on the peer layer (reactors/blocksync.ts) with the node's
// own block commit (effects/block-commit.ts commitOne: the same ABCI calls, store writes and
// events as consensus, without the consensus log's end-of-height marker: block sync logs nothing,
// as v0.34 writes no WAL while syncing) and the node's block validation. With fast_sync on and
// other validators in the set (v0.34: fastSync && !onlyValidatorIsUs) the node syncs first and
// starts consensus when caught up; otherwise consensus starts at once. Either way the reactor
// serves status and blocks to peers. Beyond v0.34: in consensus, a node that falls more than
// [fastsync] fall_behind_heights behind its peers (src/blocksync/caught-up.ts fellBehind) stops
// its consensus loop (consensus-loop.ts stop: nothing more signed, the work under way finished,
// the log synced), syncs again, and starts consensus again through startAfterSync. The hand-overs
// run one after another, so a stop never overtakes a start still under way.
import type { SchedulerLike } from "rxjs";
import type { VerifyItem } from "../src/crypto/verify-item.js";
import type { VerifyPool } from "../src/crypto/verify-pool.js";
import type { NodeMetrics } from "../src/metrics/index.js";
import { onlyValidatorIsUs } from "../src/state/other-proposers.js";
import { proposalBlockProblem } from "../src/state/validate-proposal-block.js";
import type { ConsensusLoop } from "./boot/consensus-loop.js";
import type { PreparedNode } from "./boot/prepare-home.js";
import { type BlockCommitDeps, commitOne } from "./effects/block-commit.js";
import type { NodeLifecycle } from "./node-lifecycle.js";
import type { PeerLayer } from "./p2p-layer.js";
import type { ChainStateProjection } from "./projections/chain-state.js";
import { type BlocksyncReactor, startBlocksyncReactor } from "./reactors/blocksync.js";

export interface NodeBlocksyncDeps {
  prepared: PreparedNode;
  peers: PeerLayer;
  stores: { blockStore: BlockCommitDeps["stores"]["blockStore"] };
  chain: ChainStateProjection;
  /** The consensus loop, started here: at once, or when block sync hands over. */
  consensus: Pick<
    ConsensusLoop,
    "start" | "startAfterSync" | "stop" | "startMempool" | "commitDeps" | "validationPorts"
  >;
  pool: VerifyPool;
  /** Our validator address, when we are one. */
  signer: { address: Uint8Array } | undefined;
  scheduler: SchedulerLike;
  life: Pick<NodeLifecycle, "track" | "halt" | "onCleanup" | "isStopping">;
  /** The node's metrics, when [instrumentation] prometheus is on. */
  metrics?: NodeMetrics | undefined;
}

export async function startNodeBlocksync(deps: NodeBlocksyncDeps): Promise<BlocksyncReactor> {
  const { config } = deps.prepared;
  const { chain, life } = deps;
  const log = deps.prepared.logger.child("blocksync");
  const syncCommit: BlockCommitDeps = {
    ...deps.consensus.commitDeps,
    endHeight: async () => {},
    markEndHeight: async () => {},
    setChainState: (s) => chain.advance(s),
  };
  const fastSync = config.fast_sync;
  // The switches between consensus and block sync, one at a time, in the order they were asked.
  let handing: Promise<void> = Promise.resolve();
  const handOver = (step: () => Promise<void>, failure: string) => {
    handing = life.track(
      handing.then(step).catch((error: Error) => life.halt(`${failure}: ${error.message}`)),
    );
  };
  const reactor = startBlocksyncReactor(deps.peers, {
    blockStore: deps.stores.blockStore,
    chainState: () => chain.current,
    // No new block once a stop began: the stop waits for every commit under way and what it
    // registers (node-lifecycle.ts), and must not wait for a sync that goes on.
    applyBlock: (e) =>
      life.isStopping
        ? Promise.reject(new Error("the node is stopping"))
        : life.track(commitOne(syncCommit, e)),
    verify: {
      verifier: deps.pool,
      blockProblem: (state, block, verifier) => {
        const ports = deps.consensus.validationPorts;
        const checkSignatures = verifier
          ? (items: readonly VerifyItem[]) => verifier.verifyBatch(items)
          : undefined;
        return proposalBlockProblem(state, block, checkSignatures ? { ...ports, checkSignatures } : ports);
      },
    },
    onCaughtUp: ({ synced }) =>
      handOver(() => deps.consensus.startAfterSync(synced), "consensus could not start after block sync"),
    onFellBehind: () =>
      handOver(async () => {
        await deps.consensus.stop();
        if (!life.isStopping) reactor.startSync();
      }, "consensus could not stop for block sync"),
    halt: (reason) => life.halt(reason),
    logger: log,
    scheduler: deps.scheduler,
    fallBehindHeights: fastSync ? BigInt(config.fastsync.fall_behind_heights) : 0n,
    serveQueuedBytes: config.fastsync.serve_queued_bytes,
  });
  life.onCleanup(() => reactor.stop());
  const metrics = deps.metrics;
  if (metrics)
    reactor.attachProgressSink({
      progress(p, syncing) {
        metrics.consensus.fastSyncing.set(syncing ? 1 : 0);
        metrics.blocksync.height.set(Number(p.height));
        metrics.blocksync.targetHeight.set(Number(p.target));
        metrics.blocksync.blocksPerSecond.set(p.blocksPerSecond);
        metrics.blocksync.etaSeconds.set(p.etaSeconds ?? -1);
      },
    });
  if (fastSync && !onlyValidatorIsUs(chain.current, deps.signer?.address)) {
    deps.consensus.startMempool();
    reactor.startSync();
  } else deps.consensus.start();
  return reactor;
}
