// broadcast_evidence feeds the node's evidence pool: a duplicate vote signed with the validator's
// own key is checked like evidence in a block, proposed, committed, and reported to the app;
// forged or malformed evidence is refused with the reason.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { timestampFromRfc3339, timestampToRfc3339 } from "../../src/types/time.js";
import type { Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { voteSignBytes } from "../../src/wire/sign-bytes.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

const PRECOMMIT = 2;
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();

interface KeyFile {
  address: string;
  priv_key: { value: string };
}

function conflictingVote(chainId: string, height: bigint, key: KeyFile, time: string): Vote {
  const vote: Vote = {
    type: PRECOMMIT,
    height,
    round: 0,
    blockId: { hash: randomBytes(32), partSetHeader: { total: 1, hash: randomBytes(32) } },
    timestamp: timestampFromRfc3339(time),
    validatorAddress: Buffer.from(key.address, "hex"),
    validatorIndex: 0,
    signature: new Uint8Array(0),
  };
  const privateKey = Buffer.from(key.priv_key.value, "base64");
  return { ...vote, signature: signEd25519(privateKey, voteSignBytes(chainId, vote)) };
}

const voteJson = (v: Vote) => ({
  type: v.type,
  height: v.height.toString(),
  round: v.round,
  block_id: {
    hash: hex(v.blockId.hash),
    parts: { total: v.blockId.partSetHeader.total, hash: hex(v.blockId.partSetHeader.hash) },
  },
  timestamp: timestampToRfc3339(v.timestamp),
  validator_address: hex(v.validatorAddress),
  validator_index: v.validatorIndex,
  signature: Buffer.from(v.signature).toString("base64"),
});

async function post(node: NodeProcess, method: string, params: unknown): Promise<Record<string, any>> {
  await node.waitFor(() => node.rpcUrl !== undefined, "the RPC server");
  const res = await fetch(node.rpcUrl!, {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await res.json()) as Record<string, any>;
}

test("duplicate-vote evidence over broadcast_evidence is committed in a later block, and stays committed across a kill -9", async () => {
  const home = await initFastHome({ timeout_commit: "200ms" }, "rxbft-evidence-");
  let node = new NodeProcess(home);
  try {
    await node.waitFor(() => node.height >= 3n, "height 3");
    const key = JSON.parse(readFileSync(join(home, "config/priv_validator_key.json"), "utf8")) as KeyFile;
    const genesis = JSON.parse(readFileSync(join(home, "config/genesis.json"), "utf8")) as {
      chain_id: string;
    };
    const header = ((await node.rpc("/block?height=2")).result as any).block.header;
    const voteA = conflictingVote(genesis.chain_id, 2n, key, header.time);
    const voteB = conflictingVote(genesis.chain_id, 2n, key, header.time);
    const evidence = (a: Vote, b: Vote) => ({
      type: "tendermint/DuplicateVoteEvidence",
      value: {
        vote_a: voteJson(a),
        vote_b: voteJson(b),
        TotalVotingPower: "10",
        ValidatorPower: "10",
        Timestamp: header.time,
      },
    });
    const [first, second] =
      Buffer.compare(Buffer.from(voteA.blockId.hash), Buffer.from(voteB.blockId.hash)) < 0
        ? [voteA, voteB]
        : [voteB, voteA];

    // A forged signature is refused with the reason, and nothing is added.
    const forged = { ...second, signature: randomBytes(64) };
    const refused = await post(node, "broadcast_evidence", { evidence: evidence(first, forged) });
    assert.ok(refused.error, "forged evidence is refused");
    assert.match(JSON.stringify(refused.error), /signature does not verify/);

    const accepted = await post(node, "broadcast_evidence", { evidence: evidence(first, second) });
    assert.equal(accepted.error, undefined, JSON.stringify(accepted.error));

    const from = node.height;
    let committedAt: bigint | undefined;
    for (let h = from; h < from + 15n && committedAt === undefined; h++) {
      await node.waitFor(() => node.height >= h + 1n, `height ${h + 1n}`);
      const block = ((await node.rpc(`/block?height=${h + 1n}`)).result as any).block;
      if (block.evidence.length > 0) {
        assert.equal(
          block.evidence[0].validator.address ?? block.evidence[0].value?.vote_a?.validator_address,
          key.address,
        );
        committedAt = h + 1n;
      }
    }
    assert.ok(committedAt !== undefined, "the evidence is committed within 15 blocks");

    // Once committed, the same evidence is answered with success and its hash, as v0.34 answers
    // (AddEvidence ignores committed evidence), and it never becomes pending again.
    const again = await post(node, "broadcast_evidence", { evidence: evidence(first, second) });
    assert.equal(again.error, undefined, JSON.stringify(again.error));
    assert.deepEqual(again.result, accepted.result);

    // A crash and a restart: the committed evidence comes back from data/evidence.db (or from the
    // block store's catch-up): refused again, and never proposed again.
    node.kill("SIGKILL");
    await node.exited;
    node = new NodeProcess(home);
    const restartedAt = await (async () => {
      await node.waitFor(() => node.height >= 1n, "a block after the restart");
      return node.height;
    })();
    await node.waitFor(() => node.height >= restartedAt + 4n, `height ${restartedAt + 4n}`);
    const afterRestart = await post(node, "broadcast_evidence", { evidence: evidence(first, second) });
    assert.equal(afterRestart.error, undefined, JSON.stringify(afterRestart.error));
    assert.deepEqual(afterRestart.result, accepted.result);
    for (let h = committedAt! + 1n; h <= node.height; h++) {
      const block = ((await node.rpc(`/block?height=${h}`)).result as any).block;
      assert.equal(block.evidence.length, 0, `height ${h} re-proposes committed evidence`);
    }
  } finally {
    node.kill("SIGINT");
    await node.exited;
  }
});
