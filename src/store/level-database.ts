// Opens one classic-level database with binary keys and values. Every store owns exactly one
// database directory under data/, so each store's batches are atomic on their own.
import { ClassicLevel } from "classic-level";
import { StoreError } from "./errors.js";

export type BinaryLevel = ClassicLevel<Uint8Array, Uint8Array>;

export async function openBinaryLevel(location: string): Promise<BinaryLevel> {
  const db = new ClassicLevel<Uint8Array, Uint8Array>(location, {
    keyEncoding: "view",
    valueEncoding: "view",
    createIfMissing: true,
  });
  try {
    await db.open();
  } catch (error) {
    const detail = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    const hint = /lock/i.test(detail) ? " (is another rxbft process using this home directory?)" : "";
    throw new StoreError("STORE_OPEN_FAILED", `cannot open database ${location}: ${detail}${hint}`, {
      cause: error,
    });
  }
  return db;
}
