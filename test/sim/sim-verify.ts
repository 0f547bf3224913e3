// Signature verification for the simulation, memoised by signature bytes. Every receiver of a
// vote, and every validator checking the same LastCommit or evidence, asks about the same
// (key, message, signature): the first asker pays the real ed25519 check (node:crypto, v0.34
// rules), the others get its answer after comparing the key and the sign bytes they computed
// themselves, so a hit can only repeat the answer for exactly the same triple. Byzantine messages
// carry fresh signatures and are verified for real. One memo per run, bounded.
import { verifyEd25519 } from "../../src/crypto/ed25519-verify.js";

interface Verified {
  readonly key: Uint8Array;
  readonly message: Uint8Array;
  readonly ok: boolean;
}

const MAX_ENTRIES = 50_000;

const view = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && view(a).equals(view(b));

export class MemoVerifier {
  private readonly seen = new Map<string, Verified>();
  /** Real ed25519 verifications, and answers given from the memo. */
  real = 0;
  memoised = 0;

  readonly verify = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean => {
    const id = view(signature).toString("base64");
    const known = this.seen.get(id);
    if (known !== undefined && sameBytes(known.key, publicKey) && sameBytes(known.message, message)) {
      this.memoised++;
      return known.ok;
    }
    this.real++;
    const ok = verifyEd25519(publicKey, message, signature);
    if (this.seen.size >= MAX_ENTRIES) this.seen.clear();
    this.seen.set(id, { key: publicKey, message, ok });
    return ok;
  };
}
