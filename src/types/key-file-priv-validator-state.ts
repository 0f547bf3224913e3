// priv_validator_state.json: the last height/round/step the validator signed, so it never signs
// two different messages for the same step. Written atomically (temp + fsync + rename) with mode
// 0600 before a signature leaves the signer (the signer uses the async writer, `init` and
// `unsafe_reset_all` the sync one). {"height":"0","round":0,"step":0} when fresh; `signature`
// (base64) and `signbytes` (hex) once something was signed.
import * as t from "io-ts";
import { upperHex } from "../bytes.js";
import { expecting, hexBytes, int64String, intNumber, Problem } from "./genesis-io-ts.js";
import { type AtomicWriteFs, writeFileAtomic, writeFileAtomicAsync } from "./key-file-atomic-write.js";
import { decodeKeyFile, readKeyFileJson } from "./key-file-read.js";

/** Steps of the last signature: 0 none, 1 propose, 2 prevote, 3 precommit. */
export type SignStep = 0 | 1 | 2 | 3;

export interface PrivValidatorState {
  height: bigint;
  round: number;
  step: SignStep;
  /** The last signature, when something has been signed. */
  signature?: Uint8Array;
  /** The sign bytes of the last signature. */
  signBytes?: Uint8Array;
}

export const INITIAL_PRIV_VALIDATOR_STATE: Readonly<PrivValidatorState> = Object.freeze({
  height: 0n,
  round: 0,
  step: 0,
});

/** A signature is 64 bytes; Tendermint writes it as standard base64. */
const signatureBase64 = expecting<Uint8Array, string>(
  "base64 of a 64-byte signature",
  (input) => {
    if (typeof input !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(input)) return new Problem();
    const bytes = Buffer.from(input, "base64");
    return bytes.length === 64 || bytes.length === 0
      ? new Uint8Array(bytes)
      : new Problem(`${bytes.length} bytes`);
  },
  (value) => Buffer.from(value).toString("base64"),
);

const fileCodec = t.intersection([
  t.type(
    {
      height: int64String("0", 0n),
      round: intNumber(0, 2 ** 31 - 1),
      step: intNumber(0, 3),
    },
    'a JSON object like {"height": "0", "round": 0, "step": 0}',
  ),
  t.partial({ signature: signatureBase64, signbytes: hexBytes() }),
]);

export function privValidatorStateFromJson(json: unknown, file: string): PrivValidatorState {
  const decoded = decodeKeyFile(file, fileCodec, json);
  const state: PrivValidatorState = {
    height: decoded.height,
    round: decoded.round,
    step: decoded.step as SignStep,
  };
  if (decoded.signature !== undefined && decoded.signature.length > 0) state.signature = decoded.signature;
  if (decoded.signbytes !== undefined && decoded.signbytes.length > 0) state.signBytes = decoded.signbytes;
  return state;
}

export function readPrivValidatorState(file: string): PrivValidatorState {
  return privValidatorStateFromJson(readKeyFileJson(file), file);
}

/** The file's text, in Tendermint's field order, indented by two spaces. */
export function privValidatorStateFileText(state: PrivValidatorState): string {
  const json: Record<string, unknown> = {
    height: state.height.toString(),
    round: state.round,
    step: state.step,
  };
  if (state.signature !== undefined) json.signature = Buffer.from(state.signature).toString("base64");
  if (state.signBytes !== undefined) json.signbytes = upperHex(state.signBytes);
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** Writes the state durably (fsync before returning) with mode 0600. */
export function writePrivValidatorState(file: string, state: PrivValidatorState): void {
  writeFileAtomic(file, privValidatorStateFileText(state), 0o600);
}

/**
 * Writes the state as `writePrivValidatorState` does (same text, mode 0600, temp + fsync + rename
 * + directory fsync) through async fs; resolves once the state is durable. `fs` is for tests.
 * With `replaceAfter` the new state is staged beside it and replaces the file only once it
 * resolves (writeFileAtomicAsync's `renameAfter`).
 */
export function writePrivValidatorStateAsync(
  file: string,
  state: PrivValidatorState,
  fs?: AtomicWriteFs,
  replaceAfter?: PromiseLike<void>,
): Promise<void> {
  return writeFileAtomicAsync(file, privValidatorStateFileText(state), 0o600, fs, replaceAfter);
}
