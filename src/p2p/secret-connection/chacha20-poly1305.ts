// ChaCha20-Poly1305 (RFC 8439, 12-byte nonce) of one key, for the secret connection's 1028-byte
// frames, on libsodium's WebAssembly build. node:crypto builds a cipher object per frame (it takes
// no new nonce on a used one): OpenSSL's context, its algorithm lookup, a JS stream object and a
// native handle for the collector to finalise, for 1 KiB of data. That was the largest single
// cost of the peer path on a loaded network node (docs/network.md, "The peer path's CPU per tx
// after the relay rule"). Here the key, nonce, frame and tag live in one region of the module's
// heap, allocated once per direction: a frame is two copies in, one call, one copy out.
//
// The bytes are the same AEAD's (a test holds them to node:crypto's); a frame whose tag does not
// verify gives undefined, never its plaintext (libsodium checks the tag before it decrypts).

import { createRequire } from "node:module";

/** The part of libsodium's raw module (its Emscripten exports) used here. */
interface LibsodiumModule {
  ready: Promise<unknown>;
  HEAPU8: Uint8Array;
  _sodium_init(): number;
  _malloc(size: number): number;
  _free(pointer: number): void;
  /** (c, mac, maclen_p, m, mlen lo, mlen hi, ad, adlen lo, adlen hi, nsec, npub, k): 0 on success */
  _crypto_aead_chacha20poly1305_ietf_encrypt_detached(...args: number[]): number;
  /** (m, nsec, c, clen lo, clen hi, mac, ad, adlen lo, adlen hi, npub, k): 0 when the tag verifies */
  _crypto_aead_chacha20poly1305_ietf_decrypt_detached(...args: number[]): number;
}

const sodium = createRequire(import.meta.url)("libsodium") as LibsodiumModule;
await sodium.ready;
if (sodium._sodium_init() < 0) throw new Error("libsodium could not be initialised");

export const KEY_SIZE = 32;
export const NONCE_SIZE = 12;
export const TAG_SIZE = 16;

const KEY_AT = 0;
const NONCE_AT = KEY_AT + KEY_SIZE;
const TEXT_AT = NONCE_AT + NONCE_SIZE;

/** A region of the module's heap freed, key wiped first, once its owner is collected. */
const regions = new FinalizationRegistry<{ at: number; size: number }>(({ at, size }) => {
  sodium.HEAPU8.fill(0, at, at + size);
  sodium._free(at);
});

export class ChaCha20Poly1305 {
  /** Start of this key's region: key ‖ nonce ‖ text (textSize) ‖ sealed text (textSize) ‖ tag. */
  private readonly at: number;
  private readonly text: number;
  private readonly sealed: number;
  private readonly tag: number;

  /** `textSize`: the one plaintext length this instance seals and opens (a frame's 1028 bytes). */
  constructor(
    key: Uint8Array,
    readonly textSize: number,
  ) {
    if (key.length !== KEY_SIZE)
      throw new Error(`ChaCha20-Poly1305 key is ${key.length} bytes, not ${KEY_SIZE}`);
    const size = TEXT_AT + 2 * textSize + TAG_SIZE;
    this.at = sodium._malloc(size);
    if (this.at === 0) throw new Error("libsodium: out of memory for a cipher's region");
    this.text = this.at + TEXT_AT;
    this.sealed = this.text + textSize;
    this.tag = this.sealed + textSize;
    // Read HEAPU8 at each use: the module's memory is replaced when it grows.
    sodium.HEAPU8.set(key, this.at + KEY_AT);
    regions.register(this, { at: this.at, size });
  }

  /** Writes text's ciphertext ‖ tag (textSize + 16 bytes) into `out` at `outAt`. */
  seal(text: Uint8Array, nonce: Uint8Array, out: Uint8Array, outAt: number): void {
    if (text.length !== this.textSize) throw new Error(`sealing ${text.length} bytes, not ${this.textSize}`);
    const heap = sodium.HEAPU8;
    heap.set(nonce, this.at + NONCE_AT);
    heap.set(text, this.text);
    const failed = sodium._crypto_aead_chacha20poly1305_ietf_encrypt_detached(
      this.sealed,
      this.tag,
      0,
      this.text,
      this.textSize,
      0,
      0,
      0,
      0,
      0,
      this.at + NONCE_AT,
      this.at + KEY_AT,
    );
    if (failed !== 0) throw new Error("libsodium: ChaCha20-Poly1305 seal failed");
    out.set(sodium.HEAPU8.subarray(this.sealed, this.tag + TAG_SIZE), outAt);
  }

  /**
   * The plaintext of ciphertext ‖ tag (`sealed`, textSize + 16 bytes) in a buffer of its own, or
   * undefined when the tag does not verify (wrong key or nonce, altered bytes).
   */
  open(sealed: Uint8Array, nonce: Uint8Array): Uint8Array | undefined {
    if (sealed.length !== this.textSize + TAG_SIZE)
      throw new Error(`opening ${sealed.length} bytes, not ${this.textSize + TAG_SIZE}`);
    const heap = sodium.HEAPU8;
    heap.set(nonce, this.at + NONCE_AT);
    heap.set(sealed, this.sealed);
    const failed = sodium._crypto_aead_chacha20poly1305_ietf_decrypt_detached(
      this.text,
      0,
      this.sealed,
      this.textSize,
      0,
      this.tag,
      0,
      0,
      0,
      this.at + NONCE_AT,
      this.at + KEY_AT,
    );
    if (failed !== 0) return undefined;
    return sodium.HEAPU8.slice(this.text, this.text + this.textSize);
  }
}
