// Sealed frames of the secret connection: each carries LE32(chunk length) ‖ chunk (≤ 1024
// bytes) ‖ padding to 1028 bytes, sealed with ChaCha20-Poly1305 under a 12-byte nonce whose
// bytes 4..11 are a little-endian 64-bit counter (bytes 0..3 stay zero). One counter per
// direction, incremented after each frame, fatal at 2^64 − 1.
// The cipher is libsodium's (chacha20-poly1305.ts says why not node:crypto's): one per direction,
// its key set once.

import { P2pError } from "../errors.js";
import { ChaCha20Poly1305 } from "./chacha20-poly1305.js";

export const DATA_MAX_SIZE = 1024;
export const DATA_LEN_SIZE = 4;
export const TOTAL_FRAME_SIZE = DATA_MAX_SIZE + DATA_LEN_SIZE; // 1028
export const AEAD_TAG_SIZE = 16;
export const SEALED_FRAME_SIZE = TOTAL_FRAME_SIZE + AEAD_TAG_SIZE; // 1044

class NonceCounter {
  readonly nonce = Buffer.alloc(12);
  private lo = 0;
  private hi = 0;

  /** Moves to the next nonce; the counter may never wrap (a wrapped nonce would reuse a key stream). */
  increment(): void {
    if (this.lo === 0xffffffff && this.hi === 0xffffffff) {
      throw new P2pError("P2P_NONCE_OVERFLOW", "secret connection nonce counter reached 2^64 - 1");
    }
    this.lo += 1;
    if (this.lo > 0xffffffff) {
      this.lo = 0;
      this.hi += 1;
    }
    this.nonce.writeUInt32LE(this.lo, 4);
    this.nonce.writeUInt32LE(this.hi, 8);
  }

  /** Tests only: start the counter somewhere else. */
  set(lo: number, hi: number): void {
    this.lo = lo;
    this.hi = hi;
    this.nonce.writeUInt32LE(lo, 4);
    this.nonce.writeUInt32LE(hi, 8);
  }
}

export class FrameSealer {
  private readonly cipher: ChaCha20Poly1305;
  readonly counter = new NonceCounter();
  private readonly plain = Buffer.alloc(TOTAL_FRAME_SIZE);

  constructor(key: Uint8Array) {
    this.cipher = new ChaCha20Poly1305(key, TOTAL_FRAME_SIZE);
  }

  /** Seals `data` into ⌈n/1024⌉ frames (nothing for n = 0), returned as one buffer. */
  seal(data: Uint8Array): Buffer {
    const frames = Math.ceil(data.length / DATA_MAX_SIZE);
    const out = Buffer.allocUnsafe(frames * SEALED_FRAME_SIZE);
    for (let i = 0; i < frames; i++) {
      const chunk = data.subarray(i * DATA_MAX_SIZE, Math.min(data.length, (i + 1) * DATA_MAX_SIZE));
      this.plain.writeUInt32LE(chunk.length, 0);
      this.plain.set(chunk, DATA_LEN_SIZE);
      // Zero padding: Go may send stale bytes there, we send zeros and never check them.
      if (chunk.length < DATA_MAX_SIZE) this.plain.fill(0, DATA_LEN_SIZE + chunk.length);
      this.cipher.seal(this.plain, this.counter.nonce, out, i * SEALED_FRAME_SIZE);
      this.counter.increment();
    }
    return out;
  }
}

export class FrameOpener {
  private readonly cipher: ChaCha20Poly1305;
  readonly counter = new NonceCounter();

  constructor(key: Uint8Array) {
    this.cipher = new ChaCha20Poly1305(key, TOTAL_FRAME_SIZE);
  }

  /** Opens one 1044-byte sealed frame and returns its chunk: a plain Uint8Array view of a fresh buffer. */
  open(sealed: Uint8Array): Uint8Array {
    if (sealed.length !== SEALED_FRAME_SIZE) {
      throw new P2pError(
        "P2P_BAD_FRAME",
        `sealed frame is ${sealed.length} bytes, expected ${SEALED_FRAME_SIZE}`,
      );
    }
    const plain = this.cipher.open(sealed, this.counter.nonce);
    if (plain === undefined) {
      // Wrong key, tampered bytes, or a replayed/reordered frame (its nonce no longer matches).
      throw new P2pError(
        "P2P_BAD_MAC",
        "failed to decrypt secret connection frame: authentication tag mismatch",
      );
    }
    this.counter.increment();
    const length = (plain[0]! | (plain[1]! << 8) | (plain[2]! << 16) | (plain[3]! << 24)) >>> 0;
    if (length > DATA_MAX_SIZE) {
      throw new P2pError("P2P_BAD_FRAME", `frame chunk length ${length} is greater than ${DATA_MAX_SIZE}`);
    }
    // A plain Uint8Array view: the messages cut from this chunk are views of it.
    return new Uint8Array(plain.buffer, plain.byteOffset + DATA_LEN_SIZE, length);
  }
}
