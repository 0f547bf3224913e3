// Packs a batch of verify items into one transferable ArrayBuffer for a worker, and back out.
// One buffer moved (not copied) per chunk is far cheaper than structured-cloning three
// Uint8Arrays per item. Layout: u32 count, then per item u32 lengths of key, message and
// signature, then all bytes in the same order (little-endian, as every supported host is).
import type { VerifyItem } from "./verify-item.js";

const HEADER_WORDS_PER_ITEM = 3;

export function packVerifyItems(items: readonly VerifyItem[], start = 0, end = items.length): ArrayBuffer {
  const count = end - start;
  const headerBytes = 4 * (1 + HEADER_WORDS_PER_ITEM * count);
  let dataBytes = 0;
  for (let i = start; i < end; i++) {
    const item = items[i] as VerifyItem;
    dataBytes += item.publicKey.length + item.message.length + item.signature.length;
  }
  const buffer = new ArrayBuffer(headerBytes + dataBytes);
  const header = new Uint32Array(buffer, 0, 1 + HEADER_WORDS_PER_ITEM * count);
  const bytes = new Uint8Array(buffer);
  header[0] = count;
  let offset = headerBytes;
  for (let i = start; i < end; i++) {
    const item = items[i] as VerifyItem;
    const h = 1 + HEADER_WORDS_PER_ITEM * (i - start);
    header[h] = item.publicKey.length;
    header[h + 1] = item.message.length;
    header[h + 2] = item.signature.length;
    bytes.set(item.publicKey, offset);
    offset += item.publicKey.length;
    bytes.set(item.message, offset);
    offset += item.message.length;
    bytes.set(item.signature, offset);
    offset += item.signature.length;
  }
  return buffer;
}

/** Calls `visit` with views (not copies) of each packed item, in order. */
export function forEachPackedItem(
  buffer: ArrayBuffer,
  visit: (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array, index: number) => void,
): number {
  const count = new Uint32Array(buffer, 0, 1)[0] as number;
  const header = new Uint32Array(buffer, 0, 1 + HEADER_WORDS_PER_ITEM * count);
  let offset = 4 * header.length;
  for (let i = 0; i < count; i++) {
    const h = 1 + HEADER_WORDS_PER_ITEM * i;
    const keyLength = header[h] as number;
    const messageLength = header[h + 1] as number;
    const signatureLength = header[h + 2] as number;
    const publicKey = new Uint8Array(buffer, offset, keyLength);
    offset += keyLength;
    const message = new Uint8Array(buffer, offset, messageLength);
    offset += messageLength;
    const signature = new Uint8Array(buffer, offset, signatureLength);
    offset += signatureLength;
    visit(publicKey, message, signature, i);
  }
  return count;
}
