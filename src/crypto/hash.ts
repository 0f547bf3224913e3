// sha256 and the values derived from it: tmhash, addresses (first 20 bytes of sha256).
import { createHash } from "node:crypto";

export const HASH_SIZE = 32;
export const ADDRESS_SIZE = 20;

export function sha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha256").update(data).digest());
}

/** Address of an ed25519 public key or node key: the first 20 bytes of its sha256. */
export function addressOf(publicKey: Uint8Array): Uint8Array {
  return sha256(publicKey).subarray(0, ADDRESS_SIZE);
}
