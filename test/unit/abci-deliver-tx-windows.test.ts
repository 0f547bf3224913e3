// DeliverTx of a block in windows: the in-process connection answers a window in one call
// (deliverTxs), in order and in one place of the connection's call order, whether the app answers
// synchronously or with promises; a failure inside a window fails the whole batch; the node's
// betweenDeliverTxWindows runs between windows, and the block's results are the same as calling
// DeliverTx per tx (a socket client's way).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { NoopApplication } from "../../src/abci/apps/noop.js";
import { responseCommit, responseDeliverTx } from "../../src/abci/apps/responses.js";
import type { ConsensusConnection } from "../../src/abci/client/abci-client.js";
import { InProcessAbciClient } from "../../src/abci/client/in-process-client.js";
import { AbciError } from "../../src/abci/errors.js";
import {
  DELIVER_TX_WINDOW,
  executeBlock,
  IN_PROCESS_DELIVER_TX_WINDOW,
} from "../../src/abci/execute-block.js";
import { applyInitChain, stateFromGenesis } from "../../src/state/genesis-state.js";
import type { RequestDeliverTx } from "../../src/wire/generated/tendermint/abci/types.js";
import { buildBlock, testGenesis } from "../fixtures/abci-test-app/test-chain.js";

/** Answers code = the tx's first byte, data = its index; every 1000th tx answers with a promise. */
class NumberedApp extends NoopApplication {
  calls: string[] = [];
  override deliverTx(req: RequestDeliverTx) {
    const n = Buffer.from(req.tx).readUInt32BE(1);
    this.calls.push(`deliver ${n}`);
    const answer = responseDeliverTx({ code: req.tx[0]!, data: req.tx.subarray(1) });
    return n % 1000 === 999 ? Promise.resolve(answer) : answer;
  }
  override commit() {
    this.calls.push("commit");
    return responseCommit({ data: Uint8Array.of(1) });
  }
}

const numberedTx = (n: number) => {
  const tx = Buffer.alloc(5);
  tx[0] = n % 3;
  tx.writeUInt32BE(n, 1);
  return new Uint8Array(tx);
};

const genesis = () =>
  applyInitChain(stateFromGenesis(testGenesis(2)), {
    consensusParams: undefined,
    validators: [],
    appHash: new Uint8Array(0),
  });

/** The same connection without deliverTxs: how a socket client is called (one DeliverTx per tx). */
function perTx(c: ConsensusConnection): ConsensusConnection {
  return {
    name: c.name,
    get error() {
      return c.error;
    },
    echo: (m) => c.echo(m),
    flush: () => c.flush(),
    initChain: (r) => c.initChain(r),
    beginBlock: (r) => c.beginBlock(r),
    deliverTx: (r) => c.deliverTx(r),
    endBlock: (r) => c.endBlock(r),
    commit: () => c.commit(),
  };
}

describe("DeliverTx of a large block", () => {
  it("the in-process deliverTxs answers a batch in order, in one place of the call order, sync or async answers", async () => {
    const app = new NumberedApp();
    const c = new InProcessAbciClient(app);
    const txs = [997, 998, 999, 1000].map(numberedTx);
    const [committed, batch] = await Promise.all([
      c.consensus.commit(),
      c.consensus.deliverTxs!(txs.map((tx) => ({ tx }))),
      c.consensus.commit(),
    ]);
    assert.ok(committed);
    assert.deepEqual(
      batch.map((r) => [r.code, Buffer.from(r.data).readUInt32BE(0)]),
      [
        [997 % 3, 997],
        [998 % 3, 998],
        [999 % 3, 999],
        [1000 % 3, 1000],
      ],
    );
    assert.deepEqual(app.calls, [
      "commit",
      "deliver 997",
      "deliver 998",
      "deliver 999",
      "deliver 1000",
      "commit",
    ]);
    assert.deepEqual(await c.consensus.deliverTxs!([]), []);
  });

  it("deliverTxs rejects whole and fails the client when the app throws within the batch", async () => {
    class BreaksOnTwo extends NoopApplication {
      override deliverTx(req: RequestDeliverTx) {
        if (req.tx[0] === 2) throw new Error("boom");
        return responseDeliverTx();
      }
    }
    const c = new InProcessAbciClient(new BreaksOnTwo());
    await assert.rejects(
      c.consensus.deliverTxs!([1, 2, 3].map((b) => ({ tx: Uint8Array.of(b) }))),
      (e: unknown) => e instanceof AbciError && e.code === "ABCI_APP_FAILED" && /boom/.test(e.message),
    );
    assert.equal(c.consensus.error?.code, "ABCI_APP_FAILED");
  });

  it("executeBlock awaits betweenDeliverTxWindows between windows (smaller ones in process), and batched and per-tx calls give the same answers", async () => {
    const count = DELIVER_TX_WINDOW + 3;
    const txs = Array.from({ length: count }, (_, n) => numberedTx(n));
    const state = genesis();
    const { block, blockId } = buildBlock(state, { txs });
    const answers: unknown[] = [];
    for (const [wrap, windowSize] of [
      [(c: ConsensusConnection) => c, IN_PROCESS_DELIVER_TX_WINDOW],
      [perTx, DELIVER_TX_WINDOW],
    ] as const) {
      const app = new NumberedApp();
      const client = new InProcessAbciClient(app);
      const out = await executeBlock(
        {
          consensus: wrap(client.consensus),
          betweenDeliverTxWindows: async () => {
            app.calls.push("between");
          },
        },
        state,
        block,
        blockId,
      );
      const expected: string[] = [];
      for (let n = 0; n < count; n++) {
        if (n > 0 && n % windowSize === 0) expected.push("between");
        expected.push(`deliver ${n}`);
      }
      expected.push("commit");
      assert.deepEqual(app.calls, expected);
      answers.push(out.responses.deliverTxs.map((r) => [r.code, Buffer.from(r.data).readUInt32BE(0)]));
    }
    assert.deepEqual(answers[0], answers[1]);
    assert.deepEqual((answers[0] as number[][]).slice(DELIVER_TX_WINDOW - 1, DELIVER_TX_WINDOW + 1), [
      [(DELIVER_TX_WINDOW - 1) % 3, DELIVER_TX_WINDOW - 1],
      [DELIVER_TX_WINDOW % 3, DELIVER_TX_WINDOW],
    ]);
  });
});
