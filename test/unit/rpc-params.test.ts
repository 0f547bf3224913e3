import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RpcError } from "../../src/rpc/errors.js";
import { decodeBase64, decodeHex } from "../../src/rpc/jsonrpc/bytes-text.js";
import { argsFromJsonParams } from "../../src/rpc/jsonrpc/params.js";
import { argsFromUri } from "../../src/rpc/jsonrpc/uri-params.js";
import type { ParamSpec } from "../../src/rpc/route-spec.js";

const bytes = (text: string) => new Uint8Array(Buffer.from(text));

function rejects(run: () => unknown, data: RegExp): void {
  assert.throws(
    run,
    (e: unknown) => e instanceof RpcError && e.code === "RPC_INVALID_PARAMS" && data.test(e.message),
  );
}

describe("byte decoders", () => {
  it("decode hex of either case and report Go's errors", () => {
    assert.deepEqual(decodeHex("aBcD"), new Uint8Array([0xab, 0xcd]));
    assert.throws(() => decodeHex("abc"), /encoding\/hex: odd length hex string/);
    assert.throws(() => decodeHex("zz"), /encoding\/hex: invalid byte: U\+007A 'z'/);
  });

  it("decode padded standard base64 only", () => {
    assert.deepEqual(decodeBase64("aGVsbG8="), bytes("hello"));
    assert.deepEqual(decodeBase64("aGVs\nbG8="), bytes("hello"));
    assert.deepEqual(decodeBase64(""), new Uint8Array(0));
    assert.throws(() => decodeBase64("aGVsbG8"), /illegal base64 data at input byte 4/);
    assert.throws(() => decodeBase64("aGV_bG8="), /illegal base64 data at input byte 3/);
    assert.throws(() => decodeBase64("aG=sbG8="), /illegal base64 data at input byte 3/);
    assert.throws(() => decodeBase64("a==="), /illegal base64 data at input byte 3/);
  });
});

describe("JSON-RPC params (reference §2.3)", () => {
  const blockchain: ParamSpec[] = [
    { name: "minHeight", type: "int64" },
    { name: "maxHeight", type: "int64" },
  ];
  const validators: ParamSpec[] = [
    { name: "height", type: "int64", optional: true },
    { name: "page", type: "int", optional: true },
    { name: "per_page", type: "int", optional: true },
  ];

  it("reads params by name, missing and null names taking zero values or undefined", () => {
    assert.deepEqual(argsFromJsonParams(blockchain, { minHeight: "5" }), { minHeight: 5n, maxHeight: 0n });
    assert.deepEqual(argsFromJsonParams(validators, { height: null, page: 2 }), {
      height: undefined,
      page: 2,
      per_page: undefined,
    });
    assert.deepEqual(argsFromJsonParams(validators, undefined), {
      height: undefined,
      page: undefined,
      per_page: undefined,
    });
    assert.deepEqual(argsFromJsonParams(validators, null), {
      height: undefined,
      page: undefined,
      per_page: undefined,
    });
  });

  it("reads params by position, needing exactly one per parameter", () => {
    assert.deepEqual(argsFromJsonParams(blockchain, ["1", 9]), { minHeight: 1n, maxHeight: 9n });
    rejects(
      () => argsFromJsonParams(blockchain, ["1"]),
      /^error converting json params to arguments: expected 2 parameters \(\[minHeight maxHeight\]\), got 1/,
    );
  });

  it("accepts integers as JSON numbers or decimal strings, within range", () => {
    const h: ParamSpec[] = [{ name: "height", type: "int64" }];
    assert.deepEqual(argsFromJsonParams(h, { height: "9223372036854775807" }), {
      height: 9223372036854775807n,
    });
    assert.deepEqual(argsFromJsonParams(h, { height: "-3" }), { height: -3n });
    rejects(
      () => argsFromJsonParams(h, { height: "9223372036854775808" }),
      /height: value 9223372036854775808 out of range for int64/,
    );
    rejects(() => argsFromJsonParams(h, { height: 1.5 }), /height: expected an integer, got 1.5/);
    rejects(() => argsFromJsonParams(h, { height: 2 ** 60 }), /cannot be read exactly from a JSON number/);
    rejects(() => argsFromJsonParams(h, { height: "12a" }), /height: invalid integer "12a"/);
    rejects(() => argsFromJsonParams(h, { height: true }), /height: expected an integer/);
    const chunk: ParamSpec[] = [{ name: "chunk", type: "uint" }];
    rejects(() => argsFromJsonParams(chunk, { chunk: -1 }), /chunk: value -1 out of range for uint/);
    const page: ParamSpec[] = [{ name: "page", type: "int", optional: true }];
    assert.deepEqual(argsFromJsonParams(page, { page: "9223372036854775807" }), {
      page: Number.MAX_SAFE_INTEGER,
    });
  });

  it("reads tx and hash as base64, hash also as 64 hex digits, data as hex", () => {
    const tx: ParamSpec[] = [{ name: "tx", type: "bytes" }];
    assert.deepEqual(argsFromJsonParams(tx, { tx: "a2V5PXZhbHVl" }), { tx: bytes("key=value") });
    rejects(() => argsFromJsonParams(tx, { tx: "key=value" }), /tx: illegal base64 data at input byte 4/);
    rejects(() => argsFromJsonParams(tx, { tx: 5 }), /tx: expected a base64 string, got 5/);
    const hash: ParamSpec[] = [{ name: "hash", type: "hash" }];
    const hex = "AB".repeat(32);
    assert.deepEqual(argsFromJsonParams(hash, { hash: hex }), { hash: new Uint8Array(32).fill(0xab) });
    assert.deepEqual(argsFromJsonParams(hash, { hash: `0x${hex}` }), { hash: new Uint8Array(32).fill(0xab) });
    assert.deepEqual(argsFromJsonParams(hash, { hash: Buffer.alloc(32, 7).toString("base64") }), {
      hash: new Uint8Array(32).fill(7),
    });
    const data: ParamSpec[] = [{ name: "data", type: "hexBytes" }];
    assert.deepEqual(argsFromJsonParams(data, { data: "6b6579" }), { data: bytes("key") });
    rejects(() => argsFromJsonParams(data, { data: "6b657" }), /data: encoding\/hex: odd length hex string/);
  });

  it("checks bools, strings and string arrays", () => {
    const specs: ParamSpec[] = [
      { name: "prove", type: "bool" },
      { name: "query", type: "string" },
      { name: "peers", type: "stringArray" },
    ];
    assert.deepEqual(argsFromJsonParams(specs, { prove: true, query: "a", peers: ["x"] }), {
      prove: true,
      query: "a",
      peers: ["x"],
    });
    assert.deepEqual(argsFromJsonParams(specs, {}), { prove: false, query: "", peers: [] });
    rejects(() => argsFromJsonParams(specs, { prove: "true" }), /prove: expected true or false/);
    rejects(() => argsFromJsonParams(specs, { query: 5 }), /query: expected a string, got 5/);
    rejects(() => argsFromJsonParams(specs, { peers: ["a", 1] }), /peers: expected an array of strings/);
  });

  it("refuses params that are neither object nor array", () => {
    rejects(
      () => argsFromJsonParams(blockchain, "5"),
      /unknown type for JSON params: string. Expected map or array/,
    );
    rejects(() => argsFromJsonParams(blockchain, 5), /unknown type for JSON params: number/);
  });
});

describe("URI params (reference §2.4)", () => {
  const lookup = (values: Record<string, string>) => (name: string) => values[name];
  const specs: ParamSpec[] = [
    { name: "height", type: "int64", optional: true },
    { name: "tx", type: "bytes" },
    { name: "query", type: "string" },
    { name: "prove", type: "bool" },
    { name: "data", type: "hexBytes" },
    { name: "hash", type: "hash" },
  ];

  it("reads bare integers, quoted integers, and treats empty as absent", () => {
    assert.equal(argsFromUri(specs, lookup({ height: "5" })).height, 5n);
    assert.equal(argsFromUri(specs, lookup({ height: '"7"' })).height, 7n);
    assert.equal(argsFromUri(specs, lookup({ height: "" })).height, undefined);
    assert.equal(argsFromUri(specs, lookup({ height: "-2" })).height, -2n);
  });

  it("reads 0x hex for strings and bytes, and refuses it for other kinds", () => {
    assert.deepEqual(argsFromUri(specs, lookup({ tx: "0x6b6579" })).tx, bytes("key"));
    assert.deepEqual(argsFromUri(specs, lookup({ data: "0X6B6579" })).data, bytes("key"));
    assert.equal(argsFromUri(specs, lookup({ query: "0x6b6579" })).query, "key");
    rejects(
      () => argsFromUri(specs, lookup({ height: "0x10" })),
      /^error converting http params to arguments: height: got a hex string arg, but expected 'int64'$/,
    );
    rejects(
      () => argsFromUri(specs, lookup({ prove: "0x01" })),
      /prove: got a hex string arg, but expected 'bool'/,
    );
    rejects(() => argsFromUri(specs, lookup({ tx: "0xabc" })), /tx: encoding\/hex: odd length hex string/);
    rejects(() => argsFromUri(specs, lookup({ tx: "0xzz" })), /tx: encoding\/hex: invalid byte/);
  });

  it("reads a quoted value of a byte parameter as its raw UTF-8 bytes, not base64", () => {
    assert.deepEqual(argsFromUri(specs, lookup({ tx: '"name=satoshi"' })).tx, bytes("name=satoshi"));
    assert.deepEqual(argsFromUri(specs, lookup({ tx: '"a\\"b"' })).tx, bytes('a"b'));
    assert.deepEqual(argsFromUri(specs, lookup({ data: '"abc"' })).data, bytes("abc"));
  });

  it("reads everything else as JSON: strings must be quoted, bools bare", () => {
    assert.equal(argsFromUri(specs, lookup({ query: "\"tm.event='Tx'\"" })).query, "tm.event='Tx'");
    assert.equal(argsFromUri(specs, lookup({ prove: "true" })).prove, true);
    rejects(
      () => argsFromUri(specs, lookup({ query: "tm.event='Tx'" })),
      /query: .* is not valid JSON \(strings must be "quoted"\)/,
    );
    rejects(() => argsFromUri(specs, lookup({ prove: "1" })), /prove: expected true or false, got 1/);
    rejects(() => argsFromUri(specs, lookup({ tx: "bmFtZQ==" })), /tx: .* is not valid JSON/);
  });

  it("takes a bare 64-digit hex hash, as explorers show it", () => {
    assert.deepEqual(
      argsFromUri(specs, lookup({ hash: "cd".repeat(32) })).hash,
      new Uint8Array(32).fill(0xcd),
    );
    assert.deepEqual(
      argsFromUri(specs, lookup({ hash: `0x${"cd".repeat(32)}` })).hash,
      new Uint8Array(32).fill(0xcd),
    );
  });
});
