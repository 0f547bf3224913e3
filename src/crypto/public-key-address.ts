// The address of a tendermint.crypto.PublicKey, by key type (reference §7.1): ed25519 takes the
// first 20 bytes of sha256(key); secp256k1 takes RIPEMD-160(sha256(33-byte compressed key)).
import { createHash } from "node:crypto";
import type { PublicKey } from "../wire/generated/tendermint/crypto/keys.js";
import { PUBLIC_KEY_SIZE } from "./ed25519-keys.js";
import { CryptoError } from "./errors.js";
import { addressOf, sha256 } from "./hash.js";

export const SECP256K1_PUBLIC_KEY_SIZE = 33;

/** The 20-byte address of a public key; throws CRYPTO_INVALID_KEY / CRYPTO_UNSUPPORTED_KEY_TYPE. */
export function addressOfPublicKey(publicKey: PublicKey): Uint8Array {
  const sum = publicKey.sum;
  switch (sum?.$case) {
    case "ed25519":
      if (sum.ed25519.length !== PUBLIC_KEY_SIZE) {
        throw new CryptoError(
          "CRYPTO_INVALID_KEY",
          `ed25519 public key must be ${PUBLIC_KEY_SIZE} bytes, got ${sum.ed25519.length}`,
        );
      }
      return addressOf(sum.ed25519);
    case "secp256k1":
      if (sum.secp256k1.length !== SECP256K1_PUBLIC_KEY_SIZE) {
        throw new CryptoError(
          "CRYPTO_INVALID_KEY",
          `secp256k1 public key must be ${SECP256K1_PUBLIC_KEY_SIZE} bytes (compressed), got ${sum.secp256k1.length}`,
        );
      }
      return new Uint8Array(createHash("ripemd160").update(sha256(sum.secp256k1)).digest());
    default:
      throw new CryptoError(
        "CRYPTO_UNSUPPORTED_KEY_TYPE",
        "public key has no key set (neither ed25519 nor secp256k1)",
      );
  }
}

/** The ed25519 key bytes, or undefined for any other key type. */
export function ed25519KeyBytes(publicKey: PublicKey): Uint8Array | undefined {
  return publicKey.sum?.$case === "ed25519" ? publicKey.sum.ed25519 : undefined;
}
