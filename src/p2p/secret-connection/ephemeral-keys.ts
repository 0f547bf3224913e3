// X25519 ephemeral keys for the secret-connection key exchange, through node:crypto (native).
// node:crypto only takes DER-wrapped keys, so raw 32-byte keys get the fixed SPKI/PKCS#8 prefixes.

import { createPrivateKey, createPublicKey, diffieHellman, type KeyObject, randomBytes } from "node:crypto";
import { P2pError } from "../errors.js";

const SPKI_PREFIX = Buffer.from("302a300506032b656e032100", "hex");
const PKCS8_PREFIX = Buffer.from("302e020100300506032b656e04220420", "hex");
export const X25519_KEY_SIZE = 32;

export interface EphemeralKeyPair {
  privateKey: KeyObject;
  publicKey: Uint8Array;
}

/**
 * A fresh ephemeral pair, or the pair of a given 32-byte private scalar (tests, golden vectors).
 * A fresh scalar is 32 random bytes (clamped inside X25519), not generateKeyPairSync: on Node 20
 * that call's job object can be collected by a garbage collection inside a later call while its
 * mutex is held, and the process deadlocks (seen as `rxbft init` hanging about once in 200 runs).
 */
export function makeEphemeralKeyPair(privateScalar?: Uint8Array): EphemeralKeyPair {
  const scalar = privateScalar ?? randomBytes(X25519_KEY_SIZE);
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, scalar]),
    format: "der",
    type: "pkcs8",
  });
  const spki = createPublicKey(privateKey).export({ format: "der", type: "spki" });
  return { privateKey, publicKey: new Uint8Array(spki.subarray(SPKI_PREFIX.length)) };
}

/**
 * X25519(our private, their public). A low-order remote key yields an all-zero secret, which
 * node:crypto refuses ("failed during derivation") and Go refuses too: either way the handshake
 * ends with P2P_LOW_ORDER_KEY.
 */
export function sharedSecret(ours: EphemeralKeyPair, theirPublic: Uint8Array): Uint8Array {
  if (theirPublic.length !== X25519_KEY_SIZE) {
    throw new P2pError("P2P_BAD_EPHEMERAL_KEY", `ephemeral key must be 32 bytes, got ${theirPublic.length}`);
  }
  let secret: Buffer;
  try {
    const publicKey = createPublicKey({
      key: Buffer.concat([SPKI_PREFIX, theirPublic]),
      format: "der",
      type: "spki",
    });
    secret = diffieHellman({ privateKey: ours.privateKey, publicKey });
  } catch {
    throw new P2pError(
      "P2P_LOW_ORDER_KEY",
      "remote ephemeral key is a low-order point (all-zero shared secret)",
    );
  }
  if (secret.every((b) => b === 0)) {
    throw new P2pError(
      "P2P_LOW_ORDER_KEY",
      "remote ephemeral key is a low-order point (all-zero shared secret)",
    );
  }
  return new Uint8Array(secret);
}
