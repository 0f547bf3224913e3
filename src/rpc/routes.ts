// The RPC's routes, in one table (reference §1.1): names, parameters in Tendermint's order
// with their types, cacheability, and handlers that validate arguments with Tendermint's
// rules and messages before asking the node (RpcContext). Unsafe routes: unsafe-routes.ts.

import { parseQuery, QueryError } from "../query/index.js";
import { heightsOf, latestUncommittedHeight, need } from "./context-access.js";
import { RawJson } from "./encoder.js";
import { handlerError } from "./errors.js";
import { filterMinMax, resolveHeight, validatePerPage } from "./paging.js";
import { type Route, type RouteEnv, route } from "./route-spec.js";

/** `{}`: the result of health, subscribe, unsubscribe and unsubscribe_all. */
export const EMPTY_RESULT = new RawJson("{}");

const given = (args: { height: bigint | undefined }) => args.height !== undefined && args.height !== 0n;

function queryOf(text: string, limited: boolean) {
  try {
    return parseQuery(text, limited ? {} : { maxLength: Number.POSITIVE_INFINITY });
  } catch (error) {
    if (error instanceof QueryError && error.code === "QUERY_TOO_LONG") throw handlerError(error.message);
    throw handlerError(`failed to parse query: ${(error as Error).message}`);
  }
}

function orderOf(orderBy: string, emptyMeans: "asc" | "desc"): "asc" | "desc" {
  if (orderBy === "") return emptyMeans;
  if (orderBy === "asc" || orderBy === "desc") return orderBy;
  throw handlerError("expected order_by to be either `asc` or `desc` or empty");
}

function webSocketOf(env: RouteEnv, name: string): NonNullable<RouteEnv["webSocket"]> {
  if (env.webSocket === undefined) throw handlerError(`${name} is only available over WebSocket`);
  return env.webSocket;
}

export const ROUTES: readonly Route[] = [
  route({
    name: "subscribe",
    params: [{ name: "query", type: "string" }],
    webSocketOnly: true,
    description: "subscribe to events matching a query (WebSocket only)",
    handler: ({ query }, env) => {
      webSocketOf(env, "subscribe").subscribe(query);
      return EMPTY_RESULT;
    },
  }),
  route({
    name: "unsubscribe",
    params: [{ name: "query", type: "string" }],
    webSocketOnly: true,
    description: "cancel the subscription to a query (WebSocket only)",
    handler: ({ query }, env) => {
      webSocketOf(env, "unsubscribe").unsubscribe(query);
      return EMPTY_RESULT;
    },
  }),
  route({
    name: "unsubscribe_all",
    params: [],
    webSocketOnly: true,
    description: "cancel every subscription of this connection (WebSocket only)",
    handler: (_args, env) => {
      webSocketOf(env, "unsubscribe_all").unsubscribeAll();
      return EMPTY_RESULT;
    },
  }),
  route({
    name: "health",
    params: [],
    polled: true,
    description: "node health: {} when the node is running",
    handler: (_args, { context }) => (context.health === undefined ? EMPTY_RESULT : context.health()),
  }),
  route({
    name: "status",
    params: [],
    polled: true,
    description: "node info, sync info and validator info",
    handler: (_args, { context }) => need(context, "status", "status")(),
  }),
  route({
    name: "net_info",
    params: [],
    description: "listeners and peers",
    handler: (_args, { context }) => need(context, "netInfo", "net_info")(),
  }),
  route({
    name: "blockchain",
    params: [
      { name: "minHeight", type: "int64" },
      { name: "maxHeight", type: "int64" },
    ],
    cacheable: () => true,
    description: "block metas from maxHeight down to minHeight (at most 20)",
    handler: ({ minHeight, maxHeight }, { context }) => {
      const heights = heightsOf(context, "blockchain");
      const range = filterMinMax(heights.base, heights.height, minHeight, maxHeight);
      return need(context, "blockchain", "blockchain")(range.minHeight, range.maxHeight);
    },
  }),
  route({
    name: "genesis",
    params: [],
    cacheable: () => true,
    description: "the genesis document",
    handler: (_args, { context }) => need(context, "genesis", "genesis")(),
  }),
  route({
    name: "genesis_chunked",
    params: [{ name: "chunk", type: "uint" }],
    cacheable: () => true,
    description: "one base64 chunk (16 MiB) of the genesis document",
    handler: ({ chunk }, { context }) => need(context, "genesisChunked", "genesis_chunked")(chunk),
  }),
  route({
    name: "block",
    params: [{ name: "height", type: "int64", optional: true }],
    cacheable: given,
    description: "the block at a height (latest when absent)",
    handler: ({ height }, { context }) => {
      const h = heightsOf(context, "block");
      return need(context, "block", "block")(resolveHeight(height, h.height, h.base));
    },
  }),
  route({
    name: "block_by_hash",
    params: [{ name: "hash", type: "hash" }],
    cacheable: () => true,
    description: "the block with a hash",
    handler: ({ hash }, { context }) => need(context, "blockByHash", "block_by_hash")(hash),
  }),
  route({
    name: "block_results",
    params: [{ name: "height", type: "int64", optional: true }],
    cacheable: given,
    description: "ABCI results of a block (latest when absent)",
    handler: ({ height }, { context }) => {
      const h = heightsOf(context, "block_results");
      return need(context, "blockResults", "block_results")(resolveHeight(height, h.height, h.base));
    },
  }),
  route({
    name: "commit",
    params: [{ name: "height", type: "int64", optional: true }],
    cacheable: given,
    description: "signed header and commit of a height (latest when absent)",
    handler: ({ height }, { context }) => {
      const h = heightsOf(context, "commit");
      return need(context, "commit", "commit")(resolveHeight(height, h.height, h.base));
    },
  }),
  route({
    name: "check_tx",
    params: [{ name: "tx", type: "bytes" }],
    description: "run CheckTx on a transaction without adding it to the mempool",
    handler: ({ tx }, { context }) => need(context, "checkTx", "check_tx")(tx),
  }),
  route({
    name: "tx",
    params: [
      { name: "hash", type: "hash" },
      { name: "prove", type: "bool" },
    ],
    cacheable: () => true,
    description: "a committed transaction by hash",
    handler: ({ hash, prove }, { context }) => need(context, "tx", "tx")(hash, prove),
  }),
  route({
    name: "tx_search",
    params: [
      { name: "query", type: "string" },
      { name: "prove", type: "bool" },
      { name: "page", type: "int", optional: true },
      { name: "per_page", type: "int", optional: true },
      { name: "order_by", type: "string" },
    ],
    description: "transactions matching a query, ascending by default",
    handler: (args, { context }) => {
      const query = queryOf(args.query, true);
      const orderBy = orderOf(args.order_by, "asc");
      return need(
        context,
        "txSearch",
        "tx_search",
      )({
        query,
        queryText: args.query,
        prove: args.prove,
        page: args.page,
        perPage: validatePerPage(args.per_page),
        orderBy,
      });
    },
  }),
  route({
    name: "block_search",
    params: [
      { name: "query", type: "string" },
      { name: "page", type: "int", optional: true },
      { name: "per_page", type: "int", optional: true },
      { name: "order_by", type: "string" },
    ],
    description: "blocks matching a query, descending by default",
    handler: (args, { context }) => {
      // v0.34.24 has no length limit here; the body limit still bounds the text.
      const query = queryOf(args.query, false);
      const orderBy = orderOf(args.order_by, "desc");
      return need(
        context,
        "blockSearch",
        "block_search",
      )({
        query,
        queryText: args.query,
        page: args.page,
        perPage: validatePerPage(args.per_page),
        orderBy,
      });
    },
  }),
  route({
    name: "validators",
    params: [
      { name: "height", type: "int64", optional: true },
      { name: "page", type: "int", optional: true },
      { name: "per_page", type: "int", optional: true },
    ],
    cacheable: given,
    description: "the validator set at a height, paged",
    handler: ({ height, page, per_page }, { context }) => {
      const h = heightsOf(context, "validators");
      const resolved = resolveHeight(height, latestUncommittedHeight(h), h.base);
      return need(context, "validators", "validators")(resolved, page, validatePerPage(per_page));
    },
  }),
  route({
    name: "dump_consensus_state",
    params: [],
    description: "the full consensus state, peers included",
    handler: (_args, { context }) => need(context, "dumpConsensusState", "dump_consensus_state")(),
  }),
  route({
    name: "consensus_state",
    params: [],
    description: "a summary of the consensus round state",
    handler: (_args, { context }) => need(context, "consensusState", "consensus_state")(),
  }),
  route({
    name: "consensus_params",
    params: [{ name: "height", type: "int64", optional: true }],
    cacheable: given,
    description: "consensus parameters at a height",
    handler: ({ height }, { context }) => {
      const h = heightsOf(context, "consensus_params");
      const resolved = resolveHeight(height, latestUncommittedHeight(h), h.base);
      return need(context, "consensusParams", "consensus_params")(resolved);
    },
  }),
  route({
    name: "unconfirmed_txs",
    params: [{ name: "limit", type: "int", optional: true }],
    description: "transactions in the mempool (at most 100)",
    handler: ({ limit }, { context }) =>
      need(context, "unconfirmedTxs", "unconfirmed_txs")(validatePerPage(limit)),
  }),
  route({
    name: "num_unconfirmed_txs",
    params: [],
    description: "number and size of transactions in the mempool",
    handler: (_args, { context }) => need(context, "numUnconfirmedTxs", "num_unconfirmed_txs")(),
  }),
  route({
    name: "broadcast_tx_commit",
    params: [{ name: "tx", type: "bytes" }],
    description: "submit a transaction and wait until it is in a block",
    handler: ({ tx }, env) => {
      const { options, context } = env;
      const counts = env.subscriptionCounts();
      if (counts.clients >= options.maxSubscriptionClients) {
        throw handlerError(`max_subscription_clients ${options.maxSubscriptionClients} reached`);
      }
      if (counts.subscriptionsOf(env.remoteAddress) >= options.maxSubscriptionsPerClient) {
        throw handlerError(`max_subscriptions_per_client ${options.maxSubscriptionsPerClient} reached`);
      }
      return need(
        context,
        "broadcastTxCommit",
        "broadcast_tx_commit",
      )(tx, options.timeoutBroadcastTxCommitMs);
    },
  }),
  route({
    name: "broadcast_tx_sync",
    params: [{ name: "tx", type: "bytes" }],
    perTx: true,
    description: "submit a transaction and wait for CheckTx",
    handler: ({ tx }, { context }) => need(context, "broadcastTxSync", "broadcast_tx_sync")(tx),
  }),
  route({
    name: "broadcast_tx_async",
    params: [{ name: "tx", type: "bytes" }],
    perTx: true,
    description: "submit a transaction without waiting",
    handler: ({ tx }, { context }) => need(context, "broadcastTxAsync", "broadcast_tx_async")(tx),
  }),
  route({
    name: "abci_query",
    params: [
      { name: "path", type: "string" },
      { name: "data", type: "hexBytes" },
      { name: "height", type: "int64" },
      { name: "prove", type: "bool" },
    ],
    description: "query the application",
    handler: ({ path, data, height, prove }, { context }) =>
      need(context, "abciQuery", "abci_query")(path, data, height, prove),
  }),
  route({
    name: "abci_info",
    params: [],
    cacheable: () => true,
    description: "application info",
    handler: (_args, { context }) => need(context, "abciInfo", "abci_info")(),
  }),
  route({
    name: "broadcast_evidence",
    params: [{ name: "evidence", type: "json" }],
    description: "submit evidence of misbehaviour",
    handler: ({ evidence }, { context }) => {
      if (evidence === undefined) throw handlerError("no evidence was provided");
      return need(context, "broadcastEvidence", "broadcast_evidence")(evidence);
    },
  }),
];
