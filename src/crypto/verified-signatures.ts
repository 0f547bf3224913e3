// A bounded memo of ed25519 answers for exact (public key, message, signature) triples. A vote
// reaches a node from several peers, and the same precommits come back as a block's LastCommit and
// as a commit in block sync; with the memo each triple costs one real verification (~112 µs) per
// process and the rest a map lookup and two byte comparisons. In a simulation every validator
// shares the process, so one validator's check answers the others'.
//
// Keyed by the signature, the entry keeps its own copies of the key and message it was checked
// with, and answers only when both match byte for byte: the memo of a pure function, so it never
// changes an answer, only its cost. Copies, not the caller's arrays, so an entry neither follows a
// later change of the caller's bytes nor holds a large receive buffer alive. Bounded: the oldest
// entry goes first when it is full, so peers sending fresh signatures cannot grow it.
import { bytesEqual } from "../bytes.js";
import { PUBLIC_KEY_SIZE, SIGNATURE_SIZE } from "./ed25519-keys.js";
import { verifyEd25519 } from "./ed25519-verify.js";

/** Entries of the process-wide memo: a few heights of votes of a large validator set. */
export const DEFAULT_VERIFIED_SIGNATURES = 20_000;

interface Answer {
  readonly publicKey: Uint8Array;
  readonly message: Uint8Array;
  readonly ok: boolean;
}

type Check = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean;

const bytesView = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

export class VerifiedSignatures {
  // Map keeps insertion order: the first entry is the oldest.
  private readonly answers = new Map<string, Answer>();
  /** Answers given from the memo, and real verifications made through `verify`. */
  hits = 0;
  misses = 0;

  constructor(
    readonly maxEntries: number = DEFAULT_VERIFIED_SIGNATURES,
    private readonly check: Check = verifyEd25519,
  ) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1)
      throw new RangeError(`verified-signature memo size must be a positive integer, got ${maxEntries}`);
  }

  get size(): number {
    return this.answers.size;
  }

  /** The answer already known for exactly this triple, or undefined. */
  known(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean | undefined {
    if (signature.length !== SIGNATURE_SIZE) return undefined;
    const found = this.answers.get(keyOf(signature));
    if (found === undefined || !bytesEqual(found.publicKey, publicKey) || !bytesEqual(found.message, message))
      return undefined;
    return found.ok;
  }

  /** Records the answer of a real verification of this triple. */
  remember(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array, ok: boolean): void {
    // Only well-formed triples: a wrong-sized key or signature is refused before any real work.
    if (signature.length !== SIGNATURE_SIZE || publicKey.length !== PUBLIC_KEY_SIZE) return;
    const key = keyOf(signature);
    // A different key or message under the same signature replaces the entry (newest wins).
    this.answers.delete(key);
    if (this.answers.size >= this.maxEntries) this.answers.delete(this.answers.keys().next().value as string);
    this.answers.set(key, { publicKey: publicKey.slice(), message: message.slice(), ok });
  }

  /** `check`'s answer for the triple, verified for real at most once while it stays in the memo. */
  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
    const known = this.known(publicKey, message, signature);
    if (known !== undefined) {
      this.hits++;
      return known;
    }
    this.misses++;
    const ok = this.check(publicKey, message, signature);
    this.remember(publicKey, message, signature, ok);
    return ok;
  }

  clear(): void {
    this.answers.clear();
  }
}

// latin1 maps each byte to one UTF-16 unit: an exact key, cheaper to build than base64 or hex.
function keyOf(signature: Uint8Array): string {
  return bytesView(signature).toString("latin1");
}

/** The process's memo: the verify pool's and anyone's who verifies the same signatures. */
export const processVerifiedSignatures = new VerifiedSignatures();
