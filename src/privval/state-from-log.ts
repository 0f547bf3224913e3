// The signer's last-sign state as the consensus log records it (Wal.syncRecording): the state
// file's own text, so the record says exactly what the file would, and the start-up rule that
// makes the file agree with the log before anything is signed. The log's sync is a signature's
// one durable step (sign-state-store.ts) and the file is written after it, so after a crash the
// file may be behind the log, or torn, but never ahead of it (unless the log was removed or
// replaced, when the file is all there is). Start-up therefore takes the later of the two by
// height/round/step and, when that is the log's, rewrites the file durably from it first.
import {
  type PrivValidatorState,
  privValidatorStateFileText,
  privValidatorStateFromJson,
  readPrivValidatorState,
  writePrivValidatorState,
} from "../types/key-file-priv-validator-state.js";
import { PrivvalError } from "./errors.js";
import { stepName } from "./sign-step.js";

/** The log's record of `state`: the state file's text, UTF-8. */
export function signStateRecord(state: PrivValidatorState): Uint8Array {
  return signStateRecordOfText(privValidatorStateFileText(state));
}

/** The log's record of a state whose file text (privValidatorStateFileText) is `text`. */
export function signStateRecordOfText(text: string): Uint8Array {
  return Buffer.from(text, "utf8");
}

/** The state a log record holds; `where` names the log in the error when it is not one. */
export function signStateFromRecord(record: Uint8Array, where: string): PrivValidatorState {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(record).toString("utf8"));
  } catch (error) {
    throw new PrivvalError(
      "PRIVVAL_BAD_STATE",
      `the signer's record in the consensus log ${where} is not JSON: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return privValidatorStateFromJson(json, `the signer's record in the consensus log ${where}`);
}

/** Whether `a` was signed after `b` (height, then round, then step). */
export function signedAfter(a: PrivValidatorState, b: PrivValidatorState): boolean {
  if (a.height !== b.height) return a.height > b.height;
  if (a.round !== b.round) return a.round > b.round;
  return a.step > b.step;
}

const hrs = (s: PrivValidatorState) => `${s.height}/${s.round}/${stepName(s.step)}`;

/**
 * Makes the state file at `path` hold the later of itself and the log's latest signer record
 * (`logged`, from the log in `logDir`), rewriting it durably when the log is later or the file
 * cannot be read. Returns a line for the operator when the file was rewritten, else undefined.
 * A file that cannot be read with no record in the log throws its own error, as before.
 */
export function reconcileStateFileWithLog(
  path: string,
  logged: Uint8Array | undefined,
  logDir: string,
): string | undefined {
  if (logged === undefined) return undefined;
  const fromLog = signStateFromRecord(logged, logDir);
  let fromFile: PrivValidatorState;
  try {
    fromFile = readPrivValidatorState(path);
  } catch (error) {
    writePrivValidatorState(path, fromLog);
    return (
      `signer state file ${path} could not be read (${(error as Error).message}); rewritten from the ` +
      `consensus log ${logDir}, which holds the last signature at ${hrs(fromLog)}`
    );
  }
  if (!signedAfter(fromLog, fromFile)) return undefined;
  writePrivValidatorState(path, fromLog);
  return (
    `signer state file ${path} was at ${hrs(fromFile)}, behind the consensus log ${logDir} at ` +
    `${hrs(fromLog)} (a crash before the file caught up); rewritten from the log`
  );
}
