// Merlin transcripts (merlin v1.0 as in gtank/merlin and merlin-rs): a STROBE-128 duplex that
// binds labelled messages and yields challenge bytes. The secret connection derives its
// authentication challenge from one.

import { Strobe128 } from "./strobe128.js";

const encoder = new TextEncoder();

function le32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, true);
  return out;
}

export class MerlinTranscript {
  private readonly strobe = new Strobe128(encoder.encode("Merlin v1.0"));

  constructor(appLabel: string | Uint8Array) {
    this.appendMessage("dom-sep", appLabel);
  }

  /** One meta-AD over label ‖ LE32(len(message)), then the message as AD. */
  appendMessage(label: string | Uint8Array, message: string | Uint8Array): void {
    const data = typeof message === "string" ? encoder.encode(message) : message;
    this.strobe.metaAd(typeof label === "string" ? encoder.encode(label) : label, false);
    this.strobe.metaAd(le32(data.length), true);
    this.strobe.ad(data, false);
  }

  /** One meta-AD over label ‖ LE32(length), then `length` PRF bytes. */
  challengeBytes(label: string | Uint8Array, length: number): Uint8Array {
    this.strobe.metaAd(typeof label === "string" ? encoder.encode(label) : label, false);
    this.strobe.metaAd(le32(length), true);
    return this.strobe.prf(length, false);
  }
}
