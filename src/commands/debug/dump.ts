import { Args, Flags } from "@oclif/core";
import { RxbftCommand } from "../../cli/base-command.js";

export const debugFlags = {
  rpc: Flags.string({ description: "the node's RPC address [default: from config.toml rpc.laddr]" }),
  "log-file": Flags.string({ description: "the file the node's output is written to (its log)" }),
  "log-lines": Flags.integer({
    description: "lines kept from the end of --log-file",
    default: 1000,
    min: 1,
    max: 1_000_000,
  }),
};

export default class DebugDump extends RxbftCommand {
  static override description = `Collect a running node's debug data into one ZIP archive for a bug report.

The archive holds manifest.json (what was collected and what could not be, with why), status.json,
net_info.json, consensus_state.json and dump_consensus_state.json (from the RPC), config.toml with
secrets redacted, priv_validator_state.json (the signer's last-signed height; no key), the last
lines of the node's log file (--log-file), the last records of the consensus log
(consensus-log-tail.jsonl) and the node process's memory figures (memory.txt, from /proc). Key
files are never read. Works on a running or stuck node (it does not take the home lock).`;
  static override examples = [
    "<%= config.bin %> debug dump --home ./node1 ./node1-debug.zip",
    "<%= config.bin %> debug dump --home ./node1 --rpc http://127.0.0.1:26657 --log-file ./node1.log bug.zip",
  ];
  static override args = {
    out: Args.string({ description: "the archive to write (must not exist)", required: true }),
  };
  static override flags = debugFlags;

  async run(): Promise<void> {
    const { args, flags } = await this.parse(DebugDump);
    const [{ resolveHome }, { readOperatorHome }, { debugDump }, { resolve }] = await Promise.all([
      import("../../config/home.js"),
      import("../../operations/operator-home.js"),
      import("../../operations/debug-commands.js"),
      import("node:path"),
    ]);
    await debugDump(
      readOperatorHome(resolveHome(flags.home)),
      resolve(args.out),
      {
        ...(flags.rpc !== undefined ? { rpcUrl: flags.rpc } : {}),
        ...(flags["log-file"] !== undefined ? { logFile: resolve(flags["log-file"]) } : {}),
        logLines: flags["log-lines"],
      },
      (line) => this.log(line),
    );
  }
}
