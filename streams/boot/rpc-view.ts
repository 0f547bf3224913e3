// The running node as the RPC, the commands and tests read it (node-handle.ts's NodeHandle):
// what the node says about itself, the validator's power from the chain-state projection, the
// consensus state, the event bus, the stores, the mempool, the app's query connection, the
// evidence pool and the peers. Only data and promises cross; the loops stay inside.
import type { AbciClient } from "../../src/abci/client/abci-client.js";
import type { HandshakeResult } from "../../src/abci/handshake.js";
import { verifyEd25519 } from "../../src/crypto/ed25519-verify.js";
import type { Logger } from "../../src/logger/index.js";
import { txIndexStatus } from "../../src/store/indexer-options.js";
import type { Stores } from "../../src/store/open-stores.js";
import { TENDERMINT_COMPAT_VERSION } from "../../src/version.js";
import type { MempoolNode } from "../mempool-node.js";
import type { NodeHandle, NodeInfoView } from "../node-handle.js";
import type { NodeLifecycle } from "../node-lifecycle.js";
import type { PeerLayer } from "../p2p-layer.js";
import type { NodeSigner } from "../remote-signer.js";
import type { ConsensusLoop } from "./consensus-loop.js";
import type { PreparedNode } from "./prepare-home.js";
import type { NodeProjections } from "./projections.js";

export function nodeHandleOf(parts: {
  prepared: PreparedNode;
  shaken: HandshakeResult;
  signer: NodeSigner | undefined;
  peers: PeerLayer;
  consensus: ConsensusLoop;
  projections: NodeProjections;
  stores: Stores;
  mempool: MempoolNode;
  app: AbciClient;
  life: NodeLifecycle;
  logger: Logger;
  /** True while block sync runs (/status catching_up). */
  catchingUp?: () => boolean;
}): NodeHandle {
  const { prepared, shaken, signer, peers, consensus, projections, stores, life } = parts;
  const { config, genesis } = prepared;
  const { chain, events, evidence } = projections;
  const nodeInfo: NodeInfoView = {
    nodeId: prepared.nodeId,
    moniker: config.moniker,
    network: shaken.state.chainId,
    version: TENDERMINT_COMPAT_VERSION,
    listenAddr: peers.listenAddr,
    channels: peers.nodeInfo.channels,
    rpcAddress: "",
    protocolVersion: { p2p: 8n, block: 11n, app: shaken.state.version?.consensus?.app ?? 0n },
    txIndex: txIndexStatus(config),
  };
  return {
    config,
    genesis,
    nodeInfo,
    validator: signer
      ? {
          address: signer.address,
          pubKey: signer.publicKey,
          votingPower: ourPowerIn(() => chain.current.validators, signer.address),
        }
      : undefined,
    consensusState$: consensus.loop.state$,
    latestConsensusState: consensus.latest,
    chainState: () => chain.current,
    events$: events.events$,
    subscribeEvents: (listener) => {
      const sub = events.events$.subscribe((e) => {
        try {
          listener(e);
        } catch (error) {
          parts.logger.error("event listener failed", { err: (error as Error).message });
        }
      });
      return () => sub.unsubscribe();
    },
    stores: {
      blockStore: stores.blockStore,
      stateStore: stores.stateStore,
      txIndexer: consensus.indexQueue.txReader(stores.txIndexer),
      blockIndexer: consensus.indexQueue.blockReader(stores.blockIndexer),
    },
    mempool: parts.mempool,
    abciQuery: parts.app.query,
    evidence: { addEvidence: (item) => evidence.add(item, chain.current, verifyEd25519) },
    appInfo: shaken.appInfo,
    peers: peers.view,
    catchingUp: parts.catchingUp ?? (() => false),
    stop: () => life.shutdown({ exitCode: 0, reason: "stopped" }),
    stopped: life.stopped,
  };
}

/**
 * Our voting power in the current validator set, looked up again only when the set object changes
 * (once per height at most): /status asks on every request, and a scan comparing addresses per
 * request was the largest part of its cost beyond serialising.
 */
function ourPowerIn(
  currentSet: () => { validators: readonly { address: Uint8Array; votingPower: bigint }[] } | undefined,
  address: Uint8Array,
): () => bigint {
  let seen: unknown;
  let power = 0n;
  return () => {
    const set = currentSet();
    if (set !== seen) {
      seen = set;
      power = set?.validators.find((v) => Buffer.compare(v.address, address) === 0)?.votingPower ?? 0n;
    }
    return power;
  };
}
