// The evidence store (data/evidence.db), as v0.34 keeps evidence.db: one key per piece of
// evidence under a prefix for committed and one for pending, each key ordered by the evidence's
// height then its hash, so the pool's two sets survive a restart. Beside them one marker: the
// last block height whose evidence the store has taken in (the start-up catch-up reads the
// blocks above it, see streams/boot/evidence-pool.ts). Every change is one synced batch.
import type { EvidencePoolChanges as EvidenceChanges, EvidenceRef } from "../evidence/state.js";
import { evidenceHeight, evidenceItemHash } from "../types/evidence.js";
import { Evidence } from "../wire/generated/tendermint/types/evidence.js";
import { StoreError } from "./errors.js";
import { type BinaryLevel, LevelBatch, type LevelMemoryOptions, openBinaryLevel } from "./level-database.js";

export const EVIDENCE_DB = "evidence.db";

const PREFIX_COMMITTED = 0x00;
const PREFIX_PENDING = 0x01;
const KEY_HEIGHT = Uint8Array.of(0x02);

/** Prefix, 8-byte big-endian height, 32-byte hash: height order within each prefix. */
function evidenceKeyBytes(prefix: number, height: bigint, hash: Uint8Array): Uint8Array {
  const key = new Uint8Array(1 + 8 + hash.length);
  key[0] = prefix;
  new DataView(key.buffer).setBigUint64(1, BigInt.asUintN(64, height));
  key.set(hash, 9);
  return key;
}

export interface StoredEvidence {
  readonly pending: Evidence[];
  readonly committed: Evidence[];
  /** The last block height taken in; undefined for a new store. */
  readonly height: bigint | undefined;
}

export class EvidenceStore {
  private constructor(
    private readonly db: BinaryLevel,
    private readonly location: string,
  ) {}

  /** `level`: LevelDB's memory bounds (config.toml's db_* keys), as for the node's other stores. */
  static async open(location: string, level?: LevelMemoryOptions): Promise<EvidenceStore> {
    return new EvidenceStore(await openBinaryLevel(location, level), location);
  }

  async load(): Promise<StoredEvidence> {
    const read = async (prefix: number) => {
      const out: Evidence[] = [];
      for await (const [key, value] of this.db.iterator({
        gte: Uint8Array.of(prefix),
        lt: Uint8Array.of(prefix + 1),
      })) {
        try {
          out.push(Evidence.decode(value));
        } catch (error) {
          throw new StoreError(
            "STORE_CORRUPT",
            `${this.location}: evidence under key ${Buffer.from(key).toString("hex")} does not decode: ${(error as Error).message}`,
          );
        }
      }
      return out;
    };
    const heightBytes = await this.db.get(KEY_HEIGHT).catch(() => undefined);
    let height: bigint | undefined;
    if (heightBytes !== undefined) {
      if (heightBytes.length !== 8)
        throw new StoreError(
          "STORE_CORRUPT",
          `${this.location}: the height marker is ${heightBytes.length} bytes, not 8`,
        );
      height = new DataView(heightBytes.buffer, heightBytes.byteOffset, 8).getBigUint64(0);
    }
    return { pending: await read(PREFIX_PENDING), committed: await read(PREFIX_COMMITTED), height };
  }

  /** Writes the changes in one synced batch (all or nothing). */
  async apply(changes: EvidenceChanges): Promise<void> {
    const key = (prefix: number, e: Evidence) =>
      evidenceKeyBytes(prefix, evidenceHeight(e), evidenceItemHash(e));
    const refKey = (prefix: number, r: EvidenceRef) =>
      evidenceKeyBytes(prefix, r.height, Buffer.from(r.key, "hex"));
    // The stores' batch (level-database.ts), not classic-level's chained one, which builds a native
    // WriteBatch per call that only a GC frees: this runs at every height, for the marker alone
    // when there is no evidence. The same one synced write either way.
    const batch = new LevelBatch(this.db);
    for (const r of changes.removePending) batch.del(refKey(PREFIX_PENDING, r));
    for (const r of changes.removeCommitted) batch.del(refKey(PREFIX_COMMITTED, r));
    for (const e of changes.addPending) batch.put(key(PREFIX_PENDING, e), Evidence.encode(e).finish());
    for (const e of changes.addCommitted) batch.put(key(PREFIX_COMMITTED, e), Evidence.encode(e).finish());
    if (changes.height !== undefined) {
      const h = new Uint8Array(8);
      new DataView(h.buffer).setBigUint64(0, changes.height);
      batch.put(KEY_HEIGHT, h);
    }
    await batch.write({ sync: true });
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
