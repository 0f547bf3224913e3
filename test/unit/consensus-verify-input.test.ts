// The source step before the consensus log: votes and proposals are logged only with a valid
// shape and a signature of the validator who must have signed them; what the node holds already
// (the round's proposal, a part it has, a vote it counted) is dropped before the signature check.
// Real ed25519 keys here.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type ConsensusInput,
  createDefaultConsensusRules,
  RoundStep,
  verifyConsensusInput,
} from "../../src/consensus/index.js";
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { verifyEd25519 } from "../../src/crypto/ed25519-verify.js";
import type { Proposal, Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { proposalSignBytes, voteSignBytes } from "../../src/wire/sign-bytes.js";
import { at, genesisChain, type InputWithoutTime, NIL, TestNode } from "./consensus-harness.js";

const keys = [1, 2, 3, 4].map((i) => keyPairFromSeed(new Uint8Array(32).fill(i)));
const chain = genesisChain(
  keys.map(() => 10n),
  keys.map((k) => k.publicKey),
);
const rules = createDefaultConsensusRules();

function keyOf(address: Uint8Array) {
  const index = chain.validators!.validators.findIndex((v) =>
    Buffer.from(v.address).equals(Buffer.from(address)),
  );
  const pub = (chain.validators!.validators[index]!.pubKey.sum as { ed25519: Uint8Array }).ed25519;
  return keys.find((k) => Buffer.from(k.publicKey).equals(Buffer.from(pub)))!;
}

function signedVote(node: TestNode, index: number, round = 0, height = node.state.height): Vote {
  const vote = { ...node.vote(index, "prevote", round, NIL), height };
  return {
    ...vote,
    signature: signEd25519(keyOf(vote.validatorAddress).privateKey, voteSignBytes(chain.chainId, vote)),
  };
}

function signedProposal(node: TestNode, round: number, signerIndex: number): Proposal {
  const proposal = node.proposal(node.block(0), round);
  const signer = keyOf(node.validators[signerIndex]!.address);
  return {
    ...proposal,
    signature: signEd25519(signer.privateKey, proposalSignBytes(chain.chainId, proposal)),
  };
}

function check(node: TestNode, input: InputWithoutTime) {
  return verifyConsensusInput(node.state, { ...input, time: at(0) } as ConsensusInput, rules, verifyEd25519);
}

describe("consensus: verifying inputs before the log", () => {
  const node = new TestNode({ own: 3, chain });
  node.startRound0();

  it("accepts a vote signed by the validator at its index", () => {
    assert.deepEqual(check(node, { type: "VoteReceived", vote: signedVote(node, 1), from: "p" }), {
      kind: "accept",
    });
  });

  it("rejects a vote with a bad signature or a mismatched index, naming what is wrong", () => {
    const good = signedVote(node, 1);
    const forged = { ...good, signature: signedVote(node, 2).signature };
    const forgedOutcome = check(node, { type: "VoteReceived", vote: forged, from: "p" });
    assert.equal(forgedOutcome.kind, "reject");
    assert.match((forgedOutcome as { reason: string }).reason, /signature of validator 1 .* does not verify/);
    const moved = { ...good, validatorIndex: 2 };
    const movedOutcome = check(node, { type: "VoteReceived", vote: moved, from: "p" });
    assert.equal(movedOutcome.kind, "reject");
    assert.match((movedOutcome as { reason: string }).reason, /validatorIndex 2/);
    const malformed = { ...good, signature: new Uint8Array(0) };
    assert.equal(check(node, { type: "VoteReceived", vote: malformed, from: "p" }).kind, "reject");
  });

  it("ignores votes for heights it does not count (but checks the next height's against the next set)", () => {
    const far = signedVote(node, 1, 0, 5n);
    assert.equal(check(node, { type: "VoteReceived", vote: far, from: "p" }).kind, "ignore");
    const next = signedVote(node, 1, 0, 2n);
    assert.equal(check(node, { type: "VoteReceived", vote: next, from: "p" }).kind, "accept");
  });

  it("accepts a proposal only from the proposer of its round", () => {
    assert.deepEqual(
      check(node, { type: "ProposalReceived", proposal: signedProposal(node, 0, 0), from: "p" }),
      {
        kind: "accept",
      },
    );
    const byOther = check(node, {
      type: "ProposalReceived",
      proposal: signedProposal(node, 0, 2),
      from: "p",
    });
    assert.equal(byOther.kind, "reject");
    // A later round's proposal waits until the node is in that round (its proposer depends on
    // the rounds entered); there, round 1's proposer is validator 1.
    const round1 = signedProposal(node, 1, 1);
    assert.equal(check(node, { type: "ProposalReceived", proposal: round1, from: "p" }).kind, "ignore");
    const later = new TestNode({ own: 3, chain });
    later.startRound0();
    later.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.PrecommitWait });
    assert.equal(later.state.round, 1);
    assert.equal(check(later, { type: "ProposalReceived", proposal: round1, from: "p" }).kind, "accept");
  });

  it("passes timeouts and effect answers, and ignores peer data before the start", () => {
    assert.equal(
      check(node, { type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.Propose }).kind,
      "accept",
    );
    const fresh = new TestNode({ own: 3, chain });
    assert.equal(check(fresh, { type: "VoteReceived", vote: signedVote(node, 1), from: "p" }).kind, "ignore");
  });

  it("drops the round's second proposal, parts it holds or cannot use, and votes it counted, unverified", () => {
    let verified = 0;
    const counting = (k: Uint8Array, m: Uint8Array, sig: Uint8Array) => {
      verified++;
      return verifyEd25519(k, m, sig);
    };
    const fresh = new TestNode({ own: 3, chain });
    fresh.startRound0();
    const at0 = (input: InputWithoutTime) =>
      verifyConsensusInput(fresh.state, { ...input, time: at(0) } as ConsensusInput, rules, counting);
    // A block of two parts (parts are 64 KiB).
    const held = fresh.block(0, [new Uint8Array(40_000).fill(1), new Uint8Array(40_000).fill(2)]);
    assert.equal(held.parts.header.total, 2);
    const [part0, part1] = held.parts.parts as NonNullable<(typeof held.parts.parts)[number]>[];
    const partInput = (part: typeof part0) =>
      ({ type: "BlockPartReceived", height: 1n, round: 0, part: part!, from: "p" }) as const;
    assert.deepEqual(at0(partInput(part0)), { kind: "ignore", reason: "no part set is being collected" });

    const proposal = { ...signedProposal(fresh, 0, 0), blockId: held.blockId };
    const signed = {
      ...proposal,
      signature: signEd25519(
        keyOf(fresh.validators[0]!.address).privateKey,
        proposalSignBytes(chain.chainId, proposal),
      ),
    };
    assert.equal(at0({ type: "ProposalReceived", proposal: signed, from: "p" }).kind, "accept");
    fresh.feed({ type: "ProposalReceived", proposal: signed, from: "p" });
    verified = 0;
    // Any later proposal of the round is ignored as v0.34 ignores it, even with a bad signature.
    const forged = { ...signed, signature: new Uint8Array(64).fill(5) };
    assert.deepEqual(at0({ type: "ProposalReceived", proposal: forged, from: "q" }), {
      kind: "ignore",
      reason: "the round's proposal is here already",
    });
    assert.equal(verified, 0);

    assert.equal(at0(partInput(part0)).kind, "accept");
    fresh.feed(partInput(part0));
    assert.deepEqual(at0(partInput(part0)), { kind: "ignore", reason: "block part 0 is here already" });
    assert.equal(at0(partInput(part1)).kind, "accept");
    fresh.feed(partInput(part1));
    assert.deepEqual(at0(partInput(part1)), { kind: "ignore", reason: "the block is complete" });

    const vote = signedVote(fresh, 1);
    assert.equal(at0({ type: "VoteReceived", vote, from: "p" }).kind, "accept");
    fresh.feed({ type: "VoteReceived", vote, from: "p" });
    verified = 0;
    assert.deepEqual(at0({ type: "VoteReceived", vote, from: "q" }), {
      kind: "ignore",
      reason: "vote counted already",
    });
    assert.equal(verified, 0, "a copy costs no signature check");
    // Another signature for the same position is not a copy: it is checked (and refused here).
    const other = { ...vote, signature: new Uint8Array(64).fill(6) };
    assert.equal(at0({ type: "VoteReceived", vote: other, from: "q" }).kind, "reject");
    assert.equal(verified, 1);
  });
});
