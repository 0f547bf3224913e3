// Signature verification for the simulation: the node's memo of verified triples (src/crypto
// verified-signatures.ts), one per run so a run's counts depend on its seed alone. Every receiver
// of a vote, and every validator checking the same LastCommit or evidence, asks about the same
// (key, message, signature): the first asker pays the real ed25519 check (node:crypto, v0.34
// rules), the others get its answer after the memo compares the key and the sign bytes they
// computed themselves. Byzantine messages carry fresh signatures and are verified for real.
import { VerifiedSignatures } from "../../src/crypto/verified-signatures.js";

const MAX_ENTRIES = 50_000;

export class MemoVerifier {
  private readonly memo = new VerifiedSignatures(MAX_ENTRIES);

  /** Real ed25519 verifications. */
  get real(): number {
    return this.memo.misses;
  }

  /** Answers given from the memo. */
  get memoised(): number {
    return this.memo.hits;
  }

  readonly verify = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean =>
    this.memo.verify(publicKey, message, signature);

  /**
   * A signature an honest validator's signer just made of `message` with `publicKey`'s key: valid
   * by construction, so its receivers get the answer from the memo (still only when the key and
   * the sign bytes they compute match byte for byte) and no one verifies it for real.
   */
  signed(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): void {
    this.memo.remember(publicKey, message, signature, true);
  }
}
