// The proposal-block rule (src/state/validate-proposal-block.ts) on fabricated blocks built the
// way a proposer builds them, with real ed25519 signatures: a valid block passes; each header rule
// of reference §7.9 (version, time, consensus params hash, proposer in the set) refuses a block
// with a reason naming the field; made-up or already-committed evidence is refused. Every case
// runs twice, through synchronous ports (the simulation's) and asynchronous ones (the node's), and
// must give the same answer, the synchronous one without a promise.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildProposalBlock } from "../../src/consensus/index.js";
import type { HeldBlock } from "../../src/consensus/state.js";
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { verifyEd25519 } from "../../src/crypto/ed25519-verify.js";
import type { EvidenceHistory } from "../../src/evidence/index.js";
import {
  addConflictingVotes,
  EMPTY_EVIDENCE_POOL,
  type EvidencePoolState,
  updateEvidencePool,
} from "../../src/evidence/index.js";
import { proposalBlockProblem } from "../../src/state/validate-proposal-block.js";
import { commitVoteSignBytes } from "../../src/types/commit-verification.js";
import { isPromise } from "../../src/types/maybe-async.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type { DuplicateVoteEvidence, Evidence } from "../../src/wire/generated/tendermint/types/evidence.js";
import {
  type BlockID,
  BlockIDFlag,
  type Commit,
  SignedMsgType,
  type Vote,
} from "../../src/wire/generated/tendermint/types/types.js";
import type { Validator } from "../../src/wire/generated/tendermint/types/validator.js";
import { voteSignBytes } from "../../src/wire/sign-bytes.js";
import { at, chainAfter, genesisChain } from "./consensus-harness.js";

const keys = [1, 2, 3, 4].map((i) => keyPairFromSeed(new Uint8Array(32).fill(i)));
const genesis = genesisChain(
  keys.map(() => 10n),
  keys.map((k) => k.publicKey),
);
const keyOf = (v: Validator) =>
  keys.find((k) =>
    Buffer.from(k.publicKey).equals(Buffer.from((v.pubKey.sum as { ed25519: Uint8Array }).ed25519)),
  )!;

/** Every validator of the block's set precommits it, 1 s after its time. */
function commitOf(chain: ChainState, held: HeldBlock): Commit {
  const validators = chain.validators!.validators;
  const time = held.block.header.time;
  const commit: Commit = {
    height: held.block.header.height,
    round: 0,
    blockId: held.blockId,
    signatures: validators.map((v) => ({
      blockIdFlag: BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
      validatorAddress: v.address,
      timestamp: { seconds: time.seconds + 1n, nanos: time.nanos },
      signature: new Uint8Array(0),
    })),
  };
  commit.signatures = commit.signatures.map((sig, i) => ({
    ...sig,
    signature: signEd25519(keyOf(validators[i]!).privateKey, commitVoteSignBytes(chain.chainId, commit, i)),
  }));
  return commit;
}

function build(chain: ChainState, lastCommit: Commit | undefined, evidence: Evidence[] = []): HeldBlock {
  const held = buildProposalBlock({
    chain,
    height: chain.lastBlockHeight === 0n ? chain.initialHeight : chain.lastBlockHeight + 1n,
    proposerAddress: chain.validators!.validators[0]!.address,
    txs: [new TextEncoder().encode("a=1")],
    evidence,
    lastCommit,
  });
  assert.ok(held);
  return held;
}

const block1 = build(genesis, undefined);
const chain1 = chainAfter(genesis, block1);
const block2 = build(chain1, commitOf(genesis, block1));
const chain2 = chainAfter(chain1, block2);
const commit2 = commitOf(chain1, block2);

function blockId(tag: number): BlockID {
  return {
    hash: new Uint8Array(32).fill(tag),
    partSetHeader: { total: 1, hash: new Uint8Array(32).fill(tag + 1) },
  };
}

/** A prevote of validator `index` of height 1's set for `id`, signed with its key. */
function signedVote(index: number, id: BlockID): Vote {
  const validator = genesis.validators!.validators[index]!;
  const vote: Vote = {
    type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE,
    height: 1n,
    round: 0,
    blockId: id,
    timestamp: at(500),
    validatorAddress: validator.address,
    validatorIndex: index,
    signature: new Uint8Array(0),
  };
  return {
    ...vote,
    signature: signEd25519(keyOf(validator).privateKey, voteSignBytes(genesis.chainId, vote)),
  };
}

/** Real DuplicateVoteEvidence against validator 1 at height 1, as the evidence pool makes it. */
const realEvidence: Evidence = updateEvidencePool(
  addConflictingVotes(EMPTY_EVIDENCE_POOL, signedVote(1, blockId(9)), signedVote(1, blockId(3))),
  chain1,
  [],
  { blockTimeAt: () => undefined, validatorsAt: () => undefined },
).pending[0]!.evidence;

/** The stores as the node reads them: block 1's time and height 1's validator set. */
const stored: EvidenceHistory = {
  blockTimeAt: (h) => (h === 1n ? block1.block.header.time : undefined),
  validatorsAt: (h) => (h === 1n ? genesis.validators!.validators : undefined),
};

/** The rule's answer through synchronous and asynchronous ports, which must agree. */
async function blockProblem(
  chain: ChainState,
  block: Block,
  pool: EvidencePoolState = EMPTY_EVIDENCE_POOL,
  history: EvidenceHistory = stored,
): Promise<string | undefined> {
  const now = proposalBlockProblem(chain, block, {
    checkSignatures: (items) => items.map((i) => verifyEd25519(i.publicKey, i.message, i.signature)),
    evidencePool: () => pool,
    evidenceHistory: () => history,
    verifyEvidenceVote: verifyEd25519,
  });
  assert.ok(!isPromise(now), "synchronous ports answer synchronously");
  const later = await proposalBlockProblem(chain, block, {
    checkSignatures: async (items) => items.map((i) => verifyEd25519(i.publicKey, i.message, i.signature)),
    evidencePool: () => pool,
    evidenceHistory: async () => history,
    verifyEvidenceVote: verifyEd25519,
  });
  assert.equal(later, now);
  return now;
}

const withHeader = (held: HeldBlock, patch: Partial<Block["header"]>): Block => ({
  ...held.block,
  header: { ...held.block.header, ...patch },
});

function dve(e: Evidence): DuplicateVoteEvidence {
  const sum = e.sum;
  if (sum?.$case !== "duplicateVoteEvidence") throw new Error("expected duplicate vote evidence");
  return sum.duplicateVoteEvidence;
}
const variant = (patch: Partial<DuplicateVoteEvidence>): Evidence => ({
  sum: { $case: "duplicateVoteEvidence", duplicateVoteEvidence: { ...dve(realEvidence), ...patch } },
});

describe("state: proposal block validation", () => {
  it("passes valid blocks: the initial one, a later one, and one with real evidence", async () => {
    assert.equal(await blockProblem(genesis, block1.block), undefined);
    assert.equal(await blockProblem(chain1, block2.block), undefined);
    const withEvidence = build(chain2, commit2, [realEvidence]);
    assert.equal(await blockProblem(chain2, withEvidence.block), undefined);
  });

  it("refuses each bad header field with a reason naming it", async () => {
    const { header } = block2.block;
    const cases: [Block, RegExp][] = [
      [withHeader(block2, { version: { block: 10n, app: 0n } }), /version\.block must be 11, got 10/],
      [withHeader(block2, { version: { block: 11n, app: 3n } }), /app version 3, expected 0/],
      [
        withHeader(block2, { time: { seconds: header.time.seconds + 5n, nanos: header.time.nanos } }),
        /block time .* is not the weighted median/,
      ],
      [withHeader(block2, { time: chain1.lastBlockTime }), /block time .* is not after the last block time/],
      [withHeader(block2, { consensusHash: new Uint8Array(32).fill(7) }), /wrong consensus params hash/],
      [
        withHeader(block2, { proposerAddress: new Uint8Array(20).fill(0xee) }),
        /proposer address EEEE.* is not a validator/,
      ],
      [withHeader(block2, { chainId: "other" }), /wrong chain id other/],
      [withHeader(block2, { appHash: new Uint8Array(32).fill(1) }), /wrong app hash/],
    ];
    for (const [block, reason] of cases)
      assert.match((await blockProblem(chain1, block)) ?? "passed", reason);
    // At the initial height the time must be the genesis time.
    assert.match(
      (await blockProblem(genesis, withHeader(block1, { time: at(1) }))) ?? "passed",
      /block time .* is not the genesis time/,
    );
  });

  it("refuses made-up, duplicated and already committed evidence", async () => {
    const other = signedVote(2, blockId(9));
    const cases: [Evidence[], RegExp, EvidencePoolState?][] = [
      // A vote re-signed by nobody: the innocent validator never signed voteB.
      [
        [variant({ voteB: { ...dve(realEvidence).voteB!, signature: new Uint8Array(64).fill(1) } })],
        /voteB's signature does not verify/,
      ],
      // Validator 2's real vote presented as validator 1's second vote.
      [
        [
          variant({
            voteB: {
              ...other,
              validatorAddress: dve(realEvidence).voteA!.validatorAddress,
              validatorIndex: 1,
            },
          }),
        ],
        /voteB's signature does not verify/,
      ],
      [[variant({ validatorPower: 99n })], /validator power 99/],
      [[variant({ timestamp: at(2) })], /evidence time differs/],
      [[realEvidence, realEvidence], /evidence 1 appears twice/],
      [
        [realEvidence],
        /already committed/,
        updateEvidencePool(EMPTY_EVIDENCE_POOL, chain1, [realEvidence], {
          blockTimeAt: () => undefined,
          validatorsAt: () => undefined,
        }),
      ],
    ];
    for (const [evidence, reason, pool] of cases) {
      const block = build(chain2, commit2, evidence).block;
      assert.match(
        (await blockProblem(chain2, block, pool)) ?? "passed",
        new RegExp(`^invalid evidence: .*${reason.source}`),
      );
    }
    // Evidence at a height the stores do not hold.
    const noStores: EvidenceHistory = { ...stored, blockTimeAt: () => undefined };
    assert.match(
      (await blockProblem(chain2, build(chain2, commit2, [realEvidence]).block, undefined, noStores)) ??
        "passed",
      /invalid evidence: evidence 0: no block stored at evidence height 1/,
    );
  });
});
