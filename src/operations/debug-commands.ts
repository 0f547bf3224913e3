// The two debug operations over a bundle: `dump` collects from a running (or stuck) node and
// writes the archive; `kill` collects while the process lives, stops it (SIGTERM, then SIGKILL
// after a grace period), then adds the files it left, so the log tail ends with its last words.
// Unlike the other operator commands these work on a node that runs: that is their point.
import { readLockHolder } from "../config/home-lock.js";
import {
  collectFiles,
  collectLive,
  type DebugDumpOptions,
  type DebugManifest,
  newBundle,
  writeBundle,
} from "./debug-dump.js";
import { OperationError } from "./errors.js";
import type { OperatorHome } from "./operator-home.js";

export async function debugDump(
  home: OperatorHome,
  out: string,
  options: DebugDumpOptions,
  say: (line: string) => void,
): Promise<DebugManifest> {
  const now = new Date();
  const bundle = newBundle(home, now);
  say(`Collecting debug data of ${home.home} into ${out}`);
  await collectLive(home, options, bundle);
  await collectFiles(home, options, bundle);
  writeBundle(out, bundle, now);
  report(bundle.manifest, out, say);
  return bundle.manifest;
}

export async function debugKill(
  home: OperatorHome,
  pid: number,
  out: string,
  options: DebugDumpOptions & { graceMs?: number },
  say: (line: string) => void,
): Promise<DebugManifest> {
  const holder = readLockHolder(home.paths.dataDir);
  // Only the node of this home: a mistyped pid must not kill an unrelated process.
  if (!holder?.alive || holder.pid !== pid) {
    throw new OperationError(
      "OP_DEBUG_FAILED",
      `process ${pid} is not the node running in ${home.home} (${holder?.alive ? `that is pid ${holder.pid}` : "no node runs there"}); refusing to kill it`,
    );
  }
  const now = new Date();
  const bundle = newBundle(home, now);
  say(`Collecting debug data of ${home.home} (pid ${pid}), then stopping it`);
  await collectLive(home, options, bundle);
  process.kill(pid, "SIGTERM");
  const grace = options.graceMs ?? 10_000;
  if (!(await exitsWithin(pid, grace))) {
    say(`pid ${pid} still runs ${grace} ms after SIGTERM: sending SIGKILL`);
    process.kill(pid, "SIGKILL");
    await exitsWithin(pid, 5_000);
  }
  say(`pid ${pid} stopped`);
  await collectFiles(home, options, bundle);
  writeBundle(out, bundle, now);
  report(bundle.manifest, out, say);
  return bundle.manifest;
}

function report(manifest: DebugManifest, out: string, say: (line: string) => void): void {
  say(`Wrote ${out}: ${manifest.files.join(", ")}`);
  for (const [file, why] of Object.entries(manifest.missing)) say(`  not collected: ${file}: ${why}`);
}

async function exitsWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
