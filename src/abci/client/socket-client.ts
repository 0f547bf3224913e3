// The ABCI client over sockets: four connections to the app, each its own socket and queue, dialed
// in Tendermint's order (query, snapshot, mempool, consensus). Dialing retries with back-off and a
// log line per failed attempt until the app is up; after that a lost connection is reported to the
// onError listeners, never silently redialed (the app may have lost state: the node must halt).
import { connect, type Socket } from "node:net";
import type {
  RequestApplySnapshotChunk,
  RequestBeginBlock,
  RequestCheckTx,
  RequestDeliverTx,
  RequestEndBlock,
  RequestInfo,
  RequestInitChain,
  RequestLoadSnapshotChunk,
  RequestOfferSnapshot,
  RequestQuery,
  RequestSetOption,
  ResponseApplySnapshotChunk,
  ResponseBeginBlock,
  ResponseCheckTx,
  ResponseCommit,
  ResponseDeliverTx,
  ResponseEcho,
  ResponseEndBlock,
  ResponseInfo,
  ResponseInitChain,
  ResponseListSnapshots,
  ResponseLoadSnapshotChunk,
  ResponseOfferSnapshot,
  ResponseQuery,
  ResponseSetOption,
} from "../../wire/generated/tendermint/abci/types.js";
import { AbciError } from "../errors.js";
import {
  type AbciClient,
  type AbciLogger,
  CONNECTION_ORDER,
  type ConnectionName,
  type ConsensusConnection,
  type MempoolConnection,
  type QueryConnection,
  type SnapshotConnection,
  silentLogger,
} from "./abci-client.js";
import { formatSocketAddress, parseSocketAddress, type SocketAddress } from "./address.js";
import { SocketConnection, type SocketConnectionOptions } from "./socket-connection.js";

export interface SocketClientOptions extends SocketConnectionOptions {
  logger?: AbciLogger;
  /** First delay between dial attempts; doubles each time up to maxRetryDelayMs. */
  retryDelayMs?: number;
  /** Longest delay between dial attempts (Tendermint dials every 3 s). */
  maxRetryDelayMs?: number;
  /** Give up dialing after this long; by default dialing goes on until the app is up or abort. */
  connectTimeoutMs?: number;
  signal?: AbortSignal;
}

function dialOnce(address: SocketAddress): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket =
      address.kind === "unix"
        ? connect({ path: address.path })
        : connect({ host: address.host, port: address.port });
    const onError = (err: Error) => {
      socket.destroy();
      reject(err);
    };
    socket.once("error", onError);
    socket.once("connect", () => {
      socket.off("error", onError);
      resolve(socket);
    });
  });
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

async function dialWithRetry(
  name: ConnectionName,
  address: SocketAddress,
  options: SocketClientOptions,
  logger: AbciLogger,
): Promise<Socket> {
  const started = Date.now();
  let delay = options.retryDelayMs ?? 100;
  const maxDelay = options.maxRetryDelayMs ?? 3000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await dialOnce(address);
    } catch (err) {
      const where = formatSocketAddress(address);
      const waited = Date.now() - started;
      if (
        options.signal?.aborted ||
        (options.connectTimeoutMs !== undefined && waited >= options.connectTimeoutMs)
      ) {
        throw new AbciError(
          "ABCI_CONNECT_FAILED",
          `could not reach the app at ${where} after ${attempt} attempt(s) in ${waited} ms: ${(err as Error).message}`,
          name,
          { cause: err },
        );
      }
      logger.info("abci app not reachable yet, retrying", {
        connection: name,
        address: where,
        attempt,
        retryInMs: delay,
        err: (err as Error).message,
      });
      await sleep(delay, options.signal);
      delay = Math.min(delay * 2, maxDelay);
    }
  }
}

const req = <C extends string, V>(c: C, v: V) => ({ value: { $case: c, [c]: v } }) as never;

/** Adds the live `error` getter (an object spread would copy its value once). */
function withError<T extends object>(
  target: T,
  conn: SocketConnection,
): T & { readonly error: AbciError | undefined } {
  return Object.defineProperty(target, "error", { get: () => conn.error, enumerable: true }) as T & {
    readonly error: AbciError | undefined;
  };
}

function baseMethods(conn: SocketConnection) {
  return {
    name: conn.name,
    echo: async (message: string) =>
      (await conn.call<ResponseEcho>(req("echo", { message }), "echo")).message,
    flush: () => conn.flush(),
  };
}

export class SocketAbciClient implements AbciClient {
  readonly consensus: ConsensusConnection;
  readonly mempool: MempoolConnection;
  readonly query: QueryConnection;
  readonly snapshot: SnapshotConnection;
  private readonly listeners: ((e: AbciError) => void)[] = [];

  constructor(private readonly connections: Record<ConnectionName, SocketConnection>) {
    const c = connections.consensus;
    this.consensus = withError(
      {
        ...baseMethods(c),
        initChain: (r: RequestInitChain) => c.call<ResponseInitChain>(req("initChain", r), "initChain"),
        beginBlock: (r: RequestBeginBlock) => c.call<ResponseBeginBlock>(req("beginBlock", r), "beginBlock"),
        deliverTx: (r: RequestDeliverTx) => c.call<ResponseDeliverTx>(req("deliverTx", r), "deliverTx"),
        endBlock: (r: RequestEndBlock) => c.call<ResponseEndBlock>(req("endBlock", r), "endBlock"),
        commit: () => c.call<ResponseCommit>(req("commit", {}), "commit"),
      },
      c,
    );
    const m = connections.mempool;
    this.mempool = withError(
      {
        ...baseMethods(m),
        checkTx: (r: RequestCheckTx) => m.call<ResponseCheckTx>(req("checkTx", r), "checkTx"),
      },
      m,
    );
    const q = connections.query;
    this.query = withError(
      {
        ...baseMethods(q),
        info: (r: RequestInfo) => q.call<ResponseInfo>(req("info", r), "info"),
        query: (r: RequestQuery) => q.call<ResponseQuery>(req("query", r), "query"),
        setOption: (r: RequestSetOption) => q.call<ResponseSetOption>(req("setOption", r), "setOption"),
      },
      q,
    );
    const s = connections.snapshot;
    this.snapshot = withError(
      {
        ...baseMethods(s),
        listSnapshots: () => s.call<ResponseListSnapshots>(req("listSnapshots", {}), "listSnapshots"),
        offerSnapshot: (r: RequestOfferSnapshot) =>
          s.call<ResponseOfferSnapshot>(req("offerSnapshot", r), "offerSnapshot"),
        loadSnapshotChunk: (r: RequestLoadSnapshotChunk) =>
          s.call<ResponseLoadSnapshotChunk>(req("loadSnapshotChunk", r), "loadSnapshotChunk"),
        applySnapshotChunk: (r: RequestApplySnapshotChunk) =>
          s.call<ResponseApplySnapshotChunk>(req("applySnapshotChunk", r), "applySnapshotChunk"),
      },
      s,
    );
    for (const conn of Object.values(connections)) {
      conn.onFailure((e) => {
        for (const l of this.listeners) l(e);
      });
    }
  }

  onError(listener: (error: AbciError) => void): void {
    this.listeners.push(listener);
    // A failure that happened before anyone listened is still reported.
    for (const conn of Object.values(this.connections)) if (conn.error) listener(conn.error);
  }

  async close(): Promise<void> {
    for (const conn of Object.values(this.connections)) conn.close();
  }
}

/** Dials the four connections to the app at `address` (tcp://host:port or unix:///path). */
export async function connectSocketClient(
  address: string,
  options: SocketClientOptions = {},
): Promise<SocketAbciClient> {
  const parsed = parseSocketAddress(address);
  const logger = options.logger ?? silentLogger;
  const connections: Partial<Record<ConnectionName, SocketConnection>> = {};
  try {
    for (const name of CONNECTION_ORDER) {
      const socket = await dialWithRetry(name, parsed, options, logger);
      connections[name] = new SocketConnection(name, socket, options);
      logger.debug("abci connection open", { connection: name, address: formatSocketAddress(parsed) });
    }
  } catch (err) {
    for (const conn of Object.values(connections)) conn.close();
    throw err;
  }
  logger.info("connected to the abci app", { address: formatSocketAddress(parsed) });
  return new SocketAbciClient(connections as Record<ConnectionName, SocketConnection>);
}
