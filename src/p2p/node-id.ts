// Node IDs: the lower-case hex of the first 20 bytes of SHA-256(ed25519 public key).

import { createHash } from "node:crypto";
import type { NodeId } from "./types.js";

export const NODE_ID_BYTES = 20;

export function nodeIdFromPublicKey(ed25519PublicKey: Uint8Array): NodeId {
  return createHash("sha256").update(ed25519PublicKey).digest().subarray(0, NODE_ID_BYTES).toString("hex");
}

/** v0.34's validateID: non-empty, hex (upper case accepted), exactly 20 bytes. Returns why not, or undefined. */
export function nodeIdProblem(id: string): string | undefined {
  if (id.length === 0) return "no ID";
  if (!/^[0-9a-fA-F]*$/.test(id) || id.length % 2 !== 0) return `ID ${JSON.stringify(id)} is not hex`;
  if (id.length !== NODE_ID_BYTES * 2) return `ID ${id} is ${id.length / 2} bytes, expected ${NODE_ID_BYTES}`;
  return undefined;
}
