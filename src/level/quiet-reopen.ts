// Closes and reopens a group of LevelDB databases while nothing uses them, for the node's idle
// release (idle-release.ts): what a load left mapped and cached in a database that is quiet at
// idle goes back to the system, and the database is open again before anyone asks for it.
//
// Why a close: LevelDB keeps each table it has read in its table cache (up to max_open_files − 10
// tables), each mapped whole with mmap, so the pages a load's reads and compactions touched stay
// in the process's RSS (clean page cache, but counted) until the table leaves that cache; and its
// block cache keeps the data blocks read. classic-level has no call that empties either: only
// closing the database does. After a load, the tx index's two databases held 12–18 MB of mapped
// tables and most of the block caches (docs/storage.md "Memory"), and an idle node barely touches
// them: an empty height writes a few bytes and seeks past its (absent) bodies, which maps little
// again; the tx and search routes read them.
//
// How it is sequenced: every use of the databases goes through `use` (the tx index's reader and
// writer wrappers, src/store/open-stores.ts). A reopen starts only at a moment when no use is in
// flight (checked and gated in one synchronous step, so none can start in between); a use that
// arrives while the databases are closed waits for them to be open again and then runs, in the
// order the uses arrived; a reopen never waits on a use and a use never fails because of one. If
// a use is in flight, the reopen waits up to `drainMs` for the group to go quiet, then gives up
// for this time (the next idle spell tries again). A crash during the close or the open is a
// crash of a node whose databases are closed or being opened, which every start already
// recovers from (LevelDB replays its log at open; nothing is written during the reopen).
import { basename } from "node:path";
import type { ClassicLevel } from "classic-level";
import { nativeBatchOf } from "./native-batch.js";

type BinaryLevel = ClassicLevel<Uint8Array, Uint8Array>;

/** What one reopen did. */
export type ReopenOutcome = "reopened" | "busy" | "closed";

/** How long a reopen waits for the uses in flight to finish before it gives up for this time. */
export const REOPEN_DRAIN_MS = 2000;

/** A group of databases reopened together (the tx index and its bodies). */
export class QuietReopen {
  readonly #databases: readonly BinaryLevel[];
  readonly #drainMs: number;
  #inFlight = 0;
  /** Set while the databases are being closed and reopened: uses wait for it. */
  #reopening: Promise<void> | undefined;
  /** Called when the last use in flight ends (a reopen waiting for quiet). */
  #onQuiet: (() => void) | undefined;
  /** Set when a reopen could not open a database again: every later use fails with it. */
  #failure: Error | undefined;
  #closed = false;
  /** A reopen is under way (waiting for quiet, or closing and opening). */
  #attempting = false;

  constructor(databases: readonly BinaryLevel[], options: { drainMs?: number } = {}) {
    this.#databases = databases;
    this.#drainMs = options.drainMs ?? REOPEN_DRAIN_MS;
    groups.add(this);
  }

  /** The databases' folder names (`tx_index.db`), for the log. */
  get names(): string[] {
    return this.#databases.map((db) => basename(db.location));
  }

  /** Uses in flight (tests). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * Runs `work` with the databases open. Outside a reopen it starts at once (the same turn); during
   * one it starts once the databases are open again, after the uses that were waiting before it.
   */
  use<T>(work: () => Promise<T>): Promise<T> {
    if (this.#reopening !== undefined) {
      const waiting = this.#reopening;
      return waiting.then(() => this.use(work));
    }
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    this.#inFlight++;
    let running: Promise<T>;
    try {
      running = work();
    } catch (error) {
      this.#done();
      return Promise.reject(error);
    }
    return running.finally(() => this.#done());
  }

  #done(): void {
    this.#inFlight--;
    if (this.#inFlight === 0) this.#onQuiet?.();
  }

  /**
   * Closes and reopens every database of the group once no use is in flight: "reopened"; "busy"
   * when uses were still in flight after the drain wait (nothing was closed); "closed" after
   * `close` or a failed reopen. A database that fails to open again is a storage failure: the
   * error is thrown here and every later use fails with it.
   */
  async reopen(): Promise<ReopenOutcome> {
    if (this.#closed || this.#failure !== undefined || this.#attempting) return "closed";
    this.#attempting = true;
    try {
      return await this.#reopenWhenQuiet();
    } finally {
      this.#attempting = false;
    }
  }

  async #reopenWhenQuiet(): Promise<ReopenOutcome> {
    const deadline = performance.now() + this.#drainMs;
    // Checked again after each wait: a use may start between the last one's end and this turn.
    while (this.#inFlight > 0) {
      const left = deadline - performance.now();
      if (left <= 0 || !(await this.#quietWithin(left))) return "busy";
    }
    if (this.#closed) return "closed";
    // No await between the loop's last check and this line: no use can start in between.
    let opened!: () => void;
    this.#reopening = new Promise<void>((resolve) => {
      opened = resolve;
    });
    try {
      for (const db of this.#databases) {
        // The database's reused native batch (and the buffer of its largest write) goes too: no
        // write holds it, since no use is in flight.
        nativeBatchOf(db)?.release();
        await db.close();
      }
      for (const db of this.#databases) await db.open();
      return "reopened";
    } catch (error) {
      const names = this.names.join(", ");
      this.#failure = new Error(`cannot reopen ${names} after the idle release: ${String(error)}`, {
        cause: error,
      });
      throw this.#failure;
    } finally {
      this.#reopening = undefined;
      opened();
    }
  }

  /** Whether the uses in flight all ended within `ms`. */
  #quietWithin(ms: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.#onQuiet = undefined;
        resolve(false);
      }, ms);
      this.#onQuiet = () => {
        clearTimeout(timer);
        this.#onQuiet = undefined;
        resolve(true);
      };
    });
  }

  /**
   * No reopen from now on (the stores are closing): waits for one under way to finish, so the
   * caller closes open databases.
   */
  async close(): Promise<void> {
    this.#closed = true;
    groups.delete(this);
    while (this.#reopening !== undefined) await this.#reopening;
  }
}

/** Every group not yet closed, for the idle release. */
const groups = new Set<QuietReopen>();

/** The groups of databases the idle release closes and reopens. */
export function liveQuietReopens(): QuietReopen[] {
  return [...groups];
}
