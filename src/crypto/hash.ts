// sha256 and the values derived from it: tmhash, addresses (first 20 bytes of sha256). Every
// sha256 of ours goes through here (tx, header, merkle leaf and inner-node hashes), so the fast
// path is chosen once.
import * as nodeCrypto from "node:crypto";

export const HASH_SIZE = 32;
export const ADDRESS_SIZE = 20;

const { createHash } = nodeCrypto;

// One-shot crypto.hash where the runtime has it (Node >= 20.12): for a 100-byte tx about half the
// time of createHash().update().digest() (test/bench/tx-hash.bench.ts), and a block hashes each
// tx and each merkle node.
type OneShotHash = (algorithm: string, data: Uint8Array, outputEncoding: "buffer") => Buffer;
const oneShot: OneShotHash | undefined =
  typeof (nodeCrypto as { hash?: unknown }).hash === "function"
    ? (nodeCrypto as unknown as { hash: OneShotHash }).hash
    : undefined;

/**
 * The digest as a plain Uint8Array over the digest's own memory, no copy: both crypto.hash and
 * digest() return a fresh 32-byte buffer (never a pool slice), so nothing else shares it, and a
 * plain Uint8Array (not a Buffer) keeps deepStrictEqual against other byte arrays true.
 */
function view(digest: Buffer): Uint8Array {
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.length);
}

/** sha256 of data: a fresh array the caller owns. */
export function sha256(data: Uint8Array): Uint8Array {
  if (oneShot !== undefined) return view(oneShot("sha256", data, "buffer"));
  return view(createHash("sha256").update(data).digest());
}

/**
 * sha256 of the concatenation of the parts, without joining them first: for inputs too large to
 * copy into a caller's scratch buffer (a merkle leaf or node of more than a few kilobytes).
 */
export function sha256OfParts(...parts: readonly Uint8Array[]): Uint8Array {
  const h = createHash("sha256");
  for (const part of parts) h.update(part);
  return view(h.digest());
}

/** Address of an ed25519 public key or node key: the first 20 bytes of its sha256. */
export function addressOf(publicKey: Uint8Array): Uint8Array {
  return sha256(publicKey).subarray(0, ADDRESS_SIZE);
}
