// ed25519 signature verification with Go's (Tendermint v0.34's) acceptance rules, on node:crypto.
// OpenSSL's verifier accepts and rejects exactly what golang.org/x/crypto/ed25519 does on the
// "Taming the many EdDSAs" edge cases (non-canonical S rejected, small-order and non-canonical
// A accepted where Go accepts them, cofactorless equation); ZIP-215 rules would fork us from v0.34
// peers. Outside data never throws here: anything malformed is simply not a valid signature.
import { createPublicKey, type KeyObject, verify } from "node:crypto";
import { PUBLIC_KEY_SIZE, SIGNATURE_SIZE } from "./ed25519-keys.js";
import { DEFAULT_KEY_CACHE_SIZE, KeyObjectCache } from "./key-object-cache.js";

/** A node:crypto public KeyObject for raw key bytes (JWK import: ~7 µs, DER: ~100 µs). */
export function ed25519PublicKeyObject(publicKey: Uint8Array): KeyObject | null {
  if (publicKey.length !== PUBLIC_KEY_SIZE) return null;
  try {
    const x = Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString("base64url");
    return createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x }, format: "jwk" });
  } catch {
    return null;
  }
}

/** Verifies ed25519 signatures, keeping a bounded LRU cache of KeyObjects. */
export class Ed25519Verifier {
  private readonly keys: KeyObjectCache;

  constructor(cacheSize: number = DEFAULT_KEY_CACHE_SIZE) {
    this.keys = new KeyObjectCache(cacheSize, ed25519PublicKeyObject);
  }

  /** Number of public keys currently cached. */
  get cachedKeys(): number {
    return this.keys.size;
  }

  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
    if (publicKey.length !== PUBLIC_KEY_SIZE || signature.length !== SIGNATURE_SIZE) return false;
    const key = this.keys.get(publicKey);
    if (key === null) return false;
    try {
      return verify(null, message, key, signature);
    } catch {
      return false;
    }
  }
}

// One process-wide cache: it is a memo of a pure function, so sharing it changes no answer, and
// every caller benefits from keys another has already built.
const shared = new Ed25519Verifier();

/** true when `signature` is a valid ed25519 signature of `message` by `publicKey` (v0.34 rules). */
export function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  return shared.verify(publicKey, message, signature);
}
