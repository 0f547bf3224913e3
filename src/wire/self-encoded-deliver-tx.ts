// A DeliverTx result that writes its own protobuf bytes. The hand encoder of the responses record
// (src/store/deliver-tx-bytes.ts) asks it instead of walking its events: an app's result that
// builds its events only when they are read (the in-process kvstore's) would otherwise make them
// twice per tx for the record alone.

/** Written exactly as ResponseDeliverTx.encode writes the same result (fields in number order). */
export interface SelfEncodedDeliverTx {
  /** The length of its ResponseDeliverTx bytes. */
  encodedLength(): number;
  /** Writes those bytes at `at` of `out`; returns the position after them. */
  encodeInto(out: Uint8Array, at: number): number;
}

export function isSelfEncodedDeliverTx(result: object): result is SelfEncodedDeliverTx {
  return typeof (result as Partial<SelfEncodedDeliverTx>).encodeInto === "function";
}
