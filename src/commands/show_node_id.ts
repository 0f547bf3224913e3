import { RxbftCommand } from "../cli/base-command.js";

export default class ShowNodeId extends RxbftCommand {
  static override description =
    "Print this node's ID: the lower-case hex of the first 20 bytes of sha256 of its node key.";
  static override aliases = ["show-node-id"];
  static override examples = [
    "<%= config.bin %> show_node_id",
    "<%= config.bin %> show_node_id --home ./my-node",
  ];

  async run(): Promise<void> {
    const { flags } = await this.parse(ShowNodeId);
    const [{ resolveHome, nodePaths }, { loadConfig }, { readNodeKey, nodeIdOf }, { requireFile }] =
      await Promise.all([
        import("../config/home.js"),
        import("../config/config-loader.js"),
        import("../types/key-file-node-key.js"),
        import("../cli/require-file.js"),
      ]);
    const home = resolveHome(flags.home);
    const { config } = loadConfig(home);
    const file = nodePaths(home, config).nodeKeyFile;
    requireFile(file, "node key", "run `rxbft init` or `rxbft gen_node_key`");
    this.log(nodeIdOf(readNodeKey(file).publicKey));
  }
}
