// The error model and call styles of reference §2, driven through the transport-neutral front
// (no sockets): statuses, codes, messages, data, ids, notifications, batches and caching.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RpcContext } from "../../src/rpc/context.js";
import { passThroughEncoder } from "../../src/rpc/encoder.js";
import { resolveRpcOptions } from "../../src/rpc/options.js";
import type { HttpAnswer } from "../../src/rpc/server/http-front.js";
import { ServerCore } from "../../src/rpc/server/server-core.js";
import { httpCall } from "./rpc-http-call.js";

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

const context: RpcContext = {
  chainHeights: () => ({ base: 3n, height: 10n, catchingUp: false }),
  block: (height) => ({ height }),
  status: async () => ({ node_info: { moniker: "m" } }),
  abciInfo: () => ({ response: { data: "kv" } }),
  broadcastTxSync: (tx) => ({ code: 0, hash: Buffer.from(tx).toString("hex") }),
  validators: (height, page, perPage) => ({ height, page: page ?? null, perPage }),
  txSearch: (request) => ({
    conditions: request.query.conditions.length,
    orderBy: request.orderBy,
    perPage: request.perPage,
  }),
  blockSearch: (request) => ({ orderBy: request.orderBy }),
  netInfo: () => {
    throw new Error("p2p switch is not running");
  },
  numUnconfirmedTxs: async () => {
    throw new Error("mempool closed");
  },
  dialSeeds: () => undefined,
};

function front(options = {}) {
  return new ServerCore(resolveRpcOptions(options), context, passThroughEncoder, quiet).front;
}

const call = httpCall;

async function post(body: string, options = {}): Promise<HttpAnswer> {
  return front(options).answer(call("POST", "/", "", { contentType: "text/plain" }), body);
}

async function get(path: string, query = "", options = {}): Promise<HttpAnswer> {
  return front(options).answer(call("GET", path, query), "");
}

const json = (answer: HttpAnswer) => JSON.parse(answer.body);
const header = (answer: HttpAnswer, name: string) => answer.headers.find(([n]) => n === name)?.[1];

describe("JSON-RPC over POST /", () => {
  it("answers a request with its id and result, whatever the content type", async () => {
    const a = await post('{"jsonrpc":"2.0","id":7,"method":"block","params":{"height":"5"}}');
    assert.equal(a.status, 200);
    assert.equal(a.contentType, "application/json");
    assert.equal(a.body, '{"jsonrpc":"2.0","id":7,"result":{"height":"5"}}');
    assert.match(header(a, "X-Server-Time") ?? "", /^\d{10}$/);
  });

  it("keeps string ids (even empty), truncates fractional ids, and fails other id types as a parse error", async () => {
    assert.equal(json(await post('{"id":"","method":"health"}')).id, "");
    assert.equal(json(await post('{"id":"abc","method":"health"}')).id, "abc");
    assert.equal(json(await post('{"id":2.9,"method":"health"}')).id, 2);
    assert.equal(json(await post('{"id":-2.9,"method":"health"}')).id, -2);
    const bad = await post('{"id":true,"method":"health"}');
    assert.equal(bad.status, 500);
    assert.equal(json(bad).error.code, -32700);
    assert.equal(json(bad).id, undefined);
    assert.equal(
      json(await post('[{"id":1,"method":"health"},{"id":{},"method":"health"}]')).error.code,
      -32700,
    );
  });

  it("answers invalid JSON with 500, -32700, Tendermint's message and data, and no id", async () => {
    const a = await post("{not json");
    assert.equal(a.status, 500);
    const body = json(a);
    assert.deepEqual(Object.keys(body), ["jsonrpc", "error"]);
    assert.equal(body.error.message, "Parse error. Invalid JSON");
    assert.match(body.error.data, /^error unmarshaling request: /);
    assert.equal(json(await post("5")).error.code, -32700);
    assert.equal(json(await post('"x"')).error.code, -32700);
    assert.equal(json(await post('{"id":1,"method":5}')).error.code, -32700);
  });

  it("skips notifications; all notifications give 200 and an empty body", async () => {
    const a = await post('[{"method":"health"},{"id":null,"method":"health"},null]');
    assert.equal(a.status, 200);
    assert.equal(a.body, "");
    assert.equal((await post('{"jsonrpc":"2.0","method":"health"}')).body, "");
  });

  it("answers a batch in order as an array, but one response alone as an object", async () => {
    const batch = await post(
      '[{"id":1,"method":"health"},{"method":"health"},{"id":"b","method":"abci_info"}]',
    );
    assert.deepEqual(json(batch), [
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: "b", result: { response: { data: "kv" } } },
    ]);
    const one = await post('[{"id":1,"method":"health"}]');
    assert.deepEqual(json(one), { jsonrpc: "2.0", id: 1, result: {} });
    assert.equal((await post("[]")).body, "");
  });

  it("keeps batch order when synchronous and asynchronous routes mix, rejections included", async () => {
    const a = await post(
      '[{"id":1,"method":"health"},{"id":2,"method":"status"},{"id":3,"method":"num_unconfirmed_txs"},' +
        '{"method":"status"},{"id":4,"method":"block","params":{"height":"4"}}]',
    );
    assert.deepEqual(json(a), [
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, result: { node_info: { moniker: "m" } } },
      { jsonrpc: "2.0", id: 3, error: { code: -32603, message: "Internal error", data: "mempool closed" } },
      { jsonrpc: "2.0", id: 4, result: { height: "4" } },
    ]);
  });

  it("answers unknown and WebSocket-only methods with -32601 and the id, HTTP 200", async () => {
    for (const method of ["nope", "subscribe", "unsubscribe_all", "dial_seeds"]) {
      const a = await post(`{"id":3,"method":"${method}"}`);
      assert.equal(a.status, 200);
      assert.deepEqual(json(a), {
        jsonrpc: "2.0",
        id: 3,
        error: { code: -32601, message: "Method not found" },
      });
    }
  });

  it("answers params that do not convert with -32602 and the conversion error", async () => {
    const a = await post('{"id":1,"method":"block","params":{"height":"x"}}');
    assert.equal(a.status, 200);
    assert.deepEqual(json(a).error, {
      code: -32602,
      message: "Invalid params",
      data: 'error converting json params to arguments: height: invalid integer "x", expected decimal digits',
    });
  });

  it("answers handler errors with -32603 and the error's text, including §1.2's height messages", async () => {
    const cases: Array<[string, string]> = [
      ['{"height":"0"}', "height must be greater than 0, but got 0"],
      ['{"height":"11"}', "height 11 must be less than or equal to the current blockchain height 10"],
      ['{"height":"2"}', "height 2 is not available, lowest height is 3"],
    ];
    for (const [params, data] of cases) {
      const a = await post(`{"id":1,"method":"block","params":${params}}`);
      assert.equal(a.status, 200);
      assert.deepEqual(json(a).error, { code: -32603, message: "Internal error", data });
    }
    assert.deepEqual(json(await post('{"id":1,"method":"net_info"}')).error, {
      code: -32603,
      message: "Internal error",
      data: "p2p switch is not running",
    });
  });

  it("survives params nested deeply enough to exhaust the stack when printed", async () => {
    const deep = "[".repeat(50_000) + "]".repeat(50_000);
    const a = await post(`{"id":1,"method":"block","params":{"height":${deep}}}`);
    assert.equal(a.status, 200);
    assert.equal(json(a).error.code, -32602);
    assert.match(
      json(a).error.data,
      /^error converting json params to arguments: height: expected an integer/,
    );
  });

  it("answers a route the node does not provide with a clear internal error", async () => {
    const a = await post('{"id":1,"method":"genesis"}');
    assert.deepEqual(json(a).error, {
      code: -32603,
      message: "Internal error",
      data: "genesis is not available on this node (it does not provide genesis)",
    });
  });

  it("checks tx_search and block_search arguments with Tendermint's messages", async () => {
    const long = `a = '${"x".repeat(600)}'`;
    assert.equal(
      json(await post(JSON.stringify({ id: 1, method: "tx_search", params: { query: long } }))).error.data,
      "maximum query length exceeded",
    );
    assert.match(
      json(await post('{"id":1,"method":"tx_search","params":{"query":"a ="}}')).error.data,
      /^failed to parse query: at position 3: expected/,
    );
    assert.equal(
      json(await post('{"id":1,"method":"tx_search","params":{"query":"a = 1","order_by":"up"}}')).error.data,
      "expected order_by to be either `asc` or `desc` or empty",
    );
    assert.deepEqual(
      json(await post('{"id":1,"method":"tx_search","params":{"query":"a = 1","per_page":"500"}}')).result,
      {
        conditions: 1,
        orderBy: "asc",
        perPage: 100,
      },
    );
    assert.deepEqual(
      json(await post(JSON.stringify({ id: 1, method: "block_search", params: { query: long } }))).result,
      {
        orderBy: "desc",
      },
    );
  });

  it("resolves validators' height against the latest uncommitted height and clamps per_page", async () => {
    assert.deepEqual(json(await post('{"id":1,"method":"validators","params":{"per_page":"0"}}')).result, {
      height: "11",
      page: null,
      perPage: 30,
    });
    assert.equal(
      json(await post('{"id":1,"method":"validators","params":{"height":"12"}}')).error.data,
      "height 12 must be less than or equal to the current blockchain height 11",
    );
  });

  it("sends Cache-Control only when every request of the batch is cacheable and succeeded", async () => {
    const cached = await post(
      '[{"id":1,"method":"block","params":{"height":"5"}},{"id":2,"method":"abci_info"}]',
    );
    assert.equal(header(cached, "Cache-Control"), "public, max-age=86400");
    assert.equal(header(await post('{"id":1,"method":"block"}'), "Cache-Control"), undefined);
    assert.equal(
      header(await post('[{"id":1,"method":"abci_info"},{"id":2,"method":"health"}]'), "Cache-Control"),
      undefined,
    );
    assert.equal(
      header(await post('{"id":1,"method":"block","params":{"height":"50"}}'), "Cache-Control"),
      undefined,
    );
  });
});

describe("URI calls", () => {
  it("answers with id -1 and status 200", async () => {
    const a = await get("/block", "height=5");
    assert.equal(a.status, 200);
    assert.equal(a.body, '{"jsonrpc":"2.0","id":-1,"result":{"height":"5"}}');
    assert.equal(header(a, "Cache-Control"), "public, max-age=86400");
    assert.equal((await get("/health")).body, '{"jsonrpc":"2.0","id":-1,"result":{}}');
  });

  it("answers conversion errors 500/-32602, handler errors 500/-32603, WebSocket-only routes 404/-32601", async () => {
    const bad = await get("/block", "height=abc");
    assert.equal(bad.status, 500);
    assert.equal(json(bad).id, -1);
    assert.equal(json(bad).error.code, -32602);
    assert.match(json(bad).error.data, /^error converting http params to arguments: height:/);
    const failed = await get("/block", "height=99");
    assert.equal(failed.status, 500);
    assert.equal(json(failed).error.code, -32603);
    const ws = await get("/subscribe", "query=%22tm.event%3D'Tx'%22");
    assert.equal(ws.status, 404);
    assert.deepEqual(json(ws), {
      jsonrpc: "2.0",
      id: -1,
      error: { code: -32601, message: "Method not found" },
    });
  });

  it("decodes percent-escapes and reads a urlencoded form body when the query lacks a value", async () => {
    const a = await get("/broadcast_tx_sync", "tx=%22k%3Dv%22");
    assert.deepEqual(json(a).result, { code: 0, hash: Buffer.from("k=v").toString("hex") });
    const form = await front().answer(
      call("POST", "/broadcast_tx_sync", "", { contentType: "application/x-www-form-urlencoded" }),
      "tx=0x6b3d76",
    );
    assert.deepEqual(json(form).result, { code: 0, hash: Buffer.from("k=v").toString("hex") });
  });

  it("gives unknown paths Go's plain 404, and unsafe routes exist only when enabled", async () => {
    for (const path of ["/nope", "/health/", "/dial_seeds", "/unsafe_flush_mempool"]) {
      const a = await get(path);
      assert.equal(a.status, 404, path);
      assert.equal(a.body, "404 page not found\n");
      assert.equal(a.contentType, "text/plain; charset=utf-8");
    }
    const unsafe = await get("/dial_seeds", 'seeds=["1.2.3.4:26656"]', { unsafe: true });
    assert.deepEqual(json(unsafe).result, { log: "Dialing seeds in progress. See /net_info for details" });
    const empty = await get("/dial_seeds", "", { unsafe: true });
    assert.equal(json(empty).error.data, "no seeds provided");
    const noId = await post('{"id":1,"method":"dial_peers","params":{"peers":["1.2.3.4:26656"]}}', {
      unsafe: true,
    });
    assert.equal(json(noId).error.data, "address (1.2.3.4:26656) does not contain ID");
    const missing = await post('{"id":1,"method":"unsafe_flush_mempool"}', { unsafe: true });
    assert.match(json(missing).error.data, /unsafe_flush_mempool is not available/);
  });

  it("lists every route with its parameters on GET / with no body", async () => {
    const page = await get("/");
    assert.equal(page.status, 200);
    assert.equal(page.contentType, "text/html; charset=utf-8");
    assert.match(page.body, /<a href="\/health">\/health<\/a>/);
    assert.match(page.body, /<a href="\/block\?height=_">/);
    assert.match(page.body, /tx_search\?query=_&amp;prove=_&amp;page=_&amp;per_page=_&amp;order_by=_/);
    assert.doesNotMatch(page.body, /dial_seeds/);
    assert.match((await get("/", "", { unsafe: true })).body, /dial_seeds\?seeds=_/);
  });

  it("answers a plain request to /websocket as Go's upgrader does", async () => {
    const a = await get("/websocket");
    assert.equal(a.status, 400);
    assert.match(a.body, /not using the websocket protocol/);
  });
});

describe("CORS", () => {
  const cors = { corsAllowedOrigins: ["https://app.example", "https://*.test.example"] };

  it("is off with no allowed origins", async () => {
    const a = await front().answer(call("GET", "/health", "", { origin: "https://app.example" }), "");
    assert.equal(header(a, "Access-Control-Allow-Origin"), undefined);
  });

  it("allows listed and wildcard origins and answers preflights 204", async () => {
    const f = front(cors);
    const ok = await f.answer(call("GET", "/health", "", { origin: "https://app.example" }), "");
    assert.equal(header(ok, "Access-Control-Allow-Origin"), "https://app.example");
    const wild = await f.answer(
      call("POST", "/", "", { origin: "https://a.test.example" }),
      '{"id":1,"method":"health"}',
    );
    assert.equal(header(wild, "Access-Control-Allow-Origin"), "https://a.test.example");
    const other = await f.answer(call("GET", "/health", "", { origin: "https://evil.example" }), "");
    assert.equal(header(other, "Access-Control-Allow-Origin"), undefined);
    const pre = await f.answer(
      call("OPTIONS", "/", "", {
        origin: "https://app.example",
        corsRequestMethod: "POST",
        corsRequestHeaders: "content-type",
      }),
      "",
    );
    assert.equal(pre.status, 204);
    assert.equal(header(pre, "Access-Control-Allow-Methods"), "POST");
    assert.equal(header(pre, "Access-Control-Allow-Headers"), "content-type");
    const badMethod = await f.answer(
      call("OPTIONS", "/", "", { origin: "https://app.example", corsRequestMethod: "DELETE" }),
      "",
    );
    assert.equal(header(badMethod, "Access-Control-Allow-Origin"), undefined);
    const any = await front({ corsAllowedOrigins: ["*"] }).answer(
      call("GET", "/health", "", { origin: "http://x" }),
      "",
    );
    assert.equal(header(any, "Access-Control-Allow-Origin"), "*");
  });
});
