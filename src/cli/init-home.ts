// `rxbft init`: writes every file of a one-validator home. Existing files are kept and reported,
// never overwritten, so running it twice is harmless.
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { configFilePath, loadConfig } from "../config/config-loader.js";
import { configToToml } from "../config/config-toml-writer.js";
import { ensureHomeDirs, nodePaths } from "../config/home.js";
import type { Logger } from "../logger/index.js";
import { type GenesisDoc, MAX_CHAIN_ID_LENGTH, writeGenesisFile } from "../types/genesis.js";
import { defaultConsensusParams } from "../types/genesis-consensus-params.js";
import { timestampNow } from "../types/genesis-time.js";
import { writeFileAtomic } from "../types/key-file-atomic-write.js";
import { generateNodeKey, nodeIdOf, readNodeKey, writeNodeKey } from "../types/key-file-node-key.js";
import {
  generatePrivValidatorKey,
  type PrivValidatorKey,
  readPrivValidatorKey,
  writePrivValidatorKey,
} from "../types/key-file-priv-validator.js";
import {
  INITIAL_PRIV_VALIDATOR_STATE,
  writePrivValidatorState,
} from "../types/key-file-priv-validator-state.js";
import { CliError } from "./errors.js";
import { randomChainId } from "./random-chain-id.js";

/** Power of the single validator `init` writes into genesis. */
export const INIT_VALIDATOR_POWER = 10n;

export interface InitOptions {
  chainId?: string;
}

export interface InitReport {
  created: string[];
  kept: string[];
  chainId: string;
  nodeId: string;
}

export function initHome(home: string, options: InitOptions, log: Logger): InitReport {
  if (options.chainId !== undefined) checkChainId(options.chainId);
  ensureHomeDirs(home);
  const created: string[] = [];
  const kept: string[] = [];
  const note = (file: string, existed: boolean, what: string) => {
    (existed ? kept : created).push(file);
    log.info(existed ? `Found ${what}` : `Generated ${what}`, { file });
  };

  // config.toml first: the other files' paths come from it.
  const configFile = configFilePath(home);
  const configExisted = existsSync(configFile);
  const { config, warnings } = loadConfig(home, {}, { writeIfMissing: false });
  for (const warning of warnings) log.warn(warning);
  if (!configExisted) writeFileAtomic(configFile, configToToml(config), 0o644);
  note(configFile, configExisted, "config file");
  const paths = nodePaths(home, config);
  ensureHomeDirs(home, paths.dataDir);

  let validatorKey: PrivValidatorKey;
  if (existsSync(paths.privValidatorKeyFile)) {
    validatorKey = readPrivValidatorKey(paths.privValidatorKeyFile);
    note(paths.privValidatorKeyFile, true, "private validator key");
  } else {
    validatorKey = generatePrivValidatorKey();
    mkdirSync(dirname(paths.privValidatorKeyFile), { recursive: true, mode: 0o700 });
    writePrivValidatorKey(paths.privValidatorKeyFile, validatorKey);
    note(paths.privValidatorKeyFile, false, "private validator key");
  }
  const stateExisted = existsSync(paths.privValidatorStateFile);
  if (!stateExisted) {
    mkdirSync(dirname(paths.privValidatorStateFile), { recursive: true, mode: 0o700 });
    writePrivValidatorState(paths.privValidatorStateFile, INITIAL_PRIV_VALIDATOR_STATE);
  }
  note(paths.privValidatorStateFile, stateExisted, "private validator state");

  let nodeId: string;
  if (existsSync(paths.nodeKeyFile)) {
    nodeId = nodeIdOf(readNodeKey(paths.nodeKeyFile).publicKey);
    note(paths.nodeKeyFile, true, "node key");
  } else {
    const nodeKey = generateNodeKey();
    mkdirSync(dirname(paths.nodeKeyFile), { recursive: true, mode: 0o700 });
    writeNodeKey(paths.nodeKeyFile, nodeKey);
    nodeId = nodeIdOf(nodeKey.publicKey);
    note(paths.nodeKeyFile, false, "node key");
  }

  let chainId = options.chainId ?? "";
  const genesisExisted = existsSync(paths.genesisFile);
  if (!genesisExisted) {
    const doc = singleValidatorGenesis(options.chainId ?? randomChainId("test-chain-"), validatorKey);
    chainId = doc.chainId;
    mkdirSync(dirname(paths.genesisFile), { recursive: true, mode: 0o700 });
    writeGenesisFile(paths.genesisFile, doc);
  } else if (options.chainId !== undefined) {
    log.warn("genesis file exists: --chain-id not applied", { file: paths.genesisFile });
  }
  note(paths.genesisFile, genesisExisted, "genesis file");
  return { created, kept, chainId, nodeId };
}

export function singleValidatorGenesis(chainId: string, key: PrivValidatorKey): GenesisDoc {
  return {
    genesisTime: timestampNow(),
    chainId,
    initialHeight: 1n,
    consensusParams: defaultConsensusParams(),
    validators: [{ address: key.address, pubKey: key.publicKey, power: INIT_VALIDATOR_POWER, name: "" }],
    appHash: new Uint8Array(),
    appStateBytes: new Uint8Array(),
  };
}

/** --chain-id must satisfy genesis's rule before anything is written. */
export function checkChainId(chainId: string): void {
  if (chainId.length === 0 || chainId.length > MAX_CHAIN_ID_LENGTH) {
    throw new CliError(
      "CLI_FLAG_INVALID",
      `flag --chain-id: expected a non-empty chain id of at most ${MAX_CHAIN_ID_LENGTH} characters, got ${chainId.length} characters`,
    );
  }
}
