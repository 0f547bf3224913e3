import { RxbftCommand } from "../cli/base-command.js";

export default class ResetState extends RxbftCommand {
  static override description = `Remove the home's chain data; keep the validator's signing state.

Removes everything in data/ but priv_validator_state.json: the block store, state, event index,
consensus log, evidence and the in-process app's data (kvstore.db). Keys, config.toml,
genesis.json and the address book stay. The node then starts the chain from genesis again, and
its signer still refuses to sign below the height it reached. Refuses while a node runs in the home.`;
  static override aliases = ["reset-state"];
  static override examples = ["<%= config.bin %> reset-state --home ./node1"];

  async run(): Promise<void> {
    const { flags } = await this.parse(ResetState);
    const [{ resolveHome }, { readOperatorHome }, { resetState }] = await Promise.all([
      import("../config/home.js"),
      import("../operations/operator-home.js"),
      import("../operations/reset-state.js"),
    ]);
    await resetState(readOperatorHome(resolveHome(flags.home)), (line) => this.log(line));
  }
}
