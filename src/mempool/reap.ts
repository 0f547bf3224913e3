// Reading txs out of the pool for a proposal or for `unconfirmed_txs`: pure, in arrival order.
import type { MempoolState, MempoolTx } from "./state.js";

/** Bytes a tx adds to a block's Data message: field tag, uvarint length, the tx. */
export function protoSizeOfTx(txLength: number): number {
  let lengthBytes = 1;
  for (let n = txLength; n >= 0x80; n = Math.floor(n / 0x80)) lengthBytes++;
  return 1 + lengthBytes + txLength;
}

/**
 * Txs in arrival order while their encoded size stays within `maxBytes` and their gas within
 * `maxGas` (-1 = no limit for either), stopping at the first tx that would exceed a limit, as
 * Tendermint's v0 mempool does so that order is never skipped.
 */
export function reapMaxBytesMaxGas(state: MempoolState, maxBytes: number, maxGas: bigint): MempoolTx[] {
  const reaped: MempoolTx[] = [];
  let bytes = 0;
  let gas = 0n;
  for (const entry of state.txs.values()) {
    const size = protoSizeOfTx(entry.tx.length);
    if (maxBytes > -1 && bytes + size > maxBytes) break;
    const nextGas = gas + entry.gasWanted;
    if (maxGas > -1n && nextGas > maxGas) break;
    bytes += size;
    gas = nextGas;
    reaped.push(entry);
  }
  return reaped;
}

/** At most `max` txs in arrival order (-1 = all). */
export function reapMaxTxs(state: MempoolState, max: number): MempoolTx[] {
  const out: MempoolTx[] = [];
  if (max === 0) return out;
  for (const entry of state.txs.values()) {
    out.push(entry);
    if (out.length === max) break;
  }
  return out;
}
