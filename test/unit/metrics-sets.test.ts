// src/metrics: v0.34's per-block figures (missing and byzantine validators, our signature), the
// prevote delays, and the peer layer's interface writing v0.34's p2p series (labels, chID form).
import assert from "node:assert/strict";
import { test } from "node:test";
import { commitFigures, prevoteDelays } from "../../src/metrics/commit-figures.js";
import { createNodeMetrics } from "../../src/metrics/node-metrics.js";
import { BlockIDFlag } from "../../src/wire/generated/tendermint/types/types.js";
import { block as fixtureBlock, signedVote } from "./types-fixtures.js";

const val = (byte: number, power: bigint) => ({
  address: new Uint8Array(20).fill(byte),
  pubKey: { sum: undefined } as never,
  votingPower: power,
  proposerPriority: 0n,
});

test("commit figures: absent signatures, our line, duplicate-vote evidence", () => {
  const vals = [val(1, 10n), val(2, 20n), val(3, 30n)];
  const base = fixtureBlock(undefined, [new Uint8Array([1]), new Uint8Array([2])]);
  const sig = (blockIdFlag: BlockIDFlag) => ({ ...base.lastCommit!.signatures[0]!, blockIdFlag });
  const block = {
    ...base,
    header: { ...base.header, height: 5n },
    lastCommit: {
      ...base.lastCommit!,
      signatures: [
        sig(BlockIDFlag.BLOCK_ID_FLAG_COMMIT),
        sig(BlockIDFlag.BLOCK_ID_FLAG_ABSENT),
        sig(BlockIDFlag.BLOCK_ID_FLAG_NIL),
      ],
    },
    evidence: {
      evidence: [
        {
          sum: {
            $case: "duplicateVoteEvidence" as const,
            duplicateVoteEvidence: {
              voteA: signedVote({ validatorAddress: vals[2]!.address }),
              voteB: signedVote({ validatorAddress: vals[2]!.address }),
              totalVotingPower: 60n,
              validatorPower: 30n,
              timestamp: { seconds: 1n, nanos: 0 },
            },
          },
        },
      ],
    },
  };
  const f = commitFigures(block, {
    validators: vals,
    lastValidators: vals,
    initialHeight: 1n,
    ownAddress: vals[2]!.address,
  });
  assert.equal(f.validators, 3);
  assert.equal(f.validatorsPower, 60n);
  assert.equal(f.missingValidators, 1);
  assert.equal(f.missingValidatorsPower, 20n);
  assert.equal(f.byzantineValidators, 1);
  assert.equal(f.byzantineValidatorsPower, 30n);
  assert.equal(f.numTxs, 2);
  assert.ok(f.blockSizeBytes > 0);
  assert.deepEqual(
    f.own,
    { address: "03".repeat(20), power: 30n, signed: false },
    "a nil vote is not a signature for the block",
  );
  const first = commitFigures(
    { ...block, header: { ...block.header, height: 1n } },
    {
      validators: vals,
      lastValidators: vals,
      initialHeight: 1n,
      ownAddress: undefined,
    },
  );
  assert.equal(first.missingValidators, 0, "the first block has no last commit to count");
});

test("prevote delays: the vote crossing 2/3 in time order, and the last when all voted", () => {
  const at = (ms: number) =>
    ({ timestamp: { seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1e6 } }) as never;
  const d = prevoteDelays(10_000, [at(10_300), at(10_100), at(10_200), at(10_900)], [1n, 1n, 1n, 1n], 4n);
  assert.equal(d.quorum, 0.3, "third vote in time (10.3 s) brings 3 of 4 > 2/3");
  assert.equal(d.full, 0.9);
  const partial = prevoteDelays(
    10_000,
    [at(10_300), undefined, at(10_200), at(10_100)],
    [1n, 1n, 1n, 1n],
    4n,
  );
  assert.equal(partial.full, undefined);
});

test("the peer layer's interface writes v0.34's p2p series", async () => {
  const m = createNodeMetrics({ namespace: "tm", chainId: "c" });
  m.peers.peersChanged(2);
  m.peers.bytesReceived("abcd", 0x20, 100);
  m.peers.bytesReceived("abcd", 0x20, 50);
  m.peers.messageSent("consensus_Vote", 120);
  m.peers.txsReceived("abcd", 3);
  const text = await m.registry.metrics();
  assert.match(text, /^tm_p2p_peers\{chain_id="c"\} 2$/m);
  assert.match(text, /^tm_p2p_peer_receive_bytes_total\{peer_id="abcd",chID="0x20",chain_id="c"\} 150$/m);
  assert.match(text, /^tm_p2p_message_send_bytes_total\{message_type="consensus_Vote",chain_id="c"\} 120$/m);
  assert.match(text, /^tm_p2p_num_txs\{peer_id="abcd",chain_id="c"\} 3$/m);
  m.peers.peerRemoved("abcd");
  assert.doesNotMatch(await m.registry.metrics(), /tm_p2p_num_txs\{peer_id="abcd"/);
});
