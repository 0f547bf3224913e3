// `rxbft reset-state` (v0.34's reset-state): removes the chain data of the home (block store,
// state, event index, consensus log, evidence, and the in-process app's data, which belongs to
// the same chain) and keeps the validator's signing state, its keys, the node key, config,
// genesis and the address book. The node then starts the chain from genesis again.
//
// state.db goes first: a run stopped midway leaves blocks without a state, which the node
// refuses to start from (STORE_INCONSISTENT), so nothing half-reset ever runs; running the
// command again finishes the job.
import { existsSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { LOCK_FILE_NAME } from "../config/home-lock.js";
import { STATE_DB } from "../store/open-stores.js";
import { type OperatorHome, withStoppedHome } from "./operator-home.js";

export interface ResetStateReport {
  removed: string[];
  kept: string[];
}

export async function resetState(home: OperatorHome, say: (line: string) => void): Promise<ResetStateReport> {
  return withStoppedHome(home, "reset the state", async () => {
    const { dataDir, privValidatorStateFile, walFile } = home.paths;
    const keep = new Set([join(dataDir, LOCK_FILE_NAME), resolve(privValidatorStateFile)]);
    const entries = readdirSync(dataDir)
      .map((name) => join(dataDir, name))
      .filter((path) => !keep.has(path));
    // The consensus log may be configured outside data/.
    const logDir = resolve(dirname(walFile));
    if (existsSync(logDir) && relative(dataDir, logDir).startsWith("..")) entries.push(logDir);
    const ordered = [
      ...entries.filter((p) => p === join(dataDir, STATE_DB)),
      ...entries.filter((p) => p !== join(dataDir, STATE_DB)),
    ];
    const kept = [...keep].filter((p) => existsSync(p) && !p.endsWith(LOCK_FILE_NAME));
    if (ordered.length === 0) {
      say(`Nothing to remove: ${dataDir} holds no chain data.`);
      return { removed: [], kept };
    }
    say(
      `Removing the chain data of ${home.home}; keeping ${kept.join(", ") || "the signer state (none yet)"}.`,
    );
    for (const path of ordered) {
      rmSync(path, { recursive: true, force: true });
      say(`Removed ${path}`);
    }
    say("The node starts the chain from genesis at its next start; the signer keeps its last signed height.");
    return { removed: ordered, kept };
  });
}
