// The simulation enforces the node's own rules, not copies: a simulated validator's effect handlers
// are the node's table (consensusHandlers) with synchronous ports, so a forged proposal block is
// refused by src/state's proposal-block rule and a double-sign request by src/privval's signer,
// one case per rule, each answered within the same step of virtual time. The validators come out
// of a real simulated run (4 validators, 3 heights), so the chain state, stored commits and sign
// state are the ones the run produced.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { EMPTY, Subject, VirtualTimeScheduler } from "rxjs";
import { DEFAULT_CONSENSUS_CONFIG } from "../../src/consensus/config.js";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { buildProposalBlock } from "../../src/consensus/proposal-block.js";
import { makeBlock } from "../../src/types/block.js";
import { absentCommitSig } from "../../src/types/commit.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import {
  type BlockID,
  BlockIDFlag,
  SignedMsgType,
  type Vote,
} from "../../src/wire/generated/tendermint/types/types.js";
import { consensusHandlers } from "../../streams/effects/consensus-handlers.js";
import { Prng } from "./prng.js";
import { scenarioFromSeed } from "./scenario.js";
import { genesisState, makeKeys } from "./sim-chain.js";
import { SimNode } from "./sim-node.js";
import { MemoVerifier } from "./sim-verify.js";
import { runSimulation } from "./simulation.js";

const outcome = runSimulation(scenarioFromSeed(3, { kind: "calm", validators: 4, heights: 3 }));
assert.ok(outcome.ok, outcome.failures.join("; "));

/** A validator's handler table, kept between effects; every answer must come synchronously. */
function handlersOf(node: SimNode) {
  const effect$ = new Subject<ConsensusEffect>();
  const answers: ConsensusInput[] = [];
  for (const handler of consensusHandlers(node.handlerDeps()))
    handler(effect$, EMPTY).subscribe((input) => answers.push(input));
  return (effect: ConsensusEffect): ConsensusInput => {
    const before = answers.length;
    effect$.next(effect);
    assert.equal(answers.length, before + 1, `one answer to ${effect.type}, at once`);
    return answers.at(-1)!;
  };
}

function validate(node: SimNode, block: Block, blockId: BlockID): string | undefined {
  const answer = handlersOf(node)({
    type: "ValidateBlock",
    height: block.header.height,
    round: 0,
    block,
    blockId,
  });
  assert.equal(answer.type, "BlockValidated");
  return answer.type === "BlockValidated" ? answer.error : undefined;
}

const node = outcome.nodes[0]!;
const chain: ChainState = node.chain;
const next = buildProposalBlock({
  chain,
  height: chain.lastBlockHeight + 1n,
  proposerAddress: chain.validators!.validators[1]!.address,
  txs: [new Uint8Array([1, 2, 3])],
  evidence: [],
  lastCommit: node.storedBlock(chain.lastBlockHeight)!.seenCommit,
})!;
const withHeader = (patch: Partial<Block["header"]>): Block => ({
  ...next.block,
  header: { ...next.block.header, ...patch },
});
const time = next.block.header.time;

describe("simulation: a forged proposal block is refused by the node's rule", () => {
  it("passes the honest next block", () => {
    assert.ok(chain.lastBlockHeight >= 3n);
    assert.equal(validate(node, next.block, next.blockId), undefined);
  });

  const cases: [string, () => Block, RegExp][] = [
    [
      "block version",
      () => withHeader({ version: { block: 10n, app: 0n } }),
      /version\.block must be 11, got 10/,
    ],
    [
      "app version",
      () => withHeader({ version: { block: 11n, app: 7n } }),
      /wrong app version 7, expected 0/,
    ],
    [
      "BFT time",
      () => withHeader({ time: { seconds: time.seconds + 1n, nanos: time.nanos } }),
      /wrong block time: .* is not the weighted median/,
    ],
    [
      "consensus params hash",
      () => withHeader({ consensusHash: new Uint8Array(32).fill(9) }),
      /wrong consensus params hash/,
    ],
    [
      "proposer in the validator set",
      () => withHeader({ proposerAddress: new Uint8Array(20).fill(0xab) }),
      /proposer address (AB)+ is not a validator/,
    ],
    ["chain id", () => withHeader({ chainId: "another-chain" }), /wrong chain id another-chain/],
    ["height", () => withHeader({ height: chain.lastBlockHeight + 2n }), /wrong height/],
    [
      "last block id",
      () => withHeader({ lastBlockId: { ...chain.lastBlockId!, hash: new Uint8Array(32).fill(1) } }),
      /wrong last block id/,
    ],
    ["app hash", () => withHeader({ appHash: new Uint8Array(32).fill(2) }), /wrong app hash/],
    [
      "validators hash",
      () => withHeader({ validatorsHash: new Uint8Array(32).fill(3) }),
      /wrong validators hash/,
    ],
    [
      "LastCommit signatures",
      () => {
        const lastCommit = next.block.lastCommit!;
        const forged = {
          ...lastCommit,
          signatures: lastCommit.signatures.map((s, i) =>
            i === firstSigned(lastCommit) ? { ...s, signature: new Uint8Array(64).fill(5) } : s,
          ),
        };
        return rebuilt(forged);
      },
      /invalid last commit: wrong signature \(#\d\)/,
    ],
    [
      "LastCommit power",
      () => {
        const lastCommit = next.block.lastCommit!;
        const forged = {
          ...lastCommit,
          signatures: lastCommit.signatures.map((s, i) =>
            i === firstSigned(lastCommit) ? s : absentCommitSig(),
          ),
        };
        return rebuilt(forged);
      },
      /invalid last commit: insufficient voting power: got 10, needed more than 26/,
    ],
  ];
  for (const [rule, forge, reason] of cases)
    it(`refuses a wrong ${rule}`, () => {
      assert.match(validate(node, forge(), next.blockId) ?? "accepted", reason);
    });

  it("refuses LastCommit signatures in the initial block", () => {
    const fresh = freshValidator();
    const genesis = fresh.chain;
    const first = buildProposalBlock({
      chain: genesis,
      height: 1n,
      proposerAddress: genesis.validators!.validators[0]!.address,
      txs: [],
      evidence: [],
      lastCommit: undefined,
    })!;
    assert.equal(validate(fresh, first.block, first.blockId), undefined);
    const h = first.block.header;
    const withSignatures = makeBlock({
      version: h.version,
      chainId: h.chainId,
      height: h.height,
      time: h.time,
      lastBlockId: h.lastBlockId,
      validatorsHash: h.validatorsHash,
      nextValidatorsHash: h.nextValidatorsHash,
      consensusHash: h.consensusHash,
      appHash: h.appHash,
      lastResultsHash: h.lastResultsHash,
      proposerAddress: h.proposerAddress,
      txs: [],
      evidence: [],
      lastCommit: node.storedBlock(1n)!.seenCommit,
    });
    assert.match(
      validate(fresh, withSignatures, first.blockId) ?? "accepted",
      /initial block has LastCommit signatures/,
    );
  });
});

const firstSigned = (commit: NonNullable<Block["lastCommit"]>) =>
  commit.signatures.findIndex((s) => s.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_COMMIT);

/** The next block with another LastCommit (its hash in the header follows, as a forger would do). */
function rebuilt(lastCommit: NonNullable<Block["lastCommit"]>): Block {
  const h = next.block.header;
  return makeBlock({
    version: h.version,
    chainId: h.chainId,
    height: h.height,
    time: h.time,
    lastBlockId: h.lastBlockId,
    validatorsHash: h.validatorsHash,
    nextValidatorsHash: h.nextValidatorsHash,
    consensusHash: h.consensusHash,
    appHash: h.appHash,
    lastResultsHash: h.lastResultsHash,
    proposerAddress: h.proposerAddress,
    txs: next.block.data.txs,
    evidence: [],
    lastCommit,
  });
}

/** A validator of a new chain, never started (its chain state is genesis). */
function freshValidator(): SimNode {
  const keys = makeKeys(new Prng(77), 4);
  return new SimNode({
    index: 0,
    key: keys[0]!,
    genesis: genesisState(keys, [10n, 10n, 10n, 10n]),
    config: DEFAULT_CONSENSUS_CONFIG,
    scheduler: new VirtualTimeScheduler(),
    verifier: new MemoVerifier(),
    mempool: new Prng(78),
    network: { send() {} },
    observer: {
      decided() {},
      executed() {},
      halted() {},
      rejected() {},
      reported() {},
      crashed() {},
      error() {},
    },
    executionMs: 3,
  });
}

describe("simulation: the node's signer rules refuse what a double signer would sign", () => {
  const precommit = (height: bigint, round: number, hashByte: number, timestamp = time): Vote => ({
    type: SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
    height,
    round,
    blockId: {
      hash: new Uint8Array(32).fill(hashByte),
      partSetHeader: { total: 1, hash: new Uint8Array(32).fill(hashByte) },
    },
    timestamp,
    validatorAddress: node.address,
    validatorIndex: 0,
    signature: new Uint8Array(0),
  });
  const failure = (answer: ConsensusInput) =>
    answer.type === "SignFailed" ? answer.reason : `not refused: ${answer.type}`;

  it("refuses a second, different vote at a height/round/step this validator signed during the run", () => {
    const last = node.signState.state;
    assert.ok(last.height >= 3n && last.signBytes !== undefined, "the run left a last-sign state");
    const sign = handlersOf(node);
    const conflicting = precommit(last.height, last.round, 0xcc);
    // Ask at the very step signed last (precommit, or the prevote before it): any other block is refused.
    const vote =
      last.step === 2 ? { ...conflicting, type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE } : conflicting;
    assert.match(failure(sign({ type: "SignVote", vote })), /^PRIVVAL_(CONFLICTING_DATA|HRS_REGRESSION): /);
  });

  it("refuses a height below the last signed one (regression)", () => {
    const sign = handlersOf(node);
    assert.match(
      failure(sign({ type: "SignVote", vote: precommit(1n, 0, 1) })),
      /^PRIVVAL_HRS_REGRESSION: height regression/,
    );
  });

  it("refuses a round, then a step, below the last signed at the same height (regression)", () => {
    const sign = handlersOf(node);
    const height = node.signState.state.height + 20n;
    const prevote = { ...precommit(height, 2, 0x33), type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE };
    assert.equal(sign({ type: "SignVote", vote: prevote }).type, "VoteSigned");
    assert.match(
      failure(sign({ type: "SignVote", vote: precommit(height, 1, 0x33) })),
      /^PRIVVAL_HRS_REGRESSION: round regression/,
    );
    const proposal = sign({
      type: "SignProposal",
      proposal: {
        type: SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL,
        height,
        round: 2,
        polRound: -1,
        blockId: next.blockId,
        timestamp: time,
        signature: new Uint8Array(0),
      },
    });
    assert.match(failure(proposal), /^PRIVVAL_HRS_REGRESSION: step regression/);
  });

  it("signs a new height once, then refuses a conflicting vote and returns the stored one for a timestamp-only change", () => {
    const sign = handlersOf(node);
    const height = node.signState.state.height + 10n;
    const first = sign({ type: "SignVote", vote: precommit(height, 0, 0x11) });
    assert.equal(first.type, "VoteSigned");
    assert.match(
      failure(sign({ type: "SignVote", vote: precommit(height, 0, 0x22) })),
      /^PRIVVAL_CONFLICTING_DATA: /,
    );
    const later = { seconds: time.seconds + 9n, nanos: 0 };
    const again = sign({ type: "SignVote", vote: precommit(height, 0, 0x11, later) });
    assert.ok(again.type === "VoteSigned" && first.type === "VoteSigned");
    assert.deepEqual(again.vote.signature, first.vote.signature);
    assert.deepEqual(again.vote.timestamp, time, "the stored timestamp comes back");
  });

  it("refuses a request at an impossible position and a proposal with a bad POL round", () => {
    const sign = handlersOf(node);
    assert.match(failure(sign({ type: "SignVote", vote: precommit(100n, -1, 1) })), /^PRIVVAL_BAD_REQUEST: /);
    const answer = sign({
      type: "SignProposal",
      proposal: {
        type: SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL,
        height: 100n,
        round: 0,
        polRound: -2,
        blockId: next.blockId,
        timestamp: time,
        signature: new Uint8Array(0),
      },
    });
    assert.match(
      answer.type === "SignFailed" ? answer.reason : answer.type,
      /^PRIVVAL_BAD_REQUEST: .*POL round -2/,
    );
  });

  it("refuses the very step a sign state says was signed when it holds no sign bytes to compare", () => {
    const fresh = freshValidator();
    // A priv_validator_state.json edited by hand, or written by a signer that kept no sign bytes.
    fresh.signState.save({ height: 5n, round: 0, step: 3 });
    const sign = handlersOf(fresh);
    const vote = { ...precommit(5n, 0, 1), validatorAddress: fresh.address };
    assert.match(failure(sign({ type: "SignVote", vote })), /^PRIVVAL_NO_SIGN_BYTES: /);
  });

  it("latches after a failed save of the sign state: every later request is refused", () => {
    const fresh = freshValidator();
    const deps = fresh.handlerDeps();
    let fail = true;
    const original = fresh.signState.save.bind(fresh.signState);
    fresh.signState.save = (s) => {
      if (fail) throw new Error("EIO: disk gone");
      original(s);
    };
    const effect$ = new Subject<ConsensusEffect>();
    const answers: ConsensusInput[] = [];
    for (const h of consensusHandlers(deps)) h(effect$, EMPTY).subscribe((i) => answers.push(i));
    effect$.next({ type: "SignVote", vote: { ...precommit(5n, 0, 1), validatorAddress: fresh.address } });
    fail = false;
    effect$.next({ type: "SignVote", vote: { ...precommit(6n, 0, 1), validatorAddress: fresh.address } });
    assert.deepEqual(
      answers.map((a) => (a.type === "SignFailed" ? a.reason.split(":")[0] : a.type)),
      ["PRIVVAL_STATE_WRITE_FAILED", "PRIVVAL_STATE_WRITE_FAILED"],
    );
    assert.equal(fresh.signState.saved.length, 0, "nothing was stored");
  });
});
