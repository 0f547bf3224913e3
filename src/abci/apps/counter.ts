// The counter example app (Tendermint's abci/example/counter). In serial mode a tx is a big-endian
// integer of at most 8 bytes that must equal the tx count in DeliverTx and be at least it in
// CheckTx. State is in memory: after a restart the node replays the chain into it.
import type {
  RequestCheckTx,
  RequestCommit,
  RequestDeliverTx,
  RequestInfo,
  RequestQuery,
  RequestSetOption,
  ResponseCheckTx,
  ResponseDeliverTx,
} from "../../wire/generated/tendermint/abci/types.js";
import { CODE_BAD_NONCE, CODE_ENCODING_ERROR, CODE_OK } from "./codes.js";
import { NoopApplication } from "./noop.js";
import {
  responseCheckTx,
  responseCommit,
  responseDeliverTx,
  responseInfo,
  responseQuery,
  responseSetOption,
} from "./responses.js";

const utf8 = new TextEncoder();
const CHECK_OK = responseCheckTx({ code: CODE_OK });
const DELIVER_OK = responseDeliverTx({ code: CODE_OK });

function bigEndianValue(tx: Uint8Array): bigint {
  let v = 0n;
  for (const b of tx) v = (v << 8n) | BigInt(b);
  return v;
}

export class CounterApplication extends NoopApplication {
  private hashCount = 0n;
  private txCount = 0n;

  constructor(private serial = false) {
    super();
  }

  override info(_req?: RequestInfo) {
    return responseInfo({ data: `{"hashes":${this.hashCount},"txs":${this.txCount}}` });
  }

  override setOption(req: RequestSetOption) {
    if (req.key === "serial" && req.value === "on") {
      this.serial = true;
      return responseSetOption();
    }
    return responseSetOption({ info: `Unknown key (${req.key}) or value (${req.value})` });
  }

  override checkTx(req: RequestCheckTx): ResponseCheckTx {
    if (this.serial) {
      if (req.tx.length > 8) {
        return responseCheckTx({
          code: CODE_ENCODING_ERROR,
          log: `Max tx size is 8 bytes, got ${req.tx.length}`,
        });
      }
      const value = bigEndianValue(req.tx);
      if (value < this.txCount) {
        return responseCheckTx({
          code: CODE_BAD_NONCE,
          log: `Invalid nonce. Expected >= ${this.txCount}, got ${value}`,
        });
      }
    }
    return CHECK_OK;
  }

  override deliverTx(req: RequestDeliverTx): ResponseDeliverTx {
    if (this.serial) {
      if (req.tx.length > 8) {
        return responseDeliverTx({
          code: CODE_ENCODING_ERROR,
          log: `Max tx size is 8 bytes, got ${req.tx.length}`,
        });
      }
      const value = bigEndianValue(req.tx);
      if (value !== this.txCount) {
        return responseDeliverTx({
          code: CODE_BAD_NONCE,
          log: `Invalid nonce. Expected ${this.txCount}, got ${value}`,
        });
      }
    }
    this.txCount++;
    return DELIVER_OK;
  }

  override commit(_req?: RequestCommit) {
    this.hashCount++;
    if (this.txCount === 0n) return responseCommit();
    const hash = new Uint8Array(8);
    new DataView(hash.buffer).setBigUint64(0, this.txCount);
    return responseCommit({ data: hash });
  }

  override query(req: RequestQuery) {
    switch (req.path) {
      case "hash":
        return responseQuery({ value: utf8.encode(String(this.hashCount)) });
      case "tx":
        return responseQuery({ value: utf8.encode(String(this.txCount)) });
      default:
        return responseQuery({ log: `Invalid query path. Expected hash or tx, got ${req.path}` });
    }
  }
}
