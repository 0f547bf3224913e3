// A NodeHandle over a stopped node's stores (a private snapshot, store-snapshot.ts), for the RPC
// projections to read: the chain state from the state store, our node and validator info from the
// home's key files (read only), no app, mempool, consensus loop or events.
import { existsSync } from "node:fs";
import type { NodeConfig } from "../../src/config/config-schema.js";
import type { NodePaths } from "../../src/config/home.js";
import { stateFromGenesis } from "../../src/state/genesis-state.js";
import type { Stores } from "../../src/store/open-stores.js";
import type { GenesisDoc } from "../../src/types/genesis.js";
import { nodeIdOf, readNodeKey } from "../../src/types/key-file-node-key.js";
import { readPrivValidatorKey } from "../../src/types/key-file-priv-validator.js";
import { TENDERMINT_COMPAT_VERSION } from "../../src/version.js";
import type { NodeHandle, NodeInfoView, ValidatorInfoView } from "../node-handle.js";
import { NO_EVENTS, unavailable } from "./inspect-context.js";

export function inspectHandle(
  config: NodeConfig,
  genesis: GenesisDoc,
  paths: NodePaths,
  stores: Stores,
): NodeHandle {
  const chain = stores.stateStore.load() ?? stateFromGenesis(genesis);
  const nodeId = existsSync(paths.nodeKeyFile) ? nodeIdOf(readNodeKey(paths.nodeKeyFile).publicKey) : "";
  const nodeInfo: NodeInfoView = {
    nodeId,
    moniker: config.moniker,
    network: genesis.chainId,
    version: TENDERMINT_COMPAT_VERSION,
    listenAddr: config.p2p.laddr,
    rpcAddress: "",
    protocolVersion: { p2p: 8n, block: 11n, app: chain.version?.consensus?.app ?? 0n },
    txIndex: config.tx_index.indexer === "kv" ? "on" : "off",
  };
  let validator: ValidatorInfoView | undefined;
  if (config.priv_validator_laddr === "" && existsSync(paths.privValidatorKeyFile)) {
    const key = readPrivValidatorKey(paths.privValidatorKeyFile);
    validator = {
      address: key.address,
      pubKey: key.publicKey,
      votingPower: () =>
        chain.validators?.validators.find((v) => Buffer.from(v.address).equals(Buffer.from(key.address)))
          ?.votingPower ?? 0n,
    };
  }
  const stopped = new Promise<never>(() => {});
  return {
    config,
    genesis,
    nodeInfo,
    validator,
    consensusState$: NO_EVENTS,
    latestConsensusState: () => unavailable("consensus_state"),
    chainState: () => chain,
    events$: NO_EVENTS,
    subscribeEvents: () => unavailable("subscribe"),
    stores: {
      blockStore: stores.blockStore,
      stateStore: stores.stateStore,
      txIndexer: stores.txIndexer,
      blockIndexer: stores.blockIndexer,
    },
    mempool: {
      state: () => unavailable("unconfirmed_txs"),
      seen: () => unavailable("broadcast_tx_async"),
      submit: () => unavailable("broadcast_tx_sync"),
      hashTx: () => unavailable("broadcast_tx_async"),
      offer: () => unavailable("broadcast_tx_async"),
      submitAndWaitForCommit: () => unavailable("broadcast_tx_commit"),
      checkTx: () => unavailable("check_tx"),
      flush: () => unavailable("unsafe_flush_mempool"),
    },
    abciQuery: {
      info: () => unavailable("abci_info"),
      query: () => unavailable("abci_query"),
    } as unknown as NodeHandle["abciQuery"],
    evidence: { addEvidence: () => unavailable("broadcast_evidence") },
    appInfo: {
      data: "",
      version: "",
      appVersion: 0n,
      lastBlockHeight: chain.lastBlockHeight,
      lastBlockAppHash: chain.appHash,
    },
    catchingUp: () => false,
    stop: () => unavailable("stop"),
    stopped,
  };
}
