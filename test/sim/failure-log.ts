// Keeps a failed run: test/sim/failures/<seed>/ (git-ignored) gets
//   scenario.json    the scenario, the failures and every validator's decided hashes
//   summary.txt      the same in words, with the command that reruns the seed
//   v<i>/wal.000000000000  validator i's log in the node's log format (src/wal framing: each
//                    stamped input as a record, end-of-height markers), readable by readWal and
//                    by replay-failure.ts, which folds it again through the reducer.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { encodeEndHeightPayload, encodeFrame, FrameType } from "../../src/wal/frame.js";
import { DEFAULT_MAX_RECORD_BYTES } from "../../src/wal/log-reader.js";
import { encodeRecord } from "../../src/wal/record-codec.js";
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

/** Writes the run's logs; returns the directory. `rerun` is the command that reproduces it. */
export function keepFailedRun(outcome: SimOutcome, rerun: string, root = FAILURES_DIR): string {
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
      rerun,
    }),
  );
  writeFileSync(
    join(dir, "summary.txt"),
    [
      describeScenario(outcome.scenario),
      ...outcome.failures.map((f) => `FAILED ${f}`),
      `virtual time at the end: ${outcome.virtualMs} ms`,
      `rerun: ${rerun}`,
      `replay the logs: node --import tsx test/sim/replay-failure.ts ${dir}`,
      "",
    ].join("\n"),
  );
  for (const node of outcome.nodes) {
    const frames: Uint8Array[] = [];
    for (const record of node.log) {
      frames.push(
        "input" in record
          ? encodeFrame(FrameType.Input, encodeRecord(record.input), DEFAULT_MAX_RECORD_BYTES)
          : encodeFrame(
              FrameType.EndHeight,
              encodeEndHeightPayload(record.endHeight),
              DEFAULT_MAX_RECORD_BYTES,
            ),
      );
    }
    const nodeDir = join(dir, `v${node.index}`);
    mkdirSync(nodeDir, { recursive: true });
    writeFileSync(join(nodeDir, "wal.000000000000"), Buffer.concat(frames));
  }
  return dir;
}
