import { Flags } from "@oclif/core";
import { RxbftCommand } from "../cli/base-command.js";

/** Config key each flag overrides. */
const INSPECT_FLAG_KEYS: Readonly<Record<string, string>> = {
  log_level: "log_level",
  log_format: "log_format",
  db_dir: "db_dir",
  "rpc.laddr": "rpc.laddr",
  "rpc.compat": "rpc.compat",
};

export default class Inspect extends RxbftCommand {
  static override description = `Serve the RPC's read routes over a stopped or halted node's stores.

Reads the home's blocks, states, results and indexes and answers status, block, block_by_hash,
block_results, commit, validators, consensus_params, genesis, genesis_chunked, blockchain, tx,
tx_search, block_search and health, in the form rpc.compat selects, on rpc.laddr (as the node
would). Routes that need a running node (broadcasts, abci_*, mempool, consensus state, net_info,
subscriptions) answer an error saying so. Nothing in the home is written: the stores are read
from a private copy. Refuses a home whose node is running. Ctrl-C stops it.`;
  static override examples = [
    "<%= config.bin %> inspect",
    "<%= config.bin %> inspect --home ./node1 --rpc.laddr tcp://127.0.0.1:36657",
  ];
  static override flags = {
    "rpc.laddr": Flags.string({ description: "RPC listen address [default: config.toml rpc.laddr]" }),
    "rpc.compat": Flags.string({ description: 'result form: "spec" or "tendermint" [default: config.toml]' }),
    log_format: Flags.string({ description: 'log format ("plain" or "json")' }),
    db_dir: Flags.string({ description: "database directory, relative to the home" }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Inspect);
    const [{ resolveHome }, { runInspect }] = await Promise.all([
      import("../config/home.js"),
      import("../../streams/inspect/run-inspect.js"),
    ]);
    const values = flags as Record<string, unknown>;
    const overrides: Record<string, string | undefined> = {};
    for (const [flag, key] of Object.entries(INSPECT_FLAG_KEYS))
      overrides[key] = values[flag] as string | undefined;
    const flagNames = Object.fromEntries(Object.entries(INSPECT_FLAG_KEYS).map(([f, k]) => [k, f]));
    const code = await runInspect({ home: resolveHome(flags.home), overrides, flagNames });
    if (code !== 0) this.exit(code);
  }
}
