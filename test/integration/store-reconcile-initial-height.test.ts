// Reconcile on a chain whose genesis initial_height is above 1 (review): the first block saved
// before its state is a replay, as at any other height.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { openStores } from "../../src/store/index.js";
import type { ValidatorSet } from "../../src/wire/generated/tendermint/types/validator.js";
import { makeExecutedHeight, makeState } from "../fixtures/store/chain-fixture.js";

const root = mkdtempSync(join(tmpdir(), "store-reconcile-ih-"));
after(() => rmSync(root, { recursive: true, force: true }));
const advanceProposerPriority = (set: ValidatorSet): ValidatorSet => set;

describe("reconcile with initial_height above 1", () => {
  it("asks for a replay of the first block when its state was not saved", async () => {
    const dir = join(root, "data");
    const stores = await openStores(dir, { indexer: "kv", advanceProposerPriority });
    const genesis = makeState(0n);
    genesis.initialHeight = 5n;
    genesis.lastHeightValidatorsChanged = 5n;
    genesis.lastHeightConsensusParamsChanged = 5n;
    await stores.stateStore.save(genesis);
    await stores.blockStore.saveBlock(makeExecutedHeight(5n, 2).block);
    await stores.close();
    const reopened = await openStores(dir, { indexer: "kv", advanceProposerPriority });
    const report = await reopened.reconcile();
    assert.equal(report.replayHeight, 5n);
    assert.match(
      report.findings.join("\n"),
      /block store at 5, state at 0: state will be rebuilt by replay of height 5/,
    );
    await reopened.close();
  });
});
