// Complete response values with every field at its protobuf default. The generated interfaces have
// no partial constructors, and an app (ours or a test's) should only name the fields it sets.
import type {
  Event,
  EventAttribute,
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

const EMPTY = new Uint8Array(0);

export function responseInfo(p: Partial<ResponseInfo> = {}): ResponseInfo {
  return { data: "", version: "", appVersion: 0n, lastBlockHeight: 0n, lastBlockAppHash: EMPTY, ...p };
}

export function responseSetOption(p: Partial<ResponseSetOption> = {}): ResponseSetOption {
  return { code: 0, log: "", info: "", ...p };
}

export function responseInitChain(p: Partial<ResponseInitChain> = {}): ResponseInitChain {
  return { consensusParams: undefined, validators: [], appHash: EMPTY, ...p };
}

export function responseQuery(p: Partial<ResponseQuery> = {}): ResponseQuery {
  return {
    code: 0,
    log: "",
    info: "",
    index: 0n,
    key: EMPTY,
    value: EMPTY,
    proofOps: undefined,
    height: 0n,
    codespace: "",
    ...p,
  };
}

export function responseBeginBlock(p: Partial<ResponseBeginBlock> = {}): ResponseBeginBlock {
  return { events: [], ...p };
}

export function responseCheckTx(p: Partial<ResponseCheckTx> = {}): ResponseCheckTx {
  return {
    code: 0,
    data: EMPTY,
    log: "",
    info: "",
    gasWanted: 0n,
    gasUsed: 0n,
    events: [],
    codespace: "",
    sender: "",
    priority: 0n,
    mempoolError: "",
    ...p,
  };
}

export function responseDeliverTx(p: Partial<ResponseDeliverTx> = {}): ResponseDeliverTx {
  return {
    code: 0,
    data: EMPTY,
    log: "",
    info: "",
    gasWanted: 0n,
    gasUsed: 0n,
    events: [],
    codespace: "",
    ...p,
  };
}

export function responseEndBlock(p: Partial<ResponseEndBlock> = {}): ResponseEndBlock {
  return { validatorUpdates: [], consensusParamUpdates: undefined, events: [], ...p };
}

export function responseCommit(p: Partial<ResponseCommit> = {}): ResponseCommit {
  return { data: EMPTY, retainHeight: 0n, ...p };
}

export function responseListSnapshots(p: Partial<ResponseListSnapshots> = {}): ResponseListSnapshots {
  return { snapshots: [], ...p };
}

export function responseOfferSnapshot(p: Partial<ResponseOfferSnapshot> = {}): ResponseOfferSnapshot {
  return { result: 0, ...p };
}

export function responseLoadSnapshotChunk(
  p: Partial<ResponseLoadSnapshotChunk> = {},
): ResponseLoadSnapshotChunk {
  return { chunk: EMPTY, ...p };
}

export function responseApplySnapshotChunk(
  p: Partial<ResponseApplySnapshotChunk> = {},
): ResponseApplySnapshotChunk {
  return { result: 0, refetchChunks: [], rejectSenders: [], ...p };
}

const utf8 = new TextEncoder();

/** An event attribute from text key and value (ABCI v0.34 attributes are bytes). */
export function attribute(key: string, value: string | Uint8Array, index = true): EventAttribute {
  return { key: utf8.encode(key), value: typeof value === "string" ? utf8.encode(value) : value, index };
}

export function event(type: string, attributes: EventAttribute[]): Event {
  return { type, attributes };
}
