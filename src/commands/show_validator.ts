import { RxbftCommand } from "../cli/base-command.js";

export default class ShowValidator extends RxbftCommand {
  static override description =
    'Print this node\'s validator public key as JSON ({"type":"node/PubKeyEd25519","value":…}).';
  static override aliases = ["show-validator"];
  static override examples = [
    "<%= config.bin %> show_validator",
    "<%= config.bin %> show_validator --home ./my-node",
  ];

  async run(): Promise<void> {
    const { flags } = await this.parse(ShowValidator);
    const [
      { resolveHome, nodePaths },
      { loadConfig },
      { readPrivValidatorKey },
      { pubKeyToJson },
      { requireFile },
    ] = await Promise.all([
      import("../config/home.js"),
      import("../config/config-loader.js"),
      import("../types/key-file-priv-validator.js"),
      import("../types/key-file-json-keys.js"),
      import("../cli/require-file.js"),
    ]);
    const home = resolveHome(flags.home);
    const { config } = loadConfig(home);
    const file = nodePaths(home, config).privValidatorKeyFile;
    requireFile(file, "validator key", "run `rxbft init`");
    const key = readPrivValidatorKey(file);
    this.log(JSON.stringify(pubKeyToJson(key.publicKey)));
  }
}
