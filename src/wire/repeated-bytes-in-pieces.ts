// A repeated length-delimited field (each item: tag byte 10, its length as a varint, its bytes) of
// many items, followed by `tail`, written into one array of the exact size, `piece` items at a time
// with `pause()` awaited between pieces: the node's big per-height encodings (a block's txs, a
// height's DeliverTx results) made across turns of the event loop instead of in one run that holds
// every RPC answer. The bytes are what the generated encoder writes for field 1 of those items.
import { varintLength, writeVarint } from "./varint-bytes.js";

const FIELD_1_LENGTH_DELIMITED = 10;

export async function field1ItemsInPieces(
  items: readonly Uint8Array[],
  pause: () => Promise<void>,
  piece: number,
  tail: Uint8Array = new Uint8Array(0),
): Promise<Uint8Array> {
  const n = items.length;
  let size = tail.length;
  for (let i = 0; i < n; i++) size += 1 + varintLength(items[i]!.length) + items[i]!.length;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % piece === 0) await pause();
    const item = items[i]!;
    bytes[at++] = FIELD_1_LENGTH_DELIMITED;
    at = writeVarint(bytes, at, item.length);
    bytes.set(item, at);
    at += item.length;
  }
  bytes.set(tail, at);
  return bytes;
}
