// The kv indexer over tx_index.db and tx_index_bodies.db (index-keys.ts): indexes a height (its
// txs and its block events) in one batch per database, bodies first, and answers tx by hash,
// tx_search and block_search. A tx is findable as soon as indexHeight resolves, so the node
// publishes a height's Tx events only after awaiting it.
import { sha256 } from "../../crypto/hash.js";
import { nextTurn } from "../../next-turn.js";
import type { Event } from "../../wire/generated/tendermint/abci/types.js";
import { ResponseDeliverTx, TxResult } from "../../wire/generated/tendermint/abci/types.js";
import { ABCIResponses } from "../../wire/generated/tendermint/state/types.js";
import { encodeTxResult } from "../deliver-tx-bytes.js";
import { StoreError } from "../errors.js";
import { concatBytes, encodeHeight, heightKey, readUint32, readUint64, writeUint32 } from "../key-bytes.js";
import { type BinaryLevel, LevelBatch } from "../level-database.js";
import { decodeStored, encodeMessage } from "../proto-codec.js";
import { type Composite, EventListRemovals, HeightEventLists } from "./event-lists.js";
import { BLOCK_DOCUMENT, type IndexedDocument, TX_DOCUMENT } from "./event-match.js";
import type { HeightIndexInput, IndexedTx, IndexedTxColumns } from "./height-index-input.js";
import { HomeFilter } from "./home-filter.js";
import { HomeGroups } from "./home-groups.js";
import {
  BODY_PREFIXES,
  blockEventsKey,
  INDEXED_HEIGHT_KEY,
  KeyScratch,
  LEGACY_TX_PREFIXES,
  MAX_INDEXED_KEY_BYTES,
  movedBodiesKey,
  PREFIX_BLOCK_EVENT,
  PREFIX_BLOCK_EVENTS,
  PREFIX_FULL_HASH_HOME,
  PREFIX_MOVED_BODIES,
  PREFIX_TX_BODY,
  PREFIX_TX_EVENT,
  PREFIX_TX_EVENT_LIST,
  PREFIX_TX_HOMES,
  splitPositions,
  TX_HOME_BYTES,
  TX_HOME_HASH_BYTES,
  txBodyKey,
  txHomesKey,
} from "./index-keys.js";
import { kvSearchSpace } from "./kv-search-space.js";
import {
  DEFAULT_SEARCH_BUDGET,
  executeSearch,
  type SearchBudget,
  type SearchRequest,
} from "./search-executor.js";

// The value under every event entry key. Readers use the keys alone (iterators over keys,
// hasMany), so any value would do; it is one byte, not empty, because classic-level 3.0 leaks
// the native copy of a zero-length key or value on every write (binding.cc's
// DisposeSliceBuffer skips an empty slice after ToSlice allocated it): ~32 bytes of malloc'd
// memory per entry, which was issue 19's linear growth of the main arena under load
// (docs/storage.md, "Memory"). Entries written empty by older versions read the same.
export const EVENT_ENTRY_VALUE = Uint8Array.of(1);
const utf8 = new TextEncoder();

/** Txs of a height indexed between two turns of the event loop (a few milliseconds of work). */
export const INDEX_SLICE_TXS = 256;

export interface TxSearchResult {
  total: number;
  txs: TxResult[];
}

export interface BlockSearchResult {
  total: number;
  heights: bigint[];
}

/** The reading side of the tx index (the `tx` and `tx_search` routes). */
export interface TxIndexReader {
  readonly enabled: boolean;
  getByHash(hash: Uint8Array): Promise<TxResult | undefined>;
  search(request: SearchRequest): Promise<TxSearchResult>;
}

/** The reading side of the block-event index (`block_search`). */
export interface BlockIndexReader {
  readonly enabled: boolean;
  has(height: bigint): Promise<boolean>;
  search(request: SearchRequest): Promise<BlockSearchResult>;
}

/** The writing side: one call per committed height. */
export interface HeightIndexer {
  readonly enabled: boolean;
  /** The last height fully indexed (0 when none). */
  indexedHeight(): bigint;
  indexHeight(input: HeightIndexInput): Promise<void>;
  /**
   * An indexer that repairs itself (psql): indexes every height it lacks up to `toHeight` from
   * the stores and returns findings for the start-up log. Absent: reconcile re-indexes.
   */
  catchUp?(toHeight: bigint): Promise<string[]>;
}

export interface EventIndexerOptions {
  /**
   * tx_index_bodies.db: the txs' results by position and the blocks' events by height (the node's
   * layout). Without it the one database given holds both, as tools and tests may open it.
   */
  bodies?: BinaryLevel;
  budget?: SearchBudget;
  /** fsync index batches (default false: the index is rebuilt from blocks and state at start-up). */
  sync?: boolean;
  /**
   * Occurrences of a (key, value) pair within a height from which it is written as a list
   * (index-keys.ts, PREFIX_TX_EVENT_LIST) rather than as a key per occurrence (default 2;
   * Infinity writes the form before lists, as tests of both forms do).
   */
  eventListThreshold?: number;
  /**
   * Bytes of the in-memory filter of tx_index.db's home keys (home-filter.ts; config.toml's
   * db_tx_index_home_filter_mb), which spares a height's index the LevelDB lookup of every new
   * tx's home. 0 or absent: no filter. Over an index that already holds homes the filter answers
   * only once fillHomeFilter has read them all; until then every home is looked up.
   */
  homeFilterBytes?: number;
  /**
   * Called once when the home filter becomes crowded (home-filter.ts, HOME_FILTER_CROWDED_RATE),
   * with its state then, so the node can tell the operator to raise its size.
   */
  onHomeFilterCrowded?: (state: HomeFilterState) => void;
}

/** The home filter's state (homeFilterState). */
export interface HomeFilterState {
  bytes: number;
  complete: boolean;
  added: number;
  falsePositiveRate: number;
}

/**
 * How fillHomeFilter ended: every home key read ("complete": the filter answers from then on),
 * asked to stop first (a closing node), a read that failed (the filter stays unanswering, so every
 * home is read from the database, as without it), or nothing to do ("none": no filter, or one
 * complete at open because the index held no homes). `keys`: home keys read into it.
 */
export interface HomeFilterFill {
  outcome: "complete" | "stopped" | "failed" | "none";
  keys: number;
  error?: unknown;
}

/** Home keys read per step of fillHomeFilter (one short read of tx_index.db each). */
export const HOME_FILTER_FILL_KEYS = 4096;

/** A pair seen twice in a height is listed: a list of one occurrence would save nothing. */
export const DEFAULT_EVENT_LIST_THRESHOLD = 2;

type Batch = LevelBatch;

/**
 * Composite keys as bytes: `type ‖ "." ‖ attribute key`, each built once per height for the first
 * KNOWN_KEYS_PER_TYPE attribute keys of a type (an app's events repeat a few keys in every tx; a
 * fresh array per attribute per tx was one of the index's larger allocations), found again by
 * comparing the attribute key's few bytes. The batch copies what it is given, so sharing is safe.
 * A known key also carries the height's list candidates of its values (event-lists.ts).
 */
class CompositeKeys {
  static readonly KNOWN_KEYS_PER_TYPE = 16;
  #types = new Map<string, { head: Uint8Array; known: Composite[] }>();
  of(type: string, attributeKey: Uint8Array): Composite {
    let entry = this.#types.get(type);
    if (entry === undefined) {
      entry = { head: utf8.encode(`${type}.`), known: [] };
      this.#types.set(type, entry);
    }
    const { head, known } = entry;
    for (let k = 0; k < known.length; k++) {
      if (endsWith(known[k]!.bytes, head.length, attributeKey)) return known[k]!;
    }
    const bytes = new Uint8Array(head.length + attributeKey.length);
    bytes.set(head, 0);
    bytes.set(attributeKey, head.length);
    const listable = known.length < CompositeKeys.KNOWN_KEYS_PER_TYPE;
    const composite: Composite = { bytes, listable };
    if (listable) known.push(composite);
    return composite;
  }
}

/** Whether `composite` is `from` bytes of head followed by exactly `tail`. */
function endsWith(composite: Uint8Array, from: number, tail: Uint8Array): boolean {
  if (composite.length - from !== tail.length) return false;
  for (let i = 0; i < tail.length; i++) if (composite[from + i] !== tail[i]) return false;
  return true;
}

function putEventEntries(
  batch: Batch,
  keys: CompositeKeys,
  scratch: KeyScratch,
  prefix: number,
  events: readonly Event[],
  height: Uint8Array,
  txIndex: number | undefined,
  firstSeq: number,
  del = false,
  lists?: HeightEventLists,
): void {
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    for (const attribute of event.attributes) {
      if (!attribute.index) continue;
      const composite = keys.of(event.type, attribute.key);
      if (composite.bytes.length > MAX_INDEXED_KEY_BYTES) continue;
      if (lists?.add(composite, attribute.value, txIndex!, firstSeq + i)) continue;
      const key = scratch.entryKey(prefix, composite.bytes, attribute.value, height, txIndex, firstSeq + i);
      if (del) batch.del(key);
      else batch.put(key, EVENT_ENTRY_VALUE);
    }
  }
}

const TX_HASH_BYTES = 32;

const hexUpper = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex").toUpperCase();

export class EventIndexer implements HeightIndexer {
  readonly enabled = true;
  #db: BinaryLevel;
  /** Where positions live: tx_index_bodies.db, or #db itself when one database holds both. */
  #bodies: BinaryLevel;
  #indexedHeight = 0n;
  readonly #budget: SearchBudget;
  readonly #sync: boolean;
  readonly #listThreshold: number;
  /**
   * No key of tx_index_bodies.db is at a height above this (its last height at open, then every
   * height written): a height above it has no stray bodies to look for.
   */
  #bodiesTop = 0n;
  readonly #homeFilter: HomeFilter | undefined;
  /** The fill under way (fillHomeFilter), and whether it was asked to stop. */
  #filling: Promise<HomeFilterFill> | undefined;
  #fillStopped = false;
  // Every batch here copies its keys and values at once (LevelBatch's `copies`), so each is built
  // in one of these reused buffers: keys in one, values in the other.
  readonly #keyScratch = new KeyScratch();
  readonly #valueScratch = new KeyScratch();
  readonly txs: TxIndexReader;
  readonly blocks: BlockIndexReader;

  private constructor(db: BinaryLevel, options: EventIndexerOptions) {
    this.#db = db;
    const bodies = options.bodies ?? db;
    this.#bodies = bodies;
    this.#budget = options.budget ?? DEFAULT_SEARCH_BUDGET;
    this.#sync = options.sync ?? false;
    this.#listThreshold = options.eventListThreshold ?? DEFAULT_EVENT_LIST_THRESHOLD;
    HeightEventLists.checkThreshold(this.#listThreshold);
    const filterBytes = options.homeFilterBytes ?? 0;
    const onCrowded = options.onHomeFilterCrowded;
    this.#homeFilter =
      filterBytes > 0
        ? new HomeFilter(filterBytes, onCrowded && (() => onCrowded(this.homeFilterState()!)))
        : undefined;
    const txSpace = kvSearchSpace({
      db,
      positionDb: bodies,
      kind: TX_DOCUMENT,
      entryPrefix: PREFIX_TX_EVENT,
      listPrefix: PREFIX_TX_EVENT_LIST,
      positionPrefix: PREFIX_TX_BODY,
      positionWidth: TX_HOME_BYTES,
      positionOfHash: async (hash) => this.#homeOf(hash)?.position,
      loadDocuments: async (positions) => {
        const results = await this.#loadTxsAt(positions);
        return results.map((r): IndexedDocument | undefined =>
          r === undefined
            ? undefined
            : { height: r.height, hashHex: hexUpper(sha256(r.tx)), events: r.result.events },
        );
      },
    });
    const blockSpace = kvSearchSpace({
      db,
      positionDb: db,
      kind: BLOCK_DOCUMENT,
      entryPrefix: PREFIX_BLOCK_EVENT,
      positionPrefix: PREFIX_BLOCK_EVENTS,
      positionWidth: 8,
      loadDocuments: async (positions) => {
        const values = await db.getMany(positions.map((p) => Uint8Array.of(PREFIX_BLOCK_EVENTS, ...p)));
        return values.map((value, i): IndexedDocument | undefined => {
          if (value === undefined) return undefined;
          const height = readUint64(positions[i]!, 0);
          const stored = decodeStored(ABCIResponses, value, `tx_index.db block events ${height}`);
          return {
            height,
            events: [...(stored.beginBlock?.events ?? []), ...(stored.endBlock?.events ?? [])],
          };
        });
      },
    });
    this.txs = {
      enabled: true,
      getByHash: (hash) => this.#getTxResult(hash),
      search: async (request) => {
        const page = await executeSearch(txSpace, request, this.#budget);
        const txs = await this.#loadTxsAt(page.positions);
        return { total: page.total, txs: txs.filter((t): t is TxResult => t !== undefined) };
      },
    };
    this.blocks = {
      enabled: true,
      has: async (height) => this.#db.getSync(blockEventsKey(height)) !== undefined,
      search: async (request) => {
        const page = await executeSearch(blockSpace, request, this.#budget);
        return { total: page.total, heights: page.positions.map((p) => readUint64(p, 0)) };
      },
    };
  }

  static async open(db: BinaryLevel, options: EventIndexerOptions = {}): Promise<EventIndexer> {
    await refuseLegacyLayout(db);
    await refuseFullHashHomes(db);
    if (options.bodies !== undefined && options.bodies !== db) await refuseBodiesInIndex(db);
    const indexer = new EventIndexer(db, options);
    const indexed = await readMarker(db, INDEXED_HEIGHT_KEY, "indexed-height");
    // The two databases' writes are not synced, so after a power cut either may have kept a height
    // the other lost: a height counts as indexed only when both hold it, and start-up repair
    // indexes it again otherwise (the same keys, so whatever either kept is overwritten alike).
    // A removed tx_index_bodies.db (no height) has every height re-indexed.
    const bodies = indexer.#bodies === db ? indexed : await lastBodiesHeight(indexer.#bodies);
    indexer.#indexedHeight = indexed;
    if (bodies < indexed) indexer.#indexedHeight = bodies;
    indexer.#bodiesTop = indexer.#bodies === db ? indexed : bodies;
    await indexer.#finishPendingMoves();
    // An index without homes (a new node) has its filter complete at once: nothing to read.
    if (indexer.#homeFilter !== undefined && (await indexer.#readHomeKeys(undefined, 1)).length === 0)
      indexer.#homeFilter.markComplete();
    return indexer;
  }

  /**
   * Adds every home key tx_index.db holds to the filter, a short read at a time, each through `run`
   * (the node passes its databases' reopen gate, so a read never meets them closed), then lets the
   * filter answer. Homes put meanwhile are added by the heights that put them, so a key the read
   * has passed is not missed. If a read fails the filter stays unanswering: every home is looked
   * up, as without it. Resolves with how it ended (HomeFilterFill) when done or stopped; never
   * rejects.
   */
  fillHomeFilter(
    run: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
    stepKeys = HOME_FILTER_FILL_KEYS,
  ): Promise<HomeFilterFill> {
    const filter = this.#homeFilter;
    if (filter === undefined || filter.complete) return Promise.resolve({ outcome: "none", keys: 0 });
    this.#filling ??= (async (): Promise<HomeFilterFill> => {
      let after: Uint8Array | undefined;
      let read = 0;
      try {
        while (!this.#fillStopped) {
          const keys = await run(() => this.#readHomeKeys(after, stepKeys));
          for (const key of keys) filter.add(key.subarray(1));
          read += keys.length;
          if (keys.length < stepKeys) {
            filter.markComplete();
            return { outcome: "complete", keys: read };
          }
          after = keys[keys.length - 1];
        }
        return { outcome: "stopped", keys: read };
      } catch (error) {
        // Left incomplete: the lookups go to LevelDB (a closing node, or a read error the index's
        // own reads will meet and report); the caller logs it.
        return { outcome: "failed", keys: read, error };
      }
    })();
    return this.#filling;
  }

  /** Stops a fill under way (before the databases close) and waits for its read in flight. */
  async stopHomeFilterFill(): Promise<void> {
    this.#fillStopped = true;
    await this.#filling;
  }

  /** The home filter's state, for the node's log and tests (undefined without one). */
  homeFilterState(): HomeFilterState | undefined {
    const filter = this.#homeFilter;
    if (filter === undefined) return undefined;
    return {
      bytes: filter.bytes,
      complete: filter.complete,
      added: filter.added,
      falsePositiveRate: filter.falsePositiveRate(),
    };
  }

  /** Up to `limit` home keys of tx_index.db after `after` (from the first when undefined). */
  #readHomeKeys(after: Uint8Array | undefined, limit: number): Promise<Uint8Array[]> {
    const end = Uint8Array.of(PREFIX_TX_HOMES + 1);
    return this.#db
      .keys(
        after === undefined
          ? { gte: Uint8Array.of(PREFIX_TX_HOMES), lt: end, limit }
          : { gt: after, lt: end, limit },
      )
      .all();
  }

  indexedHeight(): bigint {
    return this.#indexedHeight;
  }

  /**
   * Indexes one height: each tx (position → result, hash → position, its indexed event
   * attributes), the block's begin/end events, and the indexed height. A tx seen before at another
   * position is moved: its old entries and body go, so a hash has one home. Re-indexing a height
   * (start-up repair) gives the same keys.
   *
   * With two databases, in this order (crash windows: docs/storage.md "Crash consistency"): the
   * bodies (with the height's record), then the index (with its marker, and, when txs moved, the
   * record `0x06 height` of their old positions), then, only if txs moved, the old bodies go and
   * then that record. When txs moved the index's write is synced: a power cut must never keep the
   * old bodies' delete and lose the write that stopped leading to them. At open, every move
   * record left finishes its deletes.
   */
  async indexHeight(input: HeightIndexInput): Promise<void> {
    const batches = this.#batches();
    try {
      const { newHeight, movedFrom } = await this.#buildHeight(batches, input);
      const moved = movedFrom.length > 0 && batches.bodies !== batches.index;
      // Raised before the bodies' write: whether or not it lands, no key is above the new top.
      if (input.height > this.#bodiesTop) this.#bodiesTop = input.height;
      if (batches.bodies !== batches.index) await batches.bodies.write({ sync: this.#sync });
      await batches.index.write({ sync: this.#sync || moved });
      if (moved) await this.#finishMoves(input.height, movedFrom);
      this.#indexedHeight = newHeight;
    } catch (error) {
      batches.bodies.abandon();
      batches.index.abandon();
      throw error;
    }
  }

  /** One batch per database (the same one when one database holds both). */
  #batches(): Batches {
    const index = new LevelBatch(this.#db, { copies: true });
    return {
      index,
      bodies: this.#bodies === this.#db ? index : new LevelBatch(this.#bodies, { copies: true }),
    };
  }

  /**
   * The old bodies of the txs `height` moved (no hash leads to them since the index's write, which
   * carried the record naming them), then the record. The first delete is synced so that a power
   * cut never keeps the record's delete without it.
   */
  async #finishMoves(height: bigint, movedFrom: readonly Uint8Array[]): Promise<void> {
    const bodies = new LevelBatch(this.#bodies);
    for (const position of movedFrom) bodies.del(Uint8Array.of(PREFIX_TX_BODY, ...position));
    await bodies.write({ sync: true });
    await new LevelBatch(this.#db).del(movedBodiesKey(height)).write({ sync: this.#sync });
  }

  /** Finishes the moves a crash interrupted: a record in tx_index.db means its homes moved. */
  async #finishPendingMoves(): Promise<void> {
    if (this.#bodies === this.#db) return;
    const records = await this.#db
      .iterator({ gte: Uint8Array.of(PREFIX_MOVED_BODIES), lt: Uint8Array.of(PREFIX_MOVED_BODIES + 1) })
      .all();
    for (const [key, value] of records) {
      await this.#finishMoves(readUint64(key, 1), splitPositions(value, `${this.#db.location} moved bodies`));
    }
  }

  /** Puts a height's entries into the batches; returns the markers' height and the moved txs' old positions. */
  async #buildHeight(
    batches: Batches,
    input: HeightIndexInput,
  ): Promise<{ newHeight: bigint; movedFrom: Uint8Array[] }> {
    const batch = batches.index;
    const { height } = input;
    const keys = new CompositeKeys();
    const scratch = this.#keyScratch;
    const values = this.#valueScratch;
    const valueOfSize = (size: number) => values.take(size);
    const heightBytes = encodeHeight(height);
    const columns = input.columns ?? columnsOf(input.txs);
    const txs = columns.txs;
    const results = columns.results;
    const knownHashes = columns.hashes;
    const givenBytes = columns.resultBytes;
    const spans =
      input.resultSpans !== undefined && input.resultSpans.begins.length === txs.length
        ? input.resultSpans
        : undefined;
    // Built a slice at a time, the event loop turning between slices (the writes stay one
    // batch per database): a height of thousands of txs took the main thread for hundreds of
    // milliseconds in one go, and every admission waited behind it.
    const hashes: Uint8Array[] = new Array(txs.length);
    for (let start = 0; start < txs.length; start += INDEX_SLICE_TXS) {
      if (start > 0) await nextTurn();
      const end = Math.min(txs.length, start + INDEX_SLICE_TXS);
      for (let i = start; i < end; i++) hashes[i] = knownHashes?.[i] ?? sha256(txs[i]!);
    }
    // Earlier homes of these txs are looked up while this height's entries are built, and so are
    // bodies at this height past its last tx (left by an interrupted `removeHeight` of a block
    // this height replaces). Neither is asked for when it cannot find anything: an empty height has
    // no homes, and a height above every height the bodies' database holds has no stray bodies
    // (a new height, every time but start-up repair); each ask was a trip to the thread pool.
    const previousRead = this.#readHomes(hashes);
    const strayRead =
      this.#bodies === this.#db || height > this.#bodiesTop
        ? Promise.resolve([])
        : this.#bodies
            .keys({ gte: txBodyKey(height, txs.length), lt: heightKey(PREFIX_TX_BODY, height + 1n) })
            .all();
    // This height's txs by the key of their homes (one each, but for a prefix collision).
    const homeGroups = new HomeGroups(hashes);
    // A pair's occurrences are written as a key each, or gathered into list chunks written once
    // every tx was seen (event-lists.ts).
    const lists = new HeightEventLists(
      this.#listThreshold,
      {
        single: (composite, value, txIndex, seq) =>
          batch.put(
            scratch.entryKey(PREFIX_TX_EVENT, composite, value, heightBytes, txIndex, seq),
            EVENT_ENTRY_VALUE,
          ),
        list: (composite, value, chunk, items) =>
          batch.put(
            scratch.entryKey(PREFIX_TX_EVENT_LIST, composite, value, heightBytes, undefined, chunk),
            items,
          ),
      },
      valueOfSize,
    );
    for (let start = 0; start < txs.length; start += INDEX_SLICE_TXS) {
      if (txs.length > INDEX_SLICE_TXS) await nextTurn();
      const end = Math.min(txs.length, start + INDEX_SLICE_TXS);
      for (let index = start; index < end; index++) {
        const hash = hashes[index]!;
        const group = homeGroups.groupOf(index);
        const at = group.findIndex((other) => equalBytes(hashes[other]!, hash));
        if (at >= 0) {
          // The same tx twice in this block: the later occurrence wins.
          const earlierHere = group[at]!;
          group.splice(at, 1);
          batches.bodies.del(txBodyKey(height, earlierHere));
          this.#deleteTxEntries(batch, keys, height, earlierHere, results[earlierHere]!.events);
          lists.drop(earlierHere);
        }
        group.push(index);
        // The result's bytes: given with the tx, else its span of the responses record, else encoded.
        const txResult = results[index]!;
        let result = givenBytes?.[index];
        let from = 0;
        let to: number | undefined;
        if (result === undefined && spans !== undefined) {
          result = spans.bytes;
          from = spans.begins[index]!;
          to = spans.ends[index]!;
        }
        result ??= ResponseDeliverTx.encode(txResult).finish();
        const body = encodeTxResult(
          height,
          index,
          txs[index]!,
          result,
          valueOfSize,
          from,
          to ?? result.length,
        );
        batches.bodies.put(scratch.positionKey(PREFIX_TX_BODY, heightBytes, index), body);
        putEventEntries(
          batch,
          keys,
          scratch,
          PREFIX_TX_EVENT,
          txResult.events,
          heightBytes,
          index,
          0,
          false,
          lists,
        );
      }
    }
    lists.finish();
    for (const stray of await strayRead) batches.bodies.del(stray);
    // Indexed before at another height: move it. (Within this height, the loop above decided;
    // deleting keys of another height never touches what this batch puts.) With two databases
    // the old bodies go in a third write, once no hash leads to them (#finishMoves).
    const moved = await this.#putHomes(
      batch,
      homeGroups.groups,
      hashes,
      await previousRead,
      heightBytes,
      height,
    );
    await this.#deleteHomes(batch, keys, moved);
    const movedFrom = moved.map((home) => txBodyKey(home.height, home.index).subarray(1));
    if (moved.length > 0) {
      if (batches.bodies === batch)
        for (const position of movedFrom) batch.del(Uint8Array.of(PREFIX_TX_BODY, ...position));
      else batch.put(movedBodiesKey(height), concatBytes(movedFrom));
    }
    const blockEvents: ABCIResponses = {
      deliverTxs: [],
      beginBlock: { events: [...input.beginBlockEvents] },
      endBlock: { validatorUpdates: [], consensusParamUpdates: undefined, events: [...input.endBlockEvents] },
    };
    batch.put(blockEventsKey(height), encodeMessage(ABCIResponses, blockEvents));
    putEventEntries(
      batch,
      keys,
      scratch,
      PREFIX_BLOCK_EVENT,
      input.beginBlockEvents,
      heightBytes,
      undefined,
      0,
    );
    const endSeq = input.beginBlockEvents.length;
    putEventEntries(
      batch,
      keys,
      scratch,
      PREFIX_BLOCK_EVENT,
      input.endBlockEvents,
      heightBytes,
      undefined,
      endSeq,
    );
    // Re-indexing an older height (repair) never moves the marker back.
    let newHeight = this.#indexedHeight;
    if (height > newHeight) newHeight = height;
    batch.put(INDEXED_HEIGHT_KEY, encodeHeight(newHeight));
    // The bodies' own record of this height, a key just before its first body: every key the
    // bodies' database gets sorts after all it held (index-keys.ts).
    if (batches.bodies !== batch) batches.bodies.put(heightKey(PREFIX_TX_BODY, height), HEIGHT_WRITTEN);
    return { newHeight, movedFrom };
  }

  /**
   * Removes what `indexHeight` wrote for a height that no longer exists (`rollback --hard`): each
   * tx whose home is this height (hash → position, body, event entries), the block's events, and
   * both markers move below the height. A tx indexed again at another height since is left alone.
   * The index's batch goes first, then the bodies' (every body of the height, found by its key
   * range, not by the hashes the first write removed), both synced: an interrupted removal leaves
   * bodies no hash leads to and its bodies' marker still at the height; removing again finishes it,
   * and so does indexing the height anew (its stray bodies go in its first write).
   */
  async removeHeight(height: bigint, txHashes: readonly Uint8Array[]): Promise<void> {
    const batches = this.#batches();
    try {
      const newHeight = await this.#buildRemoval(batches, height, txHashes);
      await batches.index.write({ sync: true });
      if (batches.bodies !== batches.index) await batches.bodies.write({ sync: true });
      this.#indexedHeight = newHeight;
    } catch (error) {
      batches.bodies.abandon();
      batches.index.abandon();
      throw error;
    }
  }

  async #buildRemoval(batches: Batches, height: bigint, txHashes: readonly Uint8Array[]): Promise<bigint> {
    const batch = batches.index;
    const keys = new CompositeKeys();
    // Every position at this height goes from the homes its txs' hashes key (the height's bodies
    // all go below); positions at other heights stay: a tx indexed again since, or a collision.
    const homeKeys = new Map<string, Uint8Array>();
    for (const hash of txHashes) {
      const key = txHomesKey(hash);
      homeKeys.set(Buffer.from(key).toString("latin1"), key);
    }
    const keyList = [...homeKeys.values()];
    const stored = await this.#db.getMany(keyList);
    const here: TxHome[] = [];
    stored.forEach((raw, i) => {
      if (raw === undefined) return;
      const positions = splitPositions(raw, homesWhere(keyList[i]!));
      const kept = positions.filter((p) => readUint64(p, 0) !== height);
      for (const p of positions) if (readUint64(p, 0) === height) here.push(homeAt(p));
      if (kept.length === positions.length) return;
      if (kept.length === 0) batch.del(keyList[i]!);
      else batch.put(keyList[i]!, concatBytes(kept));
    });
    await this.#deleteHomes(batch, keys, here);
    // Every key of the height in the bodies' database: its bodies and its record.
    if (batches.bodies !== batch) {
      const bodies = await this.#bodies
        .keys({ gte: heightKey(PREFIX_TX_BODY, height), lt: heightKey(PREFIX_TX_BODY, height + 1n) })
        .all();
      for (const key of bodies) batches.bodies.del(key);
    } else {
      for (const home of here) batch.del(txBodyKey(home.height, home.index));
    }
    // The block's events as the index stored them (not as anyone remembers them now).
    const blockRaw = this.#db.getSync(blockEventsKey(height));
    if (blockRaw !== undefined) {
      const events = decodeStored(ABCIResponses, blockRaw, `tx_index.db block events ${height}`);
      const begin = events.beginBlock?.events ?? [];
      const heightBytes = encodeHeight(height);
      putEventEntries(
        batch,
        keys,
        this.#keyScratch,
        PREFIX_BLOCK_EVENT,
        begin,
        heightBytes,
        undefined,
        0,
        true,
      );
      const end = events.endBlock?.events ?? [];
      putEventEntries(
        batch,
        keys,
        this.#keyScratch,
        PREFIX_BLOCK_EVENT,
        end,
        heightBytes,
        undefined,
        begin.length,
        true,
      );
      batch.del(blockEventsKey(height));
    }
    const newHeight = this.#indexedHeight >= height ? height - 1n : this.#indexedHeight;
    batch.put(INDEXED_HEIGHT_KEY, encodeHeight(newHeight));
    return newHeight;
  }

  /**
   * Deletes each tx's event entries at its home (a moved or removed tx), read from its body: its
   * keys of their own, and its occurrences in its height's lists (whichever form holds them).
   */
  async #deleteHomes(batch: Batch, keys: CompositeKeys, homes: readonly TxHome[]): Promise<void> {
    if (homes.length === 0) return;
    const bodies = await this.#bodies.getMany(homes.map((h) => txBodyKey(h.height, h.index)));
    const removals = new EventListRemovals();
    homes.forEach((home, i) => {
      const raw = bodies[i];
      const events =
        raw === undefined
          ? []
          : decodeStored(TxResult, raw, bodyWhere(home.height, home.index)).result.events;
      this.#deleteTxEntries(batch, keys, home.height, home.index, events);
      events.forEach((event, seq) => {
        for (const attribute of event.attributes) {
          if (!attribute.index) continue;
          const composite = keys.of(event.type, attribute.key).bytes;
          if (composite.length > MAX_INDEXED_KEY_BYTES) continue;
          removals.add(composite, attribute.value, home.height, home.index, seq);
        }
      });
    });
    await removals.apply(this.#db, batch);
  }

  #deleteTxEntries(
    batch: Batch,
    keys: CompositeKeys,
    height: bigint,
    index: number,
    events: readonly Event[],
  ): void {
    putEventEntries(
      batch,
      keys,
      this.#keyScratch,
      PREFIX_TX_EVENT,
      events,
      encodeHeight(height),
      index,
      0,
      true,
    );
  }

  /**
   * The tx's position (height ‖ index) and its result, or undefined when the hash is not indexed:
   * of the positions its hash's prefix keys, the one whose body's tx has this hash. Synchronous
   * gets (LevelDB answers from its caches without a trip to the thread pool).
   */
  #homeOf(hash: Uint8Array): { position: Uint8Array; result: TxResult } | undefined {
    // A tx's hash is SHA-256's 32 bytes: any other length names no tx (and may be too short to key).
    if (hash.length !== TX_HASH_BYTES) return undefined;
    const filter = this.#homeFilter;
    if (filter?.complete && !filter.mayHold(hash)) return undefined;
    const key = txHomesKey(hash);
    const raw = this.#db.getSync(key);
    if (raw === undefined) return undefined;
    for (const position of splitPositions(raw, homesWhere(key))) {
      const result = this.#bodyAt(position, this.#bodies.getSync(Uint8Array.of(PREFIX_TX_BODY, ...position)));
      if (result !== undefined && equalBytes(sha256(result.tx), hash)) return { position, result };
    }
    return undefined;
  }

  async #getTxResult(hash: Uint8Array): Promise<TxResult | undefined> {
    return this.#homeOf(hash)?.result;
  }

  /**
   * Puts the homes of this height's txs (`groups`: their indexes by hash prefix; `stored`: what
   * each tx's homes key held, by tx). A stored position at another height stays when its body is
   * another tx's (a collision) and is returned as moved when it is one of these txs; one at this
   * height is dropped (this height's bodies are written anew) and so is one whose body is gone.
   */
  async #putHomes(
    batch: Batch,
    groups: readonly number[][],
    hashes: readonly Uint8Array[],
    stored: readonly (Uint8Array | undefined)[],
    heightBytes: Uint8Array,
    height: bigint,
  ): Promise<TxHome[]> {
    // Stored positions elsewhere (only for txs included again, or a collision): one read of bodies.
    const elsewhere: { group: number[]; position: Uint8Array }[] = [];
    for (const group of groups.values()) {
      const raw = stored[group[0]!];
      if (raw === undefined) continue;
      for (const position of splitPositions(raw, homesWhere(txHomesKey(hashes[group[0]!]!)))) {
        if (readUint64(position, 0) !== height) elsewhere.push({ group, position });
      }
    }
    const kept = new Map<number[], Uint8Array[]>();
    const moved: TxHome[] = [];
    if (elsewhere.length > 0) {
      const bodies = await this.#bodies.getMany(
        elsewhere.map((e) => Uint8Array.of(PREFIX_TX_BODY, ...e.position)),
      );
      elsewhere.forEach(({ group, position }, i) => {
        const result = this.#bodyAt(position, bodies[i]);
        if (result === undefined) return;
        const hash = sha256(result.tx);
        if (group.some((index) => equalBytes(hashes[index]!, hash))) moved.push(homeAt(position));
        else kept.set(group, [...(kept.get(group) ?? []), position]);
      });
    }
    let done = 0;
    for (const group of groups.values()) {
      if (++done % INDEX_SLICE_TXS === 0) await nextTurn();
      const others = kept.get(group) ?? [];
      // Built in the scratches: the batch copies keys and values at once.
      const value = this.#valueScratch.take((others.length + group.length) * TX_HOME_BYTES);
      let at = 0;
      for (const position of others) {
        value.set(position, at);
        at += TX_HOME_BYTES;
      }
      for (const index of group) {
        value.set(heightBytes, at);
        writeUint32(value, at + 8, index);
        at += TX_HOME_BYTES;
      }
      const hash = hashes[group[0]!]!;
      // Into the filter before the write: a filter that holds more than the database is only slower.
      this.#homeFilter?.add(hash);
      batch.put(this.#keyScratch.prefixed(PREFIX_TX_HOMES, hash.subarray(0, TX_HOME_HASH_BYTES)), value);
    }
    return moved;
  }

  /**
   * What each tx's homes key holds: undefined, without a read, for each key the complete filter
   * says was never written; one getMany of the others (none for an empty height).
   */
  async #readHomes(hashes: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    if (hashes.length === 0) return [];
    const filter = this.#homeFilter;
    if (filter === undefined || !filter.complete) return this.#db.getMany(hashes.map(txHomesKey));
    const stored: (Uint8Array | undefined)[] = new Array(hashes.length).fill(undefined);
    const asked: number[] = [];
    for (let i = 0; i < hashes.length; i++) if (filter.mayHold(hashes[i]!)) asked.push(i);
    if (asked.length === 0) return stored;
    const found = await this.#db.getMany(asked.map((i) => txHomesKey(hashes[i]!)));
    for (let j = 0; j < asked.length; j++) stored[asked[j]!] = found[j];
    return stored;
  }

  async #loadTxsAt(positions: readonly Uint8Array[]): Promise<(TxResult | undefined)[]> {
    if (positions.length === 0) return [];
    const raws = await this.#bodies.getMany(positions.map((p) => Uint8Array.of(PREFIX_TX_BODY, ...p)));
    return raws.map((raw, i) => this.#bodyAt(positions[i]!, raw));
  }

  #bodyAt(position: Uint8Array, raw: Uint8Array | undefined): TxResult | undefined {
    if (raw === undefined) return undefined;
    const height = readUint64(position, 0);
    const index = readUint32(position, 8);
    const result = decodeStored(TxResult, raw, bodyWhere(height, index));
    if (result.height !== height || result.index !== index) {
      throw new StoreError(
        "STORE_CORRUPT",
        `${bodyWhere(height, index)} holds the tx of height ${result.height} index ${result.index}`,
      );
    }
    return result;
  }
}

/** An input's IndexedTx list as columns (a few arrays a height), with the results' bytes given. */
function columnsOf(txs: readonly IndexedTx[]): IndexedTxColumns {
  return {
    txs: txs.map((t) => t.tx),
    results: txs.map((t) => t.result),
    hashes: txs.map((t) => t.hash),
    resultBytes: txs.map((t) => t.resultBytes),
  };
}

interface Batches {
  /** tx_index.db's: hashes, event entries, the indexed-height marker. */
  index: LevelBatch;
  /** tx_index_bodies.db's: bodies, block events, its own marker (`index` itself with one database). */
  bodies: LevelBatch;
}

interface TxHome {
  height: bigint;
  index: number;
}

const homeAt = (position: Uint8Array): TxHome => ({
  height: readUint64(position, 0),
  index: readUint32(position, 8),
});

const homesWhere = (key: Uint8Array): string =>
  `tx_index.db homes of hash prefix ${hexUpper(key.subarray(1))}`;

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const bodyWhere = (height: bigint, index: number): string =>
  `tx_index_bodies.db tx at height ${height} index ${index}`;

/** The value of a height's record in tx_index_bodies.db (one byte: never an empty value). */
const HEIGHT_WRITTEN = Uint8Array.of(1);

/** The height of the last key of tx_index_bodies.db (each height's write ends past all before it). */
async function lastBodiesHeight(bodies: BinaryLevel): Promise<bigint> {
  const [last] = await bodies
    .keys({
      gte: Uint8Array.of(PREFIX_TX_BODY),
      lt: Uint8Array.of(PREFIX_TX_BODY + 1),
      reverse: true,
      limit: 1,
    })
    .all();
  if (last === undefined) return 0n;
  if (last.length < 9)
    throw new StoreError("STORE_CORRUPT", `${bodies.location}: a key of ${last.length} bytes`);
  return readUint64(last, 1);
}

async function readMarker(db: BinaryLevel, key: Uint8Array, what: string): Promise<bigint> {
  const raw = await db.get(key);
  if (raw === undefined) return 0n;
  if (raw.length !== 8)
    throw new StoreError("STORE_CORRUPT", `${db.location}: ${what} record is not 8 bytes`);
  return readUint64(raw, 0);
}

/**
 * A tx_index.db written before txs were stored under their positions holds `0x01 hash →
 * TxResult`. Reading it as this layout would answer "not found" for every tx, so it is refused
 * with the way out: the index is derived data, rebuilt from blocks and ABCI responses.
 */
async function refuseLegacyLayout(db: BinaryLevel): Promise<void> {
  const legacy = await db
    .keys({
      gte: Uint8Array.of(LEGACY_TX_PREFIXES.first),
      lt: Uint8Array.of(LEGACY_TX_PREFIXES.end),
      limit: 1,
    })
    .all();
  if (legacy.length === 0) return;
  throw new StoreError(
    "STORE_OPEN_FAILED",
    `${db.location}: the tx index has the layout of rxbft before txs were stored by position ` +
      "(tx bodies under their hashes). Stop the node, remove that tx_index.db directory and start again: the node " +
      "re-indexes every height whose block and ABCI responses it holds at start-up (or run `rxbft reindex-event` " +
      "after removing it). Heights pruned from the block store cannot be indexed again",
  );
}

/**
 * A tx_index.db written before the bodies had a database of their own holds them (0x04).
 * Read as this layout, every tx would be "not found", so it is refused with the way out, as for
 * the layout before it.
 */
async function refuseBodiesInIndex(db: BinaryLevel): Promise<void> {
  for (const prefix of BODY_PREFIXES) {
    const found = await db
      .keys({ gte: Uint8Array.of(prefix), lt: Uint8Array.of(prefix + 1), limit: 1 })
      .all();
    if (found.length === 0) continue;
    throw new StoreError(
      "STORE_OPEN_FAILED",
      `${db.location}: the tx index has the layout of rxbft before tx_index_bodies.db (tx results in ` +
        "tx_index.db). Stop the node, remove that tx_index.db directory and start again: the node " +
        "re-indexes every height whose block and ABCI responses it holds at start-up (or run `rxbft reindex-event` " +
        "after removing it). Heights pruned from the block store cannot be indexed again",
    );
  }
}

/**
 * A tx_index.db written before homes were keyed by a prefix of the hash holds `0x05 hash(32) →
 * position`. Read as this layout, every tx would be "not found" by hash, so it is refused with the
 * way out, as for the layouts before it.
 */
async function refuseFullHashHomes(db: BinaryLevel): Promise<void> {
  const found = await db
    .keys({
      gte: Uint8Array.of(PREFIX_FULL_HASH_HOME),
      lt: Uint8Array.of(PREFIX_FULL_HASH_HOME + 1),
      limit: 1,
    })
    .all();
  if (found.length === 0) return;
  throw new StoreError(
    "STORE_OPEN_FAILED",
    `${db.location}: the tx index has the layout of rxbft before tx homes were keyed by 8 bytes of the hash ` +
      "(full 32-byte hash keys). Stop the node, remove that tx_index.db directory and start again: the node " +
      "re-indexes every height whose block and ABCI responses it holds at start-up (or run `rxbft reindex-event` " +
      "after removing it). Heights pruned from the block store cannot be indexed again",
  );
}
