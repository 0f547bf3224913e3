// `rxbft compact` (v0.34: experimental-compact-goleveldb): compacts every LevelDB database of
// the home (each directory of data/ holding a CURRENT file: block store, state, event index,
// evidence, the in-process app's), so space held by deleted and overwritten keys returns to the
// file system. Prints each database's size before and after. Compaction rewrites tables and
// switches to them atomically (LevelDB's own manifest), so an interrupted run loses nothing.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ClassicLevel } from "classic-level";
import { StoreError } from "../store/errors.js";
import { type OperatorHome, withStoppedHome } from "./operator-home.js";

export interface CompactedStore {
  path: string;
  bytesBefore: number;
  bytesAfter: number;
}

// Every key of our databases sorts between these: no key is empty, none starts with 64 0xff bytes.
const FIRST_KEY = Uint8Array.of(0x00);
const PAST_LAST_KEY = new Uint8Array(64).fill(0xff);

/** The LevelDB databases directly under `dir`. */
export function levelDatabasesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, "CURRENT")))
    .map((e) => join(dir, e.name))
    .sort();
}

/** Bytes of the files of a directory (a LevelDB database is flat). */
export function directoryBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile()) total += statSync(join(dir, entry.name)).size;
  }
  return total;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

export async function compactStores(
  home: OperatorHome,
  say: (line: string) => void,
): Promise<CompactedStore[]> {
  return withStoppedHome(home, "compact the databases", async () => {
    const databases = levelDatabasesIn(home.paths.dataDir);
    if (databases.length === 0) {
      say(`No LevelDB database in ${home.paths.dataDir}: nothing to compact.`);
      return [];
    }
    say(`Compacting ${databases.length} LevelDB databases in ${home.paths.dataDir}:`);
    const out: CompactedStore[] = [];
    for (const path of databases) {
      const bytesBefore = directoryBytes(path);
      const db = new ClassicLevel<Uint8Array, Uint8Array>(path, {
        keyEncoding: "view",
        valueEncoding: "view",
        createIfMissing: false,
      });
      try {
        await db.open();
        await db.compactRange(FIRST_KEY, PAST_LAST_KEY);
      } catch (error) {
        throw new StoreError("STORE_OPEN_FAILED", `${path}: cannot compact: ${(error as Error).message}`, {
          cause: error,
        });
      } finally {
        await db.close();
      }
      // LevelDB deletes the replaced tables when the database closes.
      const bytesAfter = directoryBytes(path);
      out.push({ path, bytesBefore, bytesAfter });
      say(`  ${path}: ${formatBytes(bytesBefore)} -> ${formatBytes(bytesAfter)}`);
    }
    const before = out.reduce((n, s) => n + s.bytesBefore, 0);
    const after = out.reduce((n, s) => n + s.bytesAfter, 0);
    say(
      `Total: ${formatBytes(before)} -> ${formatBytes(after)} (${formatBytes(Math.max(0, before - after))} freed)`,
    );
    return out;
  });
}
