// The address book: v0.34's admission rules (strict, private, ours, bans), new/old buckets and
// their limits, good/bad marks, selection sizes, and addrbook.json in v0.34's format, saved
// atomically, a damaged file moved aside with a reason.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  addAddress,
  addOurAddress,
  addPrivateIds,
  BUCKET_OLD,
  decodeAddrBook,
  emptyBook,
  encodeAddrBook,
  getSelection,
  isBanned,
  loadAddrBook,
  markAttempt,
  markBad,
  markGood,
  pickAddress,
  reinstateExpiredBans,
  saveAddrBook,
} from "../../src/p2p/addrbook/index.js";
import type { NetAddress } from "../../src/p2p/net-address.js";
import { randomFrom } from "../../src/p2p/switch/index.js";
import { tempFolder } from "../fixtures/temp-folder.js";

const id = (n: number) => n.toString(16).padStart(40, "0");
const at = (n: number, ip = `8.${(n >> 8) & 255}.${n & 255}.1`): NetAddress => ({
  id: id(n),
  ip,
  port: 26656,
});
const KEY = "0123456789abcdef01234567";
const random = randomFrom(1);

test("strict books refuse loopback and private addresses; lax ones keep them", () => {
  const strict = emptyBook(KEY, true);
  const r = addAddress(strict, at(1, "127.0.0.1"), at(2), 0, random);
  assert.equal(r.added, false);
  assert.match(r.added ? "" : r.reason, /not routable/);
  assert.equal(addAddress(strict, at(1, "192.168.1.1"), at(2), 0, random).added, false);
  assert.equal(addAddress(strict, at(1), at(2), 0, random).added, true);
  assert.equal(addAddress(emptyBook(KEY, false), at(1, "127.0.0.1"), at(2), 0, random).added, true);
});

test("private ids, addresses learned from private peers, ourselves and invalid ones are never stored", () => {
  let book = addPrivateIds(emptyBook(KEY, true), [id(5)]);
  book = addOurAddress(book, at(9));
  assert.equal(addAddress(book, at(5), at(2), 0, random).added, false);
  assert.equal(addAddress(book, at(6), at(5), 0, random).added, false);
  assert.equal(addAddress(book, at(9), at(2), 0, random).added, false);
  assert.equal(addAddress(book, { id: "zz", ip: "8.8.8.8", port: 1 }, at(2), 0, random).added, false);
  assert.equal(addAddress(book, at(1, "0.0.0.0"), at(2), 0, random).added, false);
});

test("an address sits in at most 4 new buckets; a good one moves to an old bucket and stays", () => {
  let book = emptyBook(KEY, true);
  const rnd = randomFrom(3);
  for (let s = 0; s < 500; s++)
    book = addAddress(book, at(1), at(1000 + s, `${9 + (s % 200)}.${s % 250}.1.1`), 0, rnd).book;
  const ka = book.addrs.get(id(1))!;
  assert.ok(ka.buckets.length >= 2 && ka.buckets.length <= 4, `buckets ${ka.buckets}`);
  book = markGood(book, id(1), 1000);
  const good = book.addrs.get(id(1))!;
  assert.equal(good.bucketType, BUCKET_OLD);
  assert.equal(good.buckets.length, 1);
  assert.equal(good.attempts, 0);
  assert.equal(
    book.newBuckets.reduce((n, b) => n + (b.has(id(1)) ? 1 : 0), 0),
    0,
  );
  const again = addAddress(book, at(1), at(77), 2000, rnd);
  assert.equal(again.added, false, "a known-good address is not re-filed as new (no IP hijack)");
});

test("a new bucket never holds more than 64 addresses", () => {
  let book = emptyBook(KEY, true);
  // one source group and one address group → the same few buckets
  for (let i = 0; i < 3000; i++)
    book = addAddress(
      book,
      at(i + 1, `8.8.${(i >> 8) & 255}.${i & 255}`),
      at(99999, "9.9.9.9"),
      i,
      random,
    ).book;
  for (const b of book.newBuckets.values()) assert.ok(b.size <= 64);
  assert.ok(book.addrs.size <= 32 * 64);
});

test("marking bad bans for 24 h, then the ban is lifted", () => {
  let book = addAddress(emptyBook(KEY, true), at(1), at(2), 0, random).book;
  book = markAttempt(book, id(1), 10);
  assert.equal(book.addrs.get(id(1))!.attempts, 1);
  book = markBad(book, at(1), 1_000);
  assert.equal(book.addrs.has(id(1)), false);
  assert.equal(isBanned(book, id(1), 1_000 + 86_399_999), true);
  assert.equal(addAddress(book, at(1), at(2), 2_000, random).added, false);
  book = reinstateExpiredBans(book, 1_000 + 86_400_000, random);
  assert.equal(book.addrs.has(id(1)), true);
});

test("selections carry 23 % of the book, at least 32, at most 250", () => {
  let book = emptyBook(KEY, false);
  const sizes: [number, number][] = [];
  for (let i = 1; i <= 2000; i++) {
    book = addAddress(book, at(i), at(100000 + (i % 37), `9.${i % 37}.0.1`), 0, random).book;
    if ([10, 100, 1000, 2000].includes(book.addrs.size))
      sizes.push([book.addrs.size, getSelection(book, random).length]);
  }
  const want = new Map([
    [10, 10],
    [100, 32],
    [1000, 230],
    [2000, 250],
  ]);
  for (const [size, n] of sizes) assert.equal(n, want.get(size), `size ${size}`);
  const picked = pickAddress(book, 50, random);
  assert.ok(picked && book.addrs.has(picked.id));
});

test("addrbook.json round-trips in v0.34's layout and loads a file written by v0.34", () => {
  let book = addAddress(emptyBook(KEY, true), at(1), at(2), Date.UTC(2026, 0, 2, 3, 4, 5, 678), random).book;
  book = markAttempt(book, id(1), Date.UTC(2026, 0, 2, 3, 4, 5, 678));
  const text = encodeAddrBook(book);
  assert.match(text, /^\{\n\t"key": "0123456789abcdef01234567",\n\t"addrs": \[\n\t\t\{\n\t\t\t"addr": \{/);
  assert.match(text, /"last_attempt": "2026-01-02T03:04:05.678Z"/);
  assert.match(text, /"last_success": "0001-01-01T00:00:00Z"/);
  assert.match(text, /"bucket_type": 1/);
  const back = decodeAddrBook(text, true, new Set());
  assert.deepEqual(back.addrs.get(id(1)), book.addrs.get(id(1)));
  const goFile = `{
\t"key": "a1b2c3d4e5f6a7b8c9d0e1f2",
\t"addrs": [
\t\t{
\t\t\t"addr": {"id": "${id(7)}", "ip": "1.2.3.4", "port": 26656},
\t\t\t"src": {"id": "${id(8)}", "ip": "5.6.7.8", "port": 26656},
\t\t\t"buckets": [3],
\t\t\t"attempts": 2,
\t\t\t"bucket_type": 2,
\t\t\t"last_attempt": "2023-05-01T10:00:00.123456789Z",
\t\t\t"last_success": "2023-05-01T10:00:00.123456789Z",
\t\t\t"last_ban_time": "0001-01-01T00:00:00Z"
\t\t}
\t]
}`;
  const go = decodeAddrBook(goFile, true, new Set());
  assert.equal(go.oldBuckets.get(3)!.has(id(7)), true);
  assert.equal(go.addrs.get(id(7))!.attempts, 2);
});

test("saving is atomic and readable; a damaged file is moved aside with the entry named", async () => {
  const dir = tempFolder("rxbft-addrbook-");
  const file = join(dir, "addrbook.json");
  const book = addAddress(emptyBook(KEY, true), at(1), at(2), 0, random).book;
  await saveAddrBook(file, book);
  assert.deepEqual(readdirSync(dir), ["addrbook.json"], "no temporary file left");
  assert.equal(statSync(file).mode & 0o777, 0o644);
  const loaded = loadAddrBook(file, true, new Set(), () => "f".repeat(24), 5);
  assert.equal(loaded.problem, undefined);
  assert.equal(loaded.book.addrs.size, 1);
  writeFileSync(file, JSON.stringify({ key: KEY, addrs: [{ addr: { id: id(1), ip: "nope", port: 1 } }] }));
  const bad = loadAddrBook(file, true, new Set(), () => "f".repeat(24), 5);
  assert.match(bad.problem!.reason, /addrs\[0\]\.addr\.ip: expected an IP address/);
  assert.equal(bad.book.addrs.size, 0);
  assert.equal(bad.book.key, "f".repeat(24));
  assert.ok(readFileSync(bad.problem!.movedTo, "utf8").includes("nope"));
});
