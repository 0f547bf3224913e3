// The proposer's ProposalBlockReaped record (RECORD_AHEAD_TXS txs of 100 bytes, default 20,000: a
// loaded height at 20,000 tx/s), framed as the log's flush frames it, two ways, alternated in one
// process:
// - "old": what the append's turn did before the twenty-fourth pass: encodeRecord (the txs copied
//   one by one into a buffer grown by doubling, then sliced) and the frame's CRC-32C over the
//   whole payload;
// - "ahead": what the append's turn does now: encodeRecordInPieces linking the chunks the reap
//   made (src/wal/record-ahead.ts) and the frame's check combined from theirs; plus, reported apart,
//   the reap's work that made those chunks (recordItemsAhead, paused between chunks in the node).
// Fresh txs and a fresh input every round, as every height has; the figures include the first
// touch of the fresh memory each form writes, which is most of the old form's cost on the project's
// machine (~3 ms a MB). Prints the medians and the ratio old / ahead of the append's turn.
//   node --import tsx test/bench/wal-record-ahead.bench.ts   (RECORD_AHEAD_TXS, RECORD_AHEAD_ROUNDS)
import { encodeFrameHead, encodeFrameHeadOfPieces, FrameType } from "../../src/wal/frame.js";
import { recordItemsAhead } from "../../src/wal/record-ahead.js";
import { encodeRecord, encodeRecordInPieces } from "../../src/wal/record-codec.js";

const TXS = Number(process.env.RECORD_AHEAD_TXS ?? 20_000);
const ROUNDS = Number(process.env.RECORD_AHEAD_ROUNDS ?? 15);
const MAX = 1 << 30;

const reaped = (round: number) => {
  const txs = Array.from({ length: TXS }, (_, i) => {
    const tx = new Uint8Array(100);
    tx[0] = round & 0xff;
    tx[1] = i & 0xff;
    tx[2] = (i >> 8) & 0xff;
    return tx;
  });
  return {
    type: "ProposalBlockReaped",
    time: { seconds: 1_700_000_000n + BigInt(round), nanos: 5 },
    height: BigInt(round + 1),
    round: 0,
    txs,
    evidence: [],
  };
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

const old: number[] = [];
const appendTurn: number[] = [];
const reapWork: number[] = [];
let check = 0;
for (let round = 0; round < ROUNDS; round++) {
  // Old form.
  {
    const input = reaped(2 * round);
    const t0 = performance.now();
    const payload = encodeRecord(input);
    const head = encodeFrameHead(FrameType.Input, payload, MAX);
    old.push(performance.now() - t0);
    check ^= head[4]!;
  }
  // Ahead: the reap's chunks, then the append's turn.
  {
    const input = reaped(2 * round + 1);
    const t0 = performance.now();
    await recordItemsAhead(input.txs, async () => {});
    const t1 = performance.now();
    const record = encodeRecordInPieces(input);
    const head = encodeFrameHeadOfPieces(FrameType.Input, record.pieces, record.checks, record.length, MAX);
    const t2 = performance.now();
    reapWork.push(t1 - t0);
    appendTurn.push(t2 - t1);
    check ^= head[4]!;
  }
}
const r = (n: number) => n.toFixed(2);
console.log(
  `ProposalBlockReaped of ${TXS} txs of 100 bytes, ${ROUNDS} rounds alternated, medians: ` +
    `old append turn ${r(median(old))} ms | ahead: append turn ${r(median(appendTurn))} ms, ` +
    `reap's chunks ${r(median(reapWork))} ms (in pieces) | append turn old/ahead ${r(median(old) / median(appendTurn))}x | ` +
    `all work old/ahead ${r(median(old) / (median(appendTurn) + median(reapWork)))}x (check ${check})`,
);
