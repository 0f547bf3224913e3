// The ABCI client for an app living in this process. Same interface as the socket client; calls
// from all four connections go to the app one at a time in call order (Tendermint's local client
// holds one mutex for the same reason: the example apps are not re-entrant). A synchronous answer
// costs no extra promise hop beyond the one the interface returns.
import type {
  RequestApplySnapshotChunk,
  RequestBeginBlock,
  RequestCheckTx,
  RequestCommit,
  RequestDeliverTx,
  RequestEndBlock,
  RequestInfo,
  RequestInitChain,
  RequestListSnapshots,
  RequestLoadSnapshotChunk,
  RequestOfferSnapshot,
  RequestQuery,
  RequestSetOption,
} from "../../wire/generated/tendermint/abci/types.js";
import type { Application, MaybePromise } from "../apps/application.js";
import { AbciError } from "../errors.js";
import type {
  AbciClient,
  ConnectionName,
  ConsensusConnection,
  MempoolConnection,
  QueryConnection,
  SnapshotConnection,
} from "./abci-client.js";

function isPromise<T>(v: MaybePromise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown })?.then === "function";
}

/**
 * The app's answer to each request in order (its CheckTx or DeliverTx), synchronously until one
 * answers with a promise; from there each waits for the one before, as a socket app's would.
 */
function answerEach<R, A>(call: (request: R) => MaybePromise<A>, rs: readonly R[]): MaybePromise<A[]> {
  const out: A[] = new Array(rs.length);
  for (let i = 0; i < rs.length; i++) {
    const answer = call(rs[i]!);
    if (isPromise(answer)) return answerRestAsync(call, rs, out, i, answer);
    out[i] = answer;
  }
  return out;
}

async function answerRestAsync<R, A>(
  call: (request: R) => MaybePromise<A>,
  rs: readonly R[],
  out: A[],
  from: number,
  pending: Promise<A>,
): Promise<A[]> {
  out[from] = await pending;
  for (let i = from + 1; i < rs.length; i++) out[i] = await call(rs[i]!);
  return out;
}

const COMMIT: RequestCommit = {};
const LIST_SNAPSHOTS: RequestListSnapshots = {};

export class InProcessAbciClient implements AbciClient {
  readonly consensus: ConsensusConnection;
  readonly mempool: MempoolConnection;
  readonly query: QueryConnection;
  readonly snapshot: SnapshotConnection;
  private outstanding = 0;
  private tail: Promise<unknown> = Promise.resolve();
  private failure: AbciError | undefined;
  private closed = false;
  private readonly listeners: ((e: AbciError) => void)[] = [];

  constructor(readonly app: Application) {
    const base = (name: ConnectionName) => {
      const client = this;
      const methods = {
        name,
        echo: (message: string) => this.run(name, "echo", () => message),
        flush: () => this.run(name, "flush", () => undefined),
      };
      // A getter, so the connection reports the failure live (spreading would freeze its value).
      return Object.defineProperty(methods, "error", {
        get: () => client.failure,
        enumerable: true,
      }) as typeof methods & {
        readonly error: AbciError | undefined;
      };
    };
    this.consensus = Object.assign(base("consensus"), {
      initChain: (r: RequestInitChain) => this.run("consensus", "initChain", () => app.initChain(r)),
      beginBlock: (r: RequestBeginBlock) => this.run("consensus", "beginBlock", () => app.beginBlock(r)),
      deliverTx: (r: RequestDeliverTx) => this.run("consensus", "deliverTx", () => app.deliverTx(r)),
      // One slot in the call order for a window of the block's txs, as checkTxs for CheckTx.
      deliverTxs: (rs: readonly RequestDeliverTx[]) =>
        this.run("consensus", "deliverTx", () => answerEach((r: RequestDeliverTx) => app.deliverTx(r), rs)),
      endBlock: (r: RequestEndBlock) => this.run("consensus", "endBlock", () => app.endBlock(r)),
      commit: () => this.run("consensus", "commit", () => app.commit(COMMIT)),
    });
    this.mempool = Object.assign(base("mempool"), {
      checkTx: (r: RequestCheckTx) => this.run("mempool", "checkTx", () => app.checkTx(r)),
      // One slot in the call order for the whole batch: no promise per tx while the app answers
      // synchronously (kvstore's CheckTx does).
      checkTxs: (rs: readonly RequestCheckTx[]) =>
        this.run("mempool", "checkTx", () => answerEach((r: RequestCheckTx) => app.checkTx(r), rs)),
    });
    this.query = Object.assign(base("query"), {
      info: (r: RequestInfo) => this.run("query", "info", () => app.info(r)),
      query: (r: RequestQuery) => this.run("query", "query", () => app.query(r)),
      setOption: (r: RequestSetOption) => this.run("query", "setOption", () => app.setOption(r)),
    });
    this.snapshot = Object.assign(base("snapshot"), {
      listSnapshots: () => this.run("snapshot", "listSnapshots", () => app.listSnapshots(LIST_SNAPSHOTS)),
      offerSnapshot: (r: RequestOfferSnapshot) =>
        this.run("snapshot", "offerSnapshot", () => app.offerSnapshot(r)),
      loadSnapshotChunk: (r: RequestLoadSnapshotChunk) =>
        this.run("snapshot", "loadSnapshotChunk", () => app.loadSnapshotChunk(r)),
      applySnapshotChunk: (r: RequestApplySnapshotChunk) =>
        this.run("snapshot", "applySnapshotChunk", () => app.applySnapshotChunk(r)),
    });
  }

  onError(listener: (error: AbciError) => void): void {
    this.listeners.push(listener);
    if (this.failure && !this.closed) listener(this.failure);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.failure ??= new AbciError("ABCI_CONNECTION_CLOSED", "closed by the node");
    await this.tail.catch(() => {});
    await this.app.close?.();
  }

  private run<T>(name: ConnectionName, what: string, call: () => MaybePromise<T>): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.outstanding === 0) {
      let result: MaybePromise<T>;
      try {
        result = call();
      } catch (err) {
        return Promise.reject(this.fail(name, what, err));
      }
      if (!isPromise(result)) return Promise.resolve(result);
      return this.track(result.catch((err: unknown) => Promise.reject(this.fail(name, what, err))));
    }
    const next = this.tail.then(
      () => {
        if (this.failure) throw this.failure;
        try {
          return call();
        } catch (err) {
          throw this.fail(name, what, err);
        }
      },
      () => {
        throw this.failure;
      },
    );
    return this.track(
      next.catch((err: unknown) =>
        Promise.reject(err instanceof AbciError ? err : this.fail(name, what, err)),
      ),
    );
  }

  private track<T>(p: Promise<T>): Promise<T> {
    this.outstanding++;
    const done = p.finally(() => {
      this.outstanding--;
    });
    this.tail = done.catch(() => {});
    return done;
  }

  /** An app that throws is broken the same way a remote app answering Exception is. */
  private fail(name: ConnectionName, what: string, err: unknown): AbciError {
    if (this.failure) return this.failure;
    const error = new AbciError(
      "ABCI_APP_FAILED",
      `app failed on ${what}: ${(err as Error)?.message ?? String(err)}`,
      name,
      {
        cause: err,
      },
    );
    this.failure = error;
    for (const l of this.listeners) l(error);
    return error;
  }
}
