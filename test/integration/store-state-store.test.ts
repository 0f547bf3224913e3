import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type BinaryLevel, openBinaryLevel } from "../../src/store/level-database.js";
import { StateStore } from "../../src/store/state-store.js";
import { State } from "../../src/wire/generated/tendermint/state/types.js";
import type { ValidatorSet } from "../../src/wire/generated/tendermint/types/validator.js";
import {
  encodingOf,
  makeAbciResponses,
  makeState,
  makeValidatorSet,
} from "../fixtures/store/chain-fixture.js";

const root = mkdtempSync(join(tmpdir(), "store-state-"));
after(() => rmSync(root, { recursive: true, force: true }));
let dbCount = 0;

// Stand-in for the state module's priority arithmetic: marks how many rounds it advanced.
const advance = (set: ValidatorSet, times: bigint): ValidatorSet => ({
  ...set,
  validators: set.validators.map((v) => ({ ...v, proposerPriority: v.proposerPriority + times })),
});

async function fresh(): Promise<{ db: BinaryLevel; store: StateStore; path: string }> {
  const path = join(root, `db${dbCount++}`);
  const db = await openBinaryLevel(path);
  return { db, store: await StateStore.open(db, { advanceProposerPriority: advance }), path };
}

/** Saves genesis, then heights 1..last; validators change (tag 2) from `changeAt` on. */
async function runChain(store: StateStore, last: bigint, changeAt = 0n): Promise<void> {
  await store.save(makeState(0n));
  for (let h = 1n; h <= last; h++) {
    const state = makeState(h);
    // Updates from EndBlock of changeAt-2 take effect at changeAt (Tendermint's H+2 rule).
    if (changeAt > 0n && h + 2n >= changeAt) {
      state.nextValidators = makeValidatorSet(2, 20n);
      state.lastHeightValidatorsChanged = changeAt;
      if (h + 1n >= changeAt) state.validators = makeValidatorSet(2, 20n);
    }
    if (h >= 5n) {
      state.consensusParams.block.maxGas = 5000n;
      state.lastHeightConsensusParamsChanged = 6n;
    }
    await store.save(state, makeAbciResponses(h, 2));
  }
}

describe("StateStore", () => {
  it("saves and reloads the latest state across reopen", async () => {
    const { db, store, path } = await fresh();
    assert.equal(store.load(), undefined);
    await runChain(store, 3n);
    assert.equal(store.lastBlockHeight(), 3n);
    await db.close();
    const db2 = await openBinaryLevel(path);
    const reopened = await StateStore.open(db2);
    assert.equal(encodingOf(State, reopened.load()), encodingOf(State, makeState(3n)));
    await db2.close();
  });

  it("stores validator sets where they change and follows pointers, advancing priorities", async () => {
    const { db, store } = await fresh();
    await runChain(store, 12n, 8n);
    const at1 = await store.loadValidators(1n);
    assert.equal(at1.validators[0]!.proposerPriority, 0n, "stored in full at genesis");
    const at4 = await store.loadValidators(4n);
    assert.equal(at4.totalVotingPower, 10n);
    assert.equal(at4.validators[0]!.proposerPriority, 3n, "3 rounds after height 1");
    const at8 = await store.loadValidators(8n);
    assert.equal(at8.totalVotingPower, 20n, "the new set from its change height");
    assert.equal(at8.validators[0]!.proposerPriority, 0n);
    assert.equal((await store.loadValidators(11n)).validators[0]!.proposerPriority, 3n);
    // next_validators of the latest state (after 12) are stored for height 14.
    assert.equal((await store.loadValidators(14n)).totalVotingPower, 20n);
    await assert.rejects(store.loadValidators(15n), /could not find validator set for height #15/);
    await db.close();
  });

  it("needs the priority function only for pointer records", async () => {
    const { db, store, path } = await fresh();
    await runChain(store, 4n);
    await db.close();
    const db2 = await openBinaryLevel(path);
    const bare = await StateStore.open(db2);
    assert.equal((await bare.loadValidators(1n)).totalVotingPower, 10n);
    await assert.rejects(
      bare.loadValidators(3n),
      (e: Error & { code?: string }) => e.code === "STORE_NEEDS_PRIORITY_FUNCTION",
    );
    await db2.close();
  });

  it("stores consensus params by height with pointers to the change height", async () => {
    const { db, store } = await fresh();
    await runChain(store, 9n);
    assert.equal((await store.loadConsensusParams(3n)).block.maxGas, -1n);
    assert.equal((await store.loadConsensusParams(6n)).block.maxGas, 5000n);
    assert.equal((await store.loadConsensusParams(10n)).block.maxGas, 5000n);
    await assert.rejects(store.loadConsensusParams(11n), /could not find consensus params for height #11/);
    await db.close();
  });

  it("answers reads from a save still being written: the node goes on before its sync ends", async () => {
    const { db, store } = await fresh();
    await runChain(store, 3n);
    // Height 4 changes the next validators: height 6's set is new, stored in full by this save.
    const state = makeState(4n);
    state.nextValidators = makeValidatorSet(2, 20n);
    state.lastHeightValidatorsChanged = 6n;
    const saving = store.save(state, makeAbciResponses(4n, 3));
    // Asked before the synced write ended, as a client told of height 4 may ask at once.
    const [validators, params, responses] = await Promise.all([
      store.loadValidators(6n),
      store.loadConsensusParams(5n),
      store.loadABCIResponses(4n),
    ]);
    assert.equal(validators.totalVotingPower, 20n);
    assert.equal(params.block.maxGas, -1n);
    assert.equal(responses?.deliverTxs.length, 3);
    await saving;
    assert.equal(store.lastBlockHeight(), 4n);
    assert.equal((await store.loadValidators(6n)).totalVotingPower, 20n);
    await db.close();
  });

  it("keeps ABCI responses per height", async () => {
    const { db, store } = await fresh();
    await runChain(store, 3n);
    const responses = await store.loadABCIResponses(2n);
    assert.equal(responses?.deliverTxs.length, 2);
    assert.equal(responses?.endBlock?.events[0]?.type, "end");
    assert.equal(await store.loadABCIResponses(4n), undefined);
    // Saved ahead of the state, between execution and the app's Commit.
    await store.saveABCIResponses(4n, makeAbciResponses(4n, 5));
    assert.equal((await store.loadABCIResponses(4n))?.deliverTxs.length, 5);
    assert.equal(store.lastBlockHeight(), 3n);
    await db.close();
  });

  it("prunes old heights but keeps what retained heights point to, also after reopen", async () => {
    const { db, store, path } = await fresh();
    await runChain(store, 20n);
    assert.equal(await store.pruneStates(10n), 9);
    assert.equal(await store.loadABCIResponses(9n), undefined);
    assert.ok(await store.loadABCIResponses(10n));
    // Height 10's validators point to height 1 (the last change) and its params to 6: both kept.
    assert.equal((await store.loadValidators(10n)).validators[0]!.proposerPriority, 9n);
    assert.equal((await store.loadConsensusParams(10n)).block.maxGas, 5000n);
    await assert.rejects(store.loadValidators(5n), /could not find validator set for height #5/);
    await assert.rejects(store.pruneStates(21n), /within \[1, 20\]/);
    await db.close();
    const db2 = await openBinaryLevel(path);
    const reopened = await StateStore.open(db2, { advanceProposerPriority: advance });
    assert.equal((await reopened.loadValidators(15n)).validators[0]!.proposerPriority, 14n);
    await db2.close();
  });

  it("bootstraps a state-synced state with full sets that later heights can point to", async () => {
    const { db, store } = await fresh();
    const synced = makeState(500n);
    await store.bootstrap(synced);
    const next = makeState(501n);
    await store.save(next, makeAbciResponses(501n, 1));
    // lastHeightValidatorsChanged = 1 is long gone; the store keeps a full set instead.
    assert.equal((await store.loadValidators(502n)).totalVotingPower, 10n);
    assert.equal((await store.loadValidators(500n)).totalVotingPower, 10n);
    assert.equal((await store.loadConsensusParams(502n)).block.maxGas, -1n);
    await db.close();
  });
});
