import { Flags } from "@oclif/core";
import { RxbftCommand } from "../cli/base-command.js";

export default class Init extends RxbftCommand {
  static override description = `Initialise a one-validator node home.

Writes config/config.toml, config/genesis.json (this node as the only validator, power 10),
config/priv_validator_key.json, config/node_key.json and data/priv_validator_state.json.
Files that already exist are kept and reported, never overwritten.`;
  static override examples = [
    "<%= config.bin %> init",
    "<%= config.bin %> init --home ./my-node --chain-id my-chain",
    "RXBFT_HOME=/srv/rxbft <%= config.bin %> init",
  ];
  static override flags = {
    "chain-id": Flags.string({
      description: "chain id of the new genesis [default: test-chain-<6 random characters>]",
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Init);
    const [{ resolveHome }, { createLogger }, { initHome }] = await Promise.all([
      import("../config/home.js"),
      import("../logger/index.js"),
      import("../cli/init-home.js"),
    ]);
    const home = resolveHome(flags.home);
    const log = createLogger({ level: flags.log_level ?? "info", levelSource: "flag --log_level" });
    const report = initHome(home, { chainId: flags["chain-id"] }, log);
    log.info(report.created.length > 0 ? "Initialised node home" : "Node home already initialised", {
      home,
      created: report.created.length,
      kept: report.kept.length,
      node_id: report.nodeId,
    });
  }
}
