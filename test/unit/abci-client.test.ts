import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { MaybePromise } from "../../src/abci/apps/application.js";
import { NoopApplication } from "../../src/abci/apps/noop.js";
import { responseCheckTx, responseCommit, responseDeliverTx } from "../../src/abci/apps/responses.js";
import { parseSocketAddress } from "../../src/abci/client/address.js";
import { createAbciClient } from "../../src/abci/client/create-client.js";
import { InProcessAbciClient } from "../../src/abci/client/in-process-client.js";
import { AbciError } from "../../src/abci/errors.js";
import { haltOnAbciFailure } from "../../src/abci/halt-on-failure.js";
import type {
  RequestCheckTx,
  RequestDeliverTx,
  ResponseCheckTx,
} from "../../src/wire/generated/tendermint/abci/types.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe("socket addresses", () => {
  it("parses tcp, unix and bare host:port", () => {
    assert.deepEqual(parseSocketAddress("tcp://127.0.0.1:26658"), {
      kind: "tcp",
      host: "127.0.0.1",
      port: 26658,
    });
    assert.deepEqual(parseSocketAddress("unix:///tmp/app.sock"), { kind: "unix", path: "/tmp/app.sock" });
    assert.deepEqual(parseSocketAddress("localhost:1"), { kind: "tcp", host: "localhost", port: 1 });
    assert.deepEqual(parseSocketAddress("tcp://[::1]:9"), { kind: "tcp", host: "::1", port: 9 });
  });

  it("refuses what is not an address, saying what was expected", () => {
    for (const bad of ["tcp://host", "tcp://host:0", "tcp://host:99999", "unix://", ":80"]) {
      assert.throws(
        () => parseSocketAddress(bad),
        (e: unknown) => e instanceof AbciError && e.code === "ABCI_BAD_ADDRESS" && e.message.includes(bad),
      );
    }
  });

  it("createAbciClient knows the example apps by name and refuses unknown names", async () => {
    const noop = await createAbciClient("noop");
    assert.ok(noop instanceof InProcessAbciClient);
    assert.equal((await noop.mempool.checkTx({ tx: Uint8Array.of(1), type: 0 })).code, 0);
    await noop.close();
    await assert.rejects(
      createAbciClient("kvstoer"),
      (e: unknown) => e instanceof AbciError && e.code === "ABCI_UNKNOWN_APP",
    );
    await assert.rejects(createAbciClient("kvstore"), /needs a database directory/);
  });
});

/** An app whose commit is slow (a promise), to show calls queue behind it in order. */
class SlowCommitApp extends NoopApplication {
  log: string[] = [];
  override deliverTx(req: RequestDeliverTx) {
    this.log.push(`deliver ${req.tx[0]}`);
    return responseDeliverTx();
  }
  override async commit() {
    this.log.push("commit start");
    await new Promise((r) => setTimeout(r, 20));
    this.log.push("commit end");
    return responseCommit({ data: Uint8Array.of(9) });
  }
  override checkTx(_req: RequestCheckTx): MaybePromise<ResponseCheckTx> {
    this.log.push("check");
    return super.checkTx({ tx: new Uint8Array(), type: 0 });
  }
}

describe("in-process client", () => {
  it("runs calls from every connection one at a time, in call order, even across an async Commit", async () => {
    const app = new SlowCommitApp();
    const c = new InProcessAbciClient(app);
    const results = await Promise.all([
      c.consensus.deliverTx({ tx: Uint8Array.of(1) }),
      c.consensus.commit(),
      c.mempool.checkTx({ tx: Uint8Array.of(2), type: 0 }),
      c.consensus.deliverTx({ tx: Uint8Array.of(3) }),
      c.mempool.flush(),
    ]);
    assert.deepEqual(app.log, ["deliver 1", "commit start", "commit end", "check", "deliver 3"]);
    assert.equal((results[1] as { data: Uint8Array })[`data`][0], 9);
    assert.equal(await c.query.echo("hi"), "hi");
  });

  it("an app that throws fails the client with a typed error naming the connection, and halts once", async () => {
    class Broken extends NoopApplication {
      override checkTx(): never {
        throw new Error("boom");
      }
    }
    const c = new InProcessAbciClient(new Broken());
    const halts: { message: string; exitCode: number }[] = [];
    haltOnAbciFailure(c, silent, (h) => halts.push(h));
    await assert.rejects(
      c.mempool.checkTx({ tx: Uint8Array.of(1), type: 0 }),
      (e: unknown) =>
        e instanceof AbciError &&
        e.code === "ABCI_APP_FAILED" &&
        e.connection === "mempool" &&
        /boom/.test(e.message),
    );
    assert.equal(c.consensus.error?.code, "ABCI_APP_FAILED");
    await assert.rejects(c.consensus.commit(), (e: unknown) => e instanceof AbciError);
    assert.equal(halts.length, 1);
    assert.equal(halts[0]!.exitCode, 3);
    assert.match(
      halts[0]!.message,
      /ABCI mempool connection terminated: .*boom.*Did the application crash\?/,
    );
  });

  it("checkTxs answers a batch in order, in the batch's one place in the call order, whatever the app returns", async () => {
    /** Answers code = the tx's first byte; tx 7 answers with a promise (an app that awaits). */
    class EchoCodes extends SlowCommitApp {
      override checkTx(req: RequestCheckTx) {
        this.log.push(`check ${req.tx[0]}`);
        const answer = { ...responseCheckTx(), code: req.tx[0]! };
        return req.tx[0] === 7 ? Promise.resolve(answer) : answer;
      }
    }
    const app = new EchoCodes();
    const c = new InProcessAbciClient(app);
    const checkTxs = c.mempool.checkTxs!;
    const reqs = [1, 2, 7, 4].map((b) => ({ tx: Uint8Array.of(b), type: 0 }));
    const [committed, batch, delivered] = await Promise.all([
      c.consensus.commit(),
      checkTxs(reqs),
      c.consensus.deliverTx({ tx: Uint8Array.of(5) }),
    ]);
    assert.deepEqual(
      batch.map((r) => r.code),
      [1, 2, 7, 4],
    );
    assert.deepEqual(app.log, [
      "commit start",
      "commit end",
      "check 1",
      "check 2",
      "check 7",
      "check 4",
      "deliver 5",
    ]);
    assert.ok(committed && delivered);
    assert.deepEqual(await checkTxs([]), []);
  });

  it("checkTxs rejects whole and fails the client when the app throws within the batch", async () => {
    class BreaksOnTwo extends NoopApplication {
      override checkTx(req: RequestCheckTx) {
        if (req.tx[0] === 2) throw new Error("boom");
        return responseCheckTx();
      }
    }
    const c = new InProcessAbciClient(new BreaksOnTwo());
    await assert.rejects(
      c.mempool.checkTxs!([1, 2, 3].map((b) => ({ tx: Uint8Array.of(b), type: 0 }))),
      (e: unknown) => e instanceof AbciError && e.code === "ABCI_APP_FAILED" && /boom/.test(e.message),
    );
    assert.equal(c.mempool.error?.code, "ABCI_APP_FAILED");
  });

  it("close fails later calls without reporting a failure", async () => {
    const c = new InProcessAbciClient(new NoopApplication());
    const halts: unknown[] = [];
    haltOnAbciFailure(c, silent, (h) => halts.push(h));
    await c.close();
    await assert.rejects(
      c.query.info({ version: "", blockVersion: 0n, p2pVersion: 0n }),
      (e: unknown) => e instanceof AbciError && e.code === "ABCI_CONNECTION_CLOSED",
    );
    assert.equal(halts.length, 0);
  });
});
