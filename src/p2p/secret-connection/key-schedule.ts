// What both sides derive from the Diffie-Hellman secret: the two AEAD keys (HKDF-SHA256) and the
// 32-byte challenge each side signs (a Merlin transcript, NOT the third HKDF block: that one is
// a leftover of the pre-Merlin protocol that v0.34 no longer uses).

import { hkdfSync } from "node:crypto";
import { MerlinTranscript } from "../merlin/transcript.js";

const HKDF_INFO = Buffer.from("TENDERMINT_SECRET_CONNECTION_KEY_AND_CHALLENGE_GEN", "ascii");
const TRANSCRIPT_LABEL = "TENDERMINT_SECRET_CONNECTION_TRANSCRIPT_HASH";

export interface SessionKeys {
  recvKey: Uint8Array;
  sendKey: Uint8Array;
}

/** The whole 96-byte HKDF output (salt empty); exposed for the golden file's five columns. */
export function hkdfSecretConnection(dhSecret: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync("sha256", dhSecret, new Uint8Array(0), HKDF_INFO, 96));
}

/** The side with the lower ephemeral key receives with okm[0:32] and sends with okm[32:64]. */
export function deriveSessionKeys(dhSecret: Uint8Array, locIsLeast: boolean): SessionKeys {
  const okm = hkdfSecretConnection(dhSecret);
  const key1 = okm.slice(0, 32);
  const key2 = okm.slice(32, 64);
  return locIsLeast ? { recvKey: key1, sendKey: key2 } : { recvKey: key2, sendKey: key1 };
}

/** Unsigned byte-wise comparison, as Go's bytes.Compare. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(a, b);
}

/** Sorts the two ephemeral keys; equal keys make both sides "least", as in v0.34. */
export function sortEphemeralKeys(
  ours: Uint8Array,
  theirs: Uint8Array,
): { lo: Uint8Array; hi: Uint8Array; locIsLeast: boolean } {
  const locIsLeast = compareBytes(ours, theirs) <= 0;
  return locIsLeast ? { lo: ours, hi: theirs, locIsLeast } : { lo: theirs, hi: ours, locIsLeast };
}

/** The challenge both sides sign: Merlin over lower key, upper key and the DH secret. */
export function secretConnectionChallenge(lo: Uint8Array, hi: Uint8Array, dhSecret: Uint8Array): Uint8Array {
  const transcript = new MerlinTranscript(TRANSCRIPT_LABEL);
  transcript.appendMessage("EPHEMERAL_LOWER_PUBLIC_KEY", lo);
  transcript.appendMessage("EPHEMERAL_UPPER_PUBLIC_KEY", hi);
  transcript.appendMessage("DH_SECRET", dhSecret);
  return transcript.challengeBytes("SECRET_CONNECTION_MAC", 32);
}
