// The noop app: Tendermint's BaseApplication. Every answer is empty, every code 0. The other
// example apps extend it and override what they do.
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
import type { Application, MaybePromise } from "./application.js";
import {
  responseApplySnapshotChunk,
  responseBeginBlock,
  responseCheckTx,
  responseCommit,
  responseDeliverTx,
  responseEndBlock,
  responseInfo,
  responseInitChain,
  responseListSnapshots,
  responseLoadSnapshotChunk,
  responseOfferSnapshot,
  responseQuery,
  responseSetOption,
} from "./responses.js";

export class NoopApplication implements Application {
  info(_req: RequestInfo): MaybePromise<ResponseInfo> {
    return responseInfo();
  }
  setOption(_req: RequestSetOption): MaybePromise<ResponseSetOption> {
    return responseSetOption();
  }
  query(_req: RequestQuery): MaybePromise<ResponseQuery> {
    return responseQuery();
  }
  checkTx(_req: RequestCheckTx): MaybePromise<ResponseCheckTx> {
    return responseCheckTx();
  }
  initChain(_req: RequestInitChain): MaybePromise<ResponseInitChain> {
    return responseInitChain();
  }
  beginBlock(_req: RequestBeginBlock): MaybePromise<ResponseBeginBlock> {
    return responseBeginBlock();
  }
  deliverTx(_req: RequestDeliverTx): MaybePromise<ResponseDeliverTx> {
    return responseDeliverTx();
  }
  endBlock(_req: RequestEndBlock): MaybePromise<ResponseEndBlock> {
    return responseEndBlock();
  }
  commit(_req: RequestCommit): MaybePromise<ResponseCommit> {
    return responseCommit();
  }
  listSnapshots(_req: RequestListSnapshots): MaybePromise<ResponseListSnapshots> {
    return responseListSnapshots();
  }
  offerSnapshot(_req: RequestOfferSnapshot): MaybePromise<ResponseOfferSnapshot> {
    return responseOfferSnapshot();
  }
  loadSnapshotChunk(_req: RequestLoadSnapshotChunk): MaybePromise<ResponseLoadSnapshotChunk> {
    return responseLoadSnapshotChunk();
  }
  applySnapshotChunk(_req: RequestApplySnapshotChunk): MaybePromise<ResponseApplySnapshotChunk> {
    return responseApplySnapshotChunk();
  }
  async close(): Promise<void> {}
}
