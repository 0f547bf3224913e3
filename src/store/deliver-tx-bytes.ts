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

/**
 * TxResult {height, index, tx, result} bytes with the result already encoded, written straight
 * into one array of the exact size: a protobufjs Writer per tx (its operation list, a Buffer from
 * the pool at finish) was a third of building a height's index batch. Fields as the generated
 * encoder writes them: height (int64 varint) and index (uint32 varint) left out when 0, tx when
 * empty, result always.
 */
export function encodeTxResult(
  height: bigint,
  index: number,
  tx: Uint8Array,
  result: Uint8Array,
): Uint8Array {
  // Beyond 2^53 (never a real height) the Writer's int64 does the two-word arithmetic.
  if (height < 0n || height > 9007199254740991n) return encodeTxResultWithWriter(height, index, tx, result);
  const h = Number(height);
  const size =
    (h !== 0 ? 1 + varintLength(h) : 0) +
    (index !== 0 ? 1 + varintLength(index >>> 0) : 0) +
    (tx.length !== 0 ? 1 + varintLength(tx.length) + tx.length : 0) +
    1 +
    varintLength(result.length) +
    result.length;
  const out = new Uint8Array(size);
  let at = 0;
  if (h !== 0) {
    out[at++] = 8;
    at = writeVarint(out, at, h);
  }
  if (index !== 0) {
    out[at++] = 16;
    at = writeVarint(out, at, index >>> 0);
  }
  if (tx.length !== 0) {
    out[at++] = 26;
    at = writeVarint(out, at, tx.length);
    out.set(tx, at);
    at += tx.length;
  }
  out[at++] = 34;
  at = writeVarint(out, at, result.length);
  out.set(result, at);
  return out;
}

/** Bytes of a non-negative integer below 2^53 as a protobuf varint. */
function varintLength(n: number): number {
  let length = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    length++;
  }
  return length;
}

function writeVarint(out: Uint8Array, at: number, n: number): number {
  while (n >= 128) {
    out[at++] = (n % 128) | 128;
    n = Math.floor(n / 128);
  }
  out[at++] = n;
  return at;
}

function encodeTxResultWithWriter(
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
