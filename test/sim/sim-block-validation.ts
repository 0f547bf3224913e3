// ValidateBlock for the simulation, answered within the same step of virtual time: the same
// checks as the node's handler (streams' blockProblem: structure, chain id, height, last block
// ID, the hashes the state fixes, the LastCommit's signatures and power) plus the block's
// evidence (src/consensus checkBlockEvidence), with the run's memoised verifier instead of the
// node's worker pool, which answers through promises a virtual clock cannot wait for.
import type { EvidenceHistory, EvidencePoolState } from "../../src/consensus/evidence-pool.js";
import { checkBlockEvidence } from "../../src/consensus/evidence-pool.js";
import type { SignatureVerifier } from "../../src/consensus/verify-input.js";
import { blockIdsEqual, commitVoteSignBytes } from "../../src/types/commit-verification.js";
import { validateBlock } from "../../src/types/validate-block.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import { BlockIDFlag, type Commit } from "../../src/wire/generated/tendermint/types/types.js";

const same = (a: Uint8Array | undefined, b: Uint8Array | undefined) =>
  Buffer.from(a ?? new Uint8Array(0)).equals(Buffer.from(b ?? new Uint8Array(0)));

/** What is wrong with `block` as the next block of `chain`, or undefined. */
export function simBlockProblem(
  chain: ChainState,
  block: Block,
  verify: SignatureVerifier,
  pool: EvidencePoolState,
  history: EvidenceHistory,
): string | undefined {
  try {
    validateBlock(block);
  } catch (error) {
    return (error as Error).message;
  }
  const h = block.header;
  const expected = chain.lastBlockHeight === 0n ? chain.initialHeight : chain.lastBlockHeight + 1n;
  if (h.chainId !== chain.chainId) return `wrong chain id ${h.chainId}`;
  if (h.height !== expected) return `wrong height ${h.height}, expected ${expected}`;
  if (!same(h.lastBlockId?.hash, chain.lastBlockId?.hash)) return "wrong last block id";
  if (!same(h.appHash, chain.appHash)) return "wrong app hash";
  if (!same(h.lastResultsHash, chain.lastResultsHash)) return "wrong last results hash";
  if (!same(h.validatorsHash, ValidatorSet.fromProto(chain.validators!).hash()))
    return "wrong validators hash";
  if (!same(h.nextValidatorsHash, ValidatorSet.fromProto(chain.nextValidators!).hash()))
    return "wrong next validators hash";
  if (h.height > chain.initialHeight) {
    if (block.lastCommit === undefined) return "missing last commit";
    const problem = lastCommitProblem(chain, block.lastCommit, verify);
    if (problem !== undefined) return `invalid last commit: ${problem}`;
  }
  const evidence = block.evidence?.evidence ?? [];
  if (evidence.length > 0) return checkBlockEvidence(pool, evidence, chain, history, verify);
  return undefined;
}

/** v0.34's VerifyCommit of the LastCommit against the last validator set. */
function lastCommitProblem(chain: ChainState, commit: Commit, verify: SignatureVerifier): string | undefined {
  const validators = chain.lastValidators?.validators ?? [];
  if (commit.signatures.length !== validators.length)
    return `${commit.signatures.length} signatures for ${validators.length} validators`;
  if (commit.height !== chain.lastBlockHeight) return `commit for height ${commit.height}`;
  if (!blockIdsEqual(commit.blockId, chain.lastBlockId!)) return "commit for another block";
  let total = 0n;
  let tallied = 0n;
  for (let i = 0; i < validators.length; i++) {
    const validator = validators[i]!;
    total += validator.votingPower;
    const sig = commit.signatures[i]!;
    if (sig.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_ABSENT) continue;
    if (!same(sig.validatorAddress, validator.address)) return `signature ${i} names another validator`;
    const key = validator.pubKey.sum?.$case === "ed25519" ? validator.pubKey.sum.ed25519 : undefined;
    if (key === undefined || !verify(key, commitVoteSignBytes(chain.chainId, commit, i), sig.signature))
      return `signature ${i} does not verify`;
    if (sig.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_COMMIT) tallied += validator.votingPower;
  }
  return tallied * 3n > total * 2n ? undefined : `only ${tallied} of ${total} power for the block`;
}
