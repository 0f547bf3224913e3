// priv_validator_key.json: the validator's ed25519 key. Written with mode 0600, indented by two
// spaces, as Tendermint does: {"address", "pub_key", "priv_key"}. The signing state lives in
// data/priv_validator_state.json (key-file-priv-validator-state.ts).
import * as t from "io-ts";
import { upperHex } from "../bytes.js";
import { generateEd25519KeyPair, keyPairFromPrivateKey } from "../crypto/ed25519-keys.js";
import { addressOf } from "../crypto/hash.js";
import { hexBytes, int64String, intNumber } from "./genesis-io-ts.js";
import { writeFileAtomic } from "./key-file-atomic-write.js";
import {
  type KeyJson,
  type KeyTypePrefix,
  privKeyEd25519Json,
  privKeyToJson,
  pubKeyEd25519Json,
  pubKeyToJson,
} from "./key-file-json-keys.js";
import { decodeKeyFile, HALVES_DISAGREE, invalidKeyFile, readKeyFileJson } from "./key-file-read.js";

export interface PrivValidatorKey {
  /** First 20 bytes of sha256(publicKey). */
  address: Uint8Array;
  /** 32-byte ed25519 public key. */
  publicKey: Uint8Array;
  /** 64 bytes: seed ‖ public key. */
  privateKey: Uint8Array;
}

export interface PrivValidatorKeyJson {
  address: string;
  pub_key: KeyJson;
  priv_key: KeyJson;
}

const fileCodec = t.intersection([
  t.type(
    {
      address: hexBytes(20),
      pub_key: pubKeyEd25519Json,
      priv_key: privKeyEd25519Json,
    },
    "a JSON object with address, pub_key and priv_key",
  ),
  // Fields of the pre-v0.32 layout that the specification still lists; accepted and checked,
  // but the signing state is kept in priv_validator_state.json.
  t.partial({
    last_height: int64String("0", 0n),
    last_round: intNumber(0, 2 ** 31 - 1),
    last_step: intNumber(0, 3),
  }),
]);

/** A new key from the OS's random source. */
export function generatePrivValidatorKey(): PrivValidatorKey {
  const pair = generateEd25519KeyPair();
  return { address: addressOf(pair.publicKey), publicKey: pair.publicKey, privateKey: pair.privateKey };
}

/** Builds the key of a 64-byte private key, checking its halves agree. */
export function privValidatorKeyFromPrivateKey(privateKey: Uint8Array): PrivValidatorKey {
  const pair = keyPairFromPrivateKey(privateKey);
  if (typeof pair === "string") throw new Error(pair);
  return { address: addressOf(pair.publicKey), publicKey: pair.publicKey, privateKey: pair.privateKey };
}

/** Validates a parsed priv_validator_key.json; `file` names it in errors. */
export function privValidatorKeyFromJson(json: unknown, file: string): PrivValidatorKey {
  const decoded = decodeKeyFile(file, fileCodec, json);
  const pair = keyPairFromPrivateKey(decoded.priv_key.value);
  if (typeof pair === "string") throw invalidKeyFile(file, "priv_key.value", HALVES_DISAGREE);
  if (!Buffer.from(pair.publicKey).equals(Buffer.from(decoded.pub_key.value))) {
    throw invalidKeyFile(file, "pub_key.value", "expected the public key of priv_key, got a different key");
  }
  const address = addressOf(pair.publicKey);
  if (!Buffer.from(address).equals(Buffer.from(decoded.address))) {
    throw invalidKeyFile(
      file,
      "address",
      `expected ${upperHex(address)} (the first 20 bytes of sha256 of pub_key), got ${upperHex(decoded.address)}`,
    );
  }
  return { address, publicKey: pair.publicKey, privateKey: pair.privateKey };
}

export function readPrivValidatorKey(file: string): PrivValidatorKey {
  return privValidatorKeyFromJson(readKeyFileJson(file), file);
}

export function privValidatorKeyToJson(key: PrivValidatorKey, prefix?: KeyTypePrefix): PrivValidatorKeyJson {
  return {
    address: upperHex(key.address),
    pub_key: pubKeyToJson(key.publicKey, prefix),
    priv_key: privKeyToJson(key.privateKey, prefix),
  };
}

/** The file's text: indented by two spaces, ending in a newline. */
export function privValidatorKeyFileText(key: PrivValidatorKey): string {
  return `${JSON.stringify(privValidatorKeyToJson(key), null, 2)}\n`;
}

/** Writes the file atomically with mode 0600. */
export function writePrivValidatorKey(file: string, key: PrivValidatorKey): void {
  writeFileAtomic(file, privValidatorKeyFileText(key), 0o600);
}
