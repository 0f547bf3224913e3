// The log's bytes are a file format: a log written by this version must read the same in the next,
// and the same inputs must give the same bytes. test/fixtures/wal/format-v1 (no header), format-v2
// (a header record first) and format-v3 (a header with the segment's keys, keyed frames; written
// with fixed keys) were each written once by the code of their format; a change of framing, record
// types or codec breaks this test on purpose.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { readWal, type WalEntry } from "../../src/wal/log-reader.js";
import { Wal } from "../../src/wal/wal.js";
import { tempFolder } from "../fixtures/temp-folder.js";

const FIXTURE_V1 = fileURLToPath(new URL("../fixtures/wal/format-v1", import.meta.url));
const FIXTURE = fileURLToPath(new URL("../fixtures/wal/format-v2", import.meta.url));
const FIXTURE_V3 = fileURLToPath(new URL("../fixtures/wal/format-v3", import.meta.url));
/** The keys the format-v3 fixture was written with ("keysfixd"). */
const FIXTURE_V3_KEYS = new TextEncoder().encode("keysfixd");

const first = {
  type: "TimeoutElapsed",
  height: 1n,
  round: 0,
  step: 3,
  time: { seconds: 1700000000n, nanos: 5 },
};
const second = {
  type: "VoteReceived",
  peer: "ab",
  vote: {
    height: 2n,
    signature: new Uint8Array([1, 2, 3]),
    extra: undefined,
    ok: true,
    n: null,
    f: 0.5,
    list: [-1, "é"],
  },
};
const expected: WalEntry[] = [
  { kind: "input", input: first },
  { kind: "end-height", height: 1n },
  { kind: "input", input: second },
];

test("the version-1 fixture (before the header) still reads as the inputs and marker it was written from", async () => {
  const got: WalEntry[] = [];
  for await (const e of readWal(FIXTURE_V1)) got.push(e);
  assert.deepStrictEqual(got, expected);
});

test("the version-2 fixture reads as the same entries; its header record yields none", async () => {
  const got: WalEntry[] = [];
  for await (const e of readWal(FIXTURE)) got.push(e);
  assert.deepStrictEqual(got, expected);
});

test("a version-2 segment starts with [length 11][CRC-32C][type 3]RXBFTLOG[version u16 BE]", () => {
  const bytes = readFileSync(join(FIXTURE, "wal.000000000000"));
  assert.equal(bytes.subarray(0, 4).toString("hex"), "0000000b");
  assert.equal(bytes[8], 3);
  assert.equal(bytes.subarray(9, 17).toString("latin1"), "RXBFTLOG");
  assert.equal(bytes.readUInt16BE(17), 2);
});

test("the version-3 fixture reads as the same entries", async () => {
  const got: WalEntry[] = [];
  for await (const e of readWal(FIXTURE_V3)) got.push(e);
  assert.deepStrictEqual(got, expected);
});

test("a version-3 segment starts with [length 19][CRC-32C][type 3]RXBFTLOG[version 3][head key][body key]", () => {
  const bytes = readFileSync(join(FIXTURE_V3, "wal.000000000000"));
  assert.equal(bytes.subarray(0, 4).toString("hex"), "00000013");
  assert.equal(bytes[8], 3);
  assert.equal(bytes.subarray(9, 17).toString("latin1"), "RXBFTLOG");
  assert.equal(bytes.readUInt16BE(17), 3);
  assert.deepEqual(new Uint8Array(bytes.subarray(19, 27)), FIXTURE_V3_KEYS);
});

test("a version-3 end-of-height frame is [length 9][body check][type 2][head check][height u64 BE]", () => {
  const bytes = readFileSync(join(FIXTURE_V3, "wal.000000000000"));
  const firstInput = 27;
  const marker = firstInput + 12 + bytes.readUInt32BE(firstInput);
  // Body check: CRC-32C of "sfix" 02 0000000000000001; head check: CRC-32C of "keys" and the
  // first nine bytes.
  assert.equal(
    bytes.subarray(marker, marker + 21).toString("hex"),
    "00000009db1cca87027543fb4b0000000000000001",
  );
});

test("writing the same inputs gives the version-3 fixture's bytes (with its keys)", async () => {
  const dir = join(tempFolder("rxbft-wal-format-"), "cs.wal");
  const wal = await Wal.open(dir, { segmentKeys: () => FIXTURE_V3_KEYS });
  wal.appendInput(first);
  await wal.endHeight(1n);
  wal.appendInput(second);
  await wal.close();
  const name = "wal.000000000000";
  assert.equal(
    readFileSync(join(dir, name)).toString("hex"),
    readFileSync(join(FIXTURE_V3, name)).toString("hex"),
  );
});

test("an end-of-height frame is [length 9][CRC-32C][type 2][height u64 BE]", () => {
  const bytes = readFileSync(join(FIXTURE_V1, "wal.000000000000"));
  const firstLength = bytes.readUInt32BE(0);
  const marker = bytes.subarray(8 + firstLength, 8 + firstLength + 17);
  // CRC-32C of 02 0000000000000001 is 0xA41F31C1.
  assert.equal(marker.toString("hex"), "00000009a41f31c1020000000000000001");
});
