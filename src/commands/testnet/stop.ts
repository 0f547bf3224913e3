import { Flags } from "@oclif/core";
import { RxbftCommand } from "../../cli/base-command.js";

export default class TestnetStop extends RxbftCommand {
  static override description = `Stop the nodes of a testnet folder started with rxbft testnet start.

Sends SIGTERM to the PID recorded in each <dir>/<node>/node.pid (only while that PID is still an
rxbft node of that home), waits --grace seconds, then sends SIGKILL to any still running.
With --kill it sends SIGKILL at once (a crash, for failure drills).`;
  static override examples = [
    "<%= config.bin %> testnet stop --dir ./mytestnet",
    "<%= config.bin %> testnet stop --dir ./mytestnet --node 3 --kill",
  ];
  static override flags = {
    dir: Flags.string({ description: "the testnet folder (rxbft testnet --o)", default: "./mytestnet" }),
    node: Flags.string({
      description: "only this node (directory name or number; repeat the flag for several)",
      multiple: true,
    }),
    grace: Flags.integer({ description: "seconds between SIGTERM and SIGKILL", default: 10, min: 0 }),
    kill: Flags.boolean({ description: "SIGKILL at once (kill -9) instead of SIGTERM", default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(TestnetStop);
    const [{ stopTestnetNodes }, { resolve }] = await Promise.all([
      import("../../cli/testnet-run.js"),
      import("node:path"),
    ]);
    const stopped = await stopTestnetNodes({
      dir: resolve(flags.dir),
      ...(flags.node !== undefined ? { nodes: flags.node } : {}),
      graceMs: flags.grace * 1000,
      kill: flags.kill,
    });
    for (const n of stopped)
      this.log(`${n.name}  ${n.outcome}${n.pid !== undefined ? `  pid ${n.pid}` : ""}`);
  }
}
