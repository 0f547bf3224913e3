import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { ConfigError } from "../../src/config/errors.js";
import { ensureHomeDirs, resolveHome } from "../../src/config/home.js";
import {
  acquireHomeLock,
  assertHomeUnlocked,
  lockFilePath,
  readLockHolder,
} from "../../src/config/home-lock.js";
import { tempFolder } from "../fixtures/temp-folder.js";

function dataDir(): string {
  const dir = join(tempFolder("rxbft-lock-"), "data");
  mkdirSync(dir);
  return dir;
}

/** A pid that is certainly not running: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

test("the home is --home, else $RXBFT_HOME, else ~/.rxbft", () => {
  assert.equal(resolveHome("rel/home", { RXBFT_HOME: "/env" }), resolve("rel/home"));
  assert.equal(resolveHome(undefined, { RXBFT_HOME: "/env/home" }), "/env/home");
  assert.equal(resolveHome(undefined, {}), join(homedir(), ".rxbft"));
});

test("ensureHomeDirs creates config/ and data/ with mode 0700", () => {
  const home = join(tempFolder("rxbft-home-"), "h");
  ensureHomeDirs(home);
  for (const dir of [home, join(home, "config"), join(home, "data")]) {
    assert.equal(statSync(dir).mode & 0o777, 0o700, dir);
  }
});

test("the lock holds the pid, refuses a second holder and is released", () => {
  const dir = dataDir();
  const lock = acquireHomeLock(dir);
  assert.equal(readFileSync(lockFilePath(dir), "utf8").trim(), String(process.pid));
  assert.deepEqual(readLockHolder(dir), { pid: process.pid, alive: true });
  assert.throws(
    () => acquireHomeLock(dir),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.code, "HOME_LOCKED");
      assert.match(
        error.message,
        new RegExp(`${lockFilePath(dir)}: the home is in use by a running node \\(pid ${process.pid}\\)`),
      );
      return true;
    },
  );
  assert.throws(
    () => assertHomeUnlocked(dir, "reset the home"),
    /refusing to reset the home: a node \(pid \d+\) is running/,
  );
  lock.release();
  lock.release();
  assert.equal(existsSync(lockFilePath(dir)), false);
  assertHomeUnlocked(dir, "reset the home");
});

test("a lock left by a dead process is stale and taken over", () => {
  const dir = dataDir();
  const pid = deadPid();
  writeFileSync(lockFilePath(dir), `${pid}\n`);
  assert.deepEqual(readLockHolder(dir), { pid, alive: false });
  assertHomeUnlocked(dir, "reset the home");
  const lock = acquireHomeLock(dir);
  assert.equal(readLockHolder(dir)?.pid, process.pid);
  lock.release();
});

test("a lock file without a pid is stale", () => {
  const dir = dataDir();
  writeFileSync(lockFilePath(dir), "garbage");
  assert.deepEqual(readLockHolder(dir), { pid: 0, alive: false });
  acquireHomeLock(dir).release();
});

test("release leaves a lock another process took over alone", () => {
  const dir = dataDir();
  const lock = acquireHomeLock(dir);
  writeFileSync(lockFilePath(dir), "1\n"); // pid 1 is alive: as if another node took over
  lock.release();
  assert.equal(existsSync(lockFilePath(dir)), true);
});
