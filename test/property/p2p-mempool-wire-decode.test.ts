// decodeMempoolMessage reads v0.34's one-tx message (`0a len 0a len tx`) without the generated
// decoder and hands every other shape to it; the receive check (channelMessageProblem) and the
// metrics' tx count (mempoolTxCount) take the same shape without their field walk. On valid
// messages of one or several txs of every length class, and on those messages mutated, truncated
// or extended, each must give what its general path gives: the same txs (byte for byte) or the
// same refusal, problem or count. Fixed seed.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { channelMessageProblem, channelMessageProblemGeneral } from "../../src/p2p/channel-message-check.js";
import { CHANNEL_MEMPOOL } from "../../src/p2p/channels.js";
import {
  type DecodedMempoolMessage,
  decodeMempoolMessage,
  decodeMempoolMessageGeneral,
  encodeMempoolTx,
  encodeMempoolTxs,
  oneTxOf,
} from "../../src/p2p/mempool-wire.js";
import { mempoolTxCount, mempoolTxCountGeneral } from "../../src/p2p/message-type.js";

const SEED = 0x5eed_0036;
/** max_tx_bytes of the checks: small enough that the tx bound and the capacity are both met. */
const MAX_TX_BYTES = 300;

/** The outcome as plain data: txs as arrays of numbers, so views of any buffer compare by bytes. */
function plain(decoded: DecodedMempoolMessage): unknown {
  return decoded.kind === "txs" ? { txs: decoded.txs.map((tx) => Array.from(tx)) } : decoded;
}

function agree(bytes: Uint8Array): void {
  assert.deepEqual(
    plain(decodeMempoolMessage(bytes, MAX_TX_BYTES)),
    plain(decodeMempoolMessageGeneral(bytes, MAX_TX_BYTES)),
  );
  assert.equal(
    channelMessageProblem(CHANNEL_MEMPOOL, bytes),
    channelMessageProblemGeneral(CHANNEL_MEMPOOL, bytes),
  );
  assert.equal(mempoolTxCount(bytes), mempoolTxCountGeneral(bytes));
}

// Lengths around the one-byte varint's end and past max_tx_bytes.
const tx = fc.oneof(fc.uint8Array({ maxLength: 140 }), fc.uint8Array({ minLength: 290, maxLength: 320 }));
const message = fc.oneof(
  tx.map((t) => encodeMempoolTx(t)),
  fc.array(tx, { minLength: 2, maxLength: 4 }).map((ts) => encodeMempoolTxs(ts)),
);

test("the one-tx reader and the generated decoder agree on valid messages", () => {
  fc.assert(
    fc.property(message, (bytes) => agree(bytes)),
    { seed: SEED, numRuns: 3_000 },
  );
});

test("the one-tx reader takes exactly the one-tx shape, as a view of the message", () => {
  const bytes = encodeMempoolTx(Uint8Array.of(1, 2, 3));
  const one = oneTxOf(bytes);
  assert.deepEqual(Array.from(one ?? []), [1, 2, 3]);
  assert.equal(one?.buffer, bytes.buffer, "a view, not a copy");
  assert.equal(oneTxOf(encodeMempoolTx(new Uint8Array(0))), undefined, "an empty tx");
  assert.equal(oneTxOf(encodeMempoolTxs([Uint8Array.of(1), Uint8Array.of(2)])), undefined, "two txs");
  assert.equal(oneTxOf(Uint8Array.of(...bytes, 0)), undefined, "a byte after the message");
  assert.equal(oneTxOf(bytes.subarray(0, bytes.length - 1)), undefined, "a byte short");
  assert.deepEqual(Array.from(oneTxOf(encodeMempoolTx(new Uint8Array(200).fill(7))) ?? []).length, 200);
});

test("they agree on mutated, truncated and extended messages", () => {
  const edit = fc.oneof(
    fc.record({ kind: fc.constant("set" as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
    fc.record({ kind: fc.constant("cut" as const), at: fc.nat(), value: fc.constant(0) }),
    fc.record({ kind: fc.constant("add" as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  );
  fc.assert(
    fc.property(message, fc.array(edit, { minLength: 1, maxLength: 3 }), (original, edits) => {
      let bytes = Uint8Array.from(original);
      for (const e of edits) {
        const at = bytes.length === 0 ? 0 : e.at % bytes.length;
        if (e.kind === "set" && bytes.length > 0) bytes[at] = e.value;
        else if (e.kind === "cut") bytes = bytes.subarray(0, at);
        else if (e.kind === "add") bytes = Uint8Array.of(...bytes, e.value);
      }
      agree(bytes);
    }),
    { seed: SEED, numRuns: 3_000 },
  );
});
