// The short path of a bytes argument read from the raw query (plainBytesArg): whenever it takes a
// query, the bytes are those the general path (URLSearchParams + argsFromUri) reads; it takes the
// shapes clients send; anything else is left to the general path, so every error message stays
// the general path's, through the front as a client sees it.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { RpcContext } from "../../src/rpc/context.js";
import { passThroughEncoder } from "../../src/rpc/encoder.js";
import { argsFromUri, plainBytesArg } from "../../src/rpc/jsonrpc/uri-params.js";
import { resolveRpcOptions } from "../../src/rpc/options.js";
import { ServerCore } from "../../src/rpc/server/server-core.js";
import { httpCall } from "./rpc-http-call.js";

const SPEC = [{ name: "tx", type: "bytes" as const }];

/** What the general path reads from the query, or its error message. */
function general(query: string): Uint8Array | string {
  const params = new URLSearchParams(query);
  try {
    return argsFromUri(SPEC, (name) => params.get(name) ?? undefined).tx as Uint8Array;
  } catch (error) {
    return (error as Error).message;
  }
}

test("the short path takes the shapes clients send, with the general path's bytes", () => {
  const taken = [
    `tx=%22${"k-0-1=".padEnd(100, "v")}%22`,
    "tx=%22%22",
    "tx=%22a=b;c:d/e?f'g*h~i!j$k(l)m,n@o[p]q{r}s|t^u`v<w>x%22",
    "tx=0x",
    "tx=0xDEADbeef00",
    "tx=0X0a",
  ];
  for (const query of taken) {
    const plain = plainBytesArg(query, "tx");
    assert.ok(plain !== undefined, `${query} takes the short path`);
    assert.deepEqual(plain, general(query), query);
  }
});

test("every other shape is left to the general path", () => {
  const left = [
    "tx=",
    "tx",
    "txs=%22a%22",
    "t=%22a%22",
    "tx=%22a%22&tx=%22b%22",
    "tx=%22a+b%22",
    "tx=%22%61%22",
    'tx=%22a"b%22',
    "tx=%22a\\nb%22",
    "tx=%22a b%22",
    "tx=%22é%22",
    "tx=%22abc",
    "tx=%22",
    "tx=abc",
    "tx=0xabc",
    "tx=0xZZ",
    "tx=0x\u0010\u0011",
    "tx=1234",
  ];
  for (const query of left) assert.equal(plainBytesArg(query, "tx"), undefined, query);
});

test("random queries: when the short path takes one, the general path reads the same bytes", () => {
  // printable ASCII and a few others, so escapes, separators and quotes all turn up
  const alphabet = " !\"#$%&'()*+,-./0123456789:;<=>?@AZaz[\\]^_`{|}~\u00e9\u0001";
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  let taken = 0;
  for (let n = 0; n < 20_000; n++) {
    let body = "";
    const length = next() % 12;
    for (let i = 0; i < length; i++) body += alphabet[next() % alphabet.length];
    const shape = next() % 3;
    const query = shape === 0 ? `tx=%22${body}%22` : shape === 1 ? `tx=0x${body}` : `tx=${body}`;
    const plain = plainBytesArg(query, "tx");
    if (plain === undefined) continue;
    taken++;
    assert.deepEqual(plain, general(query), JSON.stringify(query));
  }
  assert.ok(taken > 500, `the short path took ${taken} of the random queries`);
});

const context: RpcContext = {
  broadcastTxSync: (tx) => ({ code: 0, hash: Buffer.from(tx).toString("hex") }),
};
const front = new ServerCore(resolveRpcOptions({}), context, passThroughEncoder, {
  debug() {},
  info() {},
  warn() {},
  error() {},
}).front;
const get = async (query: string) => {
  const answer = await front.answer(httpCall("GET", "/broadcast_tx_sync", query), "");
  return { status: answer.status, body: answer.body };
};

test("through the front: the short path answers as the general path does, errors keep their text", async () => {
  // `%61` is "a" percent-encoded: the same tx by the general path
  assert.deepEqual(await get("tx=%22abc%22"), await get("tx=%22%61bc%22"));
  assert.deepEqual(await get("tx=0xabcd"), await get("tx=0x%61bcd"));
  assert.equal((await get("tx=%22abc%22")).status, 200);
  assert.match((await get("tx=%22abc%22")).body, /"hash":"616263"/);
  const errors: [string, string][] = [
    ["tx=0xabc", "tx: encoding/hex: odd length hex string"],
    ["tx=0xZZ", "tx: encoding/hex: invalid byte: U+005A 'Z'"],
    ["tx=%22abc", 'tx: "\\"abc" is not valid JSON (strings must be "quoted")'],
  ];
  for (const [query, data] of errors) {
    const answer = await get(query);
    assert.equal(answer.status, 500, query);
    assert.equal(
      JSON.parse(answer.body).error.data,
      `error converting http params to arguments: ${data}`,
      query,
    );
  }
});
