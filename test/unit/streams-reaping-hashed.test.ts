// The node's reaping (streams/effects/reaping.ts, mempoolReaping): the pool's entries carry each
// tx's digests from its admission, and the reaped txs' data hash is made before the answer, the
// event loop turning between pieces once a budget of work has run, so the proposal's fold finds it
// done. Without the hashed
// port (the simulation) the answer stays synchronous.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { firstValueFrom, of, toArray } from "rxjs";
import type { ReapProposalBlock } from "../../src/consensus/effect.js";
import type { ProposalBlockReaped } from "../../src/consensus/input.js";
import { sha256 } from "../../src/crypto/hash.js";
import { merkleRoot } from "../../src/crypto/merkle.js";
import { EMPTY_EVIDENCE_POOL } from "../../src/evidence/state.js";
import {
  DEFAULT_MEMPOOL_CONFIG,
  initialMempoolState,
  type MempoolState,
  mempoolReducer,
} from "../../src/mempool/index.js";
import { reapMaxBytesMaxGas } from "../../src/mempool/reap.js";
import { nextTurn, turnsAfterWork } from "../../src/next-turn.js";
import { takeRecordItems } from "../../src/wal/record-ahead.js";
import { encodeRecord, encodeRecordInPieces } from "../../src/wal/record-codec.js";
import { dataHash, rememberedTxHashes } from "../../src/wire/hashes.js";
import { mempoolReaping, reapingHandler } from "../../streams/effects/reaping.js";

/** Whether two arrays are views of the very same bytes (not equal copies). */
const sameMemory = (a: Uint8Array, b: Uint8Array) =>
  a.buffer === b.buffer && a.byteOffset === b.byteOffset && a.length === b.length;
const upperHex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();

/** A pool of `n` admitted txs, folded through the reducer as the node admits them. */
function poolOf(n: number): MempoolState {
  let state = initialMempoolState({ ...DEFAULT_MEMPOOL_CONFIG, size: n }, 1n);
  const txs = Array.from({ length: n }, (_, i) => new TextEncoder().encode(`tx-${i}=value-${i}`));
  const submissions = txs.map((tx, i) => ({ requestId: i + 1, hash: upperHex(sha256(tx)), tx, from: "rpc" }));
  state = mempoolReducer(state, { type: "TxsSubmitted", submissions, time: 0 }).state;
  const results = submissions.map((s) => ({ ...s, code: 0, gasWanted: 0n }));
  return mempoolReducer(state, { type: "CheckTxsCompleted", results, time: 0 }).state;
}

const reap: ReapProposalBlock = {
  type: "ReapProposalBlock",
  height: 2n,
  round: 0,
  maxBytes: 22_020_096n,
  maxGas: -1n,
  maxEvidenceBytes: 1_048_576n,
  validatorCount: 1,
};

describe("reaping a proposal's txs", () => {
  it("an admitted tx's pool entry carries its sha256 and data-hash leaf", () => {
    const pool = poolOf(3);
    for (const entry of pool.txs.values()) {
      assert.equal(entry.digests.tx, entry.tx);
      assert.deepEqual(entry.digests.hash, sha256(entry.tx));
      assert.equal(upperHex(entry.digests.hash), entry.hash);
    }
  });

  /** Reaps a pool of `n` through the node's port, counting the event loop's turns meanwhile. */
  async function reapCountingTurns(pool: MempoolState, pauses?: () => () => Promise<void>) {
    const handler = reapingHandler({
      ...mempoolReaping((maxBytes, maxGas) => reapMaxBytesMaxGas(pool, maxBytes, maxGas), pauses),
      evidencePool: () => EMPTY_EVIDENCE_POOL,
    });
    let turns = 0;
    let immediate = setImmediate(function tick() {
      turns++;
      immediate = setImmediate(tick);
    });
    const answers = await firstValueFrom(handler(of(reap)).pipe(toArray()));
    clearImmediate(immediate);
    return { answers, turns };
  }

  it("the node's answer comes with its data hash made, from the entries' digests, over several turns", async () => {
    const pool = poolOf(5000);
    // Every piece yields (a zero budget): the pieces themselves are what this checks.
    const { answers, turns } = await reapCountingTurns(pool, () => () => nextTurn());
    assert.equal(answers.length, 1);
    const answer = answers[0] as ProposalBlockReaped;
    assert.equal(answer.txs.length, 5000);
    // The event loop turned while the tree was hashed (two whole pieces of 2,048 leaves).
    assert.ok(turns >= 2, `turns ${turns}`);
    const entries = [...pool.txs.values()];
    const remembered = rememberedTxHashes(answer.txs);
    assert.ok(remembered !== undefined, "the answer's txs have their hashes remembered");
    for (const [i, entry] of entries.entries())
      assert.ok(sameMemory(remembered[i]!, entry.digests.hash), `tx ${i}`);
    assert.deepEqual(dataHash(answer.txs), merkleRoot(entries.map((e) => sha256(e.tx))));
  });

  it("a block whose pieces fit the work budget is made without waiting a turn of the event loop", async () => {
    const pool = poolOf(5000);
    // A clock that never moves: every piece fits the budget, so no turn is waited for.
    const { answers, turns } = await reapCountingTurns(pool, () => turnsAfterWork(4, () => 0));
    assert.equal(turns, 0);
    const answer = answers[0] as ProposalBlockReaped;
    assert.equal(answer.txs.length, 5000);
    const entries = [...pool.txs.values()];
    assert.deepEqual(dataHash(answer.txs), merkleRoot(entries.map((e) => sha256(e.tx))));
  });

  it("a block whose pieces outrun the work budget yields between them", async () => {
    const pool = poolOf(5000);
    // A clock 10 ms further at every reading: each piece is over a 4 ms budget.
    let clock = 0;
    const { turns } = await reapCountingTurns(pool, () => turnsAfterWork(4, () => (clock += 10)));
    assert.ok(turns >= 2, `turns ${turns}`);
  });

  /**
   * The node's reaping port over the pool `poolNow()` gives at each reap, counting the hashings it
   * starts (each asks for a pause maker once).
   */
  function countingReaping(poolNow: () => MempoolState) {
    let made = 0;
    const port = mempoolReaping(
      (maxBytes, maxGas) => reapMaxBytesMaxGas(poolNow(), maxBytes, maxGas),
      () => {
        made++;
        return () => Promise.resolve();
      },
    );
    return { port, made: () => made };
  }

  it("a prefix made ahead (prepareAhead) is finished at the reap over the txs admitted since", async () => {
    const all = poolOf(3000);
    const entries = [...all.txs.values()];
    // The pool hashed ahead held the first 2,800 of them; the reap finds all 3,000 (a rest shorter
    // than PREFIX_HASH_PIECE, finished in one run with no pause job of its own).
    let pool: MempoolState = {
      ...all,
      txs: all.txs.withMutations((m) => {
        for (const e of entries.slice(2800)) m.delete(e.hash);
      }),
    };
    const { port, made } = countingReaping(() => pool);
    port.prepareAhead();
    pool = all;
    const txs = await port.reapTxsHashed!(22_020_096, -1n);
    assert.equal(txs.length, 3000);
    assert.equal(made(), 1, "the reap hashed no piece of its own");
    const remembered = rememberedTxHashes(txs);
    assert.ok(remembered !== undefined);
    for (const [i, entry] of entries.entries())
      assert.ok(sameMemory(remembered[i]!, entry.digests.hash), `tx ${i}`);
    assert.deepEqual(dataHash(txs), merkleRoot(entries.map((e) => sha256(e.tx))));
    // The log's record of the answer links the txs' chunks, the prefix's and the rest's.
    const record = { type: "ProposalBlockReaped", txs };
    const expected = encodeRecord(record);
    const pieces = encodeRecordInPieces(record).pieces;
    assert.ok(pieces.length > 2, "linked as chunks");
    assert.equal(Buffer.concat(pieces).toString("hex"), Buffer.from(expected).toString("hex"));
    // used once: the next reap hashes afresh
    await port.reapTxsHashed!(22_020_096, -1n);
    assert.equal(made(), 2);
  });

  it("a prefix the reap does not start with is left, and the reap hashes as before", async () => {
    const all = poolOf(300);
    const entries = [...all.txs.values()];
    let pool: MempoolState = all;
    const { port, made } = countingReaping(() => pool);
    port.prepareAhead();
    // The pool's first tx left (committed) before the reap.
    pool = { ...all, txs: all.txs.delete(entries[0]!.hash) };
    const txs = await port.reapTxsHashed!(22_020_096, -1n);
    assert.equal(txs.length, 299);
    assert.equal(made(), 2);
    assert.ok(takeRecordItems(txs) !== undefined, "the record's chunks made at the reap");
    assert.deepEqual(dataHash(txs), merkleRoot(entries.slice(1).map((e) => sha256(e.tx))));
  });

  it("without the hashed port the answer is synchronous, its data hash left to the fold", () => {
    const pool = poolOf(10);
    const seen: ProposalBlockReaped[] = [];
    reapingHandler({
      reapTxs: (maxBytes, maxGas) => reapMaxBytesMaxGas(pool, maxBytes, maxGas).map((t) => t.tx),
      evidencePool: () => EMPTY_EVIDENCE_POOL,
    })(of(reap)).subscribe((input) => seen.push(input as ProposalBlockReaped));
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.txs.length, 10);
    assert.equal(rememberedTxHashes(seen[0]!.txs), undefined);
  });
});
