// Why a transaction was refused, with Tendermint v0.34's messages (clients match on them).
import { CodedError } from "../coded-error.js";
export type MempoolErrorCode =
  | "MEMPOOL_TX_IN_CACHE"
  | "MEMPOOL_TX_TOO_LARGE"
  | "MEMPOOL_FULL"
  | "MEMPOOL_TX_EMPTY";

export interface MempoolRefusal {
  code: MempoolErrorCode;
  /** Tendermint's exact message. */
  message: string;
  /** A plain-words explanation rxbft adds beside the message. */
  detail?: string;
}

export const txInCache = (pending: boolean): MempoolRefusal => ({
  code: "MEMPOOL_TX_IN_CACHE",
  message: "tx already exists in cache",
  detail: pending
    ? "the same tx is already pending in the mempool"
    : "the same tx was seen recently: it is committed or was refused; a tx is only accepted once",
});

export const txTooLarge = (max: number, got: number): MempoolRefusal => ({
  code: "MEMPOOL_TX_TOO_LARGE",
  message: `Tx too large. Max size is ${max}, but got ${got}`,
});

export const mempoolFull = (
  txs: number,
  maxTxs: number,
  bytes: number,
  maxBytes: number,
): MempoolRefusal => ({
  code: "MEMPOOL_FULL",
  message: `mempool is full: number of txs ${txs} (max: ${maxTxs}), total txs bytes ${bytes} (max: ${maxBytes})`,
});

export const txEmpty = (): MempoolRefusal => ({
  code: "MEMPOOL_TX_EMPTY",
  message: "tx is empty",
  detail: "a transaction must have at least one byte",
});

export class MempoolError extends CodedError<MempoolErrorCode> {
  constructor(readonly refusal: MempoolRefusal) {
    super(refusal.code, refusal.detail ? `${refusal.message} (${refusal.detail})` : refusal.message);
  }
}
