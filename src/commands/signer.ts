import { Flags } from "@oclif/core";
import { RxbftCommand } from "../cli/base-command.js";

export default class Signer extends RxbftCommand {
  static override description = `Run a remote signer for the validator key of a home.

Dials the node's priv_validator_laddr and signs its votes and proposals with the home's
priv_validator_key.json, keeping priv_validator_state.json exactly as the node's own file signer
does (it refuses to sign twice). It dials again whenever the node restarts. See
docs/remote-signer.md.`;
  static override examples = [
    "<%= config.bin %> signer --home ./signer-home --node unix:///run/rxbft/privval.sock",
    "<%= config.bin %> signer --home ./signer-home --node tcp://10.0.0.5:26659 --chain-id my-chain",
  ];
  static override flags = {
    node: Flags.string({
      description: "the node's priv_validator_laddr: tcp://host:port or unix:///path",
      required: true,
    }),
    "chain-id": Flags.string({
      description: "the chain to sign for [default: chain_id of the home's config/genesis.json]",
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Signer);
    const [{ resolveHome }, { runSigner }] = await Promise.all([
      import("../config/home.js"),
      import("../cli/run-signer.js"),
    ]);
    process.exitCode = await runSigner({
      home: resolveHome(flags.home),
      node: flags.node,
      ...(flags["chain-id"] !== undefined ? { chainId: flags["chain-id"] } : {}),
      ...(flags.log_level !== undefined ? { logLevel: flags.log_level } : {}),
    });
  }
}
