// The socket client against the out-of-process test app over real tcp and unix sockets.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { NODE_INFO_REQUEST } from "../../src/abci/client/abci-client.js";
import { connectSocketClient } from "../../src/abci/client/socket-client.js";
import { AbciError } from "../../src/abci/errors.js";
import { CheckTxType } from "../../src/wire/generated/tendermint/abci/types.js";
import { freePort, startTestApp, type TestAppProcess } from "../fixtures/abci-test-app/process.js";

const dir = mkdtempSync(join(tmpdir(), "rxbft-abci-e2e-"));
const tx = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");
let app: TestAppProcess;
let tcp: string;
const unix = `unix://${join(dir, "app.sock")}`;
const slow = `unix://${join(dir, "slow.sock")}`;

before(async () => {
  tcp = `tcp://127.0.0.1:${await freePort()}`;
  app = await startTestApp([`${tcp}=ok`, `${unix}=ok`, `${slow}=slow-query`]);
});
after(async () => {
  await app.stop();
  rmSync(dir, { recursive: true, force: true });
});

for (const which of ["tcp", "unix"] as const) {
  describe(`abci socket client over ${which}`, () => {
    it("echoes, answers Info, and opens four connections in Tendermint's order", async () => {
      const address = which === "tcp" ? tcp : unix;
      const before = app.lines.filter((l) => /first=/.test(l)).length;
      const client = await connectSocketClient(address);
      try {
        assert.equal(await client.consensus.echo("hello"), "hello");
        assert.equal(await client.mempool.echo("m"), "m");
        assert.equal(await client.snapshot.echo("s"), "s");
        assert.deepEqual((await client.snapshot.listSnapshots()).snapshots, []);
        const info = await client.query.info(NODE_INFO_REQUEST);
        assert.equal(info.lastBlockHeight, 0n);
        await app.waitFor(/first=info/);
        const firsts = app.lines.filter((l) => /first=/.test(l)).slice(before);
        assert.equal(firsts.length, 4, `four connections, saw ${firsts.join("; ")}`);
        const ids = new Set(firsts.map((l) => l.split(" ")[0]));
        assert.equal(ids.size, 4, "each connection is its own socket");
      } finally {
        await client.close();
      }
    });

    it("pipelines a burst in one flush and matches 2000 answers to their requests in order", async () => {
      const client = await connectSocketClient(which === "tcp" ? tcp : unix);
      try {
        const txs = Array.from({ length: 2000 }, (_, i) => tx(`tx-${i}`));
        const answers = await Promise.all(
          txs.map((t) => client.mempool.checkTx({ tx: t, type: CheckTxType.NEW })),
        );
        for (const [i, a] of answers.entries()) assert.equal(text(a.data), `tx-${i}`);
        await app.waitFor(/flush after 2000 requests/);
        const delivered = await Promise.all(
          txs.slice(0, 10).map((t) => client.consensus.deliverTx({ tx: t })),
        );
        for (const [i, a] of delivered.entries()) assert.equal(text(a.data), `tx-${i}`);
        await client.consensus.flush();
      } finally {
        await client.close();
      }
    });
  });
}

describe("abci socket client: a request that cannot be encoded", () => {
  it("fails alone and leaves the connection's order intact", async () => {
    const client = await connectSocketClient(unix);
    try {
      const bad = client.query.query({ data: tx("k"), path: "", height: 1n << 70n, prove: false });
      const good = client.query.query({ data: tx("after"), path: "", height: 0n, prove: false });
      await assert.rejects(bad, /too large/);
      assert.equal(text((await good).value), "after");
      assert.equal(client.query.error, undefined);
    } finally {
      await client.close();
    }
  });
});

describe("abci socket client: independence and reconnection", () => {
  it("a slow query does not hold up the consensus connection", async () => {
    const client = await connectSocketClient(slow);
    try {
      const started = Date.now();
      const q = client.query.query({ data: tx("k"), path: "", height: 0n, prove: false });
      const d = await client.consensus.deliverTx({ tx: tx("fast") });
      const fastMs = Date.now() - started;
      assert.equal(text(d.data), "fast");
      assert.equal(text((await q).value), "k");
      assert.ok(Date.now() - started >= 250, "the query was slow");
      assert.ok(fastMs < 250, `deliverTx waited ${fastMs} ms behind the query`);
    } finally {
      await client.close();
    }
  });

  it("dials with retries until the app comes up, logging each attempt", async () => {
    const late = `unix://${join(dir, "late.sock")}`;
    const logged: string[] = [];
    const logger = {
      debug() {},
      info: (msg: string, f?: Record<string, unknown>) => logged.push(`${msg} ${f?.connection}`),
      warn() {},
      error() {},
    };
    const pending = connectSocketClient(late, {
      logger,
      retryDelayMs: 50,
      maxRetryDelayMs: 200,
      connectTimeoutMs: 20_000,
    });
    await new Promise((r) => setTimeout(r, 300));
    const lateApp = await startTestApp([`${late}=ok`]);
    try {
      const client = await pending;
      assert.equal(await client.consensus.echo("up"), "up");
      assert.ok(
        logged.some((l) => /not reachable yet, retrying query/.test(l)),
        logged.join("\n"),
      );
      // Losing the app later is reported, naming the connection, and fails pending calls.
      const errors: AbciError[] = [];
      client.onError((e) => errors.push(e));
      await lateApp.stop();
      await assert.rejects(client.consensus.echo("gone"), (e: unknown) => e instanceof AbciError);
      assert.ok(errors.length >= 1);
      assert.ok(errors.every((e) => e.code === "ABCI_CONNECTION_CLOSED"));
      assert.ok(errors.some((e) => e.connection === "consensus" && /consensus connection/.test(e.message)));
      await client.close();
    } finally {
      await lateApp.stop();
    }
  });

  it("gives up dialing after connectTimeoutMs with a clear error", async () => {
    await assert.rejects(
      connectSocketClient(`unix://${join(dir, "nobody.sock")}`, { retryDelayMs: 20, connectTimeoutMs: 100 }),
      (e: unknown) =>
        e instanceof AbciError &&
        e.code === "ABCI_CONNECT_FAILED" &&
        /nobody\.sock/.test(e.message) &&
        e.connection === "query",
    );
  });
});
