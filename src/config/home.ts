// The node home: where it is (--home, else $RXBFT_HOME, else ~/.rxbft), its layout, and creating
// config/ and data/ with mode 0700 (they hold keys and the signing state).
import { chmodSync, mkdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { resolveHomePath } from "./config-loader.js";
import type { NodeConfig } from "./config-schema.js";
import { ConfigError } from "./errors.js";

export const HOME_ENV_VAR = "RXBFT_HOME";
export const DEFAULT_HOME_DIR = ".rxbft";

/** The home directory: the flag, else $RXBFT_HOME, else ~/.rxbft; always absolute. */
export function resolveHome(flag?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (flag !== undefined && flag !== "") return resolve(flag);
  const fromEnv = env[HOME_ENV_VAR];
  if (fromEnv !== undefined && fromEnv !== "") return resolve(fromEnv);
  return join(homedir(), DEFAULT_HOME_DIR);
}

/** Absolute paths of every file of a home, as the config names them. */
export interface NodePaths {
  home: string;
  configDir: string;
  dataDir: string;
  configFile: string;
  genesisFile: string;
  privValidatorKeyFile: string;
  privValidatorStateFile: string;
  nodeKeyFile: string;
  addrBookFile: string;
  /** The consensus log (config.consensus.wal_file). */
  walFile: string;
}

export function nodePaths(home: string, config: NodeConfig): NodePaths {
  return {
    home,
    configDir: join(home, "config"),
    dataDir: resolveHomePath(home, config.db_dir),
    configFile: join(home, "config", "config.toml"),
    genesisFile: resolveHomePath(home, config.genesis_file),
    privValidatorKeyFile: resolveHomePath(home, config.priv_validator_key_file),
    privValidatorStateFile: resolveHomePath(home, config.priv_validator_state_file),
    nodeKeyFile: resolveHomePath(home, config.node_key_file),
    addrBookFile: resolveHomePath(home, config.p2p.addr_book_file),
    walFile: resolveHomePath(home, config.consensus.wal_file),
  };
}

/** Creates the home, config/ and data/ (mode 0700) if missing; fails clearly if it cannot. */
export function ensureHomeDirs(home: string, dataDir: string = join(home, "data")): void {
  for (const dir of [home, join(home, "config"), dataDir]) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (!statSync(dir).isDirectory()) throw new Error("not a directory");
    } catch (error) {
      throw new ConfigError(
        "CONFIG_IO",
        `${dir}: cannot create the node home's directory: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
}

/** Tightens a directory to 0700 (used after recreating data/). */
export function restrictDirectory(dir: string): void {
  chmodSync(dir, 0o700);
}
