// node_key.json: the node's p2p identity key, {"priv_key":{"type":"node/PrivKeyEd25519",
// "value":"<base64 seed ‖ pub>"}} on a single line with mode 0600. The node ID peers know it by
// is the lower-case hex of the first 20 bytes of sha256 of the public key.
import * as t from "io-ts";
import { generateEd25519KeyPair, keyPairFromPrivateKey } from "../crypto/ed25519-keys.js";
import { addressOf } from "../crypto/hash.js";
import { writeFileAtomic } from "./key-file-atomic-write.js";
import { type KeyTypePrefix, privKeyEd25519Json, privKeyToJson } from "./key-file-json-keys.js";
import { decodeKeyFile, HALVES_DISAGREE, invalidKeyFile, readKeyFileJson } from "./key-file-read.js";

export interface NodeKey {
  /** 32-byte ed25519 public key. */
  publicKey: Uint8Array;
  /** 64 bytes: seed ‖ public key. */
  privateKey: Uint8Array;
}

const fileCodec = t.type({ priv_key: privKeyEd25519Json }, 'a JSON object {"priv_key": {...}}');

/** The node ID of a node public key: 40 lower-case hex characters. */
export function nodeIdOf(publicKey: Uint8Array): string {
  return Buffer.from(addressOf(publicKey)).toString("hex");
}

export function generateNodeKey(): NodeKey {
  return generateEd25519KeyPair();
}

export function nodeKeyFromJson(json: unknown, file: string): NodeKey {
  const decoded = decodeKeyFile(file, fileCodec, json);
  const pair = keyPairFromPrivateKey(decoded.priv_key.value);
  if (typeof pair === "string") throw invalidKeyFile(file, "priv_key.value", HALVES_DISAGREE);
  return pair;
}

export function readNodeKey(file: string): NodeKey {
  return nodeKeyFromJson(readKeyFileJson(file), file);
}

/** The file's text: one line, as Tendermint writes it. */
export function nodeKeyFileText(key: NodeKey, prefix?: KeyTypePrefix): string {
  return JSON.stringify({ priv_key: privKeyToJson(key.privateKey, prefix) });
}

export function writeNodeKey(file: string, key: NodeKey): void {
  writeFileAtomic(file, nodeKeyFileText(key), 0o600);
}
