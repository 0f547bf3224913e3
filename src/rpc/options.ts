// The RPC server's options: the [rpc] keys of config.toml (reference §4.3) as a typed object,
// with Tendermint's defaults, and the listen address parsed. The node maps config.toml onto
// this; relative TLS paths must already be resolved against <home>/config by then.

import { RpcError } from "./errors.js";

export type RpcCompat = "seed" | "tendermint";

export interface RpcServerOptions {
  /** `tcp://host:port` or `unix:///path`; default tcp://127.0.0.1:26657 */
  laddr: string;
  /** empty disables CORS; "*" allows any origin; one "*" wildcard per entry is allowed */
  corsAllowedOrigins: string[];
  corsAllowedMethods: string[];
  corsAllowedHeaders: string[];
  /** adds dial_seeds, dial_peers and unsafe_flush_mempool */
  unsafe: boolean;
  /** HTTP connections (node:http) or in-flight requests plus WebSockets (uWS); 0 is unlimited */
  maxOpenConnections: number;
  maxSubscriptionClients: number;
  maxSubscriptionsPerClient: number;
  /**
   * Messages a WebSocket client may have waiting before its subscriptions are cancelled as
   * too slow. Tendermint's default is 200; rxbft defaults to 1000.
   */
  subscriptionBufferSize: number;
  /** Bytes a WebSocket client may have waiting (the second bound of the same buffer). */
  subscriptionBufferBytes: number;
  /** Close the connection (not only the subscription) of a client that is too slow. */
  closeOnSlowClient: boolean;
  timeoutBroadcastTxCommitMs: number;
  /** largest POST body and WebSocket message */
  maxBodyBytes: number;
  maxHeaderBytes: number;
  /** HTTPS and WSS when both are set */
  tlsCertFile: string;
  tlsKeyFile: string;
  /** result form: the specification's ("seed") or Tendermint v0.34's exact JSON */
  compat: RpcCompat;
  /** Server ping period on WebSockets (Tendermint: 27 s). */
  webSocketPingIntervalMs: number;
  /** A WebSocket with nothing received (pongs included) for this long is closed (Tendermint: 30 s). */
  webSocketReadTimeoutMs: number;
}

export const DEFAULT_RPC_OPTIONS: Readonly<RpcServerOptions> = Object.freeze({
  laddr: "tcp://127.0.0.1:26657",
  corsAllowedOrigins: [],
  corsAllowedMethods: ["HEAD", "GET", "POST"],
  corsAllowedHeaders: ["Origin", "Accept", "Content-Type", "X-Requested-With", "X-Server-Time"],
  unsafe: false,
  maxOpenConnections: 900,
  maxSubscriptionClients: 100,
  maxSubscriptionsPerClient: 5,
  subscriptionBufferSize: 1000,
  subscriptionBufferBytes: 8 * 1024 * 1024,
  closeOnSlowClient: false,
  timeoutBroadcastTxCommitMs: 10_000,
  maxBodyBytes: 1_000_000,
  maxHeaderBytes: 1 << 20,
  tlsCertFile: "",
  tlsKeyFile: "",
  compat: "seed",
  webSocketPingIntervalMs: 27_000,
  webSocketReadTimeoutMs: 30_000,
});

export type ListenAddress = { kind: "tcp"; host: string; port: number } | { kind: "unix"; path: string };

function badOption(message: string): RpcError {
  return new RpcError("RPC_BAD_OPTIONS", message);
}

/** Parses rpc.laddr; one address (rxbft does not listen on several). */
export function parseListenAddress(laddr: string): ListenAddress {
  const text = laddr.trim();
  if (/[,\s]/.test(text))
    throw badOption(`rpc.laddr ${JSON.stringify(laddr)}: rxbft listens on one address only`);
  if (text.startsWith("unix://")) {
    const path = text.slice("unix://".length);
    if (path === "") throw badOption(`rpc.laddr ${JSON.stringify(laddr)}: the unix socket path is empty`);
    return { kind: "unix", path };
  }
  const m = /^tcp:\/\/(\[[0-9a-fA-F:.]+\]|[^:/[\]]*):(\d{1,5})$/.exec(text);
  if (m === null) {
    throw badOption(
      `invalid listening address ${JSON.stringify(laddr)} (use fully formed addresses, including the tcp:// or unix:// prefix)`,
    );
  }
  const port = Number(m[2]);
  if (port > 65535) throw badOption(`rpc.laddr ${JSON.stringify(laddr)}: port ${port} is out of range`);
  let host = m[1] as string;
  if (host.startsWith("[")) host = host.slice(1, -1);
  return { kind: "tcp", host: host === "" ? "0.0.0.0" : host, port };
}

const COUNTS = [
  "maxOpenConnections",
  "maxSubscriptionClients",
  "maxSubscriptionsPerClient",
  "subscriptionBufferSize",
  "subscriptionBufferBytes",
  "timeoutBroadcastTxCommitMs",
  "maxBodyBytes",
  "maxHeaderBytes",
  "webSocketPingIntervalMs",
  "webSocketReadTimeoutMs",
] as const;

/** Defaults filled in and every value checked; throws RpcError RPC_BAD_OPTIONS naming the key. */
export function resolveRpcOptions(partial: Partial<RpcServerOptions> = {}): RpcServerOptions {
  const options: RpcServerOptions = { ...DEFAULT_RPC_OPTIONS, ...partial };
  for (const key of COUNTS) {
    const value = options[key];
    if (!Number.isSafeInteger(value) || value < 0)
      throw badOption(`rpc option ${key} must be a non-negative integer, got ${value}`);
  }
  if (options.maxBodyBytes === 0) throw badOption("rpc option maxBodyBytes must be positive");
  if (options.subscriptionBufferSize < 100) {
    throw badOption(
      `rpc option subscriptionBufferSize must be at least 100, got ${options.subscriptionBufferSize}`,
    );
  }
  if (options.compat !== "seed" && options.compat !== "tendermint") {
    throw badOption(
      `rpc option compat must be "seed" or "tendermint", got ${JSON.stringify(options.compat)}`,
    );
  }
  if ((options.tlsCertFile === "") !== (options.tlsKeyFile === "")) {
    throw badOption("rpc options tlsCertFile and tlsKeyFile must be set together (HTTPS needs both)");
  }
  parseListenAddress(options.laddr);
  return options;
}
