import { RxbftCommand } from "../cli/base-command.js";

export default class Compact extends RxbftCommand {
  static override description = `Compact every LevelDB database of the home, printing sizes before and after.

Rewrites the tables of each database under data/ (block store, state, event index, evidence, the
in-process app's) so the space held by deleted or overwritten keys (pruning, re-indexing) goes
back to the file system. v0.34 calls this experimental-compact-goleveldb. Refuses while a node runs
in the home; an interrupted run loses nothing.`;
  static override aliases = ["experimental-compact-goleveldb", "experimental_compact_goleveldb"];
  static override examples = ["<%= config.bin %> compact --home ./node1"];

  async run(): Promise<void> {
    const { flags } = await this.parse(Compact);
    const [{ resolveHome }, { readOperatorHome }, { compactStores }] = await Promise.all([
      import("../config/home.js"),
      import("../operations/operator-home.js"),
      import("../operations/compact-stores.js"),
    ]);
    await compactStores(readOperatorHome(resolveHome(flags.home)), (line) => this.log(line));
  }
}
