// Pruning for Commit's retain_height (streams/effects/block-commit.ts): the in-process kvstore set
// to retain a few blocks makes the node prune blocks and states after each height is saved, never
// below the heights evidence (max_age_num_blocks and max_age_duration) or a restart
// (double_sign_check_height) still needs; the block store's base advances and the node restarts
// and continues on the pruned stores.
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { firstValueFrom } from "rxjs";
import { filter } from "rxjs/operators";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import { safeRetainHeight } from "../../streams/effects/block-commit.js";
import { startNode } from "../../streams/node.js";
import { at, genesisChain } from "../unit/consensus-harness.js";
import { freshHome, prepare } from "./streams-node-helpers.js";

const home = freshHome("rxbft-prune-");
after(() => rmSync(home, { recursive: true, force: true }));
// Evidence expires after 2 blocks and 1 ms, so it does not hold pruning back here.
const genesisFile = join(home, "config", "genesis.json");
const genesis = JSON.parse(readFileSync(genesisFile, "utf8"));
genesis.consensus_params.evidence.max_age_num_blocks = "2";
genesis.consensus_params.evidence.max_age_duration = "1000000";
writeFileSync(genesisFile, JSON.stringify(genesis, null, 2));

const DOUBLE_SIGN_CHECK = 4n;

async function runUntil(height: bigint) {
  const prepared = prepare(home, { "consensus.double_sign_check_height": String(DOUBLE_SIGN_CHECK) });
  try {
    const node = await startNode(prepared, { verifyWorkers: 0, rpc: false, kvstoreRetainBlocks: 2n });
    await firstValueFrom(node.consensusState$.pipe(filter((s) => s.height > height)));
    const base = node.stores.blockStore.base();
    const latest = node.stores.blockStore.height();
    const exit = await node.stop();
    return { node, base, latest, exit };
  } finally {
    prepared.lock.release();
  }
}

describe("streams: pruning for Commit's retain_height", () => {
  it("advances the base, keeps what a restart needs, and restarts on the pruned stores", async () => {
    const first = await runUntil(8n);
    assert.equal(first.exit.exitCode, 0);
    assert.ok(first.base > 1n, `base advanced (base ${first.base}, height ${first.latest})`);
    // The app asks to keep 2 blocks; the double-sign check needs 4 heights' commits.
    assert.ok(
      first.base <= first.latest - DOUBLE_SIGN_CHECK + 1n,
      `base ${first.base} height ${first.latest}`,
    );
    const second = await runUntil(first.latest + 3n);
    assert.equal(second.exit.exitCode, 0);
    assert.ok(second.base > first.base, `base moved on after the restart (${first.base} → ${second.base})`);
    assert.ok(second.latest >= first.latest + 3n);
  });

  it("never prunes heights whose evidence has not expired, by block count or by time", async () => {
    const chain = (latest: bigint, maxAgeNumBlocks: bigint, seconds: bigint): ChainState => {
      const g = genesisChain([10n]);
      return {
        ...g,
        lastBlockHeight: latest,
        lastBlockTime: at(Number(latest) * 1000),
        consensusParams: {
          ...g.consensusParams,
          evidence: { ...g.consensusParams.evidence, maxAgeNumBlocks, maxAgeDuration: { seconds, nanos: 0 } },
        },
      };
    };
    // Block h has time h seconds after genesis.
    const timeAt = async (h: bigint) => at(Number(h) * 1000);
    // Nothing holds it back: the app's retain height.
    assert.equal(await safeRetainHeight(chain(100n, 10n, 5n), 50n, 1n, timeAt), 50n);
    // max_age_num_blocks 80: heights from 20 on are kept.
    assert.equal(await safeRetainHeight(chain(100n, 80n, 5n), 50n, 1n, timeAt), 20n);
    // max_age_duration 70 s: heights from 30 on (time within 70 s of height 100's) are kept.
    assert.equal(await safeRetainHeight(chain(100n, 10n, 70n), 50n, 1n, timeAt), 30n);
    // Neither expired down to the base: nothing pruned.
    assert.equal(await safeRetainHeight(chain(100n, 10n, 1000n), 50n, 1n, timeAt), 1n);
    // A restart's recent heights (double_sign_check_height 60) are kept.
    assert.equal(await safeRetainHeight(chain(100n, 10n, 5n), 50n, 1n, timeAt, 60n), 41n);
  });
});
