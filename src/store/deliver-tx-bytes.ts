// A height's DeliverTx results are stored twice: in state.db's ABCI responses record and, one by
// one, inside each tx's TxResult in tx_index.db. Each result (with its events, most of the bytes)
// is encoded once here and both records are assembled from those bytes: the profile under wrk
// showed the two protobuf encodes at ~10 % of the node's busy main thread.
//
// The results are written straight into the record's array (each as field 1: tag, length, bytes),
// and each result's bytes are a view of that array: no array of its own per result (above 64
// bytes every array has a backing store that malloc gives and the GC must free) and no second
// copy into the record.
//
// The assembled bytes are exactly what the generated encoders write (fields in number order,
// an embedded message as tag, length, bytes), so stored records do not change
// (test/unit/store-deliver-tx-bytes.test.ts compares them).
import Long from "long";
import _m0 from "protobufjs/minimal.js";
import { type Event, ResponseDeliverTx } from "../wire/generated/tendermint/abci/types.js";
import { ABCIResponses } from "../wire/generated/tendermint/state/types.js";
import { field1ItemsInPieces } from "../wire/repeated-bytes-in-pieces.js";
import { isSelfEncodedDeliverTx } from "../wire/self-encoded-deliver-tx.js";
import { varintLength, writeVarint } from "../wire/varint-bytes.js";

/**
 * Where each result's protobuf bytes are in the one array they were written to (the ABCI
 * responses record's): result i is `bytes[begins[i], ends[i])`. Two arrays of numbers rather than
 * a view per result: the views lived from execution until the height was indexed, a second or so,
 * and each was an object the young generation's collections copied meanwhile.
 */
export interface ResultSpans {
  readonly bytes: Uint8Array;
  readonly begins: Uint32Array;
  readonly ends: Uint32Array;
}

// Keyed by the results array of one ABCIResponses: the node saves the record at execution and
// indexes the same object after Commit. Results are immutable once returned by the app, so an
// entry never goes stale; a WeakMap keeps nothing alive.
const encoded = new WeakMap<readonly ResponseDeliverTx[], ResultSpans>();
const viewed = new WeakMap<readonly ResponseDeliverTx[], readonly Uint8Array[]>();

const NO_TAIL = new Uint8Array(0);
const FIELD_1_LENGTH_DELIMITED = 10;

/** Where each result's protobuf bytes are, encoded on the first call for this array. */
export function deliverTxSpans(results: readonly ResponseDeliverTx[]): ResultSpans {
  let spans = encoded.get(results);
  if (spans === undefined) {
    spans = runToEnd(resultsRecord(results, NO_TAIL, Number.POSITIVE_INFINITY));
    encoded.set(results, spans);
  }
  return spans;
}

/** Each result's protobuf bytes (views of deliverTxSpans' array), encoded on the first call. */
export function deliverTxBytes(results: readonly ResponseDeliverTx[]): readonly Uint8Array[] {
  let views = viewed.get(results);
  if (views === undefined) {
    views = viewsOf(deliverTxSpans(results));
    viewed.set(results, views);
  }
  return views;
}

function viewsOf({ bytes, begins, ends }: ResultSpans): Uint8Array[] {
  const views: Uint8Array[] = new Array(begins.length);
  for (let i = 0; i < begins.length; i++) views[i] = bytes.subarray(begins[i]!, ends[i]!);
  return views;
}

/** ABCIResponses bytes: deliver_txs (field 1) from the shared bytes, then end/begin block. */
export function encodeAbciResponses(responses: ABCIResponses): Uint8Array {
  const ahead = encodedAhead.get(responses);
  if (ahead !== undefined) {
    // Taken once: the record's bytes are not kept for the rest of the responses' life.
    encodedAhead.delete(responses);
    if (
      ahead.deliverTxs === responses.deliverTxs &&
      ahead.endBlock === responses.endBlock &&
      ahead.beginBlock === responses.beginBlock
    )
      return ahead.bytes;
  }
  const results = responses.deliverTxs;
  if (!encoded.has(results)) {
    const rest = ABCIResponses.encode({ ...responses, deliverTxs: [] }).finish();
    const record = runToEnd(resultsRecord(results, rest, Number.POSITIVE_INFINITY));
    encoded.set(results, record);
    return record.bytes;
  }
  const writer = _m0.Writer.create();
  for (const bytes of deliverTxBytes(results)) writer.uint32(FIELD_1_LENGTH_DELIMITED).bytes(bytes);
  return ABCIResponses.encode({ ...responses, deliverTxs: [] }, writer).finish();
}

/** Results encoded, and then copied into the record, between two pauses of the pieces' path. */
export const RESPONSES_PIECE = 2048;

// The record made in pieces for a responses object, until encodeAbciResponses takes it (the
// state store's save, which is synchronous); with the parts it was made from, so a responses object
// whose parts were replaced meanwhile is encoded afresh.
interface EncodedAhead {
  readonly bytes: Uint8Array;
  readonly deliverTxs: ABCIResponses["deliverTxs"];
  readonly endBlock: ABCIResponses["endBlock"];
  readonly beginBlock: ABCIResponses["beginBlock"];
}
const encodedAhead = new WeakMap<ABCIResponses, EncodedAhead>();

/**
 * The ABCIResponses record of a large height made before its save, `piece` results at a time with
 * `pause()` awaited between pieces (the node's: the event loop's next turn), so RPC requests are
 * served while a block of tens of thousands of results is encoded (15-24 ms in one piece for
 * 20,000 txs). The next encodeAbciResponses of this very object returns these bytes, which are
 * the one-piece bytes exactly: each result's field (tag 1, length, the shared bytes of
 * deliverTxBytes) in order, then end_block and begin_block as the generated encoder writes them.
 */
export async function encodeAbciResponsesInPieces(
  responses: ABCIResponses,
  pause: () => Promise<void>,
  piece = RESPONSES_PIECE,
): Promise<Uint8Array> {
  const results = responses.deliverTxs;
  const rest = ABCIResponses.encode({ ...responses, deliverTxs: [] }).finish();
  let bytes: Uint8Array;
  if (!encoded.has(results)) {
    const writing = resultsRecord(results, rest, piece);
    let step = writing.next();
    while (step.done !== true) {
      await pause();
      step = writing.next();
    }
    bytes = step.value.bytes;
    encoded.set(results, step.value);
  } else {
    bytes = await field1ItemsInPieces(deliverTxBytes(results), pause, piece, rest);
  }
  encodedAhead.set(responses, {
    bytes,
    deliverTxs: results,
    endBlock: responses.endBlock,
    beginBlock: responses.beginBlock,
  });
  return bytes;
}

/** Field 1 (tag, length, bytes) of each result in order, then the tail; where each result is. */
type ResultsRecord = ResultSpans;

/**
 * The results written once into the record's array, yielding after every `piece` results of each
 * of its two passes (sizes, then bytes) so the caller can pause between them. A result the hand
 * path does not take is encoded by the generated encoder in the first pass and copied in the second.
 */
function* resultsRecord(
  results: readonly ResponseDeliverTx[],
  tail: Uint8Array,
  piece: number,
): Generator<void, ResultsRecord> {
  const n = results.length;
  const sizes: number[] = new Array(n);
  let generated: (Uint8Array | undefined)[] | undefined;
  let size = tail.length;
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % piece === 0) yield;
    let length = handSize(results[i]!);
    if (length < 0) {
      const made = ResponseDeliverTx.encode(results[i]!).finish();
      generated ??= new Array(n);
      generated[i] = made;
      length = made.length;
    }
    sizes[i] = length;
    size += 1 + varintLength(length) + length;
  }
  const bytes = new Uint8Array(size);
  const begins = new Uint32Array(n);
  const ends = new Uint32Array(n);
  let at = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % piece === 0) yield;
    const length = sizes[i]!;
    bytes[at++] = FIELD_1_LENGTH_DELIMITED;
    at = writeVarint(bytes, at, length);
    const made = generated?.[i];
    if (made !== undefined) bytes.set(made, at);
    else writeDeliverTx(results[i]!, bytes, at);
    begins[i] = at;
    at += length;
    ends[i] = at;
  }
  bytes.set(tail, at);
  return { bytes, begins, ends };
}

/** A generator that never needs a pause, run to its value. */
function runToEnd<T>(steps: Generator<void, T>): T {
  let step = steps.next();
  while (step.done !== true) step = steps.next();
  return step.value;
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
  /** Where to write (a reused buffer's view, for a batch that copies at once); a new array by default. */
  alloc: (size: number) => Uint8Array = (size) => new Uint8Array(size),
  /** The result's bytes are `result[from, to)` (a span of the responses record, ResultSpans). */
  from = 0,
  to = result.length,
): Uint8Array {
  // Beyond 2^53 (never a real height) the Writer's int64 does the two-word arithmetic.
  if (height < 0n || height > 9007199254740991n)
    return encodeTxResultWithWriter(height, index, tx, result.subarray(from, to));
  const h = Number(height);
  const resultLength = to - from;
  const size =
    (h !== 0 ? 1 + varintLength(h) : 0) +
    (index !== 0 ? 1 + varintLength(index >>> 0) : 0) +
    (tx.length !== 0 ? 1 + varintLength(tx.length) + tx.length : 0) +
    1 +
    varintLength(resultLength) +
    resultLength;
  const out = alloc(size);
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
  at = writeVarint(out, at, resultLength);
  // A result's bytes are a few dozen to a few hundred: copied in place rather than through a view.
  for (let i = from; i < to; i++) out[at++] = result[i]!;
  return out;
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

/**
 * ResponseDeliverTx bytes, written straight into one array of the exact size (sized in one pass,
 * written in a second): the generated encoder's Writer made an operation object per field and a
 * fork per event and per attribute, the largest allocation per committed tx after the index's keys.
 * Same bytes as ResponseDeliverTx.encode (test/unit/store-deliver-tx-bytes.test.ts); a result
 * this path does not take (a string that is not ASCII, whose UTF-8 protobufjs writes its own way
 * for lone surrogates; a gas figure outside [0, 2^53)) goes through the generated encoder.
 */
export function encodeDeliverTx(result: ResponseDeliverTx): Uint8Array {
  const size = handSize(result);
  if (size < 0) return ResponseDeliverTx.encode(result).finish();
  const out = new Uint8Array(size);
  writeDeliverTx(result, out, 0);
  return out;
}

/**
 * The result's size as writeDeliverTx writes it; -1 for a result left to the generated encoder.
 * A result that writes itself (src/wire/self-encoded-deliver-tx.ts) is asked, not walked.
 */
function handSize(result: ResponseDeliverTx): number {
  if (isSelfEncodedDeliverTx(result)) return result.encodedLength();
  const { code, data, log, info, gasWanted, gasUsed, events, codespace } = result;
  if (
    !asciiOnly(log) ||
    !asciiOnly(info) ||
    !asciiOnly(codespace) ||
    !smallGas(gasWanted) ||
    !smallGas(gasUsed)
  ) {
    return -1;
  }
  for (const event of events) if (!asciiOnly(event.type)) return -1;
  const wanted = Number(gasWanted);
  const used = Number(gasUsed);
  let size = 0;
  if (code !== 0) size += 1 + varintLength(code >>> 0);
  if (data.length !== 0) size += 1 + lengthDelimited(data.length);
  if (log !== "") size += 1 + lengthDelimited(log.length);
  if (info !== "") size += 1 + lengthDelimited(info.length);
  if (wanted !== 0) size += 1 + varintLength(wanted);
  if (used !== 0) size += 1 + varintLength(used);
  for (const event of events) size += 1 + lengthDelimited(eventLength(event));
  if (codespace !== "") size += 1 + lengthDelimited(codespace.length);
  return size;
}

/** Writes a result handSize took at `at` of `out`; returns the next position. */
function writeDeliverTx(result: ResponseDeliverTx, out: Uint8Array, at: number): number {
  if (isSelfEncodedDeliverTx(result)) return result.encodeInto(out, at);
  const { code, data, log, info, gasWanted, gasUsed, events, codespace } = result;
  const wanted = Number(gasWanted);
  const used = Number(gasUsed);
  if (code !== 0) {
    out[at++] = 8;
    at = writeVarint(out, at, code >>> 0);
  }
  if (data.length !== 0) at = writeBytes(out, at, 18, data);
  if (log !== "") at = writeAscii(out, at, 26, log);
  if (info !== "") at = writeAscii(out, at, 34, info);
  if (wanted !== 0) {
    out[at++] = 40;
    at = writeVarint(out, at, wanted);
  }
  if (used !== 0) {
    out[at++] = 48;
    at = writeVarint(out, at, used);
  }
  for (const event of events) {
    out[at++] = 58;
    at = writeVarint(out, at, eventLength(event));
    if (event.type !== "") at = writeAscii(out, at, 10, event.type);
    for (const attribute of event.attributes) {
      out[at++] = 18;
      at = writeVarint(out, at, attributeLength(attribute));
      if (attribute.key.length !== 0) at = writeBytes(out, at, 10, attribute.key);
      if (attribute.value.length !== 0) at = writeBytes(out, at, 18, attribute.value);
      // As the generated encoder: written unless exactly false (an app object without the field
      // gets "index: 0" written, not nothing), so the stored bytes never differ from it.
      if (attribute.index !== false) {
        out[at++] = 24;
        out[at++] = attribute.index ? 1 : 0;
      }
    }
  }
  if (codespace !== "") at = writeAscii(out, at, 66, codespace);
  return at;
}

type Attribute = Event["attributes"][number];

function attributeLength(attribute: Attribute): number {
  let length = 0;
  if (attribute.key.length !== 0) length += 1 + lengthDelimited(attribute.key.length);
  if (attribute.value.length !== 0) length += 1 + lengthDelimited(attribute.value.length);
  if (attribute.index !== false) length += 2;
  return length;
}

function eventLength(event: Event): number {
  let length = event.type !== "" ? 1 + lengthDelimited(event.type.length) : 0;
  for (const attribute of event.attributes) length += 1 + lengthDelimited(attributeLength(attribute));
  return length;
}

/** A length prefix and that many bytes. */
const lengthDelimited = (length: number) => varintLength(length) + length;

function asciiOnly(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

const smallGas = (gas: bigint) => gas >= 0n && gas <= 9007199254740991n;

function writeBytes(out: Uint8Array, at: number, tag: number, bytes: Uint8Array): number {
  out[at++] = tag;
  at = writeVarint(out, at, bytes.length);
  out.set(bytes, at);
  return at + bytes.length;
}

function writeAscii(out: Uint8Array, at: number, tag: number, text: string): number {
  out[at++] = tag;
  at = writeVarint(out, at, text.length);
  for (let i = 0; i < text.length; i++) out[at++] = text.charCodeAt(i);
  return at;
}
