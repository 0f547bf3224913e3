// A height's DeliverTx results are encoded once and assembled into the ABCI responses record and
// each TxResult (src/store/deliver-tx-bytes.ts): the assembled bytes must be exactly what the
// generated encoders write, for any results, heights and positions, so no stored record changes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  deliverTxBytes,
  encodeAbciResponses,
  encodeDeliverTx,
  encodeTxResult,
} from "../../src/store/deliver-tx-bytes.js";
import { type Event, ResponseDeliverTx, TxResult } from "../../src/wire/generated/tendermint/abci/types.js";
import { ABCIResponses } from "../../src/wire/generated/tendermint/state/types.js";

// A small deterministic generator (xorshift) so a failure repeats.
function generator(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  const bytes = (max: number) => Uint8Array.from({ length: int(max + 1) }, () => int(256));
  const text = (max: number) =>
    String.fromCharCode(...Array.from({ length: int(max + 1) }, () => 97 + int(26)));
  const event = (): Event => ({
    type: text(8),
    attributes: Array.from({ length: int(4) }, () => ({
      key: bytes(12),
      value: bytes(40),
      index: next() < 0.5,
    })),
  });
  const result = (): ResponseDeliverTx => ({
    code: next() < 0.8 ? 0 : int(100),
    data: bytes(20),
    log: text(30),
    info: text(5),
    gasWanted: BigInt(int(1000)),
    gasUsed: BigInt(int(1000)),
    events: Array.from({ length: int(4) }, event),
    codespace: next() < 0.9 ? "" : text(6),
  });
  return { int, bytes, event, result };
}

describe("DeliverTx bytes shared by the ABCI responses record and the tx index", () => {
  it("assembles ABCIResponses exactly as ABCIResponses.encode does", () => {
    const g = generator(19);
    for (let round = 0; round < 200; round++) {
      const responses: ABCIResponses = {
        deliverTxs: Array.from({ length: g.int(12) }, g.result),
        beginBlock: round % 3 === 0 ? undefined : { events: Array.from({ length: g.int(3) }, g.event) },
        endBlock:
          round % 5 === 0
            ? undefined
            : {
                validatorUpdates: [],
                consensusParamUpdates: undefined,
                events: Array.from({ length: g.int(3) }, g.event),
              },
      };
      assert.deepEqual(
        Buffer.from(encodeAbciResponses(responses)),
        Buffer.from(ABCIResponses.encode(responses).finish()),
      );
    }
  });

  it("assembles TxResult exactly as TxResult.encode does, at any height and position", () => {
    const g = generator(7);
    const heights = [
      0n,
      1n,
      127n,
      128n,
      16383n,
      16384n,
      2n ** 31n,
      2n ** 32n,
      2n ** 53n - 1n,
      2n ** 53n,
      2n ** 63n - 1n,
    ];
    for (let round = 0; round < 400; round++) {
      const height = heights[round % heights.length]!;
      const index = round % 4 === 0 ? 0 : round % 4 === 1 ? 2 ** 32 - 1 - g.int(3) : g.int(100_000);
      const tx = round % 7 === 0 ? new Uint8Array(0) : g.bytes(200);
      const result = g.result();
      const [bytes] = deliverTxBytes([result]);
      assert.deepEqual(
        Buffer.from(encodeTxResult(height, index, tx, bytes!)),
        Buffer.from(TxResult.encode({ height, index, tx, result }).finish()),
        `height ${height} index ${index}`,
      );
    }
  });

  it("encodes one DeliverTx result exactly as ResponseDeliverTx.encode does, odd fields included", () => {
    const g = generator(11);
    const odd: Partial<ResponseDeliverTx>[] = [
      { code: 2 ** 32 - 1 },
      { log: "caf\u00e9 \u2603", info: "\ud83d\ude00" },
      { codespace: "lone \ud800 surrogate" },
      { gasWanted: 2n ** 53n - 1n, gasUsed: 2n ** 53n },
      { gasWanted: -1n, gasUsed: 2n ** 63n - 1n },
      {
        events: [
          { type: "", attributes: [{ key: new Uint8Array(0), value: new Uint8Array(0), index: false }] },
        ],
      },
      { events: [{ type: "\u00fcber", attributes: [] }] },
      // An app object without `index` (not a decoded message): the generated encoder writes it as 0.
      {
        events: [
          {
            type: "transfer",
            attributes: [
              { key: new Uint8Array([1]), value: new Uint8Array([2]) } as Event["attributes"][number],
            ],
          },
        ],
      },
      { data: new Uint8Array(300).fill(7), log: "x".repeat(200) },
    ];
    for (let round = 0; round < 300; round++) {
      const result = { ...g.result(), ...(odd[round % (odd.length * 3)] ?? {}) };
      assert.deepEqual(
        Buffer.from(encodeDeliverTx(result)),
        Buffer.from(ResponseDeliverTx.encode(result).finish()),
        `round ${round}`,
      );
    }
  });

  it("encodes a results array once: the record and the index read the same bytes", () => {
    const g = generator(3);
    const results = Array.from({ length: 5 }, g.result);
    const first = deliverTxBytes(results);
    assert.equal(deliverTxBytes(results), first);
    // Another array with equal contents is encoded for itself.
    assert.notEqual(deliverTxBytes([...results]), first);
    assert.deepEqual(deliverTxBytes([...results]), first);
  });

  it("writes each result once, into the record: the index's bytes are views of the saved array", () => {
    const g = generator(5);
    // One result the hand path leaves to the generated encoder (a non-ASCII log) among the others.
    const results = [...Array.from({ length: 6 }, g.result), { ...g.result(), log: "caf\u00e9" }];
    const responses: ABCIResponses = { deliverTxs: results, beginBlock: undefined, endBlock: undefined };
    const record = encodeAbciResponses(responses);
    const parts = deliverTxBytes(results);
    for (const [i, part] of parts.entries()) {
      assert.equal(part.buffer, record.buffer, `result ${i} is a view of the record`);
      assert.deepEqual(Buffer.from(part), Buffer.from(ResponseDeliverTx.encode(results[i]!).finish()));
    }
  });
});
