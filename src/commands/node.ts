import { Flags } from "@oclif/core";
import { RxbftCommand } from "../cli/base-command.js";

/** Config key each flag overrides ("section.key"); flags not here are not config keys. */
export const NODE_FLAG_KEYS: Readonly<Record<string, string>> = {
  moniker: "moniker",
  proxy_app: "proxy_app",
  abci: "abci",
  fast_sync: "fast_sync",
  blocksync: "fast_sync",
  db_backend: "db_backend",
  db_dir: "db_dir",
  log_level: "log_level",
  log_format: "log_format",
  priv_validator_laddr: "priv_validator_laddr",
  "consensus.double_sign_check_height": "consensus.double_sign_check_height",
  "consensus.create_empty_blocks": "consensus.create_empty_blocks",
  "consensus.create_empty_blocks_interval": "consensus.create_empty_blocks_interval",
  "rpc.laddr": "rpc.laddr",
  "rpc.grpc_laddr": "rpc.grpc_laddr",
  "rpc.unsafe": "rpc.unsafe",
  "rpc.pprof_laddr": "rpc.pprof_laddr",
  "rpc.compat": "rpc.compat",
  "p2p.laddr": "p2p.laddr",
  "p2p.external-address": "p2p.external_address",
  "p2p.seeds": "p2p.seeds",
  "p2p.persistent_peers": "p2p.persistent_peers",
  "p2p.unconditional_peer_ids": "p2p.unconditional_peer_ids",
  "p2p.private_peer_ids": "p2p.private_peer_ids",
  "p2p.upnp": "p2p.upnp",
  "p2p.pex": "p2p.pex",
  "p2p.seed_mode": "p2p.seed_mode",
};

// Boolean flags take Go's `--flag=false` as well as oclif's `--no-flag` (see go-boolean-flags.ts).
const bool = (description: string) => Flags.boolean({ description, allowNo: true });
const text = (description: string) => Flags.string({ description });

export default class Node extends RxbftCommand {
  static override description = `Run the node. Flags override config/config.toml.

Runs a validator (or a full node) from the home: the stores, the app (proxy_app), the consensus
log, the signer, the mempool and the RPC server. Ctrl-C stops it cleanly.`;
  // Tendermint's name for this command is `start`; `node` and `run` are its aliases there.
  static override hiddenAliases = ["start", "run"];
  static override examples = [
    "<%= config.bin %> node",
    "<%= config.bin %> node --proxy_app kvstore --rpc.laddr tcp://127.0.0.1:26657",
    "<%= config.bin %> node --home ./node1 --p2p.persistent_peers <id>@127.0.0.1:26656 --consensus.create_empty_blocks=false",
  ];
  static override flags = {
    moniker: text("node name shown to peers"),
    proxy_app: text(
      'ABCI app: tcp://host:port, unix://path, or "kvstore", "persistent_kvstore", "counter", "counter_serial", "noop" in-process',
    ),
    abci: text('ABCI transport ("socket")'),
    fast_sync: bool("catch up by block sync before consensus [config: fast_sync]"),
    blocksync: bool("same as --fast_sync (the name later Tendermint versions use)"),
    db_backend: text('database backend ("goleveldb" or "cleveldb"; both are LevelDB)'),
    db_dir: text("database directory, relative to the home"),
    log_format: text('log format ("plain" or "json")'),
    priv_validator_laddr: text("listen address for an external signer (tcp:// or unix://)"),
    genesis_hash: text("hex sha256 the genesis file must have; the node refuses to start otherwise"),
    "consensus.double_sign_check_height": text("heights to look back for our own signatures before signing"),
    "consensus.create_empty_blocks": bool("make blocks without transactions"),
    "consensus.create_empty_blocks_interval": text('interval of empty blocks, a Go duration like "5s"'),
    "rpc.laddr": text("RPC listen address, e.g. tcp://127.0.0.1:26657"),
    "rpc.grpc_laddr": text("gRPC broadcast API listen address"),
    "rpc.unsafe": bool("serve the unsafe RPC routes"),
    "rpc.pprof_laddr": text("profiling server address"),
    "rpc.compat": text('RPC result form: "seed" or "tendermint" (rxbft)'),
    "p2p.laddr": text("p2p listen address, e.g. tcp://0.0.0.0:26656"),
    "p2p.external-address": text("address to advertise to peers (host:port)"),
    "p2p.seeds": text("comma-separated seed nodes, id@host:port"),
    "p2p.persistent_peers": text("comma-separated persistent peers, id@host:port"),
    "p2p.unconditional_peer_ids": text("comma-separated node IDs allowed past the peer limits"),
    "p2p.private_peer_ids": text("comma-separated node IDs never gossiped"),
    "p2p.upnp": bool("use UPnP to open the listening port"),
    "p2p.pex": bool("exchange peer addresses"),
    "p2p.seed_mode": bool("run as a seed node"),
  };

  async run(): Promise<void> {
    const { goBooleanArgs } = await import("../cli/go-boolean-flags.js");
    const { flags } = await this.parse(Node, goBooleanArgs(this.argv, Node.flags));
    const [{ resolveHome }, { prepareNode }, { runNode }] = await Promise.all([
      import("../config/home.js"),
      import("../../streams/boot/prepare-home.js"),
      import("../../streams/run-node.js"),
    ]);
    const overrides: Record<string, string | boolean | undefined> = {};
    const flagNames: Record<string, string> = {};
    const values = flags as Record<string, string | boolean | undefined>;
    for (const [flag, key] of Object.entries(NODE_FLAG_KEYS)) {
      if (values[flag] === undefined) continue;
      overrides[key] = values[flag];
      flagNames[key] = flag;
    }
    const prepared = prepareNode({
      home: resolveHome(flags.home),
      overrides,
      flagNames,
      ...(flags.genesis_hash !== undefined ? { genesisHash: flags.genesis_hash } : {}),
    });
    try {
      process.exitCode = await runNode(prepared, { trace: flags.trace });
    } finally {
      prepared.lock.release();
    }
  }
}
