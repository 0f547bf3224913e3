import { Flags } from "@oclif/core";
import { RxbftCommand } from "../cli/base-command.js";

export default class Version extends RxbftCommand {
  static override description = "Show rxbft's version and the protocol versions it speaks.";
  static override examples = ["<%= config.bin %> version", "<%= config.bin %> version --json"];
  static override flags = {
    json: Flags.boolean({ description: "print every version as one JSON object", default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Version);
    // Imported here, not at the top: loading a command's class (help, manifest checks) stays cheap.
    const { ABCI_SEMVER, BLOCK_PROTOCOL, P2P_PROTOCOL, RXBFT_VERSION, TENDERMINT_COMPAT_VERSION } =
      await import("../version.js");
    const versions = {
      rxbft: RXBFT_VERSION,
      tendermint_compat: TENDERMINT_COMPAT_VERSION,
      abci: ABCI_SEMVER,
      block_protocol: BLOCK_PROTOCOL,
      p2p_protocol: P2P_PROTOCOL,
    };
    if (flags.json) this.log(JSON.stringify(versions));
    else this.log(RXBFT_VERSION);
  }
}
