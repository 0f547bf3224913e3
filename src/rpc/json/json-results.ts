// Each route's result in JSON, by route name (reference §1.4 for the keys, rpc-forms.md for the
// seed form's differences). Results come in domain form (result-types.ts); an unknown route or
// a value that is not an object falls back to plain JSON (bigint as text, bytes as base64).

import {
  abciConsensusParamsJson,
  checkTxJson,
  deliverTxJson,
  eventListJson,
  infoJson,
  queryJson,
  seedTxResultJson,
  validatorUpdateJson,
} from "../../rpc/json/json-abci.js";
import { blockIdJson, blockJson, blockMetaJson, commitJson, headerJson } from "../../rpc/json/json-block.js";
import type { JsonForm } from "../../rpc/json/json-form.js";
import { pubKeyJson } from "../../rpc/json/json-keys.js";
import { consensusParamsJson } from "../../rpc/json/json-params.js";
import { base64, hexUpper, int64, rfc3339 } from "../../rpc/json/json-primitives.js";
import { consensusStateJson, dumpConsensusStateJson } from "../../rpc/json/json-round-state.js";
import { compactJson, JsonRaw, type JsonValue, jsonString } from "../../rpc/json/json-text.js";
import { validatorJson } from "../../rpc/json/json-validator.js";
import type {
  AbciInfoResult,
  AbciQueryResult,
  BlockchainResult,
  BlockResult,
  BlockResultsResult,
  BlockSearchResultView,
  BroadcastEvidenceResult,
  BroadcastTxCommitResult,
  BroadcastTxResult,
  CommitResult,
  ConsensusParamsResult,
  ConsensusStateResult,
  DumpConsensusStateResult,
  GenesisChunkResult,
  GenesisResult,
  NetInfoResult,
  NodeInfoResult,
  StatusResult,
  TxResultView,
  TxSearchResultView,
  UnconfirmedTxsResult,
  ValidatorsResult,
} from "../../rpc/json/result-types.js";
import { genesisToRpcForm } from "../../types/genesis-rpc-form.js";

type Encode = (result: never, form: JsonForm) => JsonValue;

export function nodeInfoJson(n: NodeInfoResult): JsonValue {
  return {
    protocol_version: {
      p2p: int64(n.protocolVersion.p2p),
      block: int64(n.protocolVersion.block),
      app: int64(n.protocolVersion.app),
    },
    id: n.id,
    listen_addr: n.listenAddr,
    network: n.network,
    version: n.version,
    channels: hexUpper(n.channels),
    moniker: n.moniker,
    other: { tx_index: n.other.txIndex, rpc_address: n.other.rpcAddress },
  };
}

function status(r: StatusResult, form: JsonForm): JsonValue {
  const s = r.syncInfo;
  const v = r.validatorInfo;
  return {
    node_info: nodeInfoJson(r.nodeInfo),
    sync_info: {
      latest_block_hash: hexUpper(s.latestBlockHash),
      latest_app_hash: hexUpper(s.latestAppHash),
      latest_block_height: int64(s.latestBlockHeight),
      latest_block_time: rfc3339(s.latestBlockTime),
      earliest_block_hash: hexUpper(s.earliestBlockHash),
      earliest_app_hash: hexUpper(s.earliestAppHash),
      earliest_block_height: int64(s.earliestBlockHeight),
      earliest_block_time: rfc3339(s.earliestBlockTime),
      catching_up: s.catchingUp,
    },
    validator_info: {
      address: hexUpper(v?.address),
      pub_key: pubKeyJson(v?.pubKey, form),
      voting_power: int64(v?.votingPower),
    },
  };
}

function netInfo(r: NetInfoResult, form: JsonForm): JsonValue {
  return {
    listening: r.listening,
    listeners: r.listeners,
    n_peers: int64(r.nPeers),
    peers: r.peers.map((p) => {
      const v034 = {
        node_info: nodeInfoJson(p.nodeInfo),
        is_outbound: p.isOutbound,
        connection_status: (p.connectionStatus ?? {}) as JsonValue,
        remote_ip: p.remoteIp,
      };
      if (form === "tendermint") return v034;
      const port = p.remotePort ?? Number(p.nodeInfo.listenAddr.split(":").pop());
      return { node_id: p.nodeInfo.id, url: `tcp://${p.nodeInfo.id}@${p.remoteIp}:${port}`, ...v034 };
    }),
  };
}

function blockResult(r: BlockResult, form: JsonForm): JsonValue {
  return { block_id: blockIdJson(r.blockId), block: blockJson(r.block, form, r.evidenceKeys) };
}

function blockResults(r: BlockResultsResult, form: JsonForm): JsonValue {
  if (form === "tendermint") {
    const list = <T>(items: readonly T[], f: (x: T) => JsonValue) =>
      items.length === 0 ? null : items.map(f);
    return {
      height: int64(r.height),
      txs_results: list(r.txsResults, (t) => deliverTxJson(t, form)),
      begin_block_events: eventListJson(r.beginBlockEvents, form),
      end_block_events: eventListJson(r.endBlockEvents, form),
      validator_updates: list(r.validatorUpdates, (u) => validatorUpdateJson(u, form)),
      consensus_param_updates: abciConsensusParamsJson(r.consensusParamUpdates, form),
    };
  }
  let gas = 0n;
  for (const t of r.txsResults) gas += t.gasUsed ?? 0n;
  const endBlock = eventListJson(r.endBlockEvents, form);
  const params = abciConsensusParamsJson(r.consensusParamUpdates, form);
  return {
    height: int64(r.height),
    total_gas_used: int64(gas),
    txs_results: r.txsResults.map((t) => deliverTxJson(t, form)),
    begin_block_events: eventListJson(r.beginBlockEvents, form),
    end_block: endBlock,
    validator_updates: r.validatorUpdates.map((u) => validatorUpdateJson(u, form)),
    consensus_params_updates: params,
    end_block_events: endBlock,
    consensus_param_updates: params,
  };
}

function txView(r: TxResultView, form: JsonForm): JsonValue {
  const proof = r.proof && {
    root_hash: hexUpper(r.proof.rootHash),
    data: base64(r.proof.data),
    proof: {
      total: int64(r.proof.proof?.total),
      index: int64(r.proof.proof?.index),
      leaf_hash: base64(r.proof.proof?.leafHash),
      aunts: (r.proof.proof?.aunts ?? []).map(base64),
    },
  };
  return {
    hash: hexUpper(r.hash),
    height: int64(r.height),
    index: r.index,
    tx_result: form === "tendermint" ? deliverTxJson(r.txResult, form) : seedTxResultJson(r.txResult),
    tx: base64(r.tx),
    proof,
  };
}

/**
 * A broadcast_tx_* result. The usual one (broadcast_tx_async's, and an accepted tx's with an app
 * that leaves data, log and codespace empty) is spliced into a template: it is answered once per
 * tx, and the general writer's object, key loop and five string checks were most of the answer's
 * JSON. The bytes are the general path's (test/unit/rpc-broadcast-answer-bytes.test.ts).
 */
function broadcast(r: BroadcastTxResult, form: JsonForm): JsonValue {
  if (r.log === "" && r.codespace === "" && r.data.length === 0) {
    const code = form === "tendermint" ? String(r.code) : `"${r.code}"`;
    // Hex of bytes needs no escaping; a hash given as text goes through the string check.
    const hash = typeof r.hash === "string" ? jsonString(hexUpper(r.hash)) : `"${hexUpper(r.hash)}"`;
    return new JsonRaw(`{"code":${code},"data":"","log":"","codespace":"","hash":${hash}}`);
  }
  return broadcastFields(r, form);
}

/** Any broadcast_tx_* result by the general writer (exported for the template's test). */
export function broadcastFields(r: BroadcastTxResult, form: JsonForm): JsonValue {
  return {
    code: form === "tendermint" ? r.code : String(r.code),
    data: hexUpper(r.data),
    log: r.log,
    codespace: r.codespace,
    hash: hexUpper(r.hash),
  };
}

function genesis(r: GenesisResult, form: JsonForm): JsonValue {
  const doc = r.genesis;
  const fields = genesisToRpcForm(doc, form) as Record<string, JsonValue>;
  // app_state goes out as the file's own text (compacted), so big numbers stay exact.
  if (doc.appStateBytes.length > 0 && "app_state" in fields) {
    fields.app_state = new JsonRaw(compactJson(Buffer.from(doc.appStateBytes).toString("utf8")));
  }
  return { genesis: fields };
}

const ROUTE_ENCODERS: Record<string, Encode> = {
  status: status as Encode,
  net_info: netInfo as Encode,
  blockchain: ((r: BlockchainResult, form) => ({
    last_height: int64(r.lastHeight),
    block_metas: r.blockMetas.map((m) => blockMetaJson(m, form)),
  })) as Encode,
  genesis: genesis as Encode,
  genesis_chunked: ((r: GenesisChunkResult, form) => ({
    chunk: form === "tendermint" ? int64(r.chunk) : r.chunk,
    total: form === "tendermint" ? int64(r.total) : r.total,
    data: base64(r.data),
  })) as Encode,
  block: blockResult as Encode,
  block_by_hash: blockResult as Encode,
  block_results: blockResults as Encode,
  commit: ((r: CommitResult, form) => ({
    signed_header: {
      header: headerJson(r.signedHeader.header, form),
      commit: commitJson(r.signedHeader.commit),
    },
    canonical: r.canonical,
  })) as Encode,
  validators: ((r: ValidatorsResult, form) => ({
    block_height: int64(r.blockHeight),
    validators: r.validators.map((v) => validatorJson(v, form)),
    count: int64(r.count),
    total: int64(r.total),
  })) as Encode,
  consensus_params: ((r: ConsensusParamsResult, form) => ({
    block_height: int64(r.blockHeight),
    consensus_params: consensusParamsJson(r.consensusParams, form),
  })) as Encode,
  unconfirmed_txs: ((r: UnconfirmedTxsResult, form) => unconfirmed(r, form)) as Encode,
  num_unconfirmed_txs: ((r: UnconfirmedTxsResult, form) => unconfirmed({ ...r, txs: null }, form)) as Encode,
  tx: txView as Encode,
  tx_search: ((r: TxSearchResultView, form) => ({
    txs: r.txs.map((t) => txView(t, form)),
    total_count: int64(r.totalCount),
  })) as Encode,
  block_search: ((r: BlockSearchResultView, form) => ({
    blocks: r.blocks.map((b) => blockResult(b, form)),
    total_count: int64(r.totalCount),
  })) as Encode,
  broadcast_tx_sync: broadcast as Encode,
  broadcast_tx_async: broadcast as Encode,
  broadcast_tx_commit: ((r: BroadcastTxCommitResult, form) => ({
    check_tx: checkTxJson(r.checkTx, form),
    deliver_tx: deliverTxJson(r.deliverTx, form),
    hash: hexUpper(r.hash),
    height: int64(r.height),
  })) as Encode,
  check_tx: ((r: Parameters<typeof checkTxJson>[0], form) => checkTxJson(r, form)) as Encode,
  abci_info: ((r: AbciInfoResult, form) => ({ response: infoJson(r.response, form) })) as Encode,
  abci_query: ((r: AbciQueryResult, form) => ({ response: queryJson(r.response, form) })) as Encode,
  broadcast_evidence: ((r: BroadcastEvidenceResult, form) =>
    form === "tendermint" ? { hash: base64(r.hash) } : "") as Encode,
  consensus_state: ((r: ConsensusStateResult) => consensusStateJson(r)) as Encode,
  dump_consensus_state: ((r: DumpConsensusStateResult, form) => dumpConsensusStateJson(r, form)) as Encode,
  dial_seeds: ((r: { log: string }) => ({ log: r.log })) as Encode,
  dial_peers: ((r: { log: string }) => ({ log: r.log })) as Encode,
  health: (() => ({})) as Encode,
  unsafe_flush_mempool: (() => ({})) as Encode,
};

function unconfirmed(r: UnconfirmedTxsResult, form: JsonForm): JsonValue {
  return {
    n_txs: int64(r.nTxs),
    total: int64(r.total),
    total_bytes: int64(r.totalBytes),
    // num_unconfirmed_txs: null in v0.34, left out in the seed form.
    txs: r.txs === null ? (form === "tendermint" ? null : undefined) : r.txs.map(base64),
  };
}

/** Plain JSON of a value of unknown shape: bigint as decimal text, bytes as base64. */
export function plainJson(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return base64(value);
  if (value instanceof JsonRaw) return value;
  if (Array.isArray(value)) return value.map(plainJson);
  if (typeof value === "object") {
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = plainJson(v);
    return out;
  }
  if (typeof value === "function" || typeof value === "symbol") return null;
  return value as JsonValue;
}

/** The JSON tree of a route's result in the given form. */
export function routeResultJson(route: string, result: unknown, form: JsonForm): JsonValue {
  const encode = ROUTE_ENCODERS[route];
  if (encode === undefined || result === null || typeof result !== "object") return plainJson(result);
  return encode(result as never, form);
}
