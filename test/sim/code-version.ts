// Which code a simulation ran: the git commit of the checkout (and whether the sources differ
// from it), and a fingerprint of the sources themselves. A run is a function of its seed and of
// this code, so a campaign prints it and a kept failed run stores it: a rerun or a replay at other
// code differs from the run for that reason alone. Seeds 10573 and 11434 of a campaign were taken
// for a dependence on more than the seed because they were rerun and replayed at another commit
// than the campaign had run (docs/simulation.md).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export interface CodeVersion {
  /** `git rev-parse --short HEAD` of the checkout, or "unknown" outside git. */
  readonly commit: string;
  /** The run's sources differ from that commit (uncommitted changes). */
  readonly modified: boolean;
  /** sha256 over the sources a run loads (paths and contents), short form. */
  readonly fingerprint: string;
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** What a simulated run loads: the node's code, the simulation's, and the locked dependencies. */
const SOURCE_DIRS = ["src", "streams", "test/sim"];
const SOURCE_FILES = ["package-lock.json"];
const SOURCE_NAME = /\.(ts|js|mjs|json)$/;
/** Kept failed runs live under test/sim/failures/: output, not code. */
const SKIPPED = new Set(["failures", "node_modules"]);

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (entry.isFile() && SOURCE_NAME.test(entry.name)) files.push(path);
  }
  return files;
}

/** sha256 over the sorted relative paths and contents of the sources under `root`. */
export function sourceFingerprint(root: string = ROOT): string {
  const files = [
    ...SOURCE_DIRS.flatMap((d) => sourceFiles(join(root, d))),
    ...SOURCE_FILES.map((f) => join(root, f)),
  ]
    .map((f) => relative(root, f))
    .sort();
  const hash = createHash("sha256");
  for (const file of files) {
    let content: Buffer;
    try {
      content = readFileSync(join(root, file));
    } catch {
      continue; // a listed top-level file that is absent in this checkout
    }
    hash.update(`${file}\0${content.length}\0`);
    hash.update(content);
  }
  return hash.digest("hex").slice(0, 16);
}

function git(root: string, args: string[]): string | undefined {
  try {
    return execFileSync("git", args, {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return undefined;
  }
}

/** The code of this checkout (read once per process: a run loads its modules once). */
export function codeVersion(root: string = ROOT): CodeVersion {
  const commit = git(root, ["rev-parse", "--short", "HEAD"]) ?? "unknown";
  const status = git(root, ["status", "--porcelain", "--", ...SOURCE_DIRS, ...SOURCE_FILES]);
  return { commit, modified: status !== undefined && status !== "", fingerprint: sourceFingerprint(root) };
}

export function describeCodeVersion(v: CodeVersion): string {
  return `commit ${v.commit}${v.modified ? " with uncommitted changes" : ""}, sources ${v.fingerprint}`;
}

/**
 * Why replaying or rerunning a kept run with `current` code may not give what the run gave, or
 * undefined when it is the same code. A kept run without a recorded version is reported too.
 */
export function codeMismatch(recorded: CodeVersion | undefined, current: CodeVersion): string | undefined {
  if (recorded === undefined)
    return `the kept run does not say which code wrote it; this is ${describeCodeVersion(current)}`;
  if (recorded.fingerprint === current.fingerprint) return undefined;
  return (
    `the kept run was written by ${describeCodeVersion(recorded)}, this is ${describeCodeVersion(current)}: ` +
    "a fold or rerun may differ from the run because the code differs"
  );
}
