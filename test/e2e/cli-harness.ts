// Runs the built `rxbft` binary (bin/run.js over dist/) as a child process, as a user would.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempFolder } from "../fixtures/temp-folder.js";

export { tempFolder };

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

/** A fresh node home (not yet made) inside a temporary folder removed when the test process exits. */
export function tempHome(prefix = "rxbft-test-"): string {
  return join(tempFolder(prefix), "home");
}
