// `rxbft testnet`: the homes of a whole network in one go. `validators` validators and
// `nonValidators` full nodes under `outputDir`, one shared genesis, persistent_peers filled in.
// On one machine (the default) every node gets its own ports: node i uses starting_port + 100·i
// for p2p, +1 for RPC, +2 for its ABCI app, +4 for Prometheus, so node0 keeps the usual 26656,
// 26657, 26658 and 26660. With hostnames or IPs (several machines) every node uses --p2p-port.
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../config/config-defaults.js";
import { configFromToml } from "../config/config-loader.js";
import type { NodeConfig } from "../config/config-schema.js";
import { configToToml } from "../config/config-toml-writer.js";
import { nodePaths } from "../config/home.js";
import { type GenesisDoc, genesisFileText } from "../types/genesis.js";
import { defaultConsensusParams } from "../types/genesis-consensus-params.js";
import { timestampNow } from "../types/genesis-time.js";
import { writeFileAtomic } from "../types/key-file-atomic-write.js";
import { generateNodeKey, nodeIdOf, writeNodeKey } from "../types/key-file-node-key.js";
import { generatePrivValidatorKey, writePrivValidatorKey } from "../types/key-file-priv-validator.js";
import {
  INITIAL_PRIV_VALIDATOR_STATE,
  writePrivValidatorState,
} from "../types/key-file-priv-validator-state.js";
import { CliError } from "./errors.js";
import { checkChainId } from "./init-home.js";
import { randomChainId } from "./random-chain-id.js";

/** Bounds that keep a mistyped flag from filling the disk. */
export const MAX_TESTNET_NODES = 256;
export const PORT_STRIDE = 100;
/**
 * mempool.relay_hold of a testnet's nodes (with persistent_peers filled in: a full mesh). Under load
 * a tx is committed within about two block intervals of its admission (1.5–3.5 s on the
 * four-validator bench), so 3 s (a held tx waits 3–6 s: the release goes in generations) lets most
 * txs leave the pool before any relay.
 */
export const TESTNET_RELAY_HOLD_MS = 3000;

export interface TestnetOptions {
  validators: number;
  nonValidators: number;
  outputDir: string;
  /** A config.toml to start every node's config from. */
  configTemplate?: string;
  nodeDirPrefix: string;
  initialHeight: bigint;
  populatePersistentPeers: boolean;
  chainId?: string;
  /** Several machines: explicit hostnames (one per node)… */
  hostnames?: string[];
  /** …or hostnames made of prefix + index + suffix… */
  hostnamePrefix?: string;
  hostnameSuffix: string;
  /** …or consecutive IPv4 addresses from this one. */
  startingIp?: string;
  /** P2P port of every node when they run on different machines. */
  p2pPort: number;
  /** First port on one machine (default 26656). */
  startingPort: number;
  randomMonikers: boolean;
}

export interface TestnetNode {
  dir: string;
  name: string;
  nodeId: string;
  host: string;
  p2pPort: number;
  rpcPort: number;
  validator: boolean;
}

export interface TestnetReport {
  chainId: string;
  nodes: TestnetNode[];
}

export function createTestnet(options: TestnetOptions): TestnetReport {
  const total = options.validators + options.nonValidators;
  checkOptions(options, total);
  const singleMachine =
    options.hostnames === undefined &&
    options.hostnamePrefix === undefined &&
    options.startingIp === undefined;

  let template: NodeConfig = defaultConfig();
  if (options.configTemplate !== undefined) {
    const text = readTemplate(options.configTemplate);
    template = configFromToml(text, options.configTemplate).config;
  }
  const chainId = options.chainId ?? randomChainId("chain-");
  if (options.chainId !== undefined) checkChainId(options.chainId);

  const nodes: TestnetNode[] = [];
  const configs = new Map<string, NodeConfig>();
  const keys: { address: Uint8Array; publicKey: Uint8Array }[] = [];
  for (let i = 0; i < total; i++) {
    const name = `${options.nodeDirPrefix}${i}`;
    const dir = join(options.outputDir, name);
    const base = options.startingPort + PORT_STRIDE * i;
    const host = singleMachine ? "127.0.0.1" : hostOf(options, i);
    const node: TestnetNode = {
      dir,
      name,
      nodeId: "",
      host,
      p2pPort: singleMachine ? base : options.p2pPort,
      rpcPort: singleMachine ? base + 1 : 26657,
      validator: i < options.validators,
    };
    const config = structuredClone(template);
    config.moniker = options.randomMonikers ? randomChainId("node-").toLowerCase() : name;
    config.p2p.addr_book_strict = false;
    config.p2p.allow_duplicate_ip = true;
    if (singleMachine) {
      config.p2p.laddr = `tcp://127.0.0.1:${base}`;
      config.rpc.laddr = `tcp://127.0.0.1:${base + 1}`;
      if (config.proxy_app.startsWith("tcp://")) config.proxy_app = `tcp://127.0.0.1:${base + 2}`;
      config.instrumentation.prometheus_listen_addr = `:${base + 4}`;
    } else {
      config.p2p.laddr = `tcp://0.0.0.0:${options.p2pPort}`;
    }
    const paths = nodePaths(dir, config);
    for (const d of [dir, paths.configDir, paths.dataDir]) mkdirSync(d, { recursive: true, mode: 0o700 });

    const key = generatePrivValidatorKey();
    writePrivValidatorKey(paths.privValidatorKeyFile, key);
    writePrivValidatorState(paths.privValidatorStateFile, INITIAL_PRIV_VALIDATOR_STATE);
    const nodeKey = generateNodeKey();
    writeNodeKey(paths.nodeKeyFile, nodeKey);
    node.nodeId = nodeIdOf(nodeKey.publicKey);
    if (node.validator) keys.push(key);
    nodes.push(node);
    configs.set(dir, config);
  }

  const genesis: GenesisDoc = {
    genesisTime: timestampNow(),
    chainId,
    initialHeight: options.initialHeight < 1n ? 1n : options.initialHeight,
    consensusParams: defaultConsensusParams(),
    validators: keys.map((key, index) => ({
      address: key.address,
      pubKey: key.publicKey,
      power: 1n,
      name: nodes[index]?.name ?? "",
    })),
    appHash: new Uint8Array(),
    appStateBytes: new Uint8Array(),
  };
  const genesisText = genesisFileText(genesis);
  for (const node of nodes) {
    const config = configs.get(node.dir) as NodeConfig;
    if (options.populatePersistentPeers) {
      config.p2p.persistent_peers = nodes
        .filter((peer) => peer !== node)
        .map((peer) => `${peer.nodeId}@${peer.host}:${peer.p2pPort}`)
        .join(",");
      // Every node is every other's peer: a tx's first receiver already sent it to all of them,
      // so a relay is a copy each one decrypts and turns away (docs/network.md).
      config.mempool.relay_hold = TESTNET_RELAY_HOLD_MS;
    }
    const paths = nodePaths(node.dir, config);
    writeFileAtomic(paths.configFile, configToToml(config), 0o644);
    writeFileAtomic(paths.genesisFile, genesisText, 0o644);
  }
  return { chainId, nodes };
}

function checkOptions(options: TestnetOptions, total: number): void {
  const flag = (name: string, message: string) =>
    new CliError("CLI_FLAG_INVALID", `flag --${name}: ${message}`);
  if (!Number.isInteger(options.validators) || options.validators < 0)
    throw flag("v", `expected a count ≥ 0, got ${options.validators}`);
  if (!Number.isInteger(options.nonValidators) || options.nonValidators < 0)
    throw flag("n", `expected a count ≥ 0, got ${options.nonValidators}`);
  if (total === 0) throw flag("v", "expected at least one node in all (--v plus --n), got 0");
  if (total > MAX_TESTNET_NODES)
    throw flag("v", `expected at most ${MAX_TESTNET_NODES} nodes in all, got ${total}`);
  if (options.hostnames !== undefined && options.hostnames.length !== total) {
    throw flag("hostname", `expected one hostname per node (${total}), got ${options.hostnames.length}`);
  }
  const lastBase = options.startingPort + PORT_STRIDE * (total - 1) + 4;
  if (!Number.isInteger(options.startingPort) || options.startingPort < 1 || lastBase > 65535) {
    throw flag(
      "starting-port",
      `expected a port such that ${total} nodes × ${PORT_STRIDE} ports fit below 65536, got ${options.startingPort}`,
    );
  }
  if (!Number.isInteger(options.p2pPort) || options.p2pPort < 1 || options.p2pPort > 65535) {
    throw flag("p2p-port", `expected a port in 1…65535, got ${options.p2pPort}`);
  }
  if (options.startingIp !== undefined && ipv4ToNumber(options.startingIp) === undefined) {
    throw flag(
      "starting-ip",
      `expected an IPv4 address like "192.168.0.1", got ${JSON.stringify(options.startingIp)}`,
    );
  }
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(options.nodeDirPrefix)) {
    throw flag(
      "node-dir-prefix",
      `expected letters, digits, ".", "_" or "-", got ${JSON.stringify(options.nodeDirPrefix)}`,
    );
  }
  const first = join(options.outputDir, `${options.nodeDirPrefix}0`);
  if (existsSync(first) && readdirSync(first).length > 0) {
    throw new CliError(
      "CLI_FILE_EXISTS",
      `${first}: already exists; choose another --o or remove it (testnet never overwrites keys)`,
    );
  }
}

function hostOf(options: TestnetOptions, index: number): string {
  if (options.hostnames !== undefined) return options.hostnames[index] as string;
  if (options.startingIp !== undefined) {
    const ip = (ipv4ToNumber(options.startingIp) as number) + index;
    return [24, 16, 8, 0].map((shift) => (ip >>> shift) & 255).join(".");
  }
  return `${options.hostnamePrefix ?? "node"}${index}${options.hostnameSuffix}`;
}

function ipv4ToNumber(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255))
    return undefined;
  return parts.reduce((acc, part) => acc * 256 + Number(part), 0);
}

function readTemplate(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new CliError("CLI_FLAG_INVALID", `flag --config: cannot read ${file}: ${(error as Error).message}`);
  }
}
