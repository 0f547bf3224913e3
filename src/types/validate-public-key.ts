// Validation of public keys received from outside (validator updates from the app, validator
// sets in evidence and light blocks): an ed25519 key is 32 bytes, a secp256k1 key 33 (compressed).
import type { PublicKey } from "../wire/generated/tendermint/crypto/keys.js";
import { ED25519_PUBLIC_KEY_BYTES, fieldError, SECP256K1_PUBLIC_KEY_BYTES } from "./validate-fields.js";

export function validatePublicKey(key: PublicKey, field = "pubKey"): void {
  const sum = key.sum;
  if (sum === undefined) throw fieldError(field, "must hold an ed25519 or secp256k1 key, got none");
  if (sum.$case === "ed25519") {
    if (sum.ed25519.length !== ED25519_PUBLIC_KEY_BYTES)
      throw fieldError(
        `${field}.ed25519`,
        `must be ${ED25519_PUBLIC_KEY_BYTES} bytes, got ${sum.ed25519.length}`,
      );
    return;
  }
  if (sum.secp256k1.length !== SECP256K1_PUBLIC_KEY_BYTES)
    throw fieldError(
      `${field}.secp256k1`,
      `must be ${SECP256K1_PUBLIC_KEY_BYTES} bytes, got ${sum.secp256k1.length}`,
    );
}

/** The key-type name consensus params use ("ed25519", "secp256k1"), or undefined for none. */
export function publicKeyType(key: PublicKey): "ed25519" | "secp256k1" | undefined {
  return key.sum?.$case;
}
