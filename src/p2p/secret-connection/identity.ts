// The node's ed25519 identity as the handshake needs it: the public key and a node:crypto
// signing key. Deriving both from the 64-byte key file form costs milliseconds (several key
// object conversions), so it is done once per key array and remembered beside it (a WeakMap:
// no copy of the secret outlives the caller's array).

import { type KeyObject, sign } from "node:crypto";
import { keyPairFromPrivateKey, privateKeyObjectFromSeed, SEED_SIZE } from "../../crypto/ed25519-keys.js";

export interface HandshakeIdentity {
  publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

const identities = new WeakMap<Uint8Array, { publicKey: Uint8Array; keyObject: KeyObject }>();

/** The identity of a Go-form (seed ‖ pub) private key; throws when the halves do not match. */
export function handshakeIdentity(nodePrivateKey: Uint8Array): HandshakeIdentity {
  let entry = identities.get(nodePrivateKey);
  // A caller that rewrote its array in place gets a fresh derivation.
  if (
    entry === undefined ||
    !Buffer.from(entry.publicKey).equals(Buffer.from(nodePrivateKey.subarray(SEED_SIZE)))
  ) {
    const pair = keyPairFromPrivateKey(nodePrivateKey);
    if (typeof pair === "string") throw new Error(`node key: ${pair}`);
    entry = {
      publicKey: pair.publicKey,
      keyObject: privateKeyObjectFromSeed(nodePrivateKey.subarray(0, SEED_SIZE)),
    };
    identities.set(nodePrivateKey, entry);
  }
  const { publicKey, keyObject } = entry;
  return { publicKey, sign: (message) => new Uint8Array(sign(null, message, keyObject)) };
}
