import { Flags } from "@oclif/core";
import { RxbftCommand } from "../../cli/base-command.js";

export default class TestnetStart extends RxbftCommand {
  static override description = `Start every node of a testnet folder, each in the background.

Runs \`rxbft node --home <dir>/<node>\` for each home under --dir (as written by rxbft testnet),
detached: its output is appended to <dir>/<node>/node.log and its PID written to
<dir>/<node>/node.pid. A node already running is left alone. Waits until each node's RPC
answers, and fails naming the node (with the end of its log) when one exits instead.`;
  static override examples = [
    "<%= config.bin %> testnet start --dir ./mytestnet --proxy_app kvstore",
    "<%= config.bin %> testnet start --dir ./mytestnet --node node3",
  ];
  static override flags = {
    dir: Flags.string({ description: "the testnet folder (rxbft testnet --o)", default: "./mytestnet" }),
    node: Flags.string({
      description: "only this node (directory name or number; repeat the flag for several)",
      multiple: true,
    }),
    proxy_app: Flags.string({
      description: "ABCI app of every node: kvstore, counter, noop or an address [default: each config.toml]",
    }),
    wait: Flags.integer({
      description: "seconds to wait for the nodes' RPC to answer",
      default: 60,
      min: 1,
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(TestnetStart);
    const [{ startTestnetNodes }, { resolve, join }] = await Promise.all([
      import("../../cli/testnet-run.js"),
      import("node:path"),
    ]);
    const started = await startTestnetNodes({
      dir: resolve(flags.dir),
      ...(flags.node !== undefined ? { nodes: flags.node } : {}),
      bin: join(this.config.root, "bin", "run.js"),
      execPath: process.execPath,
      ...(flags.proxy_app !== undefined ? { proxyApp: flags.proxy_app } : {}),
      ...(flags.log_level !== undefined ? { nodeArgs: ["--log_level", flags.log_level] } : {}),
      waitMs: flags.wait * 1000,
    });
    for (const n of started) {
      this.log(
        `${n.name}  ${n.already ? "already running" : "started"}  pid ${n.pid}  rpc ${n.rpc ?? "-"}  log ${n.log}`,
      );
    }
  }
}
