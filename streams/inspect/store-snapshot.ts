// A private copy of a home's stores for `rxbft inspect`: LevelDB writes on every open (its LOCK,
// LOG and a new MANIFEST, and it may compact), so the home's own databases are never opened.
// Table files (.ldb/.sst) never change once written, so they are hard-linked when the file system
// allows it (a copy otherwise); everything else (CURRENT, MANIFEST, the write-ahead .log) is copied.
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BLOCK_STORE_DB, STATE_DB, TX_INDEX_BODIES_DB, TX_INDEX_DB } from "../../src/store/open-stores.js";

const STORE_DATABASES = [BLOCK_STORE_DB, STATE_DB, TX_INDEX_DB, TX_INDEX_BODIES_DB];

export interface StoreSnapshot {
  /** A data directory holding the copied databases. */
  dataDir: string;
  /** Removes the copy. */
  remove(): void;
}

export function snapshotStores(dataDir: string): StoreSnapshot {
  const root = mkdtempSync(join(tmpdir(), "rxbft-inspect-"));
  try {
    for (const db of STORE_DATABASES) {
      const from = join(dataDir, db);
      if (!existsSync(from)) continue;
      const to = join(root, db);
      mkdirSync(to);
      for (const name of readdirSync(from)) {
        if (name === "LOCK" || name.startsWith("LOG")) continue;
        const source = join(from, name);
        if (!statSync(source).isFile()) continue;
        if (/\.(ldb|sst)$/.test(name)) {
          try {
            linkSync(source, join(to, name));
            continue;
          } catch {
            // another file system, or links not allowed: copy instead
          }
        }
        copyFileSync(source, join(to, name));
      }
    }
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  return { dataDir: root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
