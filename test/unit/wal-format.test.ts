// The log's bytes are a file format: a log written by this version must read the same in the next,
// and the same inputs must give the same bytes. test/fixtures/wal/format-v1 (no header) and
// format-v2 (a header record first) were each written once by the code of their format; a change
// of framing, record types or codec breaks this test on purpose.
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

test("writing the same inputs gives the fixture's bytes", async () => {
  const dir = join(tempFolder("rxbft-wal-format-"), "cs.wal");
  const wal = await Wal.open(dir);
  wal.appendInput(first);
  await wal.endHeight(1n);
  wal.appendInput(second);
  await wal.close();
  const name = "wal.000000000000";
  assert.equal(
    readFileSync(join(dir, name)).toString("hex"),
    readFileSync(join(FIXTURE, name)).toString("hex"),
  );
});

test("an end-of-height frame is [length 9][CRC-32C][type 2][height u64 BE]", () => {
  const bytes = readFileSync(join(FIXTURE_V1, "wal.000000000000"));
  const firstLength = bytes.readUInt32BE(0);
  const marker = bytes.subarray(8 + firstLength, 8 + firstLength + 17);
  // CRC-32C of 02 0000000000000001 is 0xA41F31C1.
  assert.equal(marker.toString("hex"), "00000009a41f31c1020000000000000001");
});
