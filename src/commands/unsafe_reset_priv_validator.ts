import { RxbftCommand } from "../cli/base-command.js";

export default class UnsafeResetPrivValidator extends RxbftCommand {
  static override description = `(unsafe) Reset only the validator's signing state to height 0.

Rewrites priv_validator_state.json as a fresh one (height 0); the key and everything else stay.
The signing state is what keeps a validator from signing twice at one height: resetting it is how
validators double-sign. Use it only on a chain where this key never signed at the heights the
chain will reach again (e.g. a local devnet after \`rollback --hard\` or \`reset-state\`). Refuses
while a node runs in the home.`;
  static override aliases = ["unsafe-reset-priv-validator"];
  static override examples = ["<%= config.bin %> unsafe_reset_priv_validator --home ./devnet/node0"];

  async run(): Promise<void> {
    const { flags } = await this.parse(UnsafeResetPrivValidator);
    const [{ resolveHome }, { readOperatorHome }, { resetPrivValidator }] = await Promise.all([
      import("../config/home.js"),
      import("../operations/operator-home.js"),
      import("../operations/reset-priv-validator.js"),
    ]);
    await resetPrivValidator(readOperatorHome(resolveHome(flags.home)), (line) => this.log(line));
  }
}
