// Boot step: the reactors on the peer layer. The consensus reactor (gossip on 0x20–0x23) first,
// since the mempool (0x30) and evidence (0x38) reactors wait on the peers' heights it learns from
// their NewRoundStep messages, as v0.34's read the peer's consensus state. Each reactor is a pure
// reducer in its own loop (streams/reactors/*.ts); each stops with the node.
import type { Observable, SchedulerLike } from "rxjs";
import type { NodeConfig } from "../../src/config/config-schema.js";
import type { ConsensusState } from "../../src/consensus/state.js";
import { verifyEd25519 } from "../../src/crypto/ed25519-verify.js";
import type { Logger } from "../../src/logger/index.js";
import type { Stores } from "../../src/store/open-stores.js";
import type { MempoolNode } from "../mempool-node.js";
import type { NodeLifecycle } from "../node-lifecycle.js";
import type { PeerLayer } from "../p2p-layer.js";
import { startNodeConsensusGossip } from "../reactors/consensus-gossip.js";
import { startEvidenceGossipReactor } from "../reactors/evidence-gossip.js";
import { mempoolGossipConfigOf, startMempoolGossipReactor } from "../reactors/mempool-gossip.js";
import type { NodeProjections } from "./projections.js";

export interface ReactorParts {
  peers: PeerLayer;
  config: NodeConfig;
  /** Our consensus state after each fold, from the first fold once consensus runs. */
  consensus$: Observable<ConsensusState>;
  stores: Stores;
  mempool: MempoolNode;
  projections: NodeProjections;
  scheduler: SchedulerLike;
  logger: Logger;
  life: Pick<NodeLifecycle, "halt" | "onCleanup">;
  /** Whether block sync runs now instead of consensus: the consensus reactor pauses meanwhile. */
  syncing: () => boolean;
}

export function startReactors(parts: ReactorParts): void {
  const { peers, config, scheduler, logger, life, projections } = parts;
  const consensusGossip = startNodeConsensusGossip(peers, {
    config,
    consensus$: parts.consensus$,
    blockStore: parts.stores.blockStore,
    logger,
    halt: life.halt,
    syncing: parts.syncing,
  });
  life.onCleanup(() => consensusGossip.stop());
  const peerHeight = (peerId: string) => consensusGossip.peerHeight(peerId);
  const mempoolGossip = startMempoolGossipReactor(peers, {
    mempool: parts.mempool,
    config: mempoolGossipConfigOf(config),
    scheduler,
    peerHeight,
    logger: logger.child("mempool"),
    onFault: (fault) => life.halt(`mempool gossip halted on an internal error: ${fault.reason}`),
  });
  life.onCleanup(() => mempoolGossip.stop());
  const evidenceGossip = startEvidenceGossipReactor(peers, {
    pool: projections.evidence,
    chainState: () => projections.chain.current,
    verify: verifyEd25519,
    scheduler,
    peerHeight,
    logger: logger.child("evidence"),
    onFault: (fault) => life.halt(`evidence gossip halted on an internal error: ${fault.reason}`),
  });
  life.onCleanup(() => evidenceGossip.stop());
}
