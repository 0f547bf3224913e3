import { Flags } from "@oclif/core";
import { RxbftCommand } from "../cli/base-command.js";

export default class Replay extends RxbftCommand {
  static override description = `Fold the home's consensus log through the consensus state machine, offline.

No network, signer or app is used: every input the node folded is read from data/cs.wal/ and
folded again, with the same restart rule the node applies. Prints each decided height (round,
block hash, txs, inputs) and a summary. The log is only read; a torn last record ends the replay
with a note. Safe to run while the node runs (it reads what is on disk).`;
  static override examples = ["<%= config.bin %> replay", "<%= config.bin %> replay --home ./node1 --quiet"];
  static override flags = {
    quiet: Flags.boolean({ description: "print only the summary", default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Replay);
    const [{ resolveHome, nodePaths }, { loadConfig }, { replayHome }] = await Promise.all([
      import("../config/home.js"),
      import("../config/config-loader.js"),
      import("../../streams/replay-home.js"),
    ]);
    const home = resolveHome(flags.home);
    const { config } = loadConfig(home);
    const summary = await replayHome(nodePaths(home, config), config, (line) => {
      if (!flags.quiet) this.log(line);
    });
    this.log(summary);
  }
}
