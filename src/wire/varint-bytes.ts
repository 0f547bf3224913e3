// Protobuf varints of plain numbers, written straight into a caller's array: the hand-assembled
// encoders (stored DeliverTx/TxResult bytes, MConnection packets, mempool messages) size their
// output exactly, then fill it. Division rather than bit operations, so values up to 2^53 are
// right (bitwise operators truncate to 32 bits).

/** Bytes of a non-negative integer below 2^53 as a protobuf varint. */
export function varintLength(n: number): number {
  let length = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    length++;
  }
  return length;
}

/** Writes `n` (a non-negative integer below 2^53) as a varint at `at`; returns the next position. */
export function writeVarint(out: Uint8Array, at: number, n: number): number {
  while (n >= 128) {
    out[at++] = (n % 128) | 128;
    n = Math.floor(n / 128);
  }
  out[at++] = n;
  return at;
}
