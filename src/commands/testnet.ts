import { Flags } from "@oclif/core";
import { RxbftCommand } from "../cli/base-command.js";

export default class Testnet extends RxbftCommand {
  static override description = `Initialise the homes of a whole test network.

Creates --v validators and --n non-validators under --o (node0, node1, …), each with its own
keys and config, one shared genesis.json, and persistent_peers listing every other node.

On one machine (the default) each node gets its own ports: node i listens on
starting-port + 100·i for p2p, +1 for RPC, +2 for its ABCI app and +4 for Prometheus, with
addr_book_strict = false and allow_duplicate_ip = true. With --hostname, --hostname-prefix or
--starting-ip the nodes are meant for separate machines and all use --p2p-port.

Run the folder's nodes with rxbft testnet start / status / stop --dir <o>.`;
  static override examples = [
    "<%= config.bin %> testnet --v 4 --o ./mytestnet",
    "<%= config.bin %> testnet --v 4 --n 1 --starting-port 30000 --chain-id my-net",
    "<%= config.bin %> testnet --v 3 --starting-ip 192.168.10.2 --p2p-port 26656",
    "<%= config.bin %> testnet --v 2 --hostname alpha.example --hostname beta.example",
  ];
  static override flags = {
    v: Flags.integer({ description: "number of validators", default: 4, min: 0 }),
    n: Flags.integer({ description: "number of non-validators", default: 0, min: 0 }),
    o: Flags.string({ description: "directory to write the node homes into", default: "./mytestnet" }),
    config: Flags.string({ description: "config.toml to start every node's configuration from" }),
    "chain-id": Flags.string({ description: "chain id [default: chain-<6 random characters>]" }),
    "node-dir-prefix": Flags.string({ description: "prefix of each node's directory", default: "node" }),
    "initial-height": Flags.integer({
      description: "initial height of the chain (0 means 1)",
      default: 0,
      min: 0,
    }),
    "populate-persistent-peers": Flags.boolean({
      description: "fill persistent_peers with every other node",
      default: true,
      allowNo: true,
    }),
    "hostname-prefix": Flags.string({ description: "several machines: hostnames are <prefix><i><suffix>" }),
    "hostname-suffix": Flags.string({
      description: "several machines: suffix of the hostnames",
      default: "",
    }),
    "starting-ip": Flags.string({
      description: "several machines: IPv4 address of node0; the others count up from it",
      aliases: ["starting-ip-address"],
    }),
    hostname: Flags.string({
      description: "several machines: one hostname per node (repeat the flag)",
      multiple: true,
    }),
    "p2p-port": Flags.integer({
      description: "several machines: the p2p port of every node",
      default: 26656,
    }),
    "starting-port": Flags.integer({
      description: "one machine: node0's p2p port; node i adds 100·i",
      default: 26656,
    }),
    "random-monikers": Flags.boolean({
      description: "random monikers instead of the directory names",
      default: false,
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Testnet);
    const [{ createTestnet }, { resolve }] = await Promise.all([
      import("../cli/testnet.js"),
      import("node:path"),
    ]);
    const report = createTestnet({
      validators: flags.v,
      nonValidators: flags.n,
      outputDir: resolve(flags.o),
      ...(flags.config !== undefined ? { configTemplate: flags.config } : {}),
      ...(flags["chain-id"] !== undefined ? { chainId: flags["chain-id"] } : {}),
      nodeDirPrefix: flags["node-dir-prefix"],
      initialHeight: BigInt(flags["initial-height"]),
      populatePersistentPeers: flags["populate-persistent-peers"],
      ...(flags.hostname !== undefined ? { hostnames: flags.hostname } : {}),
      ...(flags["hostname-prefix"] !== undefined ? { hostnamePrefix: flags["hostname-prefix"] } : {}),
      hostnameSuffix: flags["hostname-suffix"],
      ...(flags["starting-ip"] !== undefined ? { startingIp: flags["starting-ip"] } : {}),
      p2pPort: flags["p2p-port"],
      startingPort: flags["starting-port"],
      randomMonikers: flags["random-monikers"],
    });
    this.log(
      `Successfully initialised ${report.nodes.length} node directories under ${resolve(flags.o)} (chain ${report.chainId})`,
    );
    for (const node of report.nodes) {
      this.log(
        `  ${node.name}  ${node.validator ? "validator" : "full node"}  ${node.nodeId}@${node.host}:${node.p2pPort}  rpc ${node.rpcPort}`,
      );
    }
  }
}
