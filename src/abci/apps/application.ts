// The application interface an in-process app implements and the socket server serves. Methods
// may answer synchronously (the fast path: no promise per call) or with a promise.
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

export type MaybePromise<T> = T | Promise<T>;

export interface Application {
  info(req: RequestInfo): MaybePromise<ResponseInfo>;
  setOption(req: RequestSetOption): MaybePromise<ResponseSetOption>;
  query(req: RequestQuery): MaybePromise<ResponseQuery>;
  checkTx(req: RequestCheckTx): MaybePromise<ResponseCheckTx>;
  initChain(req: RequestInitChain): MaybePromise<ResponseInitChain>;
  beginBlock(req: RequestBeginBlock): MaybePromise<ResponseBeginBlock>;
  deliverTx(req: RequestDeliverTx): MaybePromise<ResponseDeliverTx>;
  endBlock(req: RequestEndBlock): MaybePromise<ResponseEndBlock>;
  commit(req: RequestCommit): MaybePromise<ResponseCommit>;
  listSnapshots(req: RequestListSnapshots): MaybePromise<ResponseListSnapshots>;
  offerSnapshot(req: RequestOfferSnapshot): MaybePromise<ResponseOfferSnapshot>;
  loadSnapshotChunk(req: RequestLoadSnapshotChunk): MaybePromise<ResponseLoadSnapshotChunk>;
  applySnapshotChunk(req: RequestApplySnapshotChunk): MaybePromise<ResponseApplySnapshotChunk>;
  /** Releases what the app holds (a database); called once when the node stops. */
  close?(): Promise<void>;
}
