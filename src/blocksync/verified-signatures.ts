// Signatures block sync has already found valid, so a signature is verified once however many
// checks read it. Block H+1's LastCommit is read twice: as block H's certificate (CheckCommit,
// VerifyCommitLight) and, at H+1's turn, as H+1's own LastCommit (ValidateBlock's full
// VerifyCommit with the same set); on a large set that second pass would cost as much as the
// first, on the apply's critical path. Only valid answers are remembered, each with the exact
// public key and message it was valid for, so a hit is the same verification with the same
// answer; anything else goes to the inner verifier. Bounded: the oldest entries leave first.
import type { BatchVerifier, VerifyItem } from "../crypto/verify-item.js";

/** Enough for the commits of the blocks checked ahead with sets of a few hundred validators. */
export const DEFAULT_VERIFIED_SIGNATURES_KEPT = 8192;

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

export class VerifiedSignatures implements BatchVerifier {
  readonly #valid = new Map<string, { publicKey: Uint8Array; message: Uint8Array }>();

  constructor(
    private readonly inner: BatchVerifier,
    private readonly kept = DEFAULT_VERIFIED_SIGNATURES_KEPT,
  ) {
    if (!Number.isSafeInteger(kept) || kept < 1)
      throw new RangeError(`verified signatures kept must be a positive integer, got ${kept}`);
  }

  /** How many valid signatures are remembered. */
  get size(): number {
    return this.#valid.size;
  }

  async verifyBatch(items: readonly VerifyItem[]): Promise<boolean[]> {
    const answers = new Array<boolean>(items.length);
    const unknown: VerifyItem[] = [];
    const at: number[] = [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      const known = this.#valid.get(Buffer.from(item.signature).toString("base64"));
      if (known !== undefined && equal(known.publicKey, item.publicKey) && equal(known.message, item.message))
        answers[i] = true;
      else {
        unknown.push(item);
        at.push(i);
      }
    }
    if (unknown.length === 0) return answers;
    const fresh = await this.inner.verifyBatch(unknown);
    for (let j = 0; j < unknown.length; j++) {
      answers[at[j]!] = fresh[j]!;
      if (fresh[j]) this.#remember(unknown[j]!);
    }
    return answers;
  }

  #remember(item: VerifyItem): void {
    const key = Buffer.from(item.signature).toString("base64");
    this.#valid.delete(key);
    this.#valid.set(key, { publicKey: item.publicKey, message: item.message });
    if (this.#valid.size > this.kept) this.#valid.delete(this.#valid.keys().next().value!);
  }
}
