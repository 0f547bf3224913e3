// The address book as a persistent (immutable) value: every operation returns a new book, so the
// PEX reducer that owns it stays pure. Time (`now`, ms) and randomness (`random`) are passed in.
// New addresses go to "new" buckets (up to 4 each, grouped by the source's network so one source
// cannot fill the book); addresses proven good move to "old" buckets; failures count attempts;
// abuse bans an address for 24 h. Rules of v0.34's p2p/pex/addrbook.go.
import { Map as IMap, OrderedSet } from "immutable";
import { dialString, isRoutable, isValidAddress, type NetAddress } from "../net-address.js";
import { newBucketIndex, oldBucketIndex } from "./bucket-index.js";
import { BUCKET_NEW, BUCKET_OLD, isBad, type KnownAddress } from "./known-address.js";
import {
  BAN_MS,
  BUCKET_SIZE,
  GET_SELECTION_PERCENT,
  MAX_GET_SELECTION,
  MAX_NEW_BUCKETS_PER_ADDRESS,
  MIN_GET_SELECTION,
  NEED_ADDRESS_THRESHOLD,
} from "./params.js";

type Bucket = OrderedSet<string>;

export interface AddrBook {
  /** 24 hex characters, random per book, saved in the file */
  readonly key: string;
  readonly strict: boolean;
  readonly addrs: IMap<string, KnownAddress>;
  readonly newBuckets: IMap<number, Bucket>;
  readonly oldBuckets: IMap<number, Bucket>;
  /** banned entries, by id, with their ban time (kept in memory only, as in v0.34) */
  readonly banned: IMap<string, KnownAddress>;
  /** ids never stored or gossiped (private_peer_ids) */
  readonly privateIds: ReadonlySet<string>;
  /** our own addresses (dial strings) and id: never stored */
  readonly ours: ReadonlySet<string>;
}

export function emptyBook(
  key: string,
  strict: boolean,
  privateIds: ReadonlySet<string> = new Set(),
): AddrBook {
  return {
    key,
    strict,
    addrs: IMap(),
    newBuckets: IMap(),
    oldBuckets: IMap(),
    banned: IMap(),
    privateIds,
    ours: new Set(),
  };
}

export const bookSize = (book: AddrBook): number => book.addrs.size;
export const needsMoreAddresses = (book: AddrBook): boolean => book.addrs.size < NEED_ADDRESS_THRESHOLD;
export const hasId = (book: AddrBook, id: string): boolean => book.addrs.has(id);
export const isBanned = (book: AddrBook, id: string, now: number): boolean => {
  const b = book.banned.get(id);
  return b !== undefined && b.lastBanTime + BAN_MS > now;
};

export function addOurAddress(book: AddrBook, addr: NetAddress): AddrBook {
  const ours = new Set(book.ours);
  ours.add(dialString(addr));
  ours.add(addr.id);
  return removeAddress({ ...book, ours }, addr.id);
}

export function addPrivateIds(book: AddrBook, ids: Iterable<string>): AddrBook {
  const privateIds = new Set(book.privateIds);
  for (const id of ids) privateIds.add(id);
  let next: AddrBook = { ...book, privateIds };
  for (const id of privateIds) next = removeAddress(next, id);
  return next;
}

export type AddResult = { book: AddrBook; added: true } | { book: AddrBook; added: false; reason: string };

/** Why an address is not stored, in v0.34's order; undefined when it may be. */
export function addRefusal(
  book: AddrBook,
  addr: NetAddress,
  src: NetAddress,
  now: number,
): string | undefined {
  if (!isValidAddress(addr)) return "invalid address";
  if (book.ours.has(addr.id) || book.ours.has(dialString(addr))) return "our own address";
  if (book.privateIds.has(addr.id)) return "private peer id";
  if (book.privateIds.has(src.id)) return "learned from a private peer";
  if (book.strict && !isRoutable(addr)) return "not routable (addr_book_strict = true)";
  if (isBanned(book, addr.id, now)) return "banned";
  return undefined;
}

/** Adds an address learned from `src` to a new bucket (rules above). */
export function addAddress(
  book: AddrBook,
  addr: NetAddress,
  src: NetAddress,
  now: number,
  random: () => number,
): AddResult {
  const refusal = addRefusal(book, addr, src, now);
  if (refusal !== undefined) return { book, added: false, reason: refusal };
  const known = book.addrs.get(addr.id);
  let ka: KnownAddress;
  if (known) {
    if (known.bucketType === BUCKET_OLD) return { book, added: false, reason: "already known as good" };
    if (known.buckets.length >= MAX_NEW_BUCKETS_PER_ADDRESS)
      return { book, added: false, reason: "in enough buckets" };
    // the more buckets it is in, the less likely it is added to another
    if (random() * 2 * known.buckets.length >= 1)
      return { book, added: false, reason: "not added this time" };
    ka = known;
  } else {
    ka = {
      addr,
      src,
      buckets: [],
      attempts: 0,
      bucketType: BUCKET_NEW,
      lastAttempt: 0,
      lastSuccess: 0,
      lastBanTime: 0,
    };
  }
  const bucket = newBucketIndex(book.key, addr, src, book.strict);
  if (ka.buckets.includes(bucket)) return { book, added: false, reason: "already in that bucket" };
  let next = book;
  const members = next.newBuckets.get(bucket) ?? OrderedSet<string>();
  if (members.size >= BUCKET_SIZE) next = expireNew(next, bucket, now);
  next = placeInNew(next, { ...ka, buckets: [...ka.buckets, bucket] }, bucket);
  return { book: next, added: true };
}

function placeInNew(book: AddrBook, ka: KnownAddress, bucket: number): AddrBook {
  const members = book.newBuckets.get(bucket) ?? OrderedSet<string>();
  return {
    ...book,
    addrs: book.addrs.set(ka.addr.id, ka),
    newBuckets: book.newBuckets.set(bucket, members.add(ka.addr.id)),
  };
}

/** Makes room in a full new bucket: a bad entry goes, else the oldest. */
function expireNew(book: AddrBook, bucket: number, now: number): AddrBook {
  const members = book.newBuckets.get(bucket) ?? OrderedSet<string>();
  let victim: string | undefined;
  let oldest: KnownAddress | undefined;
  for (const id of members) {
    const ka = book.addrs.get(id)!;
    if (isBad(ka, now)) {
      victim = id;
      break;
    }
    if (oldest === undefined || ka.lastAttempt < oldest.lastAttempt) oldest = ka;
  }
  return removeFromNewBucket(book, victim ?? oldest!.addr.id, bucket);
}

function removeFromNewBucket(book: AddrBook, id: string, bucket: number): AddrBook {
  const ka = book.addrs.get(id);
  if (!ka) return book;
  const members = (book.newBuckets.get(bucket) ?? OrderedSet<string>()).remove(id);
  const buckets = ka.buckets.filter((b) => b !== bucket);
  const newBuckets =
    members.size === 0 ? book.newBuckets.remove(bucket) : book.newBuckets.set(bucket, members);
  const addrs = buckets.length === 0 ? book.addrs.remove(id) : book.addrs.set(id, { ...ka, buckets });
  return { ...book, newBuckets, addrs };
}

export function removeAddress(book: AddrBook, id: string): AddrBook {
  const ka = book.addrs.get(id);
  if (!ka) return book;
  const from = ka.bucketType === BUCKET_OLD ? "oldBuckets" : "newBuckets";
  let buckets = book[from];
  for (const b of ka.buckets) {
    const members = (buckets.get(b) ?? OrderedSet<string>()).remove(id);
    buckets = members.size === 0 ? buckets.remove(b) : buckets.set(b, members);
  }
  return { ...book, [from]: buckets, addrs: book.addrs.remove(id) };
}

/** A dial failed: one more attempt. */
export function markAttempt(book: AddrBook, id: string, now: number): AddrBook {
  const ka = book.addrs.get(id);
  if (!ka) return book;
  return { ...book, addrs: book.addrs.set(id, { ...ka, attempts: ka.attempts + 1, lastAttempt: now }) };
}

/**
 * The peer proved useful: its address moves to an old bucket, attempts reset. A full old bucket
 * sends its oldest entry back to a new bucket.
 */
export function markGood(book: AddrBook, id: string, now: number): AddrBook {
  const ka = book.addrs.get(id);
  if (!ka) return book;
  const good: KnownAddress = { ...ka, lastSuccess: now, lastAttempt: now, attempts: 0 };
  if (ka.bucketType === BUCKET_OLD) return { ...book, addrs: book.addrs.set(id, good) };
  let next = removeAddress(book, id);
  const bucket = oldBucketIndex(book.key, ka.addr, book.strict);
  const members = next.oldBuckets.get(bucket) ?? OrderedSet<string>();
  if (members.size >= BUCKET_SIZE) {
    let oldest: KnownAddress | undefined;
    for (const m of members) {
      const o = next.addrs.get(m)!;
      if (oldest === undefined || o.lastAttempt < oldest.lastAttempt) oldest = o;
    }
    next = removeAddress(next, oldest!.addr.id);
    const demoted: KnownAddress = { ...oldest!, bucketType: BUCKET_NEW, buckets: [] };
    const nb = newBucketIndex(book.key, demoted.addr, demoted.src, book.strict);
    if ((next.newBuckets.get(nb)?.size ?? 0) >= BUCKET_SIZE) next = expireNew(next, nb, now);
    next = placeInNew(next, { ...demoted, buckets: [nb] }, nb);
  }
  const placed: KnownAddress = { ...good, bucketType: BUCKET_OLD, buckets: [bucket] };
  return {
    ...next,
    addrs: next.addrs.set(id, placed),
    oldBuckets: next.oldBuckets.set(bucket, (next.oldBuckets.get(bucket) ?? OrderedSet<string>()).add(id)),
  };
}

/** Removes the address and bans its id for 24 h (PEX abuse, too many failed dials). */
export function markBad(book: AddrBook, addr: NetAddress, now: number): AddrBook {
  const ka = book.addrs.get(addr.id);
  const entry: KnownAddress = ka
    ? { ...ka, lastBanTime: now }
    : {
        addr,
        src: addr,
        buckets: [],
        attempts: 0,
        bucketType: BUCKET_NEW,
        lastAttempt: 0,
        lastSuccess: 0,
        lastBanTime: now,
      };
  return { ...removeAddress(book, addr.id), banned: book.banned.set(addr.id, entry) };
}

/** Bans past their 24 h are lifted and the addresses return to the book. */
export function reinstateExpiredBans(book: AddrBook, now: number, random: () => number): AddrBook {
  let next = book;
  for (const [id, ka] of book.banned) {
    if (ka.lastBanTime + BAN_MS > now) continue;
    next = { ...next, banned: next.banned.remove(id) };
    next = addAddress(next, ka.addr, ka.src, now, random).book;
  }
  return next;
}

/**
 * One address to dial, drawn from the new or the old buckets: `biasNewPercent` (0–100) is the
 * chance of asking the new ones when both have entries.
 */
export function pickAddress(
  book: AddrBook,
  biasNewPercent: number,
  random: () => number,
): NetAddress | undefined {
  if (book.addrs.size === 0) return undefined;
  const bias = Math.max(0, Math.min(100, biasNewPercent));
  const oldCount = book.oldBuckets.reduce((n, b) => n + b.size, 0);
  const newCount = book.newBuckets.reduce((n, b) => n + b.size, 0);
  const oldCorrelation = Math.sqrt(oldCount) * (100 - bias);
  const newCorrelation = Math.sqrt(newCount) * bias;
  const useNew = (newCorrelation + oldCorrelation) * random() < oldCorrelation ? false : newCount > 0;
  const buckets = [...(useNew || oldCount === 0 ? book.newBuckets : book.oldBuckets).values()];
  if (buckets.length === 0) return undefined;
  const bucket = buckets[Math.floor(random() * buckets.length)]!;
  const ids = bucket.toArray();
  return book.addrs.get(ids[Math.floor(random() * ids.length)]!)?.addr;
}

function selectionSize(size: number): number {
  return Math.min(
    MAX_GET_SELECTION,
    Math.max(Math.min(MIN_GET_SELECTION, size), Math.floor((size * GET_SELECTION_PERCENT) / 100)),
  );
}

/** What a PEX answer carries: a random 23 % of the book (at least 32 when there are, at most 250). */
export function getSelection(book: AddrBook, random: () => number): NetAddress[] {
  const all = [...book.addrs.values()];
  const n = selectionSize(all.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (all.length - i));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, n).map((ka) => ka.addr);
}

/** A selection with `biasNewPercent` % taken from new addresses (seeds answer with 30). */
export function getSelectionWithBias(
  book: AddrBook,
  biasNewPercent: number,
  random: () => number,
): NetAddress[] {
  const all = [...book.addrs.values()];
  const n = selectionSize(all.length);
  const shuffle = (list: KnownAddress[]) => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  };
  const fresh = shuffle(all.filter((ka) => ka.bucketType === BUCKET_NEW));
  const good = shuffle(all.filter((ka) => ka.bucketType === BUCKET_OLD));
  const wantNew = Math.min(fresh.length, Math.round((n * biasNewPercent) / 100));
  const picked = [...fresh.slice(0, wantNew), ...good.slice(0, n - wantNew)];
  if (picked.length < n) picked.push(...fresh.slice(wantNew, wantNew + n - picked.length));
  return picked.map((ka) => ka.addr);
}
