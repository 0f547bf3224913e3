import { Args, Flags } from "@oclif/core";
import { RxbftCommand } from "../../cli/base-command.js";
import { debugFlags } from "./dump.js";

export default class DebugKill extends RxbftCommand {
  static override description = `Collect a node's debug data, stop the node, and write one ZIP archive.

Collects what \`debug dump\` collects while the process still runs (RPC answers, memory figures),
then sends it SIGTERM (SIGKILL if it has not exited after --grace), then adds the files it left
(the end of its log file, the consensus log, the signer state). PID must be the node running in
--home (the pid in data/rxbft.lock): any other process is refused.`;
  static override examples = [
    "<%= config.bin %> debug kill 12345 ./node1-debug.zip --home ./node1 --log-file ./node1.log",
  ];
  static override args = {
    pid: Args.integer({ description: "the node's process id", required: true }),
    out: Args.string({ description: "the archive to write (must not exist)", required: true }),
  };
  static override flags = {
    ...debugFlags,
    grace: Flags.integer({
      description: "seconds to wait after SIGTERM before SIGKILL",
      default: 10,
      min: 0,
      max: 600,
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(DebugKill);
    const [{ resolveHome }, { readOperatorHome }, { debugKill }, { resolve }] = await Promise.all([
      import("../../config/home.js"),
      import("../../operations/operator-home.js"),
      import("../../operations/debug-commands.js"),
      import("node:path"),
    ]);
    await debugKill(
      readOperatorHome(resolveHome(flags.home)),
      args.pid,
      resolve(args.out),
      {
        ...(flags.rpc !== undefined ? { rpcUrl: flags.rpc } : {}),
        ...(flags["log-file"] !== undefined ? { logFile: resolve(flags["log-file"]) } : {}),
        logLines: flags["log-lines"],
        graceMs: flags.grace * 1000,
      },
      (line) => this.log(line),
    );
  }
}
