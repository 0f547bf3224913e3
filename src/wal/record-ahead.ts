// A proposal's txs as the log's record will hold them, encoded and checked before the input that
// carries them is logged. The proposer's `ProposalBlockReaped` input holds every tx of its block
// (~20,000 at 20,000 tx/s), and the input is appended before it is folded, in one turn of the event
// loop: encoding them there (a buffer grown by doubling, then sliced) and running CRC-32C over the
// ~2.5 MB was ~30–55 ms of that turn on the project's machine, most of it the first touch of fresh
// memory (docs/storage.md, "Twenty-fourth pass"). The reaping effect (streams/effects/reaping.ts)
// calls recordItemsAhead with the same pauses as its hashing, so the work is spread over turns;
// the record's encoder (record-codec.ts, encodeRecordInPieces) then links the chunks made here
// instead of copying the txs, and the frame's check combines their CRCs (crc32c.ts).
//
// The bytes are the codec's own for the array's items (TAG_BYTES, LEB128 length, bytes, per item):
// the log holds exactly what it held before. Nothing is assumed: the chunks answer only for the very
// array they were made for, while it still holds the very tx objects (compared one by one); the
// simulation and replay make nothing ahead and encode as before.

import { taggedItemsLength, writeTaggedItems } from "../wire/repeated-bytes-in-pieces.js";
import { crc32c } from "./crc32c.js";

/** Items encoded between two pauses (the reap's own hashing piece). */
export const RECORD_AHEAD_PIECE = 2048;

/** An array shorter than this is encoded in place: a lookup per array would cost more than it saves. */
export const RECORD_AHEAD_MIN_ITEMS = 64;

const TAG_BYTES = 0x08;

/** The encoded items of one array: chunks in order, with each chunk's CRC-32C. */
export interface RecordChunks {
  readonly chunks: readonly Uint8Array[];
  readonly checks: readonly number[];
}

interface ItemsAhead extends RecordChunks {
  /** The items encoded: an entry answers only while the array still holds these very items. */
  readonly items: readonly Uint8Array[];
}

const made = new WeakMap<readonly Uint8Array[], ItemsAhead>();

/** Encodes items[from, to) as the codec writes an array's byte items, into one fresh chunk. */
export function encodeByteItems(items: readonly Uint8Array[], from: number, to: number): Uint8Array {
  const chunk = new Uint8Array(taggedItemsLength(items, from, to));
  writeTaggedItems(items, from, to, chunk, 0, TAG_BYTES);
  return chunk;
}

/** Encodes items[from, …) in chunks of `piece` items, with `pause()` awaited between two chunks. */
async function chunksOf(
  items: readonly Uint8Array[],
  from: number,
  pause: () => Promise<void>,
  piece: number,
): Promise<RecordChunks> {
  if (!(Number.isSafeInteger(piece) && piece > 0))
    throw new RangeError(`record chunks: the piece must be a positive integer, got ${piece}`);
  const chunks: Uint8Array[] = [];
  const checks: number[] = [];
  for (let at = from; at < items.length; at += piece) {
    if (at > from) await pause();
    const chunk = encodeByteItems(items, at, Math.min(items.length, at + piece));
    chunks.push(chunk);
    checks.push(crc32c(chunk));
  }
  return { chunks, checks };
}

/**
 * Encodes `items` as the log's record codec writes an array's items, `piece` items per chunk with
 * `pause()` awaited between two chunks, and remembers the chunks for this array until
 * takeRecordItems takes them. The caller must not change `items` after.
 */
export async function recordItemsAhead(
  items: readonly Uint8Array[],
  pause: () => Promise<void>,
  piece = RECORD_AHEAD_PIECE,
): Promise<void> {
  if (items.length < RECORD_AHEAD_MIN_ITEMS) return;
  const { chunks, checks } = await chunksOf(items, 0, pause, piece);
  made.set(items, { items: items.slice(), chunks, checks });
}

/**
 * The chunks of the pool's txs as they stand, made before our turn to propose (as the data hash's
 * prefix is: types/data-hash-prefix.ts); the reap's array, which in the usual case starts with the
 * very same txs, then needs chunks only for the txs admitted since. A chunk covers whole items, so
 * the prefix's chunks followed by the rest's are the encoding of the whole array.
 */
export class RecordItemsPrefix {
  private finished = false;
  private constructor(
    private readonly items: readonly Uint8Array[],
    private readonly made: RecordChunks,
  ) {}

  static async of(
    items: readonly Uint8Array[],
    pause: () => Promise<void>,
    piece = RECORD_AHEAD_PIECE,
  ): Promise<RecordItemsPrefix> {
    const own = items.slice();
    return new RecordItemsPrefix(own, await chunksOf(own, 0, pause, piece));
  }

  /**
   * When `items` starts with this prefix's very items: the rest are encoded in chunks and the whole
   * is remembered for `items`, as recordItemsAhead would; answers true. Otherwise nothing is
   * remembered and it answers false. A prefix is finished once.
   */
  async finish(
    items: readonly Uint8Array[],
    pause: () => Promise<void>,
    piece = RECORD_AHEAD_PIECE,
  ): Promise<boolean> {
    const m = this.items.length;
    if (this.finished || m === 0 || items.length < m || items.length < RECORD_AHEAD_MIN_ITEMS) return false;
    for (let i = 0; i < m; i++) if (items[i] !== this.items[i]) return false;
    this.finished = true;
    const rest = await chunksOf(items, m, pause, piece);
    made.set(items, {
      items: items.slice(),
      chunks: [...this.made.chunks, ...rest.chunks],
      checks: [...this.made.checks, ...rest.checks],
    });
    return true;
  }
}

/**
 * The chunks made ahead for this very array, if they were and it still holds the items encoded
 * (checked item by item); taken once, so a second encoding of the same input encodes afresh.
 */
export function takeRecordItems(items: readonly unknown[]): RecordChunks | undefined {
  if (items.length < RECORD_AHEAD_MIN_ITEMS) return undefined;
  const ahead = made.get(items as readonly Uint8Array[]);
  if (ahead === undefined) return undefined;
  made.delete(items as readonly Uint8Array[]);
  const encoded = ahead.items;
  if (encoded.length !== items.length) return undefined;
  for (let i = 0; i < items.length; i++) if (encoded[i] !== items[i]) return undefined;
  return ahead;
}
