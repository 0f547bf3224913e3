// A height's DeliverTx results are stored twice: in state.db's ABCI responses record and, one by
// one, inside each tx's TxResult in tx_index.db. Each result (with its events, most of the bytes)
// is encoded once here and both records are assembled from those bytes: the profile under wrk
// showed the two protobuf encodes at ~10 % of the node's busy main thread.
//
// The assembled bytes are exactly what the generated encoders write (fields in number order,
// an embedded message as tag, length, bytes), so stored records do not change
// (test/unit/store-deliver-tx-bytes.test.ts compares them).
import Long from "long";
import _m0 from "protobufjs/minimal.js";
import { ResponseDeliverTx } from "../wire/generated/tendermint/abci/types.js";
import { ABCIResponses } from "../wire/generated/tendermint/state/types.js";

// Keyed by the results array of one ABCIResponses: the node saves the record at execution and
// indexes the same object after Commit. Results are immutable once returned by the app, so an
// entry never goes stale; a WeakMap keeps nothing alive.
const encoded = new WeakMap<readonly ResponseDeliverTx[], readonly Uint8Array[]>();

/** Each result's protobuf bytes, encoded on the first call for this array. */
export function deliverTxBytes(results: readonly ResponseDeliverTx[]): readonly Uint8Array[] {
  let bytes = encoded.get(results);
  if (bytes === undefined) {
    bytes = results.map((result) => ResponseDeliverTx.encode(result).finish());
    encoded.set(results, bytes);
  }
  return bytes;
}

/** ABCIResponses bytes: deliver_txs (field 1) from the shared bytes, then end/begin block. */
export function encodeAbciResponses(responses: ABCIResponses): Uint8Array {
  const writer = _m0.Writer.create();
  for (const bytes of deliverTxBytes(responses.deliverTxs)) writer.uint32(10).bytes(bytes);
  return ABCIResponses.encode({ ...responses, deliverTxs: [] }, writer).finish();
}

/** TxResult {height, index, tx, result} bytes with the result already encoded. */
export function encodeTxResult(
  height: bigint,
  index: number,
  tx: Uint8Array,
  result: Uint8Array,
): Uint8Array {
  const writer = _m0.Writer.create();
  if (height !== 0n) writer.uint32(8).int64(int64(height));
  if (index !== 0) writer.uint32(16).uint32(index);
  if (tx.length !== 0) writer.uint32(26).bytes(tx);
  return writer.uint32(34).bytes(result).finish();
}

function int64(value: bigint): number | Long {
  if (value >= -9007199254740991n && value <= 9007199254740991n) return Number(value);
  return new Long(Number(BigInt.asIntN(32, value)), Number(BigInt.asIntN(32, value >> 32n)));
}
