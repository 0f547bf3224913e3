// The example kvstore's app hash: the signed zigzag varint of the pair count (Go PutVarint),
// written at the start of an 8-byte zero buffer. Not big-endian: size 1 is 02 00 00 …, 64 is 80 01 ….
export function kvstoreAppHash(size: bigint): Uint8Array {
  const out = new Uint8Array(8);
  // zigzag of a non-negative value is 2v; of a negative one, -2v-1.
  let v = size >= 0n ? size * 2n : -size * 2n - 1n;
  let i = 0;
  while (v >= 0x80n && i < 7) {
    out[i++] = Number(v & 0x7fn) | 0x80;
    v >>= 7n;
  }
  // A count large enough to need more than 8 varint bytes never happens (2^55 pairs); Go would
  // panic writing past the buffer, we keep the low bytes.
  out[i] = Number(v & 0xffn);
  return out;
}
