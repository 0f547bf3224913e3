import { Flags } from "@oclif/core";
import { RxbftCommand } from "../cli/base-command.js";

export default class ReindexEvent extends RxbftCommand {
  static override description = `Rebuild the tx and block event index from the stored blocks and ABCI results.

Indexes every height from --start-height (default: the block store's base) to --end-height
(default: the last executed height) through the node's own indexer (tx_index.indexer in
config.toml), printing a progress bar with the rate. Use it after deleting or corrupting
data/tx_index.db and data/tx_index_bodies.db, or after switching the indexer from "null" to "kv".
Running it twice gives the
same index. Refuses the null indexer, and a home where a node runs.`;
  static override aliases = ["reindex-event"];
  static override examples = [
    "<%= config.bin %> reindex-event --home ./node1",
    "<%= config.bin %> reindex-event --start-height 1000 --end-height 2000",
  ];
  static override flags = {
    "start-height": Flags.string({ description: "first height to index [default: the block store's base]" }),
    "end-height": Flags.string({ description: "last height to index [default: the last executed height]" }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(ReindexEvent);
    const [
      { resolveHome },
      { readOperatorHome },
      { reindexEvents },
      { createProgress },
      { parseHeightFlag },
    ] = await Promise.all([
      import("../config/home.js"),
      import("../operations/operator-home.js"),
      import("../operations/reindex-events.js"),
      import("../operations/progress-bar.js"),
      import("../operations/height-flag.js"),
    ]);
    const home = readOperatorHome(resolveHome(flags.home));
    const startHeight = parseHeightFlag("--start-height", flags["start-height"]);
    const endHeight = parseHeightFlag("--end-height", flags["end-height"]);
    await reindexEvents(
      home,
      {
        ...(startHeight !== undefined ? { startHeight } : {}),
        ...(endHeight !== undefined ? { endHeight } : {}),
      },
      (line) => this.log(line),
      (total) =>
        createProgress({
          total,
          unit: "heights",
          interactive: process.stderr.isTTY === true,
          write: (text) => process.stderr.write(text),
          now: () => performance.now(),
        }),
    );
  }
}
