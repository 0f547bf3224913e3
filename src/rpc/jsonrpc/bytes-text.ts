// Strict decoders for the byte encodings arguments arrive in, with Go's error wording: base64
// as Go's StdEncoding reads it (padding required, CR and LF ignored) and hex as encoding/hex.

function goRune(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")} '${String.fromCharCode(code)}'`;
}

function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  return -1;
}

/** Hex digits (either case) to bytes; throws an Error with encoding/hex's message. */
export function decodeHex(text: string): Uint8Array {
  const out = new Uint8Array(text.length >> 1);
  for (let i = 0; i < text.length; i++) {
    const v = hexValue(text.charCodeAt(i));
    if (v < 0) throw new Error(`encoding/hex: invalid byte: ${goRune(text.charCodeAt(i))}`);
    if (i % 2 === 1) out[i >> 1] = (hexValue(text.charCodeAt(i - 1)) << 4) | v;
  }
  if (text.length % 2 === 1) throw new Error("encoding/hex: odd length hex string");
  return out;
}

function isBase64Char(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2b ||
    code === 0x2f
  );
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Standard padded base64 to bytes; throws "illegal base64 data at input byte N" as Go does. */
export function decodeBase64(text: string): Uint8Array {
  const clean = text.includes("\n") || text.includes("\r") ? text.replace(/[\r\n]/g, "") : text;
  // The common case in one regular expression test; the loop below finds the offending byte.
  if (clean.length % 4 === 0 && BASE64.test(clean)) return new Uint8Array(Buffer.from(clean, "base64"));
  let padding = 0;
  for (let i = 0; i < clean.length; i++) {
    const code = clean.charCodeAt(i);
    if (code === 0x3d) {
      padding++;
      if (padding > 2) throw new Error(`illegal base64 data at input byte ${i}`);
    } else if (padding > 0 || !isBase64Char(code)) {
      throw new Error(`illegal base64 data at input byte ${i}`);
    }
  }
  if (clean.length % 4 !== 0)
    throw new Error(`illegal base64 data at input byte ${clean.length - (clean.length % 4)}`);
  return new Uint8Array(Buffer.from(clean, "base64"));
}
