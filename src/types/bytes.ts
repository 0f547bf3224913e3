// Byte comparisons used across the types module (Uint8Array has no value equality).

export { bytesEqual } from "../bytes.js";

/** Lexicographic order, as Go's bytes.Compare. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
