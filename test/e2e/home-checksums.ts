// Checksums of every file of a home, so a test can say exactly which files a command changed.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** relative path → sha256 of every file under `home` (directories walked). */
export function homeChecksums(home: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile())
        out.set(relative(home, path), createHash("sha256").update(readFileSync(path)).digest("hex"));
    }
  };
  walk(home);
  return out;
}

/** The paths whose checksum differs between two snapshots (added, removed or changed), sorted. */
export function changedPaths(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed = new Set<string>();
  for (const [path, sum] of before) if (after.get(path) !== sum) changed.add(path);
  for (const path of after.keys()) if (!before.has(path)) changed.add(path);
  return [...changed].sort();
}
