// `rxbft unsafe_reset_all`: development only. Deletes data/ (blocks, state, the consensus log),
// resets the validator's signing state to height 0, and clears the address book unless asked to
// keep it. Refuses while a node runs in the home.
import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { NodeConfig } from "../config/config-schema.js";
import { nodePaths, restrictDirectory } from "../config/home.js";
import { assertHomeUnlocked, LOCK_FILE_NAME } from "../config/home-lock.js";
import type { Logger } from "../logger/index.js";
import { resetSignerState } from "./reset-signer.js";

export interface ResetOptions {
  keepAddrBook: boolean;
}

export function unsafeResetAll(home: string, config: NodeConfig, options: ResetOptions, log: Logger): void {
  const paths = nodePaths(home, config);
  assertHomeUnlocked(paths.dataDir, "reset the home");

  if (!options.keepAddrBook && existsSync(paths.addrBookFile)) {
    rmSync(paths.addrBookFile, { force: true });
    log.info("Removed address book", { file: paths.addrBookFile });
  }
  if (existsSync(paths.dataDir)) {
    // Everything but the lock file goes; the lock is checked above and is not ours to remove.
    for (const name of readdirSync(paths.dataDir)) {
      if (name !== LOCK_FILE_NAME) rmSync(join(paths.dataDir, name), { recursive: true, force: true });
    }
    log.info("Removed all blockchain history", { dir: paths.dataDir });
  }
  mkdirSync(paths.dataDir, { recursive: true, mode: 0o700 });
  restrictDirectory(paths.dataDir);

  resetSignerState(paths, (message, fields) => log.info(message, fields));
}
