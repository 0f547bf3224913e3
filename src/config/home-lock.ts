// The home lock: data/rxbft.lock holds the pid of the process running a node in this home, so
// a second node, or unsafe_reset_all, refuses to touch it while the first runs. A lock whose
// process has died (process.kill(pid, 0) says so) is stale and is taken over.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "./errors.js";

export const LOCK_FILE_NAME = "rxbft.lock";

export interface HomeLock {
  readonly file: string;
  readonly pid: number;
  /** Removes the lock if this process still holds it; safe to call twice. */
  release(): void;
}

export interface LockHolder {
  pid: number;
  alive: boolean;
}

export function lockFilePath(dataDir: string): string {
  return join(dataDir, LOCK_FILE_NAME);
}

/** Who holds the lock, if anyone; a file without a readable pid counts as held by pid 0 (stale). */
export function readLockHolder(dataDir: string): LockHolder | undefined {
  let text: string;
  try {
    text = readFileSync(lockFilePath(dataDir), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const pid = /^\s*(\d{1,10})\s*$/.test(text) ? Number(text.trim()) : 0;
  return { pid, alive: pid > 0 && processAlive(pid) };
}

/** Takes the lock for this process, or throws HOME_LOCKED naming the live holder. */
export function acquireHomeLock(dataDir: string, pid: number = process.pid): HomeLock {
  const file = lockFilePath(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx", 0o600);
      try {
        writeSync(fd, `${pid}\n`);
      } finally {
        closeSync(fd);
      }
      let released = false;
      return {
        file,
        pid,
        release() {
          if (released) return;
          released = true;
          if (readLockHolder(dataDir)?.pid === pid) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new ConfigError(
          "CONFIG_IO",
          `${file}: cannot create the home lock: ${(error as Error).message}`,
          { cause: error },
        );
      }
      const holder = readLockHolder(dataDir);
      if (holder?.alive) throw lockedError(file, holder.pid);
      // Stale: its process is gone. Remove it and try once more; the exclusive create ("wx")
      // lets only one of several starters win. (Two starters that both saw the same stale lock
      // could in principle remove each other's fresh one; the window is a few microseconds and
      // the lock guards against operator mistakes, not adversaries.)
      rmSync(file, { force: true });
    }
  }
  const holder = readLockHolder(dataDir);
  throw lockedError(file, holder?.pid ?? 0);
}

/** Throws HOME_LOCKED if a live process holds the lock; used by commands that must not run beside a node. */
export function assertHomeUnlocked(dataDir: string, action: string): void {
  const holder = readLockHolder(dataDir);
  if (holder?.alive) {
    throw new ConfigError(
      "HOME_LOCKED",
      `${lockFilePath(dataDir)}: refusing to ${action}: a node (pid ${holder.pid}) is running in this home; stop it first`,
    );
  }
}

function lockedError(file: string, pid: number): ConfigError {
  return new ConfigError(
    "HOME_LOCKED",
    `${file}: the home is in use by a running node (pid ${pid}); stop it first or use another --home`,
  );
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
