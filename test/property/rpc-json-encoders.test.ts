// Every encoder output is valid JSON, and in the tendermint form every 64-bit integer is a
// string, for random blocks, commits, tx results and events.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { compactJson, seedJsonEncoder, tendermintJsonEncoder } from "../../src/rpc/json/index.js";

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const uint64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
const bytes = fc.uint8Array({ maxLength: 40 });
const time = fc.record({
  seconds: fc.bigInt({ min: -62135596800n, max: 253402300799n }),
  nanos: fc.integer({ min: 0, max: 999_999_999 }),
});
const blockId = fc.record({ hash: bytes, partSetHeader: fc.record({ total: fc.nat(2 ** 31), hash: bytes }) });
const header = fc.record({
  version: fc.record({ block: uint64, app: uint64 }),
  chainId: fc.string(),
  height: int64,
  time,
  lastBlockId: blockId,
  lastCommitHash: bytes,
  dataHash: bytes,
  validatorsHash: bytes,
  nextValidatorsHash: bytes,
  consensusHash: bytes,
  appHash: bytes,
  lastResultsHash: bytes,
  evidenceHash: bytes,
  proposerAddress: bytes,
});
const commitSig = fc.record({
  blockIdFlag: fc.integer({ min: 1, max: 3 }),
  validatorAddress: bytes,
  timestamp: time,
  signature: bytes,
});
const commit = fc.record({
  height: int64,
  round: fc.nat(1000),
  blockId,
  signatures: fc.array(commitSig, { maxLength: 4 }),
});
const attribute = fc.record({ key: bytes, value: bytes, index: fc.boolean() });
const event = fc.record({ type: fc.string(), attributes: fc.array(attribute, { maxLength: 3 }) });
const deliverTx = fc.record({
  code: fc.nat(2 ** 32 - 1),
  data: bytes,
  log: fc.string(),
  info: fc.string(),
  gasWanted: int64,
  gasUsed: int64,
  events: fc.array(event, { maxLength: 3 }),
  codespace: fc.string(),
});
const block = fc.record({
  header,
  data: fc.record({ txs: fc.array(bytes, { maxLength: 4 }) }),
  evidence: fc.constant({ evidence: [] }),
  lastCommit: commit,
});

/** Every number in the tendermint form must be a 32-bit quantity; int64 values are strings. */
function assertNoWideNumbers(value: unknown, path = "$"): void {
  if (typeof value === "number") {
    assert.ok(
      Number.isInteger(value) && Math.abs(value) <= 2 ** 32,
      `${path} is a number beyond 32 bits: ${value}`,
    );
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) assertNoWideNumbers(v, `${path}[${i}]`);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) assertNoWideNumbers(v, `${path}.${k}`);
  }
}

const WIDE_KEYS = ["height", "gas_wanted", "gas_used", "last_height", "num_txs", "block_size"];

function assertInt64Strings(value: unknown): void {
  if (Array.isArray(value)) value.forEach(assertInt64Strings);
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (WIDE_KEYS.includes(k) && v !== null && typeof v !== "object") {
        assert.equal(typeof v, "string", `${k} must be a string, got ${JSON.stringify(v)}`);
        assert.match(v as string, /^-?\d+$/);
      }
      assertInt64Strings(v);
    }
  }
}

test("results of both forms are valid JSON; tendermint int64 fields are decimal strings", () => {
  fc.assert(
    fc.property(block, blockId, fc.array(deliverTx, { maxLength: 3 }), int64, (b, id, txs, height) => {
      const cases: [string, unknown][] = [
        ["block", { blockId: id, block: b }],
        [
          "blockchain",
          {
            lastHeight: height,
            blockMetas: [{ blockId: id, blockSize: height, header: b.header, numTxs: height }],
          },
        ],
        ["commit", { signedHeader: { header: b.header, commit: b.lastCommit }, canonical: true }],
        [
          "block_results",
          {
            height,
            txsResults: txs,
            beginBlockEvents: [],
            endBlockEvents: [],
            validatorUpdates: [],
            consensusParamUpdates: undefined,
          },
        ],
      ];
      for (const [route, result] of cases) {
        const seed = JSON.parse(seedJsonEncoder.encodeResult(route, result));
        assert.ok(seed !== undefined);
        const tm = JSON.parse(tendermintJsonEncoder.encodeResult(route, result));
        assertNoWideNumbers(tm);
        assertInt64Strings(tm);
      }
    }),
    { numRuns: 150 },
  );
});

test("event data of both forms is valid JSON with Go-escaped HTML characters", () => {
  fc.assert(
    fc.property(block, deliverTx, int64, (b, result, height) => {
      const events: [string, unknown][] = [
        [
          "NewBlock",
          {
            block: b,
            resultBeginBlock: { events: result.events },
            resultEndBlock: { validatorUpdates: [], events: [] },
          },
        ],
        ["Tx", { txResult: { height, index: 0, tx: b.data.txs[0] ?? new Uint8Array(0), result } }],
        ["NewRoundStep", { height, round: 0, step: "RoundStepPropose" }],
      ];
      for (const [type, data] of events) {
        for (const enc of [seedJsonEncoder, tendermintJsonEncoder]) {
          const text = enc.encodeEventData(type, data);
          assert.ok(!/[<>&]/.test(text), "unescaped <, > or &");
          const parsed = JSON.parse(text);
          assert.equal(typeof parsed.type, "string");
          if (enc === tendermintJsonEncoder) assertNoWideNumbers(parsed.value);
        }
      }
    }),
    { numRuns: 150 },
  );
});

test("compactJson keeps the value (big numbers included) and escapes like Go", () => {
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const pretty = JSON.stringify(value, null, 2);
      const compact = compactJson(pretty);
      assert.deepEqual(JSON.parse(compact), JSON.parse(pretty));
      assert.ok(!/[<>&]/.test(compact));
      assert.ok(!/\n/.test(compact));
    }),
    { numRuns: 200 },
  );
  assert.equal(
    compactJson('{ "n" : 123456789012345678901234567890 }'),
    '{"n":123456789012345678901234567890}',
  );
});

test("the encoders' cached RFC 3339 writer agrees with the types module's for any instant", async () => {
  const { rfc3339 } = await import("../../src/rpc/json/json-primitives.js");
  const { timestampToRfc3339 } = await import("../../src/types/time.js");
  fc.assert(
    fc.property(time, (t) => {
      assert.equal(rfc3339(t), timestampToRfc3339(t));
    }),
    { numRuns: 500 },
  );
});
