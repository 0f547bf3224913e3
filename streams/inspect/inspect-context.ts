// The RPC context of `rxbft inspect`: the node's own projections (streams/projections/rpc-context.ts)
// over a handle backed by stopped stores, with every route that needs a running node (the app,
// the mempool, consensus, peers, events) answering one clear error instead.
import { NEVER } from "rxjs";
import type { RpcContext } from "../../src/rpc/context.js";
import { RpcError } from "../../src/rpc/errors.js";
import type { NodeHandle } from "../node-handle.js";
import { createRpcContext } from "../projections/rpc-context.js";

/** Route names as clients call them, by context method. */
const LIVE_ROUTES = {
  netInfo: "net_info",
  unconfirmedTxs: "unconfirmed_txs",
  numUnconfirmedTxs: "num_unconfirmed_txs",
  broadcastTxAsync: "broadcast_tx_async",
  broadcastTxSync: "broadcast_tx_sync",
  broadcastTxCommit: "broadcast_tx_commit",
  checkTx: "check_tx",
  abciInfo: "abci_info",
  abciQuery: "abci_query",
  broadcastEvidence: "broadcast_evidence",
  consensusState: "consensus_state",
  dumpConsensusState: "dump_consensus_state",
  dialSeeds: "dial_seeds",
  dialPeers: "dial_peers",
  unsafeFlushMempool: "unsafe_flush_mempool",
  subscribeEvents: "subscribe",
} as const satisfies Partial<Record<keyof RpcContext, string>>;

export function needsRunningNode(route: string): RpcError {
  return new RpcError(
    "RPC_NOT_AVAILABLE",
    `${route} needs a running node: rxbft inspect serves the stores of a stopped node, read-only (no app, mempool, consensus or peers)`,
  );
}

export function createInspectRpcContext(node: NodeHandle, genesisFile: string): RpcContext {
  const context: RpcContext = { ...createRpcContext(node, { genesisFile }) };
  const live = context as Record<string, unknown>;
  for (const [method, route] of Object.entries(LIVE_ROUTES)) {
    live[method] = () => {
      throw needsRunningNode(route);
    };
  }
  return context;
}

/** What a handle answers for the parts a stopped node does not have. */
export function unavailable(route: string): never {
  throw needsRunningNode(route);
}

export const NO_EVENTS = NEVER;
