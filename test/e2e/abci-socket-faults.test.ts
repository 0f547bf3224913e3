// A broken app must give the node a clear, typed error naming the connection, never a crash.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { connectSocketClient } from "../../src/abci/client/socket-client.js";
import { AbciError, type AbciErrorCode } from "../../src/abci/errors.js";
import { CheckTxType } from "../../src/wire/generated/tendermint/abci/types.js";
import { startTestApp, type TestAppProcess } from "../fixtures/abci-test-app/process.js";

const dir = mkdtempSync(join(tmpdir(), "rxbft-abci-faults-"));
const address = (mode: string) => `unix://${join(dir, `${mode}.sock`)}`;
const cases: { mode: string; code: AbciErrorCode; says: RegExp }[] = [
  { mode: "garbage", code: "ABCI_MALFORMED_RESPONSE", says: /undecodable response ffffffff/ },
  { mode: "huge-length", code: "ABCI_FRAME_TOO_LARGE", says: /209715200 exceeds the maximum of 104857600/ },
  { mode: "negative-length", code: "ABCI_FRAME_NEGATIVE_LENGTH", says: /negative message length -2/ },
  { mode: "truncated", code: "ABCI_CONNECTION_CLOSED", says: /truncated message/ },
  {
    mode: "wrong-type",
    code: "ABCI_UNEXPECTED_RESPONSE",
    says: /expected a checkTx response, received deliverTx/,
  },
  { mode: "exception", code: "ABCI_EXCEPTION", says: /exception: test app refuses/ },
];
let app: TestAppProcess;

before(async () => {
  app = await startTestApp(cases.map((c) => `${address(c.mode)}=${c.mode}`));
});
after(async () => {
  await app.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("abci socket client: a misbehaving app", () => {
  for (const c of cases) {
    it(`${c.mode}: fails the call and the connection with ${c.code}`, async () => {
      const client = await connectSocketClient(address(c.mode));
      const reported: AbciError[] = [];
      client.onError((e) => reported.push(e));
      try {
        const check = (e: unknown) =>
          e instanceof AbciError &&
          e.code === c.code &&
          e.connection === "mempool" &&
          /^abci mempool connection: /.test(e.message) &&
          c.says.test(e.message);
        // Two pipelined calls: both fail with the same error.
        const first = client.mempool.checkTx({ tx: new Uint8Array([1]), type: CheckTxType.NEW });
        const second = client.mempool.checkTx({ tx: new Uint8Array([2]), type: CheckTxType.NEW });
        await assert.rejects(first, check);
        await assert.rejects(second, check);
        // The connection stays failed; later calls fail at once with the same error.
        await assert.rejects(
          client.mempool.checkTx({ tx: new Uint8Array([3]), type: CheckTxType.NEW }),
          check,
        );
        assert.equal(client.mempool.error?.code, c.code);
        assert.ok(reported.some((e) => e.connection === "mempool" && e.code === c.code));
        // The other connections are untouched by this one's failure.
        assert.equal(client.consensus.error, undefined);
      } finally {
        await client.close();
      }
    });
  }
});
