// The evidence pool across restarts, on a real LevelDB (data/evidence.db): pending evidence is
// kept; evidence a block committed is never pending again, even when the node crashed after
// saving the block and before the evidence store took it in (the start-up catch-up reads that
// block); committed evidence is refused; expired evidence is pruned from the store.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  checkEvidence,
  type EvidenceHistory,
  evidenceKey,
  pendingEvidence,
} from "../../src/evidence/index.js";
import { createLogger } from "../../src/logger/index.js";
import { EVIDENCE_DB, EvidenceStore } from "../../src/store/evidence-store.js";
import { defaultConsensusParams } from "../../src/types/consensus-params.js";
import { wrapDuplicateVoteEvidence } from "../../src/types/evidence.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type { Evidence } from "../../src/wire/generated/tendermint/types/evidence.js";
import { SignedMsgType, type Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { openEvidencePool } from "../../streams/boot/evidence-pool.js";

const dir = mkdtempSync(join(tmpdir(), "rxbft-evidence-store-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const logger = createLogger({ level: "none" });
const time = (s: number) => ({ seconds: 1_700_000_000n + BigInt(s), nanos: 0 });

/** A DuplicateVoteEvidence at height 1 (its content only matters for its key here). */
function dve(tag: number): Evidence {
  const vote = (b: number): Vote => ({
    type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE,
    height: 1n,
    round: 0,
    blockId: {
      hash: new Uint8Array(32).fill(b),
      partSetHeader: { total: 1, hash: new Uint8Array(32).fill(b) },
    },
    timestamp: time(1),
    validatorAddress: new Uint8Array(20).fill(tag),
    validatorIndex: 0,
    signature: new Uint8Array(64).fill(tag),
  });
  return wrapDuplicateVoteEvidence({
    voteA: vote(1),
    voteB: vote(2),
    totalVotingPower: 40n,
    validatorPower: 10n,
    timestamp: time(1),
  });
}

const e1 = dve(1);
const e2 = dve(2);
const chainAt = (height: bigint, seconds: number): ChainState =>
  ({
    chainId: "ev",
    lastBlockHeight: height,
    lastBlockTime: time(seconds),
    consensusParams: defaultConsensusParams(),
  }) as unknown as ChainState;
const blocks = new Map<bigint, Block>([[2n, { evidence: { evidence: [e1] } } as unknown as Block]]);
const blockStore = { loadBlock: async (h: bigint) => blocks.get(h), base: () => 1n };
const noHistory: EvidenceHistory = { blockTimeAt: () => undefined, validatorsAt: () => undefined };
const open = (chain: ChainState) =>
  openEvidencePool({
    dataDir: dir,
    chain,
    blockStore,
    recent: noHistory,
    historyFor: () => noHistory,
    logger,
    onStoreFailure: (reason) => assert.fail(reason),
  });

describe("evidence store across restarts", () => {
  it("catches up with a block committed before a crash, and keeps what it learnt", async () => {
    // Before the crash: both pending, the store up to date with height 1.
    const seeded = await EvidenceStore.open(join(dir, EVIDENCE_DB));
    await seeded.apply({
      addPending: [e1, e2],
      removePending: [],
      addCommitted: [],
      removeCommitted: [],
      height: 1n,
    });
    await seeded.close();
    // Block 2 (carrying e1) was saved, the evidence store was not: the restart reads block 2.
    const first = await open(chainAt(2n, 2));
    const pool = first.holder.state();
    assert.deepEqual(
      pool.pending.map((p) => p.key),
      [evidenceKey(e2)],
    );
    assert.deepEqual(
      pool.committed.map((c) => c.key),
      [evidenceKey(e1)],
    );
    await first.close();

    // A plain restart: the same sets, from the store alone (no block above its height now).
    blocks.clear();
    const second = await open(chainAt(2n, 2));
    const again = second.holder.state();
    assert.deepEqual(
      again.pending.map((p) => p.key),
      [evidenceKey(e2)],
    );
    assert.deepEqual(
      again.committed.map((c) => c.key),
      [evidenceKey(e1)],
    );
    // never re-proposed, never re-accepted
    assert.deepEqual(pendingEvidence(again, 1_000_000n).evidence.map(evidenceKey), [evidenceKey(e2)]);
    const refused = checkEvidence(again, e1, chainAt(2n, 2), noHistory, () => true);
    assert.deepEqual(refused, { kind: "invalid", reason: "evidence was already committed" });

    // Expiry (older than both max_age_num_blocks and max_age_duration) prunes the store too.
    const params = defaultConsensusParams().evidence;
    const far = chainAt(2n + params.maxAgeNumBlocks + 1n, Number(params.maxAgeDuration.seconds) + 10);
    second.holder.afterBlock(far, { evidence: { evidence: [] } } as unknown as Block);
    await second.close();
    const store = await EvidenceStore.open(join(dir, EVIDENCE_DB));
    const left = await store.load();
    await store.close();
    assert.deepEqual(left, { pending: [], committed: [], height: far.lastBlockHeight });
  });
});
