// The RPC context over a running node: every route of the RPC (src/rpc/routes.ts) answered from
// the node handle's stores, mempool, app connection, consensus state and event bus, in the domain
// form the encoders of src/wire/json write (one projection, two encoders). streams/rpc-start.ts
// loads this module: createRpcContext(node) and `encoders` (chosen by rpc.compat there).
import type { RpcContext, RpcEvent } from "../../src/rpc/context.js";
import { handlerError, RpcError } from "../../src/rpc/errors.js";
import type { NodeHandle } from "../node-handle.js";
import {
  blockAt,
  blockByHash,
  blockchainOf,
  blockResultsAt,
  blockSearch,
  commitAt,
  consensusParamsAt,
  validatorsAt,
} from "./rpc-blocks.js";
import { consensusStateOf, dumpConsensusStateOf } from "./rpc-consensus-state.js";
import { broadcastEvidence } from "./rpc-evidence.js";
import {
  type GenesisSource,
  genesisChunk,
  genesisDocSource,
  genesisFileSource,
  genesisOf,
} from "./rpc-genesis.js";
import { indexSearchOf } from "./rpc-search.js";
import { netInfoOf, statusOf } from "./rpc-status.js";
import {
  broadcastTxAsync,
  broadcastTxCommit,
  broadcastTxSync,
  txByHash,
  txSearch,
  unconfirmedTxs,
} from "./rpc-txs.js";

export { encoders } from "./rpc-encoders.js";

/** health's result: one object, so the encoder's JSON of it is reused (rpc-encoders.ts). */
const HEALTHY = Object.freeze({});

export interface RpcContextOptions {
  /**
   * the genesis file, to serve genesis_chunked from it in the tendermint form; without it, and
   * always in the seed form, the document's JSON in the route's form is chunked
   */
  genesisFile?: string;
}

function noPeerDialling(route: string): never {
  throw new RpcError("RPC_NOT_AVAILABLE", `${route} is not available: this node runs without a peer layer`);
}

/** A bad address in dial_seeds/dial_peers is the caller's error, named as v0.34 names it. */
async function dialling(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    throw handlerError((error as Error).message);
  }
}

export function createRpcContext(node: NodeHandle, options: RpcContextOptions = {}): RpcContext {
  const form = node.config?.rpc?.compat === "tendermint" ? "tendermint" : "seed";
  // The seed form's document is not the file's (its params read evidence {max_age} beside v0.34's
  // fields): its chunks are the seed form's JSON, so genesis_chunked decodes to what genesis says.
  const genesis: GenesisSource =
    options.genesisFile === undefined || form === "seed"
      ? genesisDocSource(node, form)
      : genesisFileSource(options.genesisFile);
  const store = node.stores.blockStore;
  return {
    chainHeights: () => ({ base: store.base(), height: store.height(), catchingUp: node.catchingUp() }),
    health: () => HEALTHY,
    status: () => statusOf(node),
    netInfo: () => netInfoOf(node),
    blockchain: (min, max) => blockchainOf(node, min, max),
    genesis: () => genesisOf(node, genesis),
    genesisChunked: (chunk) => genesisChunk(genesis, chunk),
    block: (height) => blockAt(node, height),
    blockByHash: (hash) => blockByHash(node, hash),
    blockResults: (height) => blockResultsAt(node, height),
    commit: (height) => commitAt(node, height),
    validators: (height, page, perPage) => validatorsAt(node, height, page, perPage),
    consensusParams: (height) => consensusParamsAt(node, height),
    unconfirmedTxs: (limit) => unconfirmedTxs(node, limit),
    numUnconfirmedTxs: () => unconfirmedTxs(node, undefined),
    tx: (hash, prove) => txByHash(node, hash, prove),
    txSearch: (request) => txSearch(node, request),
    blockSearch: (request) => blockSearch(node, indexSearchOf(request)),
    broadcastTxAsync: (tx) => broadcastTxAsync(node, tx),
    broadcastTxSync: (tx) => broadcastTxSync(node, tx),
    broadcastTxCommit: (tx, timeoutMs) => broadcastTxCommit(node, tx, timeoutMs),
    checkTx: (tx) => node.mempool.checkTx(tx),
    // v0.34 asks the app each time (its height and app hash move with every block).
    abciInfo: async () => ({
      response: await node.abciQuery.info({ version: "0.34.24", blockVersion: 11n, p2pVersion: 8n }),
    }),
    abciQuery: async (path, data, height, prove) => ({
      response: await node.abciQuery.query({ path, data, height, prove }),
    }),
    broadcastEvidence: (evidence) => broadcastEvidence(node, evidence),
    consensusState: () => consensusStateOf(node),
    dumpConsensusState: () => dumpConsensusStateOf(node),
    dialSeeds: (seeds) =>
      node.peers ? dialling(() => node.peers!.dialSeeds(seeds)) : noPeerDialling("dial_seeds"),
    dialPeers: (request) =>
      node.peers ? dialling(() => node.peers!.dialPeers(request)) : noPeerDialling("dial_peers"),
    unsafeFlushMempool: () => {
      node.mempool.flush();
      return {};
    },
    subscribeEvents: (listener: (event: RpcEvent) => void) => node.subscribeEvents(listener),
  };
}
