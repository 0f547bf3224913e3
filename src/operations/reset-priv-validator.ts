// `rxbft unsafe_reset_priv_validator`: resets only the validator's signing state
// (priv_validator_state.json) to height 0. The signing state is what stops a validator from
// signing two different messages at one height; erasing it is how validators double-sign and get
// slashed. Safe only on a chain where no other process ever signed with this key at the heights
// the chain will see again (a local devnet after a reset).
import { existsSync } from "node:fs";
import { resetSignerState } from "../cli/reset-signer.js";
import { readPrivValidatorState } from "../types/key-file-priv-validator-state.js";
import { type OperatorHome, withStoppedHome } from "./operator-home.js";

export const DOUBLE_SIGN_WARNING =
  "WARNING: resetting the signing state removes this validator's double-sign protection. " +
  "If this key signed at heights the chain will see again, signing there now is double signing " +
  "(evidence, slashing, tombstoning). Do this only on a chain where that cannot happen.";

export async function resetPrivValidator(home: OperatorHome, say: (line: string) => void): Promise<void> {
  await withStoppedHome(home, "reset the validator's signing state", async () => {
    const file = home.paths.privValidatorStateFile;
    say(DOUBLE_SIGN_WARNING);
    if (existsSync(file)) {
      const before = readPrivValidatorState(file);
      say(
        `The signer had signed up to height ${before.height} (round ${before.round}, step ${before.step}).`,
      );
    }
    resetSignerState(home.paths, (message, fields) => say(`${message}: ${String(fields.file)}`));
  });
}
