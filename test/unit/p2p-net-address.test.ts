// Address parsing, routability and bucket group keys against v0.34's tables (netaddress_test.go,
// addrbook_test.go TestAddrBookGroupKey; the group-key table is vendored in test/fixtures/p2p/).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  formatNetAddress,
  groupKey,
  isLocal,
  isRoutable,
  isValidAddress,
  normaliseIp,
  parseAddressSpec,
  parseNetAddress,
} from "../../src/p2p/net-address.js";

const ID = "deadbeefdeadbeefdeadbeefdeadbeefdeadbeef";
const vectors = JSON.parse(
  readFileSync(new URL("../fixtures/p2p/repo-message-vectors.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

test("v0.34's accepted address strings parse and print without the scheme", () => {
  for (const s of [`${ID}@127.0.0.1:8080`, `tcp://${ID}@127.0.0.1:8080`, `udp://${ID}@127.0.0.1:8080`]) {
    assert.equal(formatNetAddress(parseNetAddress(s)), `${ID}@127.0.0.1:8080`, s);
  }
  const named = parseAddressSpec(`${ID}@ya.ru:80`);
  assert.deepEqual(named, { id: ID, host: "ya.ru", port: 80, needsLookup: true });
  assert.equal(formatNetAddress(parseNetAddress(`${ID}@[::1]:26656`)), `${ID}@[::1]:26656`);
});

test("v0.34's rejected address strings are rejected with a reason naming the input", () => {
  const rejected = [
    "127.0.0.1:8080",
    "tcp://127.0.0.1:8080",
    `tcp//${ID}@127.0.0.1:8080`,
    "notahost",
    "127.0.0.1:notapath",
    "8082",
    "127.0.0:8080000",
    "deadbeef@127.0.0.1:8080",
    "this-isnot-hex@127.0.0.1:8080",
    `xxxxbeefdeadbeefdeadbeefdeadbeefdeadbeef@127.0.0.1:8080`,
    "tcp://@127.0.0.1:8080",
    "tcp://@",
    "tcp://:26656",
    "",
    "@",
    " @",
    " @ ",
    `${ID}@127.0.0.1:65536`,
    `${ID}@:26656`,
  ];
  for (const s of rejected) assert.throws(() => parseAddressSpec(s), /address|ID/, JSON.stringify(s));
});

test("validity, locality and routability follow v0.34", () => {
  const a = (ip: string) => ({ id: ID, ip, port: 1 });
  assert.equal(isLocal("127.0.0.1"), true);
  assert.equal(isRoutable(a("127.0.0.1")), false);
  assert.equal(isValidAddress(a("127.0.0.1")), true);
  assert.equal(isRoutable(a("8.8.8.8")), true);
  assert.equal(isRoutable(a("10.0.0.1")), false);
  assert.equal(isValidAddress(a("0.0.0.0")), false);
  assert.equal(isValidAddress(a("255.255.255.255")), false);
  assert.equal(isValidAddress(a("2001:db8::1")), false);
  assert.equal(isValidAddress({ id: "abc", ip: "8.8.8.8", port: 1 }), false);
  assert.equal(normaliseIp("::ffff:1.2.3.4"), "1.2.3.4");
  assert.equal(normaliseIp("2001:0DB8:0000:0000:0000:0000:0000:0001"), "2001:db8::1");
});

test("group keys match TestAddrBookGroupKey in both modes", () => {
  const table = vectors["addrbook group keys (p2p/pex/addrbook_test.go TestAddrBookGroupKey)"] as Record<
    string,
    [string, string][]
  >;
  for (const [mode, rows] of Object.entries(table)) {
    const strict = mode === "strict=true";
    assert.ok(rows.length > 10);
    for (const [ip, key] of rows) assert.equal(groupKey(ip, strict), key, `${mode} ${ip}`);
  }
});
