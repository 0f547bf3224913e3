// status and net_info over the node handle: node info, sync info from the block store's base and
// latest metas, our validator; net_info from the peer layer (rpc-net-info.ts), or no listener and
// no peers for a node started without one.

import type { NetInfoResult, NodeInfoResult, StatusResult } from "../../src/rpc/json/index.js";
import type { NodeHandle } from "../node-handle.js";
import { netInfoFromPeers } from "./rpc-net-info.js";

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
    channels: info.channels ?? CHANNELS,
    moniker: info.moniker,
    other: { txIndex: info.txIndex, rpcAddress: info.rpcAddress },
  };
}

const ZERO_TIME = { seconds: -62135596800n, nanos: 0 };
const EMPTY = new Uint8Array(0);

/**
 * The last status per node, reused while nothing in it changed (same heights, sync flag, RPC
 * address and voting power): status is polled hard, and an unchanged result object lets the
 * encoders reuse its JSON too (streams/projections/rpc-encoders.ts).
 */
interface StatusKey {
  height: bigint;
  base: bigint;
  catchingUp: boolean;
  rpcAddress: string;
  power: bigint | undefined;
}
const lastStatus = new WeakMap<NodeHandle, { key: StatusKey; result: StatusResult }>();

// Compared field by field rather than through a key string: a poll then allocates nothing.
const sameKey = (a: StatusKey, b: StatusKey) =>
  a.height === b.height &&
  a.base === b.base &&
  a.catchingUp === b.catchingUp &&
  a.rpcAddress === b.rpcAddress &&
  a.power === b.power;

export function statusOf(node: NodeHandle): StatusResult | Promise<StatusResult> {
  const store = node.stores.blockStore;
  const key: StatusKey = {
    height: store.height(),
    base: store.base(),
    catchingUp: node.catchingUp(),
    rpcAddress: node.nodeInfo.rpcAddress,
    power: node.validator?.votingPower(),
  };
  const cached = lastStatus.get(node);
  if (cached !== undefined && sameKey(cached.key, key)) return cached.result;
  return buildStatus(node, key.height, key.base, key.catchingUp, key.power).then((result) => {
    lastStatus.set(node, { key, result });
    return result;
  });
}

async function buildStatus(
  node: NodeHandle,
  height: bigint,
  base: bigint,
  catchingUp: boolean,
  power: bigint | undefined,
): Promise<StatusResult> {
  const store = node.stores.blockStore;
  const latest = store.latestMeta();
  const earliest = base === 0n ? undefined : base === height ? latest : await store.loadBlockMeta(base);
  const validator = node.validator;
  return {
    nodeInfo: nodeInfoOf(node),
    syncInfo: {
      latestBlockHash: latest?.blockId.hash ?? EMPTY,
      latestAppHash: latest?.header.appHash ?? EMPTY,
      latestBlockHeight: height,
      latestBlockTime: latest?.header.time ?? ZERO_TIME,
      earliestBlockHash: earliest?.blockId.hash ?? EMPTY,
      earliestAppHash: earliest?.header.appHash ?? EMPTY,
      earliestBlockHeight: base,
      earliestBlockTime: earliest?.header.time ?? ZERO_TIME,
      catchingUp,
    },
    validatorInfo:
      validator === undefined
        ? undefined
        : { address: validator.address, pubKey: validator.pubKey, votingPower: power ?? 0n },
  };
}

export function netInfoOf(node: NodeHandle): NetInfoResult {
  if (node.peers) return netInfoFromPeers(node.peers);
  return { listening: false, listeners: [], nPeers: 0, peers: [] };
}
