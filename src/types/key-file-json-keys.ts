// Keys as they appear in JSON files: {"type": "node/PubKeyEd25519", "value": "<base64>"}.
// rxbft writes the prefix `node/`; it reads `node/` and `tendermint/` alike, so the key files of
// a Tendermint home can be used unchanged.
import * as t from "io-ts";
import { base64Bytes, expecting, Problem } from "./genesis-io-ts.js";

export const PUB_KEY_ED25519_SUFFIX = "PubKeyEd25519";
export const PRIV_KEY_ED25519_SUFFIX = "PrivKeyEd25519";
/** The prefix rxbft writes. */
export const KEY_TYPE_PREFIX = "node";
/** Prefixes rxbft reads. */
export const READABLE_KEY_TYPE_PREFIXES: readonly string[] = ["node", "tendermint"];

export const PUB_KEY_ED25519_TYPE = `${KEY_TYPE_PREFIX}/${PUB_KEY_ED25519_SUFFIX}`;
export const PRIV_KEY_ED25519_TYPE = `${KEY_TYPE_PREFIX}/${PRIV_KEY_ED25519_SUFFIX}`;

export type KeyTypePrefix = "node" | "tendermint";

function keyTypeCodec(suffix: string): t.Type<string> {
  const accepted = READABLE_KEY_TYPE_PREFIXES.map((prefix) => `"${prefix}/${suffix}"`).join(" or ");
  return expecting<string>(accepted, (input) =>
    typeof input === "string" && READABLE_KEY_TYPE_PREFIXES.some((prefix) => input === `${prefix}/${suffix}`)
      ? input
      : new Problem(),
  );
}

/** `{type: "node/PubKeyEd25519", value: base64 of 32 bytes}`. */
export const pubKeyEd25519Json = t.type(
  {
    type: keyTypeCodec(PUB_KEY_ED25519_SUFFIX),
    value: base64Bytes(32),
  },
  'a public key object {"type": "node/PubKeyEd25519", "value": "<base64>"}',
);

/** `{type: "node/PrivKeyEd25519", value: base64 of 64 bytes (seed ‖ public key)}`. */
export const privKeyEd25519Json = t.type(
  {
    type: keyTypeCodec(PRIV_KEY_ED25519_SUFFIX),
    value: base64Bytes(64),
  },
  'a private key object {"type": "node/PrivKeyEd25519", "value": "<base64>"}',
);

export interface KeyJson {
  type: string;
  value: string;
}

/** The JSON object of an ed25519 public key. */
export function pubKeyToJson(publicKey: Uint8Array, prefix: KeyTypePrefix = KEY_TYPE_PREFIX): KeyJson {
  return { type: `${prefix}/${PUB_KEY_ED25519_SUFFIX}`, value: Buffer.from(publicKey).toString("base64") };
}

/** The JSON object of a 64-byte ed25519 private key. */
export function privKeyToJson(privateKey: Uint8Array, prefix: KeyTypePrefix = KEY_TYPE_PREFIX): KeyJson {
  return { type: `${prefix}/${PRIV_KEY_ED25519_SUFFIX}`, value: Buffer.from(privateKey).toString("base64") };
}
