// status and net_info over the node handle: node info, sync info from the block store's base and
// latest metas, our validator; no p2p layer exists yet, so net_info reports no listener and no peers.

import type { NetInfoResult, NodeInfoResult, StatusResult } from "../../src/wire/json/index.js";
import type { NodeHandle } from "../node-handle.js";

/** v0.34's channel ids (blocksync, consensus ×4, mempool, evidence, statesync ×2, pex). */
const CHANNELS = "40202122233038606100";

export function nodeInfoOf(node: NodeHandle): NodeInfoResult {
  const info = node.nodeInfo;
  return {
    protocolVersion: info.protocolVersion,
    id: info.nodeId,
    listenAddr: info.listenAddr,
    network: info.network,
    version: info.version,
    channels: CHANNELS,
    moniker: info.moniker,
    other: { txIndex: info.txIndex, rpcAddress: info.rpcAddress },
  };
}

export async function statusOf(node: NodeHandle): Promise<StatusResult> {
  const store = node.stores.blockStore;
  const latest = store.latestMeta();
  const base = store.base();
  const earliest =
    base === 0n ? undefined : base === store.height() ? latest : await store.loadBlockMeta(base);
  const empty = new Uint8Array(0);
  const validator = node.validator;
  return {
    nodeInfo: nodeInfoOf(node),
    syncInfo: {
      latestBlockHash: latest?.blockId.hash ?? empty,
      latestAppHash: latest?.header.appHash ?? empty,
      latestBlockHeight: store.height(),
      latestBlockTime: latest?.header.time ?? { seconds: -62135596800n, nanos: 0 },
      earliestBlockHash: earliest?.blockId.hash ?? empty,
      earliestAppHash: earliest?.header.appHash ?? empty,
      earliestBlockHeight: base,
      earliestBlockTime: earliest?.header.time ?? { seconds: -62135596800n, nanos: 0 },
      catchingUp: node.catchingUp(),
    },
    validatorInfo:
      validator === undefined
        ? undefined
        : { address: validator.address, pubKey: validator.pubKey, votingPower: validator.votingPower() },
  };
}

export function netInfoOf(_node: NodeHandle): NetInfoResult {
  // Peers and a p2p listener arrive with the p2p layer; until then the truth is "none".
  return { listening: false, listeners: [], nPeers: 0, peers: [] };
}
