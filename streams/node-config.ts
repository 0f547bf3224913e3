// The parts of config.toml each loop and the RPC server read, in their own terms.
import { join } from "node:path";
import type { NodeConfig } from "../src/config/config-schema.js";
import { type ConsensusConfig, checkConsensusConfig } from "../src/consensus/config.js";
import type { MempoolConfig } from "../src/mempool/state.js";
import type { RpcServerOptions } from "../src/rpc/options.js";

export function consensusConfigOf(config: NodeConfig): ConsensusConfig {
  const c = config.consensus;
  return checkConsensusConfig({
    timeoutProposeMs: c.timeout_propose,
    timeoutProposeDeltaMs: c.timeout_propose_delta,
    timeoutPrevoteMs: c.timeout_prevote,
    timeoutPrevoteDeltaMs: c.timeout_prevote_delta,
    timeoutPrecommitMs: c.timeout_precommit,
    timeoutPrecommitDeltaMs: c.timeout_precommit_delta,
    timeoutCommitMs: c.timeout_commit,
    skipTimeoutCommit: c.skip_timeout_commit,
    createEmptyBlocks: c.create_empty_blocks,
    createEmptyBlocksIntervalMs: c.create_empty_blocks_interval,
  });
}

export function mempoolConfigOf(config: NodeConfig): MempoolConfig {
  const m = config.mempool;
  return {
    size: m.size,
    maxTxsBytes: m.max_txs_bytes,
    maxTxBytes: m.max_tx_bytes,
    cacheSize: m.cache_size,
    keepInvalidTxsInCache: m["keep-invalid-txs-in-cache"],
    recheck: m.recheck,
    ttlNumBlocks: m["ttl-num-blocks"],
    ttlDurationMs: m["ttl-duration"],
  };
}

/** TLS files are relative to config/, as Tendermint resolves them. */
export function rpcOptionsOf(config: NodeConfig, home: string): Partial<RpcServerOptions> {
  const r = config.rpc;
  const inConfig = (file: string) =>
    file === "" || file.startsWith("/") ? file : join(home, "config", file);
  return {
    laddr: r.laddr,
    corsAllowedOrigins: r.cors_allowed_origins,
    corsAllowedMethods: r.cors_allowed_methods,
    corsAllowedHeaders: r.cors_allowed_headers,
    unsafe: r.unsafe,
    maxOpenConnections: r.max_open_connections,
    maxSubscriptionClients: r.max_subscription_clients,
    maxSubscriptionsPerClient: r.max_subscriptions_per_client,
    subscriptionBufferSize: Math.max(100, r.experimental_subscription_buffer_size),
    closeOnSlowClient: r.experimental_close_on_slow_client,
    timeoutBroadcastTxCommitMs: r.timeout_broadcast_tx_commit,
    maxBodyBytes: r.max_body_bytes,
    maxHeaderBytes: r.max_header_bytes,
    tlsCertFile: inConfig(r.tls_cert_file),
    tlsKeyFile: inConfig(r.tls_key_file),
    compat: r.compat as RpcServerOptions["compat"],
  };
}
