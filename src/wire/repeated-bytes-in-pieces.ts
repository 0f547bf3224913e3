// A repeated length-delimited field (each item: tag byte 10, its length as a varint, its bytes) of
// many items, followed by `tail`, written into one array of the exact size, `piece` items at a time
// with `pause()` awaited between pieces: the node's big per-height encodings (a block's txs, a
// height's DeliverTx results) made across turns of the event loop instead of in one run that holds
// every RPC answer. The bytes are what the generated encoder writes for field 1 of those items.
import { varintLength, writeVarint } from "./varint-bytes.js";

const FIELD_1_LENGTH_DELIMITED = 10;

/** Bytes of items[from, to), each written as one tag byte, its length as a varint and its bytes. */
export function taggedItemsLength(items: readonly Uint8Array[], from = 0, to = items.length): number {
  let size = 0;
  for (let i = from; i < to; i++) size += 1 + varintLength(items[i]!.length) + items[i]!.length;
  return size;
}

/** Writes items[from, to) into `out` at `at`, each as `tag`, its length and its bytes; returns the next position. */
export function writeTaggedItems(
  items: readonly Uint8Array[],
  from: number,
  to: number,
  out: Uint8Array,
  at: number,
  tag = FIELD_1_LENGTH_DELIMITED,
): number {
  for (let i = from; i < to; i++) {
    const item = items[i]!;
    out[at++] = tag;
    at = writeVarint(out, at, item.length);
    out.set(item, at);
    at += item.length;
  }
  return at;
}

/**
 * writeTaggedItems with field 1's tag, `piece` items between two pauses; resolves to the position
 * after the last.
 */
export async function writeField1ItemsInPieces(
  items: readonly Uint8Array[],
  from: number,
  to: number,
  out: Uint8Array,
  at: number,
  pause: () => Promise<void>,
  piece: number,
): Promise<number> {
  for (let i = from; i < to; i += piece) {
    if (i > from) await pause();
    at = writeTaggedItems(items, i, Math.min(to, i + piece), out, at);
  }
  return at;
}

export async function field1ItemsInPieces(
  items: readonly Uint8Array[],
  pause: () => Promise<void>,
  piece: number,
  tail: Uint8Array = new Uint8Array(0),
): Promise<Uint8Array> {
  const bytes = new Uint8Array(taggedItemsLength(items) + tail.length);
  const at = await writeField1ItemsInPieces(items, 0, items.length, bytes, 0, pause, piece);
  bytes.set(tail, at);
  return bytes;
}
