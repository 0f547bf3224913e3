// CRC-32C (Castagnoli): reflected polynomial 0x82F63B78, initial value and final xor 0xFFFFFFFF.
// Node has no built-in CRC-32C, so this is a slicing-by-8 table implementation: eight 256-entry
// tables let the loop consume 8 bytes per step, several times faster than byte-at-a-time.

const POLY = 0x82f63b78;

const TABLES: Uint32Array[] = buildTables();

function buildTables(): Uint32Array[] {
  const tables: Uint32Array[] = [];
  const t0 = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    t0[n] = c >>> 0;
  }
  tables.push(t0);
  for (let t = 1; t < 8; t++) {
    const prev = tables[t - 1]!;
    const next = new Uint32Array(256);
    for (let n = 0; n < 256; n++) next[n] = (prev[n]! >>> 8) ^ t0[prev[n]! & 0xff]!;
    tables.push(next);
  }
  return tables;
}

const [T0, T1, T2, T3, T4, T5, T6, T7] = TABLES as [
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
  Uint32Array,
];

/**
 * Extends a running CRC-32C with more bytes. Start with `crc = 0` (the finalised value of the
 * empty input); the result is the finalised CRC of everything so far, so calls chain.
 */
export function crc32cUpdate(crc: number, data: Uint8Array, start = 0, end = data.length): number {
  let c = ~crc >>> 0;
  let i = start;
  const fast = end - ((end - start) & 7);
  while (i < fast) {
    const lo = (c ^ (data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24))) >>> 0;
    c =
      T7[lo & 0xff]! ^
      T6[(lo >>> 8) & 0xff]! ^
      T5[(lo >>> 16) & 0xff]! ^
      T4[lo >>> 24]! ^
      T3[data[i + 4]!]! ^
      T2[data[i + 5]!]! ^
      T1[data[i + 6]!]! ^
      T0[data[i + 7]!]!;
    i += 8;
  }
  while (i < end) c = T0[(c ^ data[i++]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** CRC-32C of `data[start, end)` as an unsigned 32-bit number. */
export function crc32c(data: Uint8Array, start = 0, end = data.length): number {
  return crc32cUpdate(0, data, start, end);
}

// CRC-32C of a concatenation from the CRCs of its parts: a record whose large middle (a proposal's
// txs) was encoded and checked ahead, in pieces, gets its frame's check without reading those bytes
// again (record-ahead.ts). With the initial value and final xor both all ones, the finalised CRCs
// satisfy crc(A‖B) = (crc(A) · x^(8·|B|) mod P) ⊕ crc(B) over GF(2); the product is taken in the
// reflected bit order the tables use (bit 31 is x^0), and x^(8·n) by squaring, so a combine costs
// O(log n) multiplications of 32 steps each, whatever the length.

/** a · b mod P, both reflected (bit 31 holds the coefficient of x^0). */
function multiplyModP(a: number, b: number): number {
  let product = 0;
  for (let bit = 0x8000_0000; bit !== 0; bit >>>= 1) {
    if ((a & bit) !== 0) {
      product ^= b;
      if ((a & (bit - 1)) === 0) break;
    }
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) mod P for k = 0..31, reflected: each the square of the one before. */
const X_POW_2K: Uint32Array = (() => {
  const powers = new Uint32Array(32);
  powers[0] = 0x4000_0000; // x^1
  for (let k = 1; k < 32; k++) powers[k] = multiplyModP(powers[k - 1]!, powers[k - 1]!);
  return powers;
})();

/** x^(8·n) mod P, reflected (n a byte count: a safe integer). */
function xPow8n(n: number): number {
  let power = 0x8000_0000; // x^0
  let k = 3; // 8·n = n·2^3: start at x^(2^3)
  while (n > 0) {
    if (n % 2 === 1) power = multiplyModP(X_POW_2K[k % 32]!, power);
    n = Math.floor(n / 2);
    k++;
  }
  return power;
}

/**
 * The CRC-32C of A followed by B, from `crcA` = crc32c(A), `crcB` = crc32c(B) and B's length.
 * `crcA` may also be a running value (crc32cUpdate's): the result extends it with B.
 */
export function crc32cCombine(crcA: number, crcB: number, lengthB: number): number {
  if (!(Number.isSafeInteger(lengthB) && lengthB >= 0))
    throw new RangeError(`crc32cCombine: the length must be a safe integer >= 0, got ${lengthB}`);
  if (lengthB === 0) return crcA >>> 0;
  return (multiplyModP(xPow8n(lengthB), crcA >>> 0) ^ crcB) >>> 0;
}
