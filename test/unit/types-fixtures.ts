// Valid example values for the types unit tests: a signed vote, a proposal, a commit and a block
// built through the public makers, so each test breaks exactly one thing.
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { addressOf, sha256 } from "../../src/crypto/hash.js";
import { makeBlock } from "../../src/types/block.js";
import { commitSigFromVote, emptyCommit, makeCommit } from "../../src/types/commit.js";
import { defaultConsensusParams } from "../../src/types/consensus-params.js";
import { makeProposal } from "../../src/types/proposal.js";
import { makeVote, SignedMsgType } from "../../src/types/vote.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type { BlockID, Commit, Proposal, Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { consensusParamsHash, validatorSetHash } from "../../src/wire/hashes.js";
import { voteSignBytes } from "../../src/wire/sign-bytes.js";

export const CHAIN_ID = "test-chain";
export const keys = keyPairFromSeed(new Uint8Array(32).fill(7));
export const address = addressOf(keys.publicKey);
export const validators = [
  { pubKey: { sum: { $case: "ed25519" as const, ed25519: keys.publicKey } }, votingPower: 10n },
];

export const blockId: BlockID = {
  hash: sha256(Uint8Array.of(1)),
  partSetHeader: { total: 1, hash: sha256(Uint8Array.of(2)) },
};

export function signedVote(fields: Partial<Vote> = {}): Vote {
  const vote = {
    ...makeVote({
      type: SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
      height: 5n,
      round: 0,
      blockId,
      timestamp: { seconds: 1_600_000_000n, nanos: 5 },
      validatorAddress: address,
      validatorIndex: 0,
    }),
    ...fields,
  };
  return { ...vote, signature: signEd25519(keys.privateKey, voteSignBytes(CHAIN_ID, vote)) };
}

export function proposal(fields: Partial<Proposal> = {}): Proposal {
  return {
    ...makeProposal({
      height: 6n,
      round: 1,
      polRound: -1,
      blockId,
      timestamp: { seconds: 1_600_000_001n, nanos: 0 },
      signature: new Uint8Array(64).fill(9),
    }),
    ...fields,
  };
}

export function commit(): Commit {
  return makeCommit(5n, 0, blockId, [commitSigFromVote(signedVote())]);
}

export function block(lastCommit: Commit = commit(), txs = [Uint8Array.of(1, 2, 3)]): Block {
  return makeBlock({
    chainId: CHAIN_ID,
    height: 6n,
    time: { seconds: 1_600_000_002n, nanos: 0 },
    lastBlockId: blockId,
    validatorsHash: validatorSetHash(validators),
    nextValidatorsHash: validatorSetHash(validators),
    consensusHash: consensusParamsHash(defaultConsensusParams()),
    appHash: new Uint8Array(0),
    lastResultsHash: sha256(new Uint8Array(0)),
    proposerAddress: address,
    txs,
    evidence: [],
    lastCommit,
  });
}

export { emptyCommit };
