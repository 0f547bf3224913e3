import { RxbftCommand } from "../cli/base-command.js";

export default class GenNodeKey extends RxbftCommand {
  static override description = `Generate the node's p2p key (config/node_key.json) and print its node ID.

Refuses when the file already exists: the node ID is how peers know this node.`;
  static override aliases = ["gen-node-key"];
  static override examples = [
    "<%= config.bin %> gen_node_key",
    "<%= config.bin %> gen_node_key --home ./my-node",
  ];

  async run(): Promise<void> {
    const { flags } = await this.parse(GenNodeKey);
    const [
      { resolveHome, ensureHomeDirs, nodePaths },
      { loadConfig },
      nodeKeyFile,
      { CliError },
      { existsSync },
    ] = await Promise.all([
      import("../config/home.js"),
      import("../config/config-loader.js"),
      import("../types/key-file-node-key.js"),
      import("../cli/errors.js"),
      import("node:fs"),
    ]);
    const home = resolveHome(flags.home);
    const { config } = loadConfig(home);
    const paths = nodePaths(home, config);
    if (existsSync(paths.nodeKeyFile)) {
      throw new CliError(
        "CLI_FILE_EXISTS",
        `${paths.nodeKeyFile}: node key already exists; refusing to overwrite it`,
      );
    }
    ensureHomeDirs(home, paths.dataDir);
    const key = nodeKeyFile.generateNodeKey();
    nodeKeyFile.writeNodeKey(paths.nodeKeyFile, key);
    this.log(nodeKeyFile.nodeIdOf(key.publicKey));
  }
}
