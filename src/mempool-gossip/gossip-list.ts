// The gossip's list of pending txs, in admission order, as a persistent structure of plain JS
// arrays: a version is a window over an append-only log its lineage shares, as the mempool's pool
// and cache are (src/mempool/versioned-map.ts, cache.ts). It replaces two immutable.js maps (tx by
// admission number, admission number by hash) whose path-copying updates and lookups were about
// half of the gossip fold under load, and much of the garbage a network node makes per tx.
//
// The log holds one entry per admission (in admission order, so `seqs` ascends) and two kinds of
// later marks on an entry: the edit at which its tx left the pool (`goneAt`) and senders noted
// after its admission (a chain of notes per entry), each stamped with the edit that made it. Every
// edit of the log bumps its `edits` counter; a version reads the entries before its `length` and
// the marks stamped at or before its `edits`.
//
// Why it is still pure: an entry never changes once appended, and a mark is only ever added with a
// stamp above every existing version's `edits`, so what any version answers never changes. Only
// the log's newest version (its `edits` are the log's) edits in place; an edit of any other first
// copies what that version holds into a log of its own.
//
// Why the heap stays flat: a log is rebuilt from its live entries once it holds more than twice as
// many entries (or notes) as live txs, plus a margin, so it holds O(pool) entries, and an old
// version pins only the log it was made on. Rebuilding costs O(pool) after at least as many edits.

import { KeyPositions } from "../mempool/key-positions.js";

/** The log one lineage of versions shares (see the header). */
class ListLog {
  /** Admission number of each entry, ascending. */
  readonly seqs: number[] = [];
  readonly hashes: string[] = [];
  /** The tx's one-tx message (the tx is its tail: `txLengths`). */
  readonly messages: Uint8Array[] = [];
  readonly txLengths: number[] = [];
  /** Height of the last committed block when the tx was admitted. */
  readonly heights: bigint[] = [];
  /** Peers that had sent the tx when it was admitted. */
  readonly senders: (readonly string[])[] = [];
  /** The edit at which the tx left the pool, or -1. */
  readonly goneAt: number[] = [];
  /** The entry's last later-noted sender (an index into the note arrays), or -1. */
  readonly lastNote: number[] = [];
  /** Position of the previous entry of the same hash, -1 when none. */
  readonly previous: number[] = [];
  /** Position of each hash's newest entry (-1 when none): the mempool's table of integers. */
  readonly latest = new KeyPositions(this.hashes);
  readonly notePeers: string[] = [];
  readonly noteStamps: number[] = [];
  /** The entry's previous note, or -1. */
  readonly notePrevious: number[] = [];
  /** Edits made to this log so far: the newest version's `edits`. */
  edits = 0;
}

interface Window {
  readonly log: ListLog;
  readonly length: number;
  readonly edits: number;
  readonly size: number;
}

/** The position of `hash`'s entry in a window, or -1 (its tx may have left: see `live`). */
function entryOf(w: Window, hash: string): number {
  let at = w.log.latest.get(hash);
  while (at >= w.length) at = w.log.previous[at]!;
  return at;
}

function live(w: Window, at: number): boolean {
  const gone = w.log.goneAt[at]!;
  return gone < 0 || gone > w.edits;
}

function sentBy(w: Window, at: number, peerId: string): boolean {
  const { log } = w;
  if (log.senders[at]!.includes(peerId)) return true;
  for (let n = log.lastNote[at]!; n >= 0; n = log.notePrevious[n]!) {
    if (log.noteStamps[n]! <= w.edits && log.notePeers[n] === peerId) return true;
  }
  return false;
}

/** The senders of the entry at `at` as `w` sees them, oldest first. */
function sendersOf(w: Window, at: number): string[] {
  const { log } = w;
  const later: string[] = [];
  for (let n = log.lastNote[at]!; n >= 0; n = log.notePrevious[n]!) {
    if (log.noteStamps[n]! <= w.edits) later.push(log.notePeers[n]!);
  }
  return [...log.senders[at]!, ...later.reverse()];
}

/** A new log holding the live txs of `w` (senders noted later folded in), and its window. */
function rebuilt(w: Window): { log: ListLog; length: number; edits: number; size: number } {
  const log = new ListLog();
  for (let at = 0; at < w.length; at++) {
    if (!live(w, at)) continue;
    const { seqs, hashes, messages, txLengths, heights } = w.log;
    append(log, seqs[at]!, hashes[at]!, messages[at]!, txLengths[at]!, heights[at]!, sendersOf(w, at));
  }
  return { log, length: log.seqs.length, edits: log.edits, size: log.seqs.length };
}

function append(
  log: ListLog,
  seq: number,
  hash: string,
  message: Uint8Array,
  txLength: number,
  height: bigint,
  senders: readonly string[],
): void {
  const at = log.seqs.length;
  log.seqs.push(seq);
  log.hashes.push(hash);
  log.messages.push(message);
  log.txLengths.push(txLength);
  log.heights.push(height);
  log.senders.push(senders);
  log.goneAt.push(-1);
  log.lastNote.push(-1);
  log.previous.push(log.latest.get(hash));
  log.latest.set(hash, at);
  log.edits++;
}

/** An admitted tx, whole, as `values()` and `get()` give it (tests, inspection; the walks read positions). */
export interface GossipedTx {
  /** Admission number: the peers' walks' order. */
  readonly seq: number;
  readonly hash: string;
  readonly tx: Uint8Array;
  /** The tx's message alone (Txs of one tx), encoded once at admission and shared by every peer. */
  readonly message: Uint8Array;
  readonly height: bigint;
  /** Peers that sent it to us: it is never sent back to them. */
  readonly senders: readonly string[];
}

export class GossipList implements Window {
  private constructor(
    /** The window (see the header): read by this module, never written. */
    readonly log: ListLog,
    readonly length: number,
    readonly edits: number,
    /** Txs in the list. */
    readonly size: number,
  ) {}

  /** Shared by every state; an edit of it starts a log of its own. */
  static readonly EMPTY = new GossipList(new ListLog(), 0, 0, 0);

  /** A version over a draft's window, its log rebuilt once dead entries outnumber live ones. */
  static of(w: Window): GossipList {
    if (w.size === 0) return GossipList.EMPTY;
    if (w.length > 2 * w.size + 1024 || w.log.notePeers.length > 2 * w.size + 1024) {
      const fresh = rebuilt(w);
      return new GossipList(fresh.log, fresh.length, fresh.edits, fresh.size);
    }
    return w instanceof GossipList ? w : new GossipList(w.log, w.length, w.edits, w.size);
  }

  isEmpty(): boolean {
    return this.size === 0;
  }

  has(hash: string): boolean {
    if (this.size === 0) return false;
    const at = entryOf(this, hash);
    return at >= 0 && live(this, at);
  }

  /** The admission number of a tx in the list, or undefined. */
  seqOf(hash: string): number | undefined {
    if (this.size === 0) return undefined;
    const at = entryOf(this, hash);
    return at >= 0 && live(this, at) ? this.log.seqs[at] : undefined;
  }

  /** The position of the first entry whose admission number is `seq` or later (`length` if none). */
  positionFrom(seq: number): number {
    const { seqs } = this.log;
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (seqs[mid]! < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Whether the tx at position `at` (< length) is still in the list. */
  liveAt(at: number): boolean {
    return live(this, at);
  }

  seqAt(at: number): number {
    return this.log.seqs[at]!;
  }

  heightAt(at: number): bigint {
    return this.log.heights[at]!;
  }

  messageAt(at: number): Uint8Array {
    return this.log.messages[at]!;
  }

  /** The tx's bytes: a view of its message's tail (held once). */
  txAt(at: number): Uint8Array {
    const message = this.log.messages[at]!;
    return message.subarray(message.length - this.log.txLengths[at]!);
  }

  /** Whether `peerId` sent us the tx at position `at`. */
  sentByAt(at: number, peerId: string): boolean {
    return sentBy(this, at, peerId);
  }

  /** The admission number of the oldest tx in the list, or undefined when empty. */
  firstSeq(): number | undefined {
    for (let at = 0; at < this.length; at++) if (live(this, at)) return this.log.seqs[at];
    return undefined;
  }

  /** The txs in admission order (tests, inspection; the walks read positions). */
  *values(): IterableIterator<GossipedTx> {
    for (let at = 0; at < this.length; at++) if (live(this, at)) yield this.txOf(at);
  }

  /** The oldest tx, or undefined when empty. */
  first(): GossipedTx | undefined {
    for (const tx of this.values()) return tx;
    return undefined;
  }

  /** The tx of admission number `seq`, or undefined. */
  get(seq: number): GossipedTx | undefined {
    const at = this.positionFrom(seq);
    return at < this.length && this.log.seqs[at] === seq && live(this, at) ? this.txOf(at) : undefined;
  }

  private txOf(at: number): GossipedTx {
    const { seqs, hashes, messages, heights } = this.log;
    return {
      seq: seqs[at]!,
      hash: hashes[at]!,
      tx: this.txAt(at),
      message: messages[at]!,
      height: heights[at]!,
      senders: sendersOf(this, at),
    };
  }

  /** Entries and notes its log holds, for the bound on memory (tests). */
  get retained(): { entries: number; notes: number } {
    return { entries: this.log.seqs.length, notes: this.log.notePeers.length };
  }

  /** This list with one tx appended (GossipListDraft.add), without a draft when this is the log's newest. */
  with(
    seq: number,
    hash: string,
    message: Uint8Array,
    txLength: number,
    height: bigint,
    senders: readonly string[],
  ): GossipList {
    if (this.size === 0 || this.log.edits !== this.edits) {
      const draft = this.edit();
      draft.add(seq, hash, message, txLength, height, senders);
      return draft.done();
    }
    append(this.log, seq, hash, message, txLength, height, senders);
    return GossipList.of(new GossipList(this.log, this.length + 1, this.log.edits, this.size + 1));
  }

  /** A draft: edit it, read it between edits, then `done()`. This version is untouched. */
  edit(): GossipListDraft {
    if (this.size === 0) return new GossipListDraft(new ListLog(), 0, 0, 0);
    return new GossipListDraft(this.log, this.length, this.edits, this.size);
  }
}

/** A list being edited (GossipList.edit): reads see every edit made so far. */
export class GossipListDraft implements Window {
  constructor(
    public log: ListLog,
    public length: number,
    public edits: number,
    public size: number,
  ) {}

  /**
   * Makes this draft the log's newest user before it edits, else moves it to a copy (where
   * positions differ: true).
   */
  private own(): boolean {
    if (this.log.edits === this.edits) return false;
    const copy = rebuilt(this);
    this.log = copy.log;
    this.length = copy.length;
    this.edits = copy.edits;
    return true;
  }

  has(hash: string): boolean {
    if (this.size === 0) return false;
    const at = entryOf(this, hash);
    return at >= 0 && live(this, at);
  }

  /** Appends a tx not in the list, as admission number `seq` (above every one in it). */
  add(
    seq: number,
    hash: string,
    message: Uint8Array,
    txLength: number,
    height: bigint,
    senders: readonly string[],
  ) {
    this.own();
    append(this.log, seq, hash, message, txLength, height, senders);
    this.length++;
    this.edits = this.log.edits;
    this.size++;
  }

  /** Notes that `peerId` sent a tx in the list; false when not in it or already noted. */
  noteSender(hash: string, peerId: string): boolean {
    if (this.size === 0) return false;
    const at = entryOf(this, hash);
    if (at < 0 || !live(this, at) || sentBy(this, at, peerId)) return false;
    const mine = this.own() ? entryOf(this, hash) : at;
    const { log } = this;
    const stamp = ++log.edits;
    log.notePeers.push(peerId);
    log.noteStamps.push(stamp);
    log.notePrevious.push(log.lastNote[mine]!);
    log.lastNote[mine] = log.notePeers.length - 1;
    this.edits = stamp;
    return true;
  }

  /** Removes a tx; false when it is not in the list. */
  remove(hash: string): boolean {
    if (this.size === 0) return false;
    const found = entryOf(this, hash);
    if (found < 0 || !live(this, found)) return false;
    const at = this.own() ? entryOf(this, hash) : found;
    const stamp = ++this.log.edits;
    this.log.goneAt[at] = stamp;
    this.edits = stamp;
    this.size--;
    return true;
  }

  /** The edited list, persistent again; the draft must not be used afterwards. */
  done(): GossipList {
    return GossipList.of(this);
  }
}
