// The RPC server over real loopback sockets, on both backends (uWebSockets.js and the
// node:http + ws fallback): both call styles, body limits, WebSocket calls, subscriptions,
// broken frames, unix sockets and TLS. The node behind it is a fake RpcContext.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import WebSocket from "ws";
import type { RpcContext, RpcEvent } from "../../src/rpc/context.js";
import { handlerError } from "../../src/rpc/errors.js";
import { type RpcServerHandle, startRpcServer } from "../../src/rpc/index.js";
import { HttpFront } from "../../src/rpc/server/http-front.js";

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const tmp = mkdtempSync(join(tmpdir(), "rxbft-rpc-e2e-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

function fakeNode() {
  const listeners = new Set<(e: RpcEvent) => void>();
  const context: RpcContext = {
    chainHeights: () => ({ base: 1n, height: 20n, catchingUp: false }),
    block: async (height) => ({ height }),
    broadcastTxSync: (tx) => ({ code: 0, log: Buffer.from(tx).toString("utf8") }),
    subscribeEvents(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const emit = (e: RpcEvent) => {
    for (const l of [...listeners]) l(e);
  };
  return { context, listeners, emit };
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function http(
  target: { port?: number; socketPath?: string; tls?: boolean },
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const make = target.tls ? httpsRequest : httpRequest;
    const req = make(
      {
        host: "127.0.0.1",
        port: target.port,
        socketPath: target.socketPath,
        method,
        path,
        headers,
        rejectUnauthorized: false,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function openWs(url: string, options: WebSocket.ClientOptions = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { rejectUnauthorized: false, ...options });
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

function nextMessage(ws: WebSocket): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    ws.once("message", (data) => resolve(JSON.parse(data.toString())));
    ws.once("close", () => reject(new Error("closed")));
  });
}

function closed(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => {
    if (ws.readyState === WebSocket.CLOSED) resolve(-1);
    else ws.once("close", (code) => resolve(code));
  });
}

for (const backend of ["uws", "node"] as const) {
  describe(`rpc server on ${backend}`, () => {
    let server: RpcServerHandle;
    let node: ReturnType<typeof fakeNode>;

    it("starts on a free loopback port", async () => {
      node = fakeNode();
      server = await startRpcServer(
        { laddr: "tcp://127.0.0.1:0", maxBodyBytes: 4096, webSocketPingIntervalMs: 200 },
        node.context,
        { logger: quiet, backend },
      );
      assert.equal(server.backend, backend);
      assert.match(server.address, /^tcp:\/\/127\.0\.0\.1:\d+$/);
    });

    it("serves both call styles with Tendermint's headers", async () => {
      const health = await http(server, "GET", "/health");
      assert.equal(health.status, 200);
      assert.equal(health.body, '{"jsonrpc":"2.0","id":-1,"result":{}}');
      assert.equal(health.headers["content-type"], "application/json");
      assert.match(String(health.headers["x-server-time"]), /^\d+$/);
      const uri = await http(server, "GET", "/broadcast_tx_sync?tx=%22a%3Db%22");
      assert.deepEqual(JSON.parse(uri.body).result, { code: 0, log: "a=b" });
      const posted = await http(
        server,
        "POST",
        "/",
        '{"jsonrpc":"2.0","id":"p","method":"block","params":["4"]}',
        {
          "content-type": "text/plain",
        },
      );
      assert.equal(posted.status, 200);
      assert.equal(posted.body, '{"jsonrpc":"2.0","id":"p","result":{"height":"4"}}');
      assert.equal(posted.headers["cache-control"], "public, max-age=86400");
      const head = await http(server, "HEAD", "/health");
      assert.equal(head.status, 200);
      assert.equal(head.body, "");
      const missing = await http(server, "GET", "/nope");
      assert.equal(missing.status, 404);
      assert.equal(missing.body, "404 page not found\n");
      const page = await http(server, "GET", "/");
      assert.match(page.body, /<a href="\/health">/);
    });

    it("refuses a body over max_body_bytes with 400 and -32600, then keeps serving", async () => {
      const big = JSON.stringify({ id: 1, method: "broadcast_tx_sync", params: { tx: "A".repeat(8000) } });
      const reply = await http(server, "POST", "/", big);
      assert.equal(reply.status, 400);
      assert.deepEqual(JSON.parse(reply.body), {
        jsonrpc: "2.0",
        error: {
          code: -32600,
          message: "Invalid Request",
          data: "error reading request body: http: request body too large",
        },
      });
      assert.equal((await http(server, "GET", "/health")).status, 200);
    });

    it("answers calls and delivers subscribed events over /websocket", async () => {
      const ws = await openWs(`ws://127.0.0.1:${server.port}/websocket`);
      ws.send('{"jsonrpc":"2.0","id":1,"method":"health"}');
      assert.deepEqual(await nextMessage(ws), { jsonrpc: "2.0", id: 1, result: {} });
      ws.send(
        `{"jsonrpc":"2.0","id":"s","method":"subscribe","params":{"query":"tm.event='Tx' AND tx.height >= 5"}}`,
      );
      assert.deepEqual(await nextMessage(ws), { jsonrpc: "2.0", id: "s", result: {} });
      const event = nextMessage(ws);
      node.emit({ type: "Tx", data: { n: 1 }, events: { "tm.event": ["Tx"], "tx.height": ["4"] } });
      node.emit({ type: "Tx", data: { n: 2 }, events: { "tm.event": ["Tx"], "tx.height": ["5"] } });
      assert.deepEqual(await event, {
        jsonrpc: "2.0",
        id: "s",
        result: {
          query: "tm.event='Tx' AND tx.height >= 5",
          data: { type: "tendermint/event/Tx", value: { n: 2 } },
          events: { "tm.event": ["Tx"], "tx.height": ["5"] },
        },
      });
      ws.send('{"jsonrpc":"2.0","id":2,"method":"unsubscribe_all"}');
      assert.deepEqual(await nextMessage(ws), { jsonrpc: "2.0", id: 2, result: {} });
      assert.equal(node.listeners.size, 0);
      ws.send("not json");
      assert.equal(((await nextMessage(ws)).error as { code: number }).code, -32700);
      ws.close();
      await closed(ws);
    });

    it("drops a connection that sends broken frames or oversized messages, and keeps serving", async () => {
      const broken = await openWs(`ws://127.0.0.1:${server.port}/websocket`);
      // An unmasked frame with reserved bits set: a protocol error from any client.
      (broken as unknown as { _socket: { write(b: Buffer): void } })._socket.write(
        Buffer.from([0xf1, 0x05, 1, 2, 3, 4, 5]),
      );
      await closed(broken);
      const big = await openWs(`ws://127.0.0.1:${server.port}/websocket`);
      big.on("error", () => {});
      big.send(JSON.stringify({ id: 1, method: "health", pad: "x".repeat(10_000) }));
      await closed(big);
      assert.equal((await http(server, "GET", "/health")).status, 200);
    });

    if (backend === "node") {
      it("pings WebSocket clients to keep them alive", async () => {
        const ws = await openWs(`ws://127.0.0.1:${server.port}/websocket`);
        await new Promise<void>((resolve) => ws.once("ping", () => resolve()));
        ws.close();
        await closed(ws);
      });
    }

    it("cancels the subscription of a client that stops reading, with an explicit message, and bounds memory", async () => {
      const ws = await openWs(`ws://127.0.0.1:${server.port}/websocket`);
      ws.send(`{"id":"slow","method":"subscribe","params":{"query":"tm.event='NewBlock'"}}`);
      assert.deepEqual(await nextMessage(ws), { jsonrpc: "2.0", id: "slow", result: {} });
      const socket = (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
      socket.pause();
      const big = "z".repeat(64 * 1024);
      for (let i = 0; i < 600 && node.listeners.size > 0; i++) {
        node.emit({ type: "NewBlock", data: { i, big }, events: { "tm.event": ["NewBlock"] } });
      }
      // Events reach subscribers on later turns (delivery-slicer.ts): the subscription is gone
      // within those turns, so nothing more is queued for this client.
      for (let turn = 0; turn < 1000 && node.listeners.size > 0; turn++) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.equal(node.listeners.size, 0);
      const received: Array<Record<string, unknown>> = [];
      const cancelled = new Promise<Record<string, unknown>>((resolve) => {
        ws.on("message", (data) => {
          const m = JSON.parse(data.toString());
          received.push(m);
          if (m.error !== undefined) resolve(m);
        });
      });
      socket.resume();
      assert.deepEqual(await cancelled, {
        jsonrpc: "2.0",
        id: "slow",
        error: {
          code: -32000,
          message: "Server error",
          data: "subscription was cancelled (reason: client is not pulling messages fast enough)",
        },
      });
      const events = received.filter((m) => m.result !== undefined);
      assert.ok(events.length >= 100 && events.length < 600, `${events.length} events delivered`);
      ws.send('{"id":9,"method":"health"}');
      assert.deepEqual(await nextMessage(ws), { jsonrpc: "2.0", id: 9, result: {} });
      ws.close();
      await closed(ws);
    });

    it("refuses request headers over max_header_bytes", async () => {
      const s = await startRpcServer(
        { laddr: "tcp://127.0.0.1:0", maxHeaderBytes: 4096 },
        {},
        { logger: quiet, backend },
      );
      assert.equal((await http(s, "GET", "/health", undefined, { "x-small": "a".repeat(1000) })).status, 200);
      assert.equal((await http(s, "GET", "/health", undefined, { "x-big": "a".repeat(6000) })).status, 431);
      await s.close();
    });

    it("limits open connections to max_open_connections", async () => {
      const s = await startRpcServer(
        { laddr: "tcp://127.0.0.1:0", maxOpenConnections: 1 },
        {},
        { logger: quiet, backend },
      );
      const ws = await openWs(`ws://127.0.0.1:${s.port}/websocket`);
      // node:http drops the extra socket; uWS (no accept hook) answers 503.
      const refused = await http(s, "GET", "/health").then(
        (r) => r.status,
        () => 0,
      );
      assert.ok(refused === 0 || refused === 503, `got ${refused}`);
      ws.close();
      await closed(ws);
      await new Promise((r) => setTimeout(r, 50));
      assert.equal((await http(s, "GET", "/health")).status, 200);
      await s.close();
    });

    it("closes every connection and tells subscribers when stopped", async () => {
      const ws = await openWs(`ws://127.0.0.1:${server.port}/websocket`);
      ws.send(`{"id":"k","method":"subscribe","params":{"query":"tm.event='NewBlock'"}}`);
      await nextMessage(ws);
      const notice = nextMessage(ws);
      const done = closed(ws);
      await server.close();
      assert.deepEqual(await notice, {
        jsonrpc: "2.0",
        id: "k",
        error: {
          code: -32000,
          message: "Server error",
          data: "subscription was cancelled (reason: Tendermint exited)",
        },
      });
      await done;
    });

    it("listens on a unix socket", async () => {
      const path = join(tmp, `${backend}.sock`);
      const s = await startRpcServer({ laddr: `unix://${path}` }, fakeNode().context, {
        logger: quiet,
        backend,
      });
      assert.equal(s.address, `unix://${path}`);
      assert.equal((await http({ socketPath: path }, "GET", "/health")).status, 200);
      await s.close();
      assert.equal(existsSync(path), false);
    });

    it("serves HTTPS and WSS when a certificate and key are set", async () => {
      const cert = join(tmp, "cert.pem");
      const key = join(tmp, "key.pem");
      execFileSync(
        "openssl",
        [
          "req",
          "-x509",
          "-newkey",
          "ec",
          "-pkeyopt",
          "ec_paramgen_curve:prime256v1",
          "-nodes",
          "-keyout",
          key,
          "-out",
          cert,
          "-days",
          "1",
          "-subj",
          "/CN=127.0.0.1",
        ],
        { stdio: "ignore" },
      );
      const s = await startRpcServer(
        { laddr: "tcp://127.0.0.1:0", tlsCertFile: cert, tlsKeyFile: key },
        fakeNode().context,
        { logger: quiet, backend },
      );
      const reply = await http({ port: s.port, tls: true }, "GET", "/health");
      assert.equal(reply.body, '{"jsonrpc":"2.0","id":-1,"result":{}}');
      const ws = await openWs(`wss://127.0.0.1:${s.port}/websocket`);
      ws.send('{"id":1,"method":"health"}');
      assert.deepEqual(await nextMessage(ws), { jsonrpc: "2.0", id: 1, result: {} });
      ws.close();
      await closed(ws);
      await s.close();
    });
  });
}

describe("rpc server limits", () => {
  it("exposes unsafe routes only with unsafe = true", async () => {
    const safe = await startRpcServer({ laddr: "tcp://127.0.0.1:0" }, {}, { logger: quiet, backend: "node" });
    const unsafe = await startRpcServer(
      { laddr: "tcp://127.0.0.1:0", unsafe: true },
      { unsafeFlushMempool: () => {} },
      {
        logger: quiet,
        backend: "uws",
      },
    );
    const body = '{"jsonrpc":"2.0","id":1,"method":"unsafe_flush_mempool"}';
    assert.equal(JSON.parse((await http(safe, "POST", "/", body)).body).error.code, -32601);
    assert.deepEqual(JSON.parse((await http(unsafe, "POST", "/", body)).body), {
      jsonrpc: "2.0",
      id: 1,
      result: {},
    });
    await safe.close();
    await unsafe.close();
  });

  it("reads bodies that arrive in many chunks on both backends", async () => {
    const tx = Buffer.alloc(300_000, 7);
    for (const backend of ["uws", "node"] as const) {
      const s = await startRpcServer({ laddr: "tcp://127.0.0.1:0" }, fakeNode().context, {
        logger: quiet,
        backend,
      });
      const body = JSON.stringify({
        id: 1,
        method: "broadcast_tx_sync",
        params: { tx: tx.toString("base64") },
      });
      const reply = JSON.parse((await http(s, "POST", "/", body)).body);
      assert.equal(reply.result.log, tx.toString("utf8"), backend);
      await s.close();
    }
  });

  it("says in its log which backend serves", async () => {
    for (const [backend, expected] of [
      ["auto", "RPC server listening (uWebSockets.js)"],
      ["node", "RPC server listening (node:http)"],
    ] as const) {
      const lines: string[] = [];
      const logger = { ...quiet, info: (message: string) => lines.push(message) };
      const s = await startRpcServer({ laddr: "tcp://127.0.0.1:0" }, {}, { logger, backend });
      assert.ok(lines.includes(expected), lines.join("; "));
      await s.close();
    }
  });

  it("refuses to listen on a malformed address", async () => {
    await assert.rejects(
      startRpcServer({ laddr: "127.0.0.1:1" }, {}, { logger: quiet }),
      /invalid listening address "127.0.0.1:1" \(use fully formed addresses/,
    );
  });
});

// broadcast_tx_async and _sync are per-tx routes: a GET whose query is a plain tx takes uWS's
// short path (no request headers or remote address read). Random queries, plain and not, valid
// and not, give the same status, headers and bytes as node:http's backend (no short path), in
// both result forms.
describe("per-tx routes (broadcast_tx_async, broadcast_tx_sync)", () => {
  const hex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();
  // A refusal for txs starting with "r", a result depending on the tx otherwise; sync awaits.
  const context: RpcContext = {
    broadcastTxAsync: (tx: Uint8Array) => {
      if (tx[0] === 0x72) throw handlerError("tx already exists in cache");
      return { code: 0, data: "", log: "", codespace: "", hash: hex(tx) };
    },
    broadcastTxSync: async (tx: Uint8Array) => {
      if (tx[0] === 0x72) throw handlerError("mempool is full: number of txs 1 (max: 1)");
      return { code: tx.length % 3, data: tx, log: `l${tx.length}`, codespace: "", hash: hex(tx) };
    },
  };
  // 32-bit arithmetic (Math.imul): a product past 2^53 would lose the low bits and never draw
  // some characters of the alphabet.
  let seed = 11;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed >>> 8;
  };
  const alphabet = 'rkv=-_.0123456789abcdefABCDEF "%&+xyz\u00e9';
  // A raw query may hold any character a client can put on the request line: space and
  // non-ASCII go percent-escaped (node:http refuses them raw), a lone "%" stays as it is.
  const onTheLine = (text: string) => text.replace(/[ \u0080-\uffff]/g, (c) => encodeURIComponent(c));
  const randomQuery = () => {
    let text = "";
    const length = next() % 10;
    for (let i = 0; i < length; i++) text += alphabet[next() % alphabet.length];
    const shape = next() % 5;
    if (shape === 0) return `tx=%22${onTheLine(text)}%22`;
    if (shape === 1) return `tx=0x${Buffer.from(text).toString("hex")}`;
    if (shape === 2) return `tx=0x${onTheLine(text)}`;
    if (shape === 3) return `tx=${encodeURIComponent(`"${text}"`)}`;
    return `tx=${onTheLine(text)}`;
  };
  for (const compat of ["seed", "tendermint"] as const) {
    it(`answers as the general path does, on random queries (compat ${compat})`, async () => {
      const options = { laddr: "tcp://127.0.0.1:0", compat };
      const short = await startRpcServer(options, context, { logger: quiet, backend: "uws" });
      const plain = await startRpcServer(options, context, { logger: quiet, backend: "node" });
      // Counts the answers the short path gave, so the comparison cannot pass with it unused.
      const answerPerTx = HttpFront.prototype.answerPerTx;
      let shortAnswers = 0;
      HttpFront.prototype.answerPerTx = function (this: HttpFront, ...args) {
        const answer = answerPerTx.apply(this, args);
        if (answer !== undefined) shortAnswers++;
        return answer;
      };
      try {
        const statuses = new Set<number>();
        for (let n = 0; n < 300; n++) {
          const path = `/${n % 2 === 0 ? "broadcast_tx_async" : "broadcast_tx_sync"}?${randomQuery()}`;
          const [a, b] = await Promise.all([http(short, "GET", path), http(plain, "GET", path)]);
          statuses.add(a.status);
          assert.equal(a.status, b.status, path);
          assert.equal(a.body, b.body, path);
          for (const header of ["content-type", "cache-control", "x-server-time"]) {
            if (header === "x-server-time") assert.match(String(a.headers[header]), /^\d+$/, path);
            else assert.equal(a.headers[header], b.headers[header], `${header} of ${path}`);
          }
        }
        assert.deepEqual([...statuses].sort(), [200, 500], "successes and errors both checked");
        assert.ok(shortAnswers >= 50, `the short path answered ${shortAnswers} of 300`);
      } finally {
        HttpFront.prototype.answerPerTx = answerPerTx;
        await short.close();
        await plain.close();
      }
    });
  }
});

// health and status are polled routes: a plain GET takes uWS's short path (no request headers
// read, the response text reused while the projection's result object is the same). These
// check it answers exactly what the general path answers, and only while it may.
describe("polled routes (health, status)", () => {
  for (const backend of ["uws", "node"] as const) {
    it(`answers GET by the short path with the general path's bytes, fresh after a change (${backend})`, async () => {
      let current: object = { node_info: { moniker: "one" } };
      let later: Promise<object> | undefined;
      const context: RpcContext = { status: () => later ?? current };
      const server = await startRpcServer({ laddr: "tcp://127.0.0.1:0", maxBodyBytes: 4096 }, context, {
        logger: quiet,
        backend,
      });
      try {
        const viaPost = async () => {
          const posted = await http(server, "POST", "/", '{"jsonrpc":"2.0","id":-1,"method":"status"}');
          return posted.body;
        };
        const first = await http(server, "GET", "/status");
        assert.equal(first.status, 200);
        assert.equal(first.headers["content-type"], "application/json");
        assert.match(String(first.headers["x-server-time"]), /^\d+$/);
        assert.equal(first.body, '{"jsonrpc":"2.0","id":-1,"result":{"node_info":{"moniker":"one"}}}');
        assert.equal(first.body, await viaPost());
        assert.equal((await http(server, "GET", "/status?anything=1")).body, first.body);
        assert.equal((await http(server, "HEAD", "/status")).status, 200);
        // a new result object is a new answer, never the reused text of the old one
        current = { node_info: { moniker: "two" } };
        assert.equal(
          (await http(server, "GET", "/status")).body,
          '{"jsonrpc":"2.0","id":-1,"result":{"node_info":{"moniker":"two"}}}',
        );
        // a projection being rebuilt answers once it is ready
        later = new Promise((resolve) => setTimeout(() => resolve({ node_info: { moniker: "three" } }), 20));
        assert.equal(
          (await http(server, "GET", "/status")).body,
          '{"jsonrpc":"2.0","id":-1,"result":{"node_info":{"moniker":"three"}}}',
        );
        later = undefined;
        // a GET with a body takes the general path, which answers the same
        const withBody = await http(server, "GET", "/health", "a=b", {
          "content-type": "application/x-www-form-urlencoded",
        });
        assert.equal(withBody.body, '{"jsonrpc":"2.0","id":-1,"result":{}}');
        assert.equal((await http(server, "GET", "/health")).body, withBody.body);
      } finally {
        await server.close();
      }
    });
  }

  it("keeps CORS headers on health and status when CORS is on (no short path)", async () => {
    const server = await startRpcServer(
      { laddr: "tcp://127.0.0.1:0", corsAllowedOrigins: ["*"] },
      { status: () => ({ ok: true }) },
      { logger: quiet, backend: "uws" },
    );
    try {
      for (const path of ["/health", "/status"]) {
        const reply = await http(server, "GET", path, undefined, { origin: "http://example.test" });
        assert.equal(reply.status, 200);
        assert.equal(reply.headers["access-control-allow-origin"], "*", path);
      }
    } finally {
      await server.close();
    }
  });
});
