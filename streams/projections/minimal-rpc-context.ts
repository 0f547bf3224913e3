// A small RPC context for when the full one (streams/projections/rpc-context.ts, built in
// parallel) is not in this build: health, status, abci_info, abci_query, the broadcast and
// check_tx routes, num_unconfirmed_txs and event subscriptions, in domain form (camelCase keys,
// bigint, bytes) for the server's encoder. Hex fields the specification writes as hex are given
// as upper-case hex strings here.
import type { RpcContext, RpcEvent } from "../../src/rpc/context.js";
import { RpcError } from "../../src/rpc/errors.js";
import { NodeError } from "../node-errors.js";
import type { NodeHandle, SubmitResult } from "../node-handle.js";
import { upperHex } from "./event-bus.js";

function admissionResult(r: SubmitResult) {
  const c = r.checkTx;
  if (c === undefined) {
    const message = r.outcome.kind === "refused" ? r.outcome.message : "refused";
    throw new RpcError("RPC_HANDLER_FAILED", message);
  }
  return { code: c.code, data: upperHex(c.data), log: c.log, codespace: c.codespace, hash: r.hash };
}

export function createMinimalRpcContext(node: NodeHandle): RpcContext {
  const latestMeta = () => node.stores.blockStore.latestMeta();
  return {
    chainHeights: () => ({
      base: node.stores.blockStore.base(),
      height: node.stores.blockStore.height(),
      catchingUp: node.catchingUp(),
    }),
    health: () => ({}),
    status: () => {
      const meta = latestMeta();
      const chain = node.chainState();
      return {
        nodeInfo: {
          protocolVersion: node.nodeInfo.protocolVersion,
          id: node.nodeInfo.nodeId,
          listenAddr: node.nodeInfo.listenAddr,
          network: node.nodeInfo.network,
          version: node.nodeInfo.version,
          channels: "40202122233038606100",
          moniker: node.nodeInfo.moniker,
          other: { txIndex: node.nodeInfo.txIndex, rpcAddress: node.nodeInfo.rpcAddress },
        },
        syncInfo: {
          latestBlockHash: upperHex(meta?.blockId?.hash ?? new Uint8Array(0)),
          latestAppHash: upperHex(chain.appHash),
          latestBlockHeight: chain.lastBlockHeight,
          latestBlockTime: chain.lastBlockTime,
          catchingUp: node.catchingUp(),
        },
        validatorInfo: node.validator
          ? {
              address: upperHex(node.validator.address),
              pubKey: node.validator.pubKey,
              votingPower: node.validator.votingPower(),
            }
          : undefined,
      };
    },
    abciInfo: async () => ({ response: node.appInfo }),
    abciQuery: async (path, data, height, prove) => ({
      response: await node.abciQuery.query({ path, data, height, prove }),
    }),
    checkTx: (tx) => node.mempool.checkTx(tx),
    broadcastTxAsync: (tx) => {
      const pending = node.mempool.submit(tx);
      pending.catch(() => {});
      return pending.then((r) => ({ code: 0, data: "", log: "", codespace: "", hash: r.hash }));
    },
    broadcastTxSync: async (tx) => admissionResult(await node.mempool.submit(tx)),
    broadcastTxCommit: async (tx, timeoutMs) => {
      try {
        const r = await node.mempool.submitAndWaitForCommit(tx, timeoutMs);
        if ("deliverTx" in r)
          return { checkTx: r.checkTx, deliverTx: r.deliverTx, hash: r.hash, height: r.height };
        return { checkTx: r.checkTx, deliverTx: {}, hash: r.hash, height: 0n };
      } catch (error) {
        if (error instanceof NodeError && error.code === "NODE_TX_COMMIT_TIMEOUT") {
          throw new RpcError("RPC_HANDLER_FAILED", error.message);
        }
        throw error;
      }
    },
    numUnconfirmedTxs: () => {
      const s = node.mempool.state();
      return { nTxs: s.txs.size, total: s.txs.size, totalBytes: s.txsBytes, txs: null };
    },
    unsafeFlushMempool: () => {
      node.mempool.flush();
      return {};
    },
    subscribeEvents: (listener: (event: RpcEvent) => void) => node.subscribeEvents(listener),
  };
}
