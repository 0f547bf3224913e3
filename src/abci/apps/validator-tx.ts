// persistent_kvstore's validator transactions: `val:<base64 public key>!<power>`. Power 0 removes.
import type { ValidatorUpdate } from "../../wire/generated/tendermint/abci/types.js";

const PREFIX = "val:";
const utf8 = new TextEncoder();

/** The update a validator tx carries, or the reason it is malformed (the DeliverTx log). */
export function decodeValidatorTx(tx: Uint8Array): ValidatorUpdate | string {
  const text = Buffer.from(tx.buffer, tx.byteOffset, tx.byteLength).toString("utf8");
  if (!text.startsWith(PREFIX)) return `Expected a validator tx starting with ${PREFIX}. Got ${text}`;
  const parts = text.slice(PREFIX.length).split("!");
  if (parts.length !== 2) return `Expected 'pubkey!power'. Got ${text.slice(PREFIX.length)}`;
  const [keyText, powerText] = parts as [string, string];
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(keyText) || keyText.length % 4 !== 0) {
    return `Pubkey (${keyText}) is invalid base64`;
  }
  const pubKey = new Uint8Array(Buffer.from(keyText, "base64"));
  if (pubKey.length !== 32) return `Pubkey (${keyText}) is not a 32-byte ed25519 key`;
  if (!/^-?\d{1,19}$/.test(powerText)) return `Power (${powerText}) is not an int`;
  const power = BigInt(powerText);
  if (power < 0n || power > 0x7fffffffffffffffn) return `Power (${powerText}) is not a non-negative int64`;
  return { pubKey: { sum: { $case: "ed25519", ed25519: pubKey } }, power };
}

export function encodeValidatorTx(v: ValidatorUpdate): Uint8Array {
  return utf8.encode(`${PREFIX}${Buffer.from(validatorKey(v)).toString("base64")}!${v.power}`);
}

/** The raw public key of an update (ed25519 or secp256k1). */
export function validatorKey(v: ValidatorUpdate): Uint8Array {
  const sum = v.pubKey?.sum;
  if (sum?.$case === "ed25519") return sum.ed25519;
  if (sum?.$case === "secp256k1") return sum.secp256k1;
  return new Uint8Array(0);
}
