// The mempool channel (0x30): `tendermint.mempool.Message{txs: Txs{repeated bytes txs}}`. v0.34
// sends one tx per message; we may send several (any v0.34 node accepts them: its Receive checks
// every tx of the list), never more bytes than one message of a max_tx_bytes tx, the channel's
// receive capacity. A peer's message is checked the same way: each tx bounded by our
// max_tx_bytes, the whole by the capacity.
import { Message } from "../wire/generated/tendermint/mempool/types.js";
import { varintLength, writeVarint } from "../wire/varint-bytes.js";
import { mempoolRecvMessageCapacity } from "./channels.js";

/** Several txs in one message (one tx gives the same bytes as encodeMempoolTx). */
export function encodeMempoolTxs(txs: Uint8Array[]): Uint8Array {
  if (txs.length === 1) return encodeMempoolTx(txs[0]!);
  return Message.encode({ sum: { $case: "txs", txs: { txs } } }).finish();
}

/**
 * One tx as the message v0.34's broadcastTxRoutine sends, Message{txs: Txs{txs: [tx]}}, written
 * straight into one buffer (the same bytes as Message.encode, without its writer's forks and
 * chunks): the gossip encodes every admitted tx. A tx that is the end of a buffer holding exactly
 * this message (a peer's one-tx message as received: oneTxOf's view, which the mempool keeps as
 * the tx) gets that buffer back, not a second copy of its bytes: message and tx then share it,
 * and neither is ever written.
 */
export function encodeMempoolTx(tx: Uint8Array): Uint8Array {
  const entries = mempoolTxEntryBytes(tx.length);
  const total = mempoolMessageBytes(entries);
  const header = total - tx.length;
  if (tx.byteOffset === header && tx.buffer.byteLength === total) {
    const whole = new Uint8Array(tx.buffer, 0, total);
    const at = writeOneTxHeader(headerScratch, entries, tx.length);
    let same = true;
    for (let i = 0; same && i < at; i++) same = whole[i] === headerScratch[i];
    if (same) return whole;
  }
  const out = new Uint8Array(total);
  out.set(tx, writeOneTxHeader(out, entries, tx.length));
  return out;
}

// The header of a one-tx message: two tags and two varints of at most 8 bytes each.
const headerScratch = new Uint8Array(18);

/** Writes `0a varint(entries) 0a varint(length)` at the start of `out`; returns where it ends. */
function writeOneTxHeader(out: Uint8Array, entries: number, length: number): number {
  out[0] = 0x0a; // Message.txs, field 1, length-delimited
  let at = writeVarint(out, 1, entries);
  out[at++] = 0x0a; // Txs.txs, field 1, length-delimited
  return writeVarint(out, at, length);
}

/** Bytes a tx of `length` bytes adds to the Txs list (field tag, length, bytes). */
export function mempoolTxEntryBytes(length: number): number {
  return 1 + varintLength(length) + length;
}

/** Bytes of the whole message whose Txs list entries add up to `entries` bytes. */
export function mempoolMessageBytes(entries: number): number {
  return 1 + varintLength(entries) + entries;
}

export type DecodedMempoolMessage =
  | { readonly kind: "txs"; readonly txs: readonly Uint8Array[] }
  /** The peer broke the protocol: it is reported with this reason. */
  | { readonly kind: "invalid"; readonly reason: string };

/**
 * A peer's mempool message, checked against our limits: its size against the channel's receive
 * capacity (derived from our max_tx_bytes), each tx against max_tx_bytes; undecodable bytes and
 * an empty or unknown oneof are protocol faults. An empty tx list is valid (v0.34 only logs it).
 */
export function decodeMempoolMessage(bytes: Uint8Array, maxTxBytes: number): DecodedMempoolMessage {
  return decodeMempoolMessageWith(bytes, maxTxBytes, true);
}

/** decodeMempoolMessage by the generated decoder alone (tests hold the two to one answer). */
export function decodeMempoolMessageGeneral(bytes: Uint8Array, maxTxBytes: number): DecodedMempoolMessage {
  return decodeMempoolMessageWith(bytes, maxTxBytes, false);
}

function decodeMempoolMessageWith(
  bytes: Uint8Array,
  maxTxBytes: number,
  oneTxShape: boolean,
): DecodedMempoolMessage {
  const capacity = mempoolRecvMessageCapacity(maxTxBytes);
  if (bytes.length > capacity)
    return {
      kind: "invalid",
      reason: `mempool message of ${bytes.length} bytes is over the channel's capacity ${capacity}`,
    };
  const one = oneTxShape ? oneTxOf(bytes) : undefined;
  let txs: Uint8Array[];
  if (one !== undefined) txs = [one];
  else {
    let message: Message;
    try {
      message = Message.decode(bytes);
    } catch (error) {
      return { kind: "invalid", reason: `undecodable mempool message: ${(error as Error).message}` };
    }
    if (message.sum === undefined)
      return { kind: "invalid", reason: "mempool message with no known variant" };
    txs = message.sum.txs.txs;
  }
  for (let i = 0; i < txs.length; i++) {
    const tx = txs[i]!;
    if (tx.length > maxTxBytes)
      return {
        kind: "invalid",
        reason: `mempool message tx ${i} is ${tx.length} bytes, over max_tx_bytes ${maxTxBytes}`,
      };
  }
  return { kind: "txs", txs };
}

// Where the varint shortVarintAt last read ends (a module slot, not an array per read).
let varintEnd = 0;

/** A varint of at most 4 bytes at `at` (lengths within any channel's capacity), or -1; sets varintEnd. */
function shortVarintAt(bytes: Uint8Array, at: number): number {
  let value = 0;
  for (let shift = 0; shift < 28; shift += 7) {
    if (at >= bytes.length) return -1;
    const b = bytes[at++]!;
    value += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) {
      varintEnd = at;
      return value;
    }
  }
  return -1;
}

/**
 * The tx of a message of exactly v0.34's shape, `0a len(Txs) 0a len(tx) tx` with a non-empty tx and
 * nothing after it (what v0.34 nodes and ours send), as a view of `bytes`; undefined for any other
 * bytes, which the generated decoder then reads. That decoder makes a reader, the message, its
 * oneof, the list and its array for every message, and a full-mesh node receives ~2 per tx.
 */
export function oneTxOf(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes[0] !== 0x0a) return undefined;
  const outer = shortVarintAt(bytes, 1);
  if (outer < 0 || varintEnd + outer !== bytes.length || bytes[varintEnd] !== 0x0a) return undefined;
  const inner = shortVarintAt(bytes, varintEnd + 1);
  if (inner <= 0 || varintEnd + inner !== bytes.length) return undefined;
  return bytes.subarray(varintEnd);
}
