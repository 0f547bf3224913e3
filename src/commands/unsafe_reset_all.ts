import { Flags } from "@oclif/core";
import { RxbftCommand } from "../cli/base-command.js";

export default class UnsafeResetAll extends RxbftCommand {
  static override description =
    `Development only: delete all blockchain data and reset the validator's signing state.

Removes everything in data/ (blocks, state, the consensus log), resets
priv_validator_state.json to height 0 and removes the address book unless --keep-addr-book.
All chain data is lost. Refuses while a node runs in the home.`;
  static override aliases = ["unsafe-reset-all"];
  static override examples = [
    "<%= config.bin %> unsafe_reset_all",
    "<%= config.bin %> unsafe_reset_all --home ./my-node --keep-addr-book",
  ];
  static override flags = {
    "keep-addr-book": Flags.boolean({ description: "keep the address book", default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(UnsafeResetAll);
    const [{ resolveHome }, { loadConfig }, { createLogger }, { unsafeResetAll }] = await Promise.all([
      import("../config/home.js"),
      import("../config/config-loader.js"),
      import("../logger/index.js"),
      import("../cli/reset-home.js"),
    ]);
    const home = resolveHome(flags.home);
    const { config } = loadConfig(
      home,
      { log_level: flags.log_level },
      { flagNames: { log_level: "log_level" } },
    );
    const log = createLogger({ level: config.log_level, format: config.log_format });
    unsafeResetAll(home, config, { keepAddrBook: flags["keep-addr-book"] }, log);
  }
}
