// Resetting the validator's signing state (priv_validator_state.json) to height 0, as
// `unsafe_reset_all` and `unsafe_reset_priv_validator` do. The key is kept (generated only when
// missing, as Tendermint does); a broken key file is refused rather than paired with a fresh state.
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { NodePaths } from "../config/home.js";
import {
  generatePrivValidatorKey,
  readPrivValidatorKey,
  writePrivValidatorKey,
} from "../types/key-file-priv-validator.js";
import {
  INITIAL_PRIV_VALIDATOR_STATE,
  writePrivValidatorState,
} from "../types/key-file-priv-validator-state.js";

export interface SignerResetReport {
  generatedKey: boolean;
}

export function resetSignerState(
  paths: Pick<NodePaths, "privValidatorKeyFile" | "privValidatorStateFile">,
  say: (message: string, fields: Record<string, unknown>) => void,
): SignerResetReport {
  let generatedKey = false;
  if (existsSync(paths.privValidatorKeyFile)) {
    readPrivValidatorKey(paths.privValidatorKeyFile);
  } else {
    mkdirSync(dirname(paths.privValidatorKeyFile), { recursive: true, mode: 0o700 });
    writePrivValidatorKey(paths.privValidatorKeyFile, generatePrivValidatorKey());
    generatedKey = true;
    say("Generated private validator key", { file: paths.privValidatorKeyFile });
  }
  mkdirSync(dirname(paths.privValidatorStateFile), { recursive: true, mode: 0o700 });
  writePrivValidatorState(paths.privValidatorStateFile, INITIAL_PRIV_VALIDATOR_STATE);
  say("Reset private validator state to height 0", { file: paths.privValidatorStateFile });
  return { generatedKey };
}
