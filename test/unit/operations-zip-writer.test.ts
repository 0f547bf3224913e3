// The debug bundle's ZIP writer, checked by Info-ZIP's unzip (Debian package unzip): the archive
// tests clean, lists every entry, and gives back every byte, stored or deflated.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { buildZip, crc32 } from "../../src/operations/zip-writer.js";
import { tempFolder } from "../fixtures/temp-folder.js";

test("crc32 matches the standard check value", () => {
  assert.equal(crc32(Buffer.from("123456789")), 0xcbf43926);
  assert.equal(crc32(new Uint8Array(0)), 0);
});

test("unzip accepts the archive and returns every entry's bytes", () => {
  const entries = [
    { name: "status.json", data: Buffer.from(JSON.stringify({ a: "x".repeat(5000) })) }, // deflated
    { name: "random.bin", data: randomBytes(4096) }, // stored: deflate would not shrink it
    { name: "empty.txt", data: new Uint8Array(0) },
    { name: "dir/naïve.txt", data: Buffer.from("utf-8 name\n") },
  ];
  const file = join(tempFolder("rxbft-zip-"), "out.zip");
  writeFileSync(file, buildZip(entries));
  assert.match(execFileSync("unzip", ["-t", file], { encoding: "utf8" }), /No errors detected/);
  const listing = execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).trim().split("\n");
  assert.deepEqual(
    listing,
    entries.map((e) => e.name),
  );
  for (const entry of entries) {
    const out = execFileSync("unzip", ["-p", file, entry.name]);
    assert.ok(out.equals(Buffer.from(entry.data)), entry.name);
  }
});

test("entry names that could escape the extraction directory are refused", () => {
  assert.throws(() => buildZip([{ name: "../x", data: new Uint8Array(1) }]), /without "\.\."/);
  assert.throws(() => buildZip([{ name: "/etc/x", data: new Uint8Array(1) }]), /relative path/);
  assert.throws(
    () =>
      buildZip([
        { name: "a", data: new Uint8Array(1) },
        { name: "a", data: new Uint8Array(1) },
      ]),
    /appears twice/,
  );
});
