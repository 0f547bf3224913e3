// Makes log fields safe and printable: private keys and secrets are redacted wherever they sit,
// bigint becomes a decimal string and bytes become upper-case hex. Runs only for entries whose
// level is enabled.

import { upperHex } from "../bytes.js";

const SECRET_KEY = /^(priv_?key|private_?key|privkey|priv_validator_key|seed|secret|password|mnemonic)$/i;
const MAX_DEPTH = 6;
/** Bytes fields longer than this are shortened; logs are not a hex dump. */
const MAX_HEX_BYTES = 64;

export const REDACTED = "[redacted]";

export function sanitizeFields(value: unknown, depth = 0): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) {
    const hex = upperHex(value.subarray(0, MAX_HEX_BYTES));
    return value.length > MAX_HEX_BYTES ? `${hex}…(${value.length} bytes)` : hex;
  }
  if (typeof value !== "object" || value === null || value instanceof Error || depth >= MAX_DEPTH)
    return value;
  if (Array.isArray(value)) return value.map((entry) => sanitizeFields(entry, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? REDACTED : sanitizeFields(entry, depth + 1);
  }
  return out;
}
