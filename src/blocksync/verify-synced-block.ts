// Whether a block fetched by block sync may be applied: v0.34's check in the pool routine. The
// block at height H is certified by the LastCommit of the block at H+1, verified with the current
// validator set (VerifyCommitLight: +2/3 of the power signed for H's BlockID), then validated
// against the chain state exactly as a proposal block is (state/validate-proposal-block.ts).
//
// Beyond v0.34, which drops both senders on any failure, a failure says whose fault it is when
// that can be known: H+1's commit with +2/3 valid signatures for another BlockID proves block H is
// wrong ("first"); a commit whose signatures do not add up for its own BlockID is forged
// ("second"). A block that a valid commit certifies but that does not fit our state is blamed on
// its sender ("first"): honest peers never serve one.
import { blockPartsAndId } from "../types/block.js";
import { type CommitVerificationOptions, verifyCommitLight } from "../types/commit-verification.js";
import { ValidatorSet } from "../types/validator-set.js";
import type { State as ChainState } from "../wire/generated/tendermint/state/types.js";
import type { Block } from "../wire/generated/tendermint/types/block.js";
import type { BlockID, Part } from "../wire/generated/tendermint/types/types.js";
import type { BlockRejected } from "./input.js";

export interface VerifiedBlock {
  readonly blockId: BlockID;
  readonly parts: Part[];
}

export type SyncedBlockVerdict =
  | { readonly ok: true; readonly block: VerifiedBlock }
  | { readonly ok: false; readonly reason: string; readonly blame: BlockRejected["blame"] };

export interface SyncedBlockPorts extends CommitVerificationOptions {
  /** v0.34's ValidateBlock of `block` against `chain` (a proposal block's checks); undefined when valid. */
  blockProblem(chain: ChainState, block: Block): Promise<string | undefined> | string | undefined;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function verifySyncedBlock(
  chain: ChainState,
  first: Block,
  second: Block,
  ports: SyncedBlockPorts,
): Promise<SyncedBlockVerdict> {
  const { parts, blockId } = blockPartsAndId(first);
  const commit = second.lastCommit;
  if (commit === undefined) return { ok: false, reason: "the next block has no LastCommit", blame: "second" };
  const validators = ValidatorSet.fromProto(chain.validators!);
  const options = ports.verifier ? { verifier: ports.verifier } : {};
  try {
    await verifyCommitLight(chain.chainId, validators, blockId, first.header.height, commit, options);
  } catch (error) {
    let authentic = false;
    if (commit.height === first.header.height) {
      try {
        await verifyCommitLight(chain.chainId, validators, commit.blockId, commit.height, commit, options);
        authentic = true;
      } catch {
        authentic = false;
      }
    }
    return { ok: false, reason: messageOf(error), blame: authentic ? "first" : "second" };
  }
  const problem = await ports.blockProblem(chain, first);
  if (problem !== undefined) return { ok: false, reason: problem, blame: "first" };
  return { ok: true, block: { blockId, parts } };
}
