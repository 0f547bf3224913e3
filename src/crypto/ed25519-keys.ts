// ed25519 key material in Tendermint's raw forms: a 32-byte public key, and a 64-byte private key
// that is the 32-byte seed followed by the public key (Go's ed25519 layout, used in the key files).
import { createPrivateKey, createPublicKey, type KeyObject, randomBytes, sign } from "node:crypto";

export const PUBLIC_KEY_SIZE = 32;
export const PRIVATE_KEY_SIZE = 64;
export const SEED_SIZE = 32;
export const SIGNATURE_SIZE = 64;

export interface Ed25519KeyPair {
  /** 32-byte public key. */
  publicKey: Uint8Array;
  /** 64 bytes: seed ‖ public key. */
  privateKey: Uint8Array;
}

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url");

/**
 * A node:crypto private KeyObject from a 32-byte seed (via JWK). OpenSSL builds an ed25519 private
 * key from its seed alone (`d`) and derives the public half itself; `x` is only a required field of
 * the JWK form, so the derived public key is passed to keep the JWK truthful.
 */
export function privateKeyObjectFromSeed(seed: Uint8Array): KeyObject {
  return createPrivateKey(seedJwk(seed, publicKeyFromSeed(seed)));
}

/**
 * The 32-byte public key of a 32-byte seed: node:crypto derives it from a private key imported by
 * its seed. The JWK import (~50 µs) rather than PKCS#8 DER (~600 µs: OpenSSL's decoder set-up is
 * most of it), which matters to every signer built and to a simulation starting its validators; the
 * placeholder `x` is ignored by the import (a test checks derived keys against RFC 8032 vectors).
 */
export function publicKeyFromSeed(seed: Uint8Array): Uint8Array {
  const privateKey = createPrivateKey(seedJwk(seed, PLACEHOLDER_PUBLIC_KEY));
  const jwk = createPublicKey(privateKey).export({ format: "jwk" });
  return new Uint8Array(Buffer.from(jwk.x as string, "base64url"));
}

const PLACEHOLDER_PUBLIC_KEY = new Uint8Array(PUBLIC_KEY_SIZE);

function seedJwk(seed: Uint8Array, publicKey: Uint8Array) {
  if (seed.length !== SEED_SIZE)
    throw new Error(`ed25519 seed must be ${SEED_SIZE} bytes, got ${seed.length}`);
  return {
    key: { kty: "OKP", crv: "Ed25519", d: b64url(seed), x: b64url(publicKey) },
    format: "jwk" as const,
  };
}

/**
 * A new random key pair: a 32-byte seed from the OS's CSPRNG and its public key. Not
 * generateKeyPairSync: on Node 20 that call's job object can be collected by a garbage collection
 * inside a later call while its mutex is held, and the process deadlocks (seen as `rxbft init`
 * hanging about once in 200 runs).
 */
export function generateEd25519KeyPair(): Ed25519KeyPair {
  return keyPairFromSeed(new Uint8Array(randomBytes(SEED_SIZE)));
}

/** The Go-layout 64-byte private key for a seed. */
export function keyPairFromSeed(seed: Uint8Array): Ed25519KeyPair {
  const publicKey = publicKeyFromSeed(seed);
  return { publicKey, privateKey: concatKey(seed, publicKey) };
}

/**
 * Checks a 64-byte Go-layout private key: its second half must be the public key of its seed.
 * Returns the key pair, or an error message saying what is wrong.
 */
export function keyPairFromPrivateKey(privateKey: Uint8Array): Ed25519KeyPair | string {
  if (privateKey.length !== PRIVATE_KEY_SIZE) {
    return `ed25519 private key must be ${PRIVATE_KEY_SIZE} bytes (seed ‖ public key), got ${privateKey.length}`;
  }
  const seed = privateKey.subarray(0, SEED_SIZE);
  const derived = publicKeyFromSeed(seed);
  if (!Buffer.from(derived).equals(Buffer.from(privateKey.subarray(SEED_SIZE)))) {
    return "ed25519 private key's last 32 bytes are not the public key of its seed";
  }
  return { publicKey: derived, privateKey: new Uint8Array(privateKey) };
}

/** Signs with a 64-byte Go-layout private key. */
export function signEd25519(privateKey: Uint8Array, message: Uint8Array): Uint8Array {
  const keyObject = privateKeyObjectFromSeed(privateKey.subarray(0, SEED_SIZE));
  return new Uint8Array(sign(null, message, keyObject));
}

function concatKey(seed: Uint8Array, publicKey: Uint8Array): Uint8Array {
  const key = new Uint8Array(PRIVATE_KEY_SIZE);
  key.set(seed, 0);
  key.set(publicKey, SEED_SIZE);
  return key;
}
