// Whether a block fetched by block sync may be applied: v0.34's check in the pool routine. The
// block at height H is certified by the LastCommit of the block at H+1, verified with the set that
// signs H (VerifyCommitLight: +2/3 of the power signed for H's BlockID), then validated against
// the chain state exactly as a proposal block is (state/validate-proposal-block.ts). The two
// halves run apart in block sync: the certificate ahead of the block's turn, with the set the
// pool expects (checkSyncedCommit), the fit with the chain state at its turn (syncedBlockFits);
// verifySyncedBlock runs both at once.
//
// Beyond v0.34, which drops both senders on any failure, a failure says whose fault it is when
// that can be known: H+1's commit with +2/3 valid signatures for another BlockID proves block H is
// wrong ("first"); a commit whose signatures do not add up for its own BlockID is forged
// ("second"). A block that a valid commit certifies but that does not fit our state is blamed on
// its sender ("first"): honest peers never serve one.
import type { BatchVerifier } from "../crypto/verify-item.js";
import { blockPartsAndId } from "../types/block.js";
import { type CommitVerificationOptions, verifyCommitLight } from "../types/commit-verification.js";
import { ValidatorSet } from "../types/validator-set.js";
import type { State as ChainState } from "../wire/generated/tendermint/state/types.js";
import type { Block } from "../wire/generated/tendermint/types/block.js";
import type { ValidatorSet as ValidatorSetProto } from "../wire/generated/tendermint/types/validator.js";
import type { BlockRejected } from "./input.js";
import type { KnownValidators, VerifiedBlock } from "./state.js";

export type { VerifiedBlock } from "./state.js";

export type SyncedBlockVerdict =
  | { readonly ok: true; readonly block: VerifiedBlock }
  | { readonly ok: false; readonly reason: string; readonly blame: BlockRejected["blame"] };

export interface SyncedBlockPorts extends CommitVerificationOptions {
  /**
   * v0.34's ValidateBlock of `block` against `chain` (a proposal block's checks), its signatures
   * checked by `verifier` when given; undefined when valid.
   */
  blockProblem(
    chain: ChainState,
    block: Block,
    verifier?: BatchVerifier,
  ): Promise<string | undefined> | string | undefined;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The certificate half, which needs no chain state but the chain id and the set that signs
 * `first`'s height: `second`'s LastCommit has +2/3 of `validators`' power for `first`'s BlockID.
 * Block sync runs it ahead of a block's turn (CheckCommit).
 */
export async function checkSyncedCommit(
  chainId: string,
  validatorSet: ValidatorSetProto,
  first: Block,
  second: Block,
  options: CommitVerificationOptions,
): Promise<SyncedBlockVerdict> {
  const { parts, blockId } = blockPartsAndId(first);
  const commit = second.lastCommit;
  if (commit === undefined) return { ok: false, reason: "the next block has no LastCommit", blame: "second" };
  const validators = ValidatorSet.fromProto(validatorSet);
  const verifier = options.verifier ? { verifier: options.verifier } : {};
  try {
    await verifyCommitLight(chainId, validators, blockId, first.header.height, commit, verifier);
  } catch (error) {
    let authentic = false;
    if (commit.height === first.header.height) {
      try {
        await verifyCommitLight(chainId, validators, commit.blockId, commit.height, commit, verifier);
        authentic = true;
      } catch {
        authentic = false;
      }
    }
    return { ok: false, reason: messageOf(error), blame: authentic ? "first" : "second" };
  }
  return { ok: true, block: { blockId, parts } };
}

/** The chain-state half: `first` fits `chain` as its next block (v0.34's ValidateBlock). */
export async function syncedBlockFits(
  chain: ChainState,
  first: Block,
  checked: VerifiedBlock,
  ports: SyncedBlockPorts,
): Promise<SyncedBlockVerdict> {
  const problem = await ports.blockProblem(chain, first, ports.verifier);
  if (problem !== undefined) return { ok: false, reason: problem, blame: "first" };
  return { ok: true, block: checked };
}

/** Both halves, for a block checked at its turn with the chain state it applies to. */
export async function verifySyncedBlock(
  chain: ChainState,
  first: Block,
  second: Block,
  ports: SyncedBlockPorts,
): Promise<SyncedBlockVerdict> {
  const certified = await checkSyncedCommit(chain.chainId, chain.validators!, first, second, ports);
  if (!certified.ok) return certified;
  return syncedBlockFits(chain, first, certified.block, ports);
}

const keys = new WeakMap<ValidatorSetProto, string>();

/** A set with its key (its hash), remembered per set object: a state keeps its sets' objects. */
export function knownValidators(set: ValidatorSetProto): KnownValidators {
  let key = keys.get(set);
  if (key === undefined) {
    key = Buffer.from(ValidatorSet.fromProto(set).hash()).toString("hex");
    keys.set(set, key);
  }
  return { key, set };
}
