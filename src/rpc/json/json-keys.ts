// Public keys in JSON: the amino-style `{type, value}` object everywhere a Go crypto.PubKey is
// written, and the protobuf oneof form `{"Sum":{…}}` where Go writes a crypto.PublicKey message
// through the plain codec (ABCI validator_updates in the tendermint form).

import { type JsonForm, keyTypePrefix } from "../../rpc/json/json-form.js";
import { base64 } from "../../rpc/json/json-primitives.js";
import type { JsonValue } from "../../rpc/json/json-text.js";
import type { PublicKey } from "../../wire/generated/tendermint/crypto/keys.js";

/** A raw ed25519 key (32 bytes) or the protobuf PublicKey oneof. */
export type PubKeyInput = Uint8Array | PublicKey;

function keyParts(key: PubKeyInput): { kind: "ed25519" | "secp256k1"; bytes: Uint8Array } | undefined {
  if (key instanceof Uint8Array) return { kind: "ed25519", bytes: key };
  const sum = key.sum;
  if (sum === undefined) return undefined;
  return sum.$case === "ed25519"
    ? { kind: "ed25519", bytes: sum.ed25519 }
    : { kind: "secp256k1", bytes: sum.secp256k1 };
}

/** `{"type":"<prefix>/PubKeyEd25519","value":"<base64>"}`; null for a missing key (Go's nil interface). */
export function pubKeyJson(key: PubKeyInput | undefined, form: JsonForm): JsonValue {
  const parts = key === undefined ? undefined : keyParts(key);
  if (parts === undefined) return null;
  const suffix = parts.kind === "ed25519" ? "PubKeyEd25519" : "PubKeySecp256k1";
  return { type: `${keyTypePrefix(form)}/${suffix}`, value: base64(parts.bytes) };
}

/**
 * The protobuf PublicKey through tmjson: the oneof field `Sum` holds a registered concrete type,
 * `{"Sum":{"type":"tendermint.crypto.PublicKey_Ed25519","value":{"ed25519":"<base64>"}}}`.
 * An unset oneof is Go's nil interface: `{"Sum":null}`.
 */
export function protoPubKeyJson(key: PubKeyInput | undefined): JsonValue {
  const parts = key === undefined ? undefined : keyParts(key);
  if (parts === undefined) return { Sum: null };
  const [typeName, field] =
    parts.kind === "ed25519"
      ? ["tendermint.crypto.PublicKey_Ed25519", "ed25519"]
      : ["tendermint.crypto.PublicKey_Secp256K1", "secp256k1"];
  // omitempty on the oneof's bytes field: an empty key writes {}.
  const value = parts.bytes.length === 0 ? {} : { [field]: base64(parts.bytes) };
  return { Sum: { type: typeName, value } };
}
