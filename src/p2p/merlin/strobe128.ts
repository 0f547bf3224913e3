// STROBE-128 (v1.0.2) reduced to the three operations Merlin needs: meta-AD, AD and PRF.
// Built on @noble/hashes' Keccak-f[1600] permutation; the byte layout follows the STROBE spec
// (rate R = 166 = 200 - 2·128/8 - 2), which is what gtank/merlin and merlin-rs implement.

import { keccakP } from "@noble/hashes/sha3";

const STATE_BYTES = 200;
/** STROBE-128's rate: 200 − 2·(128/8) − 2. */
const RATE = 166;

const FLAG_I = 1;
const FLAG_A = 2;
const FLAG_C = 4;
const FLAG_M = 16;
const FLAG_K = 32;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export class Strobe128 {
  private readonly state = new Uint8Array(STATE_BYTES);
  private readonly state32 = new Uint32Array(this.state.buffer);
  private pos = 0;
  private posBegin = 0;
  private curFlags = 0;

  constructor(protocolLabel: Uint8Array) {
    this.state.set([1, RATE + 2, 1, 0, 1, 96], 0);
    this.state.set(new TextEncoder().encode("STROBEv1.0.2"), 6);
    this.permute();
    this.metaAd(protocolLabel, false);
  }

  /** Meta associated data: framing that is absorbed but marked as metadata. */
  metaAd(data: Uint8Array, more: boolean): void {
    this.beginOp(FLAG_M | FLAG_A, more);
    this.absorb(data);
  }

  /** Associated data: absorbed into the state. */
  ad(data: Uint8Array, more: boolean): void {
    this.beginOp(FLAG_A, more);
    this.absorb(data);
  }

  /** Pseudo-random output of `length` bytes. */
  prf(length: number, more: boolean): Uint8Array {
    this.beginOp(FLAG_I | FLAG_A | FLAG_C, more);
    return this.squeeze(length);
  }

  private permute(): void {
    // keccakP works on 32-bit words in little-endian lane order; swap on big-endian hosts.
    if (!LITTLE_ENDIAN) swap32(this.state32);
    keccakP(this.state32, 24);
    if (!LITTLE_ENDIAN) swap32(this.state32);
  }

  private runF(): void {
    this.state[this.pos] ^= this.posBegin;
    this.state[this.pos + 1] ^= 0x04;
    this.state[RATE + 1] ^= 0x80;
    this.permute();
    this.pos = 0;
    this.posBegin = 0;
  }

  private absorb(data: Uint8Array): void {
    for (const byte of data) {
      this.state[this.pos] ^= byte;
      this.pos += 1;
      if (this.pos === RATE) this.runF();
    }
  }

  private squeeze(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) {
      out[i] = this.state[this.pos];
      this.state[this.pos] = 0;
      this.pos += 1;
      if (this.pos === RATE) this.runF();
    }
    return out;
  }

  private beginOp(flags: number, more: boolean): void {
    if (more) {
      // A continued operation must keep the flags it started with; anything else is our bug.
      if (flags !== this.curFlags) throw new Error(`strobe: continued op ${flags} after op ${this.curFlags}`);
      return;
    }
    const oldBegin = this.posBegin;
    this.posBegin = this.pos + 1;
    this.curFlags = flags;
    this.absorb(new Uint8Array([oldBegin, flags]));
    // Cipher and key operations start on a fresh block.
    if ((flags & (FLAG_C | FLAG_K)) !== 0 && this.pos !== 0) this.runF();
  }
}

function swap32(words: Uint32Array): void {
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    words[i] = ((w & 0xff) << 24) | ((w & 0xff00) << 8) | ((w >>> 8) & 0xff00) | (w >>> 24);
  }
}
