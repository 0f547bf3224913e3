import { Flags } from "@oclif/core";
import { RxbftCommand } from "../../cli/base-command.js";

export default class TestnetStatus extends RxbftCommand {
  static override description =
    `Show each node of a testnet folder: running or not, height, last block hash, peers.

Reads <dir>/<node>/node.pid and asks each running node's RPC (/status, /net_info).`;
  static override examples = [
    "<%= config.bin %> testnet status --dir ./mytestnet",
    "<%= config.bin %> testnet status --dir ./mytestnet --json",
  ];
  static override flags = {
    dir: Flags.string({ description: "the testnet folder (rxbft testnet --o)", default: "./mytestnet" }),
    node: Flags.string({
      description: "only this node (directory name or number; repeat the flag for several)",
      multiple: true,
    }),
    json: Flags.boolean({ description: "one JSON array instead of the table", default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(TestnetStatus);
    const [{ testnetStatus, formatStatusTable }, { resolve }] = await Promise.all([
      import("../../cli/testnet-run.js"),
      import("node:path"),
    ]);
    const rows = await testnetStatus(resolve(flags.dir), flags.node);
    this.log(flags.json ? JSON.stringify(rows, null, 2) : formatStatusTable(rows));
  }
}
