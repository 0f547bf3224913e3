// An operator command's hold on a stopped node's home: the config and paths, and the home lock
// taken for the whole operation, so a node cannot start in the middle of it. A home whose lock
// is held by a live node is refused with a message naming the node's pid.
import { existsSync } from "node:fs";
import { loadConfig } from "../config/config-loader.js";
import type { NodeConfig } from "../config/config-schema.js";
import { type NodePaths, nodePaths } from "../config/home.js";
import { acquireHomeLock, assertHomeUnlocked } from "../config/home-lock.js";
import { OperationError } from "./errors.js";

export interface OperatorHome {
  home: string;
  config: NodeConfig;
  paths: NodePaths;
}

/** Reads the home's config (config.toml, defaults where absent) and its paths. */
export function readOperatorHome(
  home: string,
  overrides: { proxy_app?: string | undefined } = {},
): OperatorHome {
  const flags = overrides.proxy_app === undefined ? {} : { proxy_app: overrides.proxy_app };
  const { config } = loadConfig(home, flags, { flagNames: { proxy_app: "proxy_app" } });
  return { home, config, paths: nodePaths(home, config) };
}

/**
 * Runs `operation` holding the home lock; refuses (HOME_LOCKED) when a node runs in the home,
 * with `action` saying what was refused. The lock is released however the operation ends.
 */
export async function withStoppedHome<T>(
  home: OperatorHome,
  action: string,
  operation: () => Promise<T>,
): Promise<T> {
  if (!existsSync(home.paths.dataDir)) {
    throw new OperationError(
      "OP_NOT_INITIALISED",
      `${home.paths.dataDir}: no data directory here; run \`rxbft init\` first`,
    );
  }
  assertHomeUnlocked(home.paths.dataDir, action);
  const lock = acquireHomeLock(home.paths.dataDir);
  try {
    return await operation();
  } finally {
    lock.release();
  }
}
