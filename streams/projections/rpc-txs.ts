// The transaction routes: tx (with its merkle proof), tx_search, the broadcast routes, check_tx
// and the mempool views. Mempool refusals are errors with v0.34's messages, as the mempool
// returns them; an application's non-zero CheckTx code is a result, not an error.

import { sha256 } from "../../src/crypto/hash.js";
import { merkleProofs } from "../../src/crypto/merkle.js";
import type { SearchRequest } from "../../src/rpc/context.js";
import { handlerError, handlerRefusal, type RpcError } from "../../src/rpc/errors.js";
import type {
  BroadcastTxCommitResult,
  BroadcastTxResult,
  TxResultView,
  TxSearchResultView,
  UnconfirmedTxsResult,
} from "../../src/rpc/json/index.js";
import type { TxResult } from "../../src/wire/generated/tendermint/abci/types.js";
import { NodeError } from "../node-errors.js";
import type { NodeHandle, SubmitResult } from "../node-handle.js";
import { indexSearchOf } from "./rpc-search.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();

async function proofOf(node: NodeHandle, result: TxResult): Promise<TxResultView["proof"]> {
  const block = await node.stores.blockStore.loadBlock(result.height);
  const txs = block?.data.txs;
  if (txs === undefined || result.index >= txs.length) {
    throw handlerError(`block ${result.height} is not available to prove tx ${result.index}`);
  }
  // Leaves are the txs' hashes, as v0.34's Txs.Proof builds them.
  const { root, proofs } = merkleProofs(txs.map((tx) => sha256(tx)));
  return { rootHash: root, data: txs[result.index]!, proof: proofs[result.index] };
}

async function viewOf(node: NodeHandle, result: TxResult, prove: boolean): Promise<TxResultView> {
  const view: TxResultView = {
    hash: sha256(result.tx),
    height: result.height,
    index: result.index,
    txResult: result.result,
    tx: result.tx,
  };
  if (prove) view.proof = await proofOf(node, result);
  return view;
}

export async function txByHash(node: NodeHandle, hash: Uint8Array, prove: boolean): Promise<TxResultView> {
  const result = await node.stores.txIndexer.getByHash(hash);
  if (result === undefined) throw handlerError(`tx (${hex(hash)}) not found`);
  return viewOf(node, result, prove);
}

export async function txSearch(
  node: NodeHandle,
  request: SearchRequest & { prove: boolean },
): Promise<TxSearchResultView> {
  const found = await node.stores.txIndexer.search(indexSearchOf(request));
  const txs: TxResultView[] = [];
  for (const result of found.txs) txs.push(await viewOf(node, result, request.prove));
  return { txs, totalCount: found.total };
}

function refusal(r: SubmitResult): RpcError {
  const message = r.outcome.kind === "refused" ? r.outcome.message : "the mempool refused the transaction";
  return handlerRefusal(message);
}

function broadcastResult(r: SubmitResult): BroadcastTxResult {
  const c = r.checkTx;
  if (c === undefined) throw refusal(r);
  return { code: c.code, data: c.data, log: c.log, codespace: c.codespace, hash: r.hash };
}

/** A `then` on the submission rather than an async function: one promise less per tx. */
export function broadcastTxSync(node: NodeHandle, tx: Uint8Array): Promise<BroadcastTxResult> {
  return node.mempool.submit(tx).then(broadcastResult);
}

/** Returns at once; a tx the cache already holds is refused as v0.34's CheckTx refuses it. */
export function broadcastTxAsync(node: NodeHandle, tx: Uint8Array): BroadcastTxResult {
  // Hashed once, here, and handed to the mempool: its key for the answer and the cache, its bytes
  // for the admitted tx's digests.
  const hashed = node.mempool.hashTx(tx);
  const hash = hashed.key;
  if (node.mempool.seen(hash)) throw handlerRefusal("tx already exists in cache");
  // The outcome is not the caller's to see (async); a failure is logged by the mempool.
  node.mempool.offer(hashed);
  return { code: 0, data: "", log: "", codespace: "", hash };
}

export async function broadcastTxCommit(
  node: NodeHandle,
  tx: Uint8Array,
  timeoutMs: number,
): Promise<BroadcastTxCommitResult> {
  try {
    const r = await node.mempool.submitAndWaitForCommit(tx, timeoutMs);
    if ("deliverTx" in r)
      return { checkTx: r.checkTx, deliverTx: r.deliverTx, hash: r.hash, height: r.height };
    if (r.checkTx === undefined) throw refusal(r);
    // CheckTx failed: answered at once with an empty deliver_tx, as v0.34 does.
    return { checkTx: r.checkTx, deliverTx: {}, hash: r.hash, height: 0n };
  } catch (error) {
    if (error instanceof NodeError && error.code === "NODE_TX_COMMIT_TIMEOUT") {
      throw handlerError("timed out waiting for tx to be included in a block");
    }
    throw error;
  }
}

export function unconfirmedTxs(node: NodeHandle, limit: number | undefined): UnconfirmedTxsResult {
  const state = node.mempool.state();
  const txs: Uint8Array[] = [];
  if (limit !== undefined) {
    for (const entry of state.txs.values()) {
      if (txs.length >= limit) break;
      txs.push(entry.tx);
    }
  }
  return {
    nTxs: limit === undefined ? state.txs.size : txs.length,
    total: state.txs.size,
    totalBytes: state.txsBytes,
    txs: limit === undefined ? null : txs,
  };
}
