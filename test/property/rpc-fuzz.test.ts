// Fuzzing the RPC's error model (reference §2): malformed JSON, wrong types, huge and negative
// numbers, bad hex and base64, odd ids, batches, unknown methods, arbitrary URIs. Most cases run
// against the transport-neutral front (fast); a bounded share goes over real sockets on both
// backends, with oversized bodies and broken WebSocket frames, checking the server keeps serving.
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import type { RpcContext } from "../../src/rpc/context.js";
import { passThroughEncoder } from "../../src/rpc/encoder.js";
import { type RpcServerHandle, startRpcServer } from "../../src/rpc/index.js";
import { resolveRpcOptions } from "../../src/rpc/options.js";
import type { HttpAnswer, HttpCall } from "../../src/rpc/server/http-front.js";
import { ServerCore } from "../../src/rpc/server/server-core.js";

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const LATEST = 20n;
const BASE = 3n;

const context: RpcContext = {
  chainHeights: () => ({ base: BASE, height: LATEST, catchingUp: false }),
  block: (height) => ({ height }),
  broadcastTxSync: (tx) => ({ hex: Buffer.from(tx).toString("hex") }),
  abciQuery: (path, data, height, prove) => ({
    path,
    data: Buffer.from(data).toString("hex"),
    height,
    prove,
  }),
  validators: (height, page, perPage) => ({ height, page: page ?? 0, perPage }),
  subscribeEvents: () => () => {},
};

const front = new ServerCore(resolveRpcOptions({ unsafe: true }), context, passThroughEncoder, quiet).front;
const ROUTE_NAMES = [
  "health",
  "status",
  "block",
  "blockchain",
  "validators",
  "tx_search",
  "block_search",
  "broadcast_tx_sync",
  "abci_query",
  "subscribe",
  "unsubscribe",
  "dial_peers",
  "dial_seeds",
  "genesis_chunked",
  "tx",
  "block_by_hash",
];

function call(method: string, path: string, query = ""): HttpCall {
  return {
    method,
    path,
    query,
    contentType: "text/plain",
    origin: "",
    corsRequestMethod: "",
    corsRequestHeaders: "",
    remoteAddress: "fuzz:1",
  };
}

async function post(body: string): Promise<HttpAnswer> {
  return front.answer(call("POST", "/"), body);
}

function parsed(answer: HttpAnswer): unknown {
  return answer.body === "" ? undefined : JSON.parse(answer.body);
}

type Envelope = {
  jsonrpc: string;
  id?: string | number;
  result?: unknown;
  error?: { code: number; message: string; data?: string };
};

const MESSAGES: Record<number, string> = {
  [-32700]: "Parse error. Invalid JSON",
  [-32600]: "Invalid Request",
  [-32601]: "Method not found",
  [-32602]: "Invalid params",
  [-32603]: "Internal error",
};

function checkEnvelope(e: Envelope): void {
  assert.equal(e.jsonrpc, "2.0");
  assert.ok((e.result === undefined) !== (e.error === undefined), "exactly one of result and error");
  if (e.error !== undefined) assert.equal(e.error.message, MESSAGES[e.error.code], `code ${e.error.code}`);
}

describe("rpc fuzz: POST bodies against the front", () => {
  it("any text gets a well-formed answer: 200, or 500 with -32700 and no id", async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.json({ maxDepth: 3 }),
      fc.json({ maxDepth: 2 }).map((j) => j.slice(0, Math.max(0, j.length - 1))),
      fc.constantFrom(
        "{",
        "[",
        "[{]",
        '{"id":1,"method":"health"',
        "\u0000",
        "null",
        "[null]",
        "{}",
        "[[]]",
        "1e999",
      ),
    );
    await fc.assert(
      fc.asyncProperty(text, async (body) => {
        const answer = await post(body);
        if (body.length === 0) {
          assert.equal(answer.contentType, "text/html; charset=utf-8");
          return;
        }
        assert.ok(answer.status === 200 || answer.status === 500);
        const value = parsed(answer);
        if (answer.status === 500) {
          const e = value as Envelope;
          assert.equal(e.error?.code, -32700);
          assert.equal("id" in e, false);
          assert.match(e.error?.data ?? "", /^error unmarshaling request: /);
        } else if (value !== undefined) {
          for (const e of Array.isArray(value) ? value : [value]) checkEnvelope(e as Envelope);
        }
      }),
      { numRuns: 2500 },
    );
  });

  it("ids: strings kept, numbers truncated, null or missing unanswered, anything else a parse error", async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(fc.jsonValue({ maxDepth: 1 }), { nil: undefined }), async (id) => {
        const request: Record<string, unknown> = { jsonrpc: "2.0", method: "health" };
        if (id !== undefined) request.id = id;
        const answer = await post(JSON.stringify(request));
        if (id === undefined || id === null) {
          assert.equal(answer.body, "");
        } else if (typeof id === "string") {
          assert.deepEqual(parsed(answer), { jsonrpc: "2.0", id, result: {} });
        } else if (typeof id === "number") {
          const expected = Number.isSafeInteger(Math.trunc(id))
            ? Math.trunc(id) + 0
            : Math.sign(id) * Number.MAX_SAFE_INTEGER;
          assert.deepEqual(parsed(answer), { jsonrpc: "2.0", id: expected, result: {} });
        } else {
          assert.equal(answer.status, 500);
          assert.equal((parsed(answer) as Envelope).error?.code, -32700);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("batches: one answer per request in order, notifications skipped, a single answer unwrapped", async () => {
    type Entry = { id?: number | string; method: string } | null;
    const entry: fc.Arbitrary<Entry> = fc.oneof(
      fc.nat(1000).map((id): Entry => ({ id, method: "health" })),
      fc.nat(1000).map((id): Entry => ({ id: `s${id}`, method: "nope" })),
      fc.constant<Entry>({ method: "health" }),
      fc.constant<Entry>(null),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 8 }), async (batch) => {
        const answer = await post(JSON.stringify(batch));
        const answered = batch.flatMap((r) =>
          r !== null && r.id !== undefined ? [{ id: r.id, method: r.method }] : [],
        );
        const value = parsed(answer);
        const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
        if (answered.length === 1) assert.equal(Array.isArray(value), false);
        assert.deepEqual(
          (list as Envelope[]).map((e) => [e.id, e.error?.code ?? 0]),
          answered.map((r) => [r.id, r.method === "health" ? 0 : -32601]),
        );
      }),
      { numRuns: 800 },
    );
  });

  it("any method and params: the right code, the request's id, and conversion errors naming the parameter", async () => {
    const method = fc.oneof(fc.constantFrom(...ROUTE_NAMES), fc.string({ maxLength: 12 }));
    const params = fc.oneof(
      fc.constant(undefined),
      fc.jsonValue({ maxDepth: 2 }),
      fc.dictionary(
        fc.constantFrom(
          "height",
          "tx",
          "hash",
          "query",
          "page",
          "per_page",
          "prove",
          "data",
          "peers",
          "chunk",
        ),
        fc.jsonValue({ maxDepth: 1 }),
      ),
    );
    await fc.assert(
      fc.asyncProperty(method, params, fc.nat(), async (m, p, id) => {
        const answer = await post(JSON.stringify({ jsonrpc: "2.0", id, method: m, params: p }));
        assert.equal(answer.status, 200);
        const e = parsed(answer) as Envelope;
        checkEnvelope(e);
        assert.equal(e.id, id);
        const known = ROUTE_NAMES.includes(m) && !["subscribe", "unsubscribe"].includes(m);
        if (!known) {
          if (!["health", "status"].includes(m)) assert.equal(e.error?.code, -32601);
          return;
        }
        if (e.error?.code === -32602) {
          assert.match(
            e.error.data ?? "",
            /^error converting json params to arguments: ([a-zA-Z_]+: |expected \d+ parameters|unknown type for JSON params)/,
          );
        }
      }),
      { numRuns: 2500 },
    );
  });

  it("heights of any size and sign, as numbers or strings, follow §1.2 exactly", async () => {
    const height = fc.oneof(
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
      fc.bigInt({ min: -5n, max: 30n }),
    );
    await fc.assert(
      fc.asyncProperty(height, fc.boolean(), async (h, asString) => {
        const value = asString ? `"${h}"` : h.toString();
        const e = parsed(await post(`{"id":1,"method":"block","params":{"height":${value}}}`)) as Envelope;
        const inInt64 = h >= -(2n ** 63n) && h < 2n ** 63n;
        const exactAsNumber =
          asString || (h >= BigInt(Number.MIN_SAFE_INTEGER) && h <= BigInt(Number.MAX_SAFE_INTEGER));
        if (!inInt64 || !exactAsNumber) {
          assert.equal(e.error?.code, -32602);
        } else if (h <= 0n) {
          assert.equal(e.error?.data, `height must be greater than 0, but got ${h}`);
        } else if (h > LATEST) {
          assert.equal(
            e.error?.data,
            `height ${h} must be less than or equal to the current blockchain height ${LATEST}`,
          );
        } else if (h < BASE) {
          assert.equal(e.error?.data, `height ${h} is not available, lowest height is ${BASE}`);
        } else {
          assert.deepEqual(e.result, { height: h.toString() });
        }
      }),
      { numRuns: 1500 },
    );
  });

  it("tx as base64 in JSON-RPC: valid text decodes, anything else is -32602 naming the byte", async () => {
    const text = fc.oneof(
      fc.uint8Array({ maxLength: 24 }).map((b) => Buffer.from(b).toString("base64")),
      fc.string({ unit: fc.constantFrom(..."AB+/=-_ $a9".split("")), maxLength: 12 }),
    );
    await fc.assert(
      fc.asyncProperty(text, async (tx) => {
        const e = parsed(
          await post(JSON.stringify({ id: 1, method: "broadcast_tx_sync", params: { tx } })),
        ) as Envelope;
        const valid = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(tx);
        if (valid) assert.deepEqual(e.result, { hex: Buffer.from(tx, "base64").toString("hex") });
        else
          assert.match(
            e.error?.data ?? "",
            /^error converting json params to arguments: tx: illegal base64 data at input byte \d+$/,
          );
      }),
      { numRuns: 1500 },
    );
  });

  it("tx and data as 0x-hex in URIs: valid hex decodes, anything else is 500 with -32602", async () => {
    const text = fc.string({
      unit: fc.constantFrom(..."0123456789abcdefABCDEFxg ".split("")),
      maxLength: 12,
    });
    await fc.assert(
      fc.asyncProperty(text, fc.constantFrom("tx", "data"), async (hex, name) => {
        const path = name === "tx" ? "/broadcast_tx_sync" : "/abci_query";
        const answer = await front.answer(call("GET", path, `${name}=0x${encodeURIComponent(hex)}`), "");
        const e = parsed(answer) as Envelope;
        if (/^(?:[0-9a-fA-F]{2})*$/.test(hex)) {
          assert.equal(answer.status, 200);
          const got = name === "tx" ? (e.result as { hex: string }).hex : (e.result as { data: string }).data;
          assert.equal(got, hex.toLowerCase());
        } else {
          assert.equal(answer.status, 500);
          assert.equal(e.id, -1);
          assert.match(
            e.error?.data ?? "",
            new RegExp(`^error converting http params to arguments: ${name}: encoding/hex: `),
          );
        }
      }),
      { numRuns: 1500 },
    );
  });

  it("arbitrary URIs: a plain 404, or an answer with id -1 and a status that matches its code", async () => {
    const path = fc.oneof(
      fc.constantFrom(...ROUTE_NAMES).map((n) => `/${n}`),
      fc.string({ maxLength: 10 }).map((s) => `/${s}`),
    );
    const query = fc
      .array(
        fc.tuple(
          fc.constantFrom(
            "height",
            "tx",
            "hash",
            "query",
            "page",
            "per_page",
            "prove",
            "data",
            "peers",
            "chunk",
            "x",
          ),
          fc.string({ maxLength: 12 }),
        ),
        {
          maxLength: 4,
        },
      )
      .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&"));
    await fc.assert(
      fc.asyncProperty(path, query, async (p, q) => {
        const answer = await front.answer(call("GET", p, q), "");
        if (answer.contentType.startsWith("text/")) {
          assert.ok(answer.status === 404 || answer.status === 400 || (p === "/" && answer.status === 200));
          return;
        }
        const e = parsed(answer) as Envelope;
        checkEnvelope(e);
        assert.equal(e.id, -1);
        const expected = e.error === undefined ? 200 : e.error.code === -32601 ? 404 : 500;
        assert.equal(answer.status, expected);
      }),
      { numRuns: 1500 },
    );
  });
});

function rawHttp(
  port: number,
  method: string,
  path: string,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method, path, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Upgrades a raw socket to a WebSocket, writes bytes, and waits for the server to drop it. */
function brokenWebSocket(port: number, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const timer = setTimeout(() => socket.destroy(), 150);
    socket.on("connect", () => {
      socket.write(
        "GET /websocket HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
      );
      socket.once("data", () => socket.write(bytes));
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

for (const backend of ["uws", "node"] as const) {
  describe(`rpc fuzz over sockets (${backend})`, () => {
    let server: RpcServerHandle;
    before(async () => {
      server = await startRpcServer({ laddr: "tcp://127.0.0.1:0", maxBodyBytes: 2048 }, context, {
        logger: quiet,
        backend,
      });
    });
    after(async () => {
      await server.close();
    });

    it("keeps serving through random bodies, oversized bodies and broken WebSocket frames", async () => {
      const port = server.port as number;
      const hostile = fc.oneof(
        fc.string({ maxLength: 200 }).map((body) => ({ kind: "body" as const, body })),
        fc
          .integer({ min: 2049, max: 20_000 })
          .map((n) => ({ kind: "body" as const, body: `{"id":1,"method":"health","x":"${"y".repeat(n)}"}` })),
        fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({ kind: "frame" as const, bytes })),
      );
      await fc.assert(
        fc.asyncProperty(hostile, async (h) => {
          if (h.kind === "frame") {
            await brokenWebSocket(port, h.bytes);
          } else {
            const reply = await rawHttp(port, "POST", "/", h.body);
            if (Buffer.byteLength(h.body) > 2048) {
              assert.equal(reply.status, 400);
              assert.equal(JSON.parse(reply.body).error.code, -32600);
            } else {
              assert.ok([200, 500].includes(reply.status));
            }
          }
          const health = await rawHttp(port, "GET", "/health", "");
          assert.equal(health.status, 200);
        }),
        { numRuns: 60 },
      );
    });
  });
}
