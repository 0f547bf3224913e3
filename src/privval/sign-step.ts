// The step of a signed message in the last-sign state (privval/file.go): 1 propose, 2 prevote,
// 3 precommit; 0 means nothing signed yet.

import type { SignStep } from "../types/key-file-priv-validator-state.js";
import { SignedMsgType } from "../wire/generated/tendermint/types/types.js";
import { PrivvalError } from "./errors.js";

export const STEP_NONE = 0;
export const STEP_PROPOSE = 1;
export const STEP_PREVOTE = 2;
export const STEP_PRECOMMIT = 3;

export function voteStep(type: SignedMsgType): SignStep {
  if (type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE) return STEP_PREVOTE;
  if (type === SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT) return STEP_PRECOMMIT;
  throw new PrivvalError(
    "PRIVVAL_BAD_REQUEST",
    `cannot sign a vote of type ${type}: only prevote (1) and precommit (2)`,
  );
}

export function stepName(step: number): string {
  return ["none", "propose", "prevote", "precommit"][step] ?? `step ${step}`;
}
