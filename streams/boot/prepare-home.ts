// Boot step 0, everything `rxbft node` does before consensus starts: load config.toml with the flags over it,
// set up logging, read and check genesis and the keys, and take the home lock. What it returns
// is all the node needs to run (run-node.ts).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { type FlagOverrides, loadConfig } from "../../src/config/config-loader.js";
import type { NodeConfig } from "../../src/config/config-schema.js";
import { ensureHomeDirs, type NodePaths, nodePaths } from "../../src/config/home.js";
import { acquireHomeLock, type HomeLock } from "../../src/config/home-lock.js";
import { createLogger, type LogDestination, type Logger } from "../../src/logger/index.js";
import { type GenesisDoc, parseGenesisFile } from "../../src/types/genesis.js";
import {
  generateNodeKey,
  type NodeKey,
  nodeIdOf,
  readNodeKey,
  writeNodeKey,
} from "../../src/types/key-file-node-key.js";
import { type PrivValidatorKey, readPrivValidatorKey } from "../../src/types/key-file-priv-validator.js";
import {
  type PrivValidatorState,
  readPrivValidatorState,
} from "../../src/types/key-file-priv-validator-state.js";
import { NodeError } from "../node-errors.js";

export interface PrepareNodeOptions {
  home: string;
  /** Config overrides from flags, keyed "section.key". */
  overrides: FlagOverrides;
  /** Flag names for messages, by override key. */
  flagNames?: Readonly<Record<string, string>>;
  /** --genesis_hash: hex sha256 the genesis file must have. */
  genesisHash?: string;
  logDestination?: LogDestination;
}

export interface PreparedNode {
  home: string;
  config: NodeConfig;
  paths: NodePaths;
  genesis: GenesisDoc;
  /** Undefined when an external signer is configured (priv_validator_laddr). */
  privValidatorKey?: PrivValidatorKey;
  privValidatorState?: PrivValidatorState;
  nodeKey: NodeKey;
  nodeId: string;
  logger: Logger;
  /** Held while the node runs; release it on exit. */
  lock: HomeLock;
}

export function prepareNode(options: PrepareNodeOptions): PreparedNode {
  const { home } = options;
  const loaded = loadConfig(home, options.overrides, { writeIfMissing: true, flagNames: options.flagNames });
  const { config } = loaded;
  const logger = createLogger({
    level: config.log_level,
    format: config.log_format,
    destination: options.logDestination,
  });
  for (const warning of loaded.warnings) logger.warn(warning);
  const paths = nodePaths(home, config);
  ensureHomeDirs(home, paths.dataDir);

  if (!existsSync(paths.genesisFile)) {
    throw new NodeError(
      "NODE_NOT_INITIALISED",
      `${paths.genesisFile}: no genesis file; run \`rxbft init\` (or copy the network's genesis.json there)`,
    );
  }
  if (options.genesisHash !== undefined) checkGenesisHash(paths.genesisFile, options.genesisHash);
  const genesis = parseGenesisFile(paths.genesisFile);

  let privValidatorKey: PrivValidatorKey | undefined;
  let privValidatorState: PrivValidatorState | undefined;
  if (config.priv_validator_laddr === "") {
    if (!existsSync(paths.privValidatorKeyFile)) {
      throw new NodeError(
        "NODE_NOT_INITIALISED",
        `${paths.privValidatorKeyFile}: no validator key; run \`rxbft init\``,
      );
    }
    privValidatorKey = readPrivValidatorKey(paths.privValidatorKeyFile);
    if (!existsSync(paths.privValidatorStateFile)) {
      // Starting over at height 0 beside an existing key could sign twice: never invent this file.
      throw new NodeError(
        "NODE_NOT_INITIALISED",
        `${paths.privValidatorStateFile}: the validator's signing state is missing; restore it (for a throw-away chain: rxbft unsafe_reset_all)`,
      );
    }
    privValidatorState = readPrivValidatorState(paths.privValidatorStateFile);
  }

  let nodeKey: NodeKey;
  if (existsSync(paths.nodeKeyFile)) {
    nodeKey = readNodeKey(paths.nodeKeyFile);
  } else {
    // A node key is only an identity on the network: making one, as Tendermint does, is safe.
    nodeKey = generateNodeKey();
    mkdirSync(dirname(paths.nodeKeyFile), { recursive: true, mode: 0o700 });
    writeNodeKey(paths.nodeKeyFile, nodeKey);
    logger.info("Generated node key", { file: paths.nodeKeyFile });
  }

  const lock = acquireHomeLock(paths.dataDir);
  return {
    home,
    config,
    paths,
    genesis,
    ...(privValidatorKey ? { privValidatorKey } : {}),
    ...(privValidatorState ? { privValidatorState } : {}),
    nodeKey,
    nodeId: nodeIdOf(nodeKey.publicKey),
    logger,
    lock,
  };
}

function checkGenesisHash(file: string, expectedHex: string): void {
  if (!/^[0-9a-fA-F]{64}$/.test(expectedHex)) {
    throw new NodeError(
      "NODE_FLAG_INVALID",
      `flag --genesis_hash: expected 64 hex digits (a sha256), got ${JSON.stringify(expectedHex)}`,
    );
  }
  const actual = createHash("sha256").update(readFileSync(file)).digest("hex");
  if (actual !== expectedHex.toLowerCase()) {
    throw new NodeError(
      "NODE_FLAG_INVALID",
      `${file}: expected sha256 ${expectedHex.toUpperCase()} (--genesis_hash), got ${actual.toUpperCase()}`,
    );
  }
}
