// Watching how classic-level is written, for the tests of the reused native batch.
import type { ClassicLevel } from "classic-level";

/** Counts classic-level's array-form writes on `db`. */
export function countArrayWrites(db: ClassicLevel<Uint8Array, Uint8Array>): { count: number } {
  const seen = { count: 0 };
  const original = db.batch.bind(db);
  db.batch = ((...args: unknown[]) => {
    if (Array.isArray(args[0])) seen.count++;
    return (original as (...a: unknown[]) => unknown)(...args);
  }) as typeof db.batch;
  return seen;
}
