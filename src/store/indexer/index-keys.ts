// Key layout of the kv tx index: two LevelDB databases. tx_index.db holds the keys spread over the
// key space, the block events and the last-indexed-height marker; tx_index_bodies.db holds only
// keys that grow with the height, so each height's write sorts after everything it holds.
//
// tx_index.db:
//   0x00                                   → last indexed height (8 bytes)
//   0x03 entry(key,value) height(8) index(4) seq(4) → 0x01                 (tx event attributes)
//   0x08 entry(key,value) height(8) chunk(4) → (offset u16, seq u16)…      (a (key, value) pair
//                                             repeated within a height: its occurrences at the
//                                             height's tx indexes [chunk·1024, chunk·1024 + 1024))
//   0x07 hash[0..8)                        → positions (12 bytes each)     (the homes of the txs
//                                             whose hash starts so: one, but for a collision)
//   0x06 height(8)                         → positions (12 bytes each)     (bodies a height's moved
//                                             txs left, until they are deleted: event-indexer.ts)
//   0x10 height(8)                         → block events (ABCIResponses with begin/end events)
//   0x11 entry(key,value) height(8) seq(4) → 0x01                          (block event attributes)
// tx_index_bodies.db:
//   0x04 height(8)                         → 0x01                          (the height was written)
//   0x04 height(8) index(4)                → TxResult                      (a tx at its position)
//
// entry(key,value) = u16 len(key) ‖ key ‖ u32 len(value) ‖ value. Length prefixes keep one
// key's entries contiguous and one (key, value)'s entries sorted by position, whatever bytes
// the app puts in keys and values. `seq` is the event's index in its list, so conditions can
// be matched within one event.
//
// Why the tx's bytes and result live under its position and only 12 bytes under its hash: hashes
// are random, so every height's hash keys land across the whole key range and LevelDB's
// compactions rewrite whatever shares a table with them, level after level. Why the positions live
// in a database of their own: LevelDB compacts a table into every table of the next level its
// [smallest, largest] key range overlaps, and a memtable holding hashes, event entries and bodies
// spans the whole key space, so each flush rewrote the levels below it, the bodies included.
// Alone, and with no key of a fixed place (a marker, another prefix) beside them, a height's bodies
// make tables that overlap nothing already stored, which LevelDB places or moves down without
// rewriting them (docs/storage.md "Eleventh pass"). So the bodies' own marker is the last key's
// height, and the 9-byte height record (written for every height, txs or not) carries it.
// Why a tx's home is keyed by 8 bytes of its hash, not all 32: those keys are random, so each is
// rewritten by every level's compaction (~10 times); 9 + 12 bytes instead of 33 + 12 is less than
// half of the bytes per tx that never compress. A prefix does not name one tx, so its value lists
// every position whose tx's hash starts so, and a reader keeps the position whose body hashes to the
// hash asked: a collision (2^-64 a pair by chance, or made on purpose) costs a body read, never a
// wrong answer. A point read (not a scan of `prefix ‖ position` keys) keeps indexing a height one
// getMany of its hashes, answered mostly by bloom filters.
// Why a pair repeated within a height is one list key per 1,024 txs (event-lists.ts), not a key
// per occurrence: an app's events often carry the same (key, value) in every tx (the kvstore's
// `app.creator`), and each such key cost a key built, a memtable insert and ~50 bytes rewritten by
// every compaction; the list costs 4 bytes an occurrence. Readers read both forms, so an index
// written before lists, or a height with a pair in both forms, reads the same.
// Versions before short homes kept `0x05 hash(32) → position`, versions before the split kept
// 0x04 in tx_index.db, and versions before positions kept `0x01 hash → TxResult` and
// `0x02 position → hash`; a tx_index.db holding any is refused at open (LEGACY_TX_PREFIXES,
// BODY_PREFIXES, PREFIX_FULL_HASH_HOME).
import { StoreError } from "../errors.js";
import { bytesKey, heightIndexKey, heightKey, readUint32, writeUint32, writeUint64 } from "../key-bytes.js";

export const INDEXED_HEIGHT_KEY = Uint8Array.of(0x00);
export const PREFIX_TX_EVENT = 0x03;
export const PREFIX_TX_BODY = 0x04;
/** `0x05 hash(32) → position`: the layout before PREFIX_TX_HOMES. */
export const PREFIX_FULL_HASH_HOME = 0x05;
export const PREFIX_TX_HOMES = 0x07;
/** How many leading bytes of a tx's hash key its home. */
export const TX_HOME_HASH_BYTES = 8;
/** The old positions of the txs a height moved, until their bodies go from tx_index_bodies.db. */
export const PREFIX_MOVED_BODIES = 0x06;
/** `0x01 hash → TxResult` and `0x02 position → hash`: the layout before PREFIX_TX_BODY. */
export const LEGACY_TX_PREFIXES = { first: 0x01, end: 0x03 } as const;
/** A tx's position: height(8) ‖ index(4). */
export const TX_HOME_BYTES = 12;
export const PREFIX_BLOCK_EVENTS = 0x10;
/** `0x08 entry(key, value) height(8) chunk(4)` → the occurrences of a pair repeated in the height. */
export const PREFIX_TX_EVENT_LIST = 0x08;
/** Tx indexes per list chunk: an occurrence's offset in its chunk fits 16 bits. */
export const EVENT_LIST_SPAN = 1024;
/** An occurrence in a list: offset u16 ‖ seq u16. */
export const EVENT_LIST_ITEM_BYTES = 4;
/** The largest seq a list holds; an occurrence past it keeps a key of its own. */
export const EVENT_LIST_MAX_SEQ = 0xffff;
export const PREFIX_BLOCK_EVENT = 0x11;
/** The prefixes that live in tx_index_bodies.db (tx_index.db held them before the split). */
export const BODY_PREFIXES: readonly number[] = [PREFIX_TX_BODY];

/** Composite keys longer than this are not indexed (their length must fit the u16 prefix). */
export const MAX_INDEXED_KEY_BYTES = 0xffff;

/** The key of the homes of the txs whose hash starts as `hash` does. */
export function txHomesKey(hash: Uint8Array): Uint8Array {
  if (hash.length < TX_HOME_HASH_BYTES) {
    throw new StoreError(
      "INDEX_QUERY_INVALID",
      `a tx hash of ${hash.length} bytes (at least ${TX_HOME_HASH_BYTES})`,
    );
  }
  return bytesKey(PREFIX_TX_HOMES, hash.subarray(0, TX_HOME_HASH_BYTES));
}

/** A homes value's positions (12 bytes each, at least one); `where` names the key for the error. */
export function splitPositions(value: Uint8Array, where: string): Uint8Array[] {
  if (value.length === 0 || value.length % TX_HOME_BYTES !== 0) {
    throw new StoreError("STORE_CORRUPT", `${where}: a list of positions of ${value.length} bytes`);
  }
  const out: Uint8Array[] = [];
  for (let at = 0; at < value.length; at += TX_HOME_BYTES) out.push(value.subarray(at, at + TX_HOME_BYTES));
  return out;
}
export const txBodyKey = (height: bigint, index: number): Uint8Array =>
  heightIndexKey(PREFIX_TX_BODY, height, index);
export const movedBodiesKey = (height: bigint): Uint8Array => heightKey(PREFIX_MOVED_BODIES, height);
export const blockEventsKey = (height: bigint): Uint8Array => heightKey(PREFIX_BLOCK_EVENTS, height);

/** `prefix ‖ u16 len(key) ‖ key` — every entry of one composite key. */
export function entryKeyPrefix(prefix: number, key: Uint8Array): Uint8Array {
  if (key.length > MAX_INDEXED_KEY_BYTES) {
    throw new StoreError(
      "INDEX_QUERY_INVALID",
      `composite key of ${key.length} bytes exceeds ${MAX_INDEXED_KEY_BYTES}`,
    );
  }
  const out = new Uint8Array(3 + key.length);
  out[0] = prefix;
  out[1] = key.length >>> 8;
  out[2] = key.length & 0xff;
  out.set(key, 3);
  return out;
}

/** `prefix ‖ entry(key, value)` — every entry of one (key, value) pair. */
export function entryValuePrefix(prefix: number, key: Uint8Array, value: Uint8Array): Uint8Array {
  const head = entryKeyPrefix(prefix, key);
  const out = new Uint8Array(head.length + 4 + value.length);
  out.set(head, 0);
  writeUint32(out, head.length, value.length);
  out.set(value, head.length + 4);
  return out;
}

/**
 * A full entry key: the (key, value) prefix followed by the position (height, then the tx
 * index for tx entries) and the event's sequence number. Written byte by byte: indexing a
 * height builds tens of thousands of these, so no intermediate arrays or DataViews.
 */
export function entryKey(
  prefix: number,
  key: Uint8Array,
  value: Uint8Array,
  height: bigint | Uint8Array,
  txIndex: number | undefined,
  seq: number,
): Uint8Array {
  const out = new Uint8Array(entryKeyLength(key, value, txIndex));
  writeEntryKey(out, prefix, key, value, height, txIndex, seq);
  return out;
}

function entryKeyLength(key: Uint8Array, value: Uint8Array, txIndex: number | undefined): number {
  if (key.length > MAX_INDEXED_KEY_BYTES) {
    throw new StoreError(
      "INDEX_QUERY_INVALID",
      `composite key of ${key.length} bytes exceeds ${MAX_INDEXED_KEY_BYTES}`,
    );
  }
  return 3 + key.length + 4 + value.length + 8 + (txIndex === undefined ? 4 : 8);
}

function writeEntryKey(
  out: Uint8Array,
  prefix: number,
  key: Uint8Array,
  value: Uint8Array,
  height: bigint | Uint8Array,
  txIndex: number | undefined,
  seq: number,
): void {
  out[0] = prefix;
  out[1] = key.length >>> 8;
  out[2] = key.length & 0xff;
  out.set(key, 3);
  let at = 3 + key.length;
  at = putUint32(out, at, value.length);
  out.set(value, at);
  at += value.length;
  if (height instanceof Uint8Array) out.set(height, at);
  else writeUint64(out, at, height);
  at += 8;
  if (txIndex !== undefined) at = putUint32(out, at, txIndex);
  putUint32(out, at, seq);
}

/**
 * Keys and values built in one reused buffer, for a batch that copies them at once (LevelBatch's
 * `copies`): a height's index wrote a fresh array per entry key, its largest allocation per tx.
 * Each result is a view valid until the next call. A view per short length (keys) is kept, so a
 * key allocates nothing once its length was seen; longer ones (values of every size) take a fresh
 * view, so the cache does not grow with every size seen. The buffer grows only up to
 * SHARED_LIMIT: a rarer, larger entry gets its own array, so the scratch never keeps it.
 */
export class KeyScratch {
  static readonly SHARED_LIMIT = 64 * 1024;
  static readonly CACHED_VIEW_LIMIT = 1024;
  #buffer = new Uint8Array(512);
  #views: Uint8Array[] = [];

  /** `length` bytes to be filled by the caller (of the buffer, grown when needed). */
  take(length: number): Uint8Array {
    if (length > KeyScratch.SHARED_LIMIT) return new Uint8Array(length);
    if (length > this.#buffer.length) {
      this.#buffer = new Uint8Array(
        Math.min(KeyScratch.SHARED_LIMIT, Math.max(length, 2 * this.#buffer.length)),
      );
      this.#views = [];
    }
    if (length > KeyScratch.CACHED_VIEW_LIMIT) return this.#buffer.subarray(0, length);
    let view = this.#views[length];
    if (view === undefined) {
      view = this.#buffer.subarray(0, length);
      this.#views[length] = view;
    }
    return view;
  }

  entryKey(
    prefix: number,
    key: Uint8Array,
    value: Uint8Array,
    height: Uint8Array,
    txIndex: number | undefined,
    seq: number,
  ): Uint8Array {
    const out = this.take(entryKeyLength(key, value, txIndex));
    writeEntryKey(out, prefix, key, value, height, txIndex, seq);
    return out;
  }

  /** `prefix ‖ height(8) ‖ index(4)` with the height already as bytes. */
  positionKey(prefix: number, height: Uint8Array, index: number): Uint8Array {
    const out = this.take(13);
    out[0] = prefix;
    out.set(height, 1);
    putUint32(out, 9, index);
    return out;
  }

  /** `prefix ‖ bytes`. */
  prefixed(prefix: number, bytes: Uint8Array): Uint8Array {
    const out = this.take(1 + bytes.length);
    out[0] = prefix;
    out.set(bytes, 1);
    return out;
  }
}

function putUint32(out: Uint8Array, at: number, value: number): number {
  out[at] = value >>> 24;
  out[at + 1] = (value >>> 16) & 0xff;
  out[at + 2] = (value >>> 8) & 0xff;
  out[at + 3] = value & 0xff;
  return at + 4;
}

/** The key of the list chunk holding a pair's occurrence at `txIndex` of `height`. */
export function eventListKey(
  key: Uint8Array,
  value: Uint8Array,
  height: bigint | Uint8Array,
  txIndex: number,
): Uint8Array {
  return entryKey(PREFIX_TX_EVENT_LIST, key, value, height, undefined, Math.floor(txIndex / EVENT_LIST_SPAN));
}

/** A list chunk's occurrences, checked for shape; `where` names the key for the error. */
export function checkEventList(value: Uint8Array, where: string): void {
  if (value.length === 0 || value.length % EVENT_LIST_ITEM_BYTES !== 0) {
    throw new StoreError("STORE_CORRUPT", `${where}: an event list of ${value.length} bytes`);
  }
}

/** The offset (tx index within its chunk) of a list's `item`th occurrence. */
export const eventListOffset = (list: Uint8Array, item: number): number =>
  (list[item * EVENT_LIST_ITEM_BYTES]! << 8) | list[item * EVENT_LIST_ITEM_BYTES + 1]!;

/** The seq of a list's `item`th occurrence. */
export const eventListSeq = (list: Uint8Array, item: number): number =>
  (list[item * EVENT_LIST_ITEM_BYTES + 2]! << 8) | list[item * EVENT_LIST_ITEM_BYTES + 3]!;

/** Whether a list holds the occurrence (offset, seq): its items are sorted, so a binary search. */
export function eventListHas(list: Uint8Array, offset: number, seq: number): boolean {
  const wanted = offset * 0x10000 + seq;
  let low = 0;
  let high = list.length / EVENT_LIST_ITEM_BYTES - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = eventListOffset(list, middle) * 0x10000 + eventListSeq(list, middle);
    if (at === wanted) return true;
    if (at < wanted) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

export interface DecodedEntry {
  value: Uint8Array;
  /** height(8) [‖ txIndex(4)]: the document's position, comparable byte-wise. */
  position: Uint8Array;
  seq: number;
}

/** Splits an entry key whose composite-key part is `keyPrefixLength` bytes long. */
export function decodeEntryKey(
  entry: Uint8Array,
  keyPrefixLength: number,
  positionWidth: number,
): DecodedEntry {
  const valueLength = readUint32(entry, keyPrefixLength);
  const valueStart = keyPrefixLength + 4;
  const positionStart = valueStart + valueLength;
  if (positionStart + positionWidth + 4 !== entry.length) {
    throw new StoreError("STORE_CORRUPT", `tx_index.db: malformed event entry key of ${entry.length} bytes`);
  }
  return {
    value: entry.subarray(valueStart, positionStart),
    position: entry.subarray(positionStart, positionStart + positionWidth),
    seq: readUint32(entry, entry.length - 4),
  };
}
