// Byte arrays compared by value, for every layer (Uint8Array has no value equality): one
// comparison instead of a copy in each module. A plain loop: what is compared is keys, hashes,
// addresses and sign bytes of tens to a few hundred bytes, where building two Buffer views for a
// native compare costs more than the loop itself.

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  const n = a.length;
  if (n !== b.length) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Upper-case hex of bytes: how Tendermint prints hashes, addresses and app hashes in logs, errors
 * and JSON. A Buffer view over the same memory, so no copy is made before encoding.
 */
export function upperHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex").toUpperCase();
}
