// Keeps a failed run: test/sim/failures/<seed>/ (git-ignored) gets
//   scenario.json    the scenario, the failures, every validator's decided hashes, the run's
//                    fingerprint and the code that ran it (code-version.ts)
//   summary.txt      the same in words, with the command that reruns the seed
//   v<i>/wal.000000000000  validator i's log in the node's log format (src/wal framing: each
//                    stamped input as a record, end-of-height markers), readable by readWal and
//                    by replay-failure.ts, which folds it again through the reducer.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type CodeVersion, codeVersion, describeCodeVersion } from "./code-version.js";
import { logBytes, runFingerprint } from "./run-fingerprint.js";
import { describeScenario } from "./scenario.js";
import type { SimOutcome } from "./simulation.js";

export const FAILURES_DIR = fileURLToPath(new URL("./failures/", import.meta.url));

/** JSON with bigints as strings and bytes as hex (for reading, not for folding). */
export function toJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v) =>
      typeof v === "bigint" ? v.toString() : v instanceof Uint8Array ? Buffer.from(v).toString("hex") : v,
    2,
  );
}

/** What a kept run says about itself in scenario.json (read back by replay-failure.ts). */
export interface KeptRun {
  readonly scenario: { readonly validators: number; readonly config: object };
  readonly failures: string[];
  readonly decisions: string[][];
  readonly addresses: string[];
  readonly fingerprint?: string;
  /** Absent in runs kept before the code was recorded. */
  readonly code?: CodeVersion;
}

let thisCode: CodeVersion | undefined;

/** The code this process runs, read once (at the first kept run, for callers that did not read it at start). */
function thisCodeVersion(): CodeVersion {
  thisCode ??= codeVersion();
  return thisCode;
}

/**
 * Writes the run's logs; returns the directory. `rerun` is the command that reproduces it, with
 * the code this process runs (`code`, read once and only when a run is kept).
 */
export function keepFailedRun(
  outcome: SimOutcome,
  rerun: string,
  root = FAILURES_DIR,
  code: CodeVersion = thisCodeVersion(),
): string {
  const fingerprint = runFingerprint(outcome.nodes.map((n) => n.log));
  const dir = join(root, String(outcome.scenario.seed));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "scenario.json"),
    toJson({
      scenario: outcome.scenario,
      failures: outcome.failures,
      virtualMs: outcome.virtualMs,
      decisions: outcome.decisions,
      addresses: outcome.nodes.map((n) => n.address),
      fingerprint,
      code,
      rerun,
    }),
  );
  writeFileSync(
    join(dir, "summary.txt"),
    [
      describeScenario(outcome.scenario),
      ...outcome.failures.map((f) => `FAILED ${f}`),
      `virtual time at the end: ${outcome.virtualMs} ms`,
      `run fingerprint: ${fingerprint}`,
      `code: ${describeCodeVersion(code)} (a rerun or replay at other code may differ for that alone)`,
      `rerun: ${rerun}`,
      `replay the logs: node --import tsx test/sim/replay-failure.ts ${dir}`,
      "",
    ].join("\n"),
  );
  for (const node of outcome.nodes) {
    const nodeDir = join(dir, `v${node.index}`);
    mkdirSync(nodeDir, { recursive: true });
    writeFileSync(join(nodeDir, "wal.000000000000"), logBytes(node.log));
  }
  return dir;
}
