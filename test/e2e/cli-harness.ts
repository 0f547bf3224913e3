// Runs the built `rxbft` binary (bin/run.js over dist/) as a child process, as a user would.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const RXBFT_BIN = fileURLToPath(new URL("../../bin/run.js", import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [RXBFT_BIN, ...args],
      { env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Folders made by tempFolder (and tempHome) in this test process, removed when it exits. */
const madeFolders: string[] = [];
process.once("exit", () => {
  // A test file's nodes are stopped by then (their harness kills them in `after`); a home left
  // behind by each run of the suite filled /tmp with thousands of chains.
  for (const folder of madeFolders) {
    try {
      rmSync(folder, { recursive: true, force: true });
    } catch {
      // a folder still busy is left; the next boot's tmp cleaner takes it
    }
  }
});

/** A fresh temporary folder, removed when the test process exits. */
export function tempFolder(prefix = "rxbft-test-"): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  madeFolders.push(folder);
  return folder;
}

/** A fresh node home (not yet made) inside a temporary folder removed when the test process exits. */
export function tempHome(prefix = "rxbft-test-"): string {
  return join(tempFolder(prefix), "home");
}
