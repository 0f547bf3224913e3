// Block sync in the node: the reactor on the peer layer (reactors/blocksync.ts) with the node's
// own block commit (effects/block-commit.ts commitOne: the same ABCI calls, store writes and
// events as consensus, without the consensus log's end-of-height marker: block sync logs nothing,
// as v0.34 writes no WAL while syncing) and the node's block validation. With fast_sync on and
// other validators in the set (v0.34: fastSync && !onlyValidatorIsUs) the node syncs first and
// starts consensus when caught up; otherwise consensus starts at once. Either way the reactor
// serves status and blocks to peers, and in consensus sends the node back to block sync when it
// falls [fastsync] fall_behind_heights behind its peers.
import type { SchedulerLike } from "rxjs";
import type { VerifyPool } from "../src/crypto/verify-pool.js";
import type { NodeMetrics } from "../src/metrics/index.js";
import { type ProposalBlockPorts, proposalBlockProblem } from "../src/state/validate-proposal-block.js";
import type { State as ChainState } from "../src/wire/generated/tendermint/state/types.js";
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
  commitDeps: BlockCommitDeps;
  validationPorts: ProposalBlockPorts;
  pool: VerifyPool;
  /** Our validator address, when we are one. */
  signer: { address: Uint8Array } | undefined;
  scheduler: SchedulerLike;
  life: Pick<NodeLifecycle, "track" | "halt" | "onCleanup">;
  /** Starts consensus at the chain state's height; `synced` blocks were applied by block sync. */
  startConsensus(synced?: number): Promise<void>;
  /** Stops consensus and waits for a block commit under way. */
  stopConsensus(): Promise<void>;
  /** The node's metrics, when [instrumentation] prometheus is on. */
  metrics?: NodeMetrics | undefined;
}

/** v0.34's onlyValidatorIsUs: a chain whose only validator is this node needs no sync. */
export function onlyValidatorIsUs(state: ChainState, address: Uint8Array | undefined): boolean {
  const validators = state.validators?.validators ?? [];
  return (
    address !== undefined &&
    validators.length === 1 &&
    Buffer.from(validators[0]!.address).equals(Buffer.from(address))
  );
}

export async function startNodeBlocksync(deps: NodeBlocksyncDeps): Promise<BlocksyncReactor> {
  const { config } = deps.prepared;
  const { chain, life } = deps;
  const log = deps.prepared.logger.child("blocksync");
  const syncCommit: BlockCommitDeps = {
    ...deps.commitDeps,
    endHeight: async () => {},
    setChainState: (s) => chain.advance(s),
  };
  const fastSync = config.fast_sync;
  const reactor = startBlocksyncReactor(deps.peers, {
    blockStore: deps.stores.blockStore,
    chainState: () => chain.current,
    applyBlock: (e) => life.track(commitOne(syncCommit, e)),
    verify: {
      verifier: deps.pool,
      blockProblem: (state, block) => proposalBlockProblem(state, block, deps.validationPorts),
    },
    onCaughtUp: ({ synced }) => {
      deps
        .startConsensus(synced)
        .catch((error: Error) => life.halt(`consensus could not start after block sync: ${error.message}`));
    },
    onFellBehind: () => {
      deps
        .stopConsensus()
        .then(() => reactor.startSync())
        .catch((error: Error) => life.halt(`could not return to block sync: ${error.message}`));
    },
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
  if (fastSync && !onlyValidatorIsUs(chain.current, deps.signer?.address)) reactor.startSync();
  else await deps.startConsensus(0);
  return reactor;
}
