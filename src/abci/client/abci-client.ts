// The one ABCI client interface, shared by the socket client and the in-process client. Four
// connections, as Tendermint has: each is independent (its own socket and queue when remote) so a
// slow query never holds up block execution. Calls on one connection are answered in call order.
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
  ResponseEndBlock,
  ResponseInfo,
  ResponseInitChain,
  ResponseListSnapshots,
  ResponseLoadSnapshotChunk,
  ResponseOfferSnapshot,
  ResponseQuery,
  ResponseSetOption,
} from "../../wire/generated/tendermint/abci/types.js";
import type { AbciError } from "../errors.js";

export type ConnectionName = "consensus" | "mempool" | "query" | "snapshot";

/** Tendermint's start order of the connections (proxy/multi_app_conn.go). */
export const CONNECTION_ORDER: readonly ConnectionName[] = ["query", "snapshot", "mempool", "consensus"];

interface BaseConnection {
  readonly name: ConnectionName;
  echo(message: string): Promise<string>;
  /** Resolves when every call made before it has been answered. */
  flush(): Promise<void>;
  /** The error that ended this connection, once it has ended. */
  readonly error: AbciError | undefined;
}

export interface ConsensusConnection extends BaseConnection {
  initChain(req: RequestInitChain): Promise<ResponseInitChain>;
  beginBlock(req: RequestBeginBlock): Promise<ResponseBeginBlock>;
  deliverTx(req: RequestDeliverTx): Promise<ResponseDeliverTx>;
  /**
   * Several DeliverTx in one call, answered in the order given, with one promise for the batch
   * rather than one per tx (a request object, a closure and a promise fewer per tx): for a
   * connection whose app answers in this process. Rejects as a whole when the connection fails
   * during the batch (the block is then not committed and the node halts). A connection that
   * pipelines over a socket leaves it out and is called per tx.
   */
  deliverTxs?(reqs: readonly RequestDeliverTx[]): Promise<ResponseDeliverTx[]>;
  endBlock(req: RequestEndBlock): Promise<ResponseEndBlock>;
  commit(): Promise<ResponseCommit>;
}

export interface MempoolConnection extends BaseConnection {
  checkTx(req: RequestCheckTx): Promise<ResponseCheckTx>;
  /**
   * Several CheckTx in one call, answered in the order given, with one promise for the batch
   * rather than one per tx: for a connection whose app answers in this process (the mempool sends
   * every tx of an event-loop turn, and every recheck, this way when offered). Rejects as a whole
   * when the connection fails during the batch (the node halts on that failure anyway). A
   * connection that pipelines over a socket leaves it out and is called per tx.
   */
  checkTxs?(reqs: readonly RequestCheckTx[]): Promise<ResponseCheckTx[]>;
}

export interface QueryConnection extends BaseConnection {
  info(req: RequestInfo): Promise<ResponseInfo>;
  query(req: RequestQuery): Promise<ResponseQuery>;
  setOption(req: RequestSetOption): Promise<ResponseSetOption>;
}

export interface SnapshotConnection extends BaseConnection {
  listSnapshots(): Promise<ResponseListSnapshots>;
  offerSnapshot(req: RequestOfferSnapshot): Promise<ResponseOfferSnapshot>;
  loadSnapshotChunk(req: RequestLoadSnapshotChunk): Promise<ResponseLoadSnapshotChunk>;
  applySnapshotChunk(req: RequestApplySnapshotChunk): Promise<ResponseApplySnapshotChunk>;
}

export interface AbciClient {
  readonly consensus: ConsensusConnection;
  readonly mempool: MempoolConnection;
  readonly query: QueryConnection;
  readonly snapshot: SnapshotConnection;
  /**
   * Registers a listener for the failure of any connection (socket closed, exception, bad frame).
   * A consensus failure must halt the node; the listener is told which connection it was.
   */
  onError(listener: (error: AbciError) => void): void;
  /** Closes every connection; pending calls fail with ABCI_CONNECTION_CLOSED. */
  close(): Promise<void>;
}

/** The injected logger: any object with these methods (pino child loggers adapt trivially). */
export interface AbciLogger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: AbciLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/** The Info request the node sends (reference §6.3). */
export const NODE_INFO_REQUEST: RequestInfo = { version: "0.34.24", blockVersion: 11n, p2pVersion: 8n };
