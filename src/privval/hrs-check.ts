// The height/round/step rule of a file signer (privval/file.go checkHRS), as a pure function:
// a request below the last signed (height, round, step) is refused; the same one is "same" and
// must then be compared with the stored sign bytes; anything above is "new".

import type { PrivValidatorState } from "../types/key-file-priv-validator-state.js";
import { PrivvalError } from "./errors.js";
import { stepName } from "./sign-step.js";

export type HrsVerdict = "new" | "same";

export function checkHrs(last: PrivValidatorState, height: bigint, round: number, step: number): HrsVerdict {
  const asked = `${height}/${round}/${stepName(step)}`;
  const signed = `${last.height}/${last.round}/${stepName(last.step)}`;
  if (last.height > height) {
    throw new PrivvalError(
      "PRIVVAL_HRS_REGRESSION",
      `height regression: asked to sign ${asked}, last signed ${signed}`,
    );
  }
  if (last.height < height) return "new";
  if (last.round > round) {
    throw new PrivvalError(
      "PRIVVAL_HRS_REGRESSION",
      `round regression at height ${height}: asked to sign ${asked}, last signed ${signed}`,
    );
  }
  if (last.round < round) return "new";
  if (last.step > step) {
    throw new PrivvalError(
      "PRIVVAL_HRS_REGRESSION",
      `step regression at height ${height} round ${round}: asked to sign ${asked}, last signed ${signed}`,
    );
  }
  if (last.step < step) return "new";
  if (last.signBytes === undefined || last.signature === undefined) {
    throw new PrivvalError(
      "PRIVVAL_NO_SIGN_BYTES",
      `asked to sign ${asked} again, but the signer state holds no sign bytes and signature for it`,
    );
  }
  return "same";
}
