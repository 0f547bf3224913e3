import { Flags } from "@oclif/core";
import { RxbftCommand } from "../cli/base-command.js";

export default class Rollback extends RxbftCommand {
  static override description =
    `Roll the node's state back one height (after an app bug wrote a wrong app hash).

The state of the latest height H is replaced by the state of H-1, rebuilt from the stored
validator sets, consensus params and block H's header. Block H stays: at its next start the node
executes it again. With --hard, block H is removed too (and the consensus log, which ends at H, is
moved aside), so the node decides height H anew.

The in-process kvstore (proxy_app kvstore or persistent_kvstore) is rolled back with the node; an
app behind a socket must be rolled back to H-1 by its operator. Refuses while a node runs in the
home, and when there is nothing to roll back (say why). Interrupted, it leaves a home the node
starts from; running it again finishes the job.`;
  static override examples = [
    "<%= config.bin %> rollback --home ./node1",
    "<%= config.bin %> rollback --hard --home ./node1",
    "<%= config.bin %> rollback --home ./node1 --proxy_app kvstore",
  ];
  static override flags = {
    hard: Flags.boolean({ description: "also remove the latest block", default: false }),
    proxy_app: Flags.string({
      description:
        "the app the node runs, when not the one in config.toml (as given to `rxbft node --proxy_app`); kvstore and persistent_kvstore are rolled back with the node",
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Rollback);
    const [{ resolveHome }, { readOperatorHome }, { rollback }] = await Promise.all([
      import("../config/home.js"),
      import("../operations/operator-home.js"),
      import("../operations/rollback.js"),
    ]);
    const home = readOperatorHome(resolveHome(flags.home), { proxy_app: flags.proxy_app });
    await rollback(home, { hard: flags.hard }, (line) => this.log(line));
  }
}
