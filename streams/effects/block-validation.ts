// ValidateBlock → BlockValidated: a complete proposal block from someone else checked against the
// chain state (v0.34's validateBlock in the parts that need no app, reference §7.9): structure,
// version, chain id, height, BFT time, last block ID, the hashes the state fixes (consensus params
// included), the proposer being in the set, the LastCommit's signatures on the shared verify pool,
// and the block's evidence (each item verified against the validator set and block time of its
// height, none already committed, within the evidence max_bytes). One at a time (concatMap); the
// answer is logged, so replay does not validate again.
import { catchError, concatMap, defer, filter, type Observable, of } from "rxjs";
import type { ConsensusEffect, ValidateBlock } from "../../src/consensus/effect.js";
import {
  checkBlockEvidence,
  type EvidenceHistory,
  type EvidencePoolState,
} from "../../src/consensus/evidence-pool.js";
import { blockTimeProblem } from "../../src/consensus/index.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import type { SignatureVerifier } from "../../src/consensus/verify-input.js";
import { verifyEd25519 } from "../../src/crypto/ed25519-verify.js";
import type { BatchVerifier } from "../../src/crypto/verify-item.js";
import { verifyCommit } from "../../src/types/commit-verification.js";
import { evidenceHeight } from "../../src/types/evidence.js";
import { validateBlock } from "../../src/types/validate-block.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type { Validator } from "../../src/wire/generated/tendermint/types/validator.js";
import { consensusParamsHash } from "../../src/wire/hashes.js";
import { UNSTAMPED } from "../sources/stamp-time.js";

/** v0.34's block protocol version (version.BlockProtocol). */
export const BLOCK_PROTOCOL = 11n;

/** What the evidence check needs: the pool (evidence already committed) and the stores' history. */
export interface BlockEvidenceDeps {
  /** The evidence pool's state: its committed list refuses evidence committed before. */
  pool(): EvidencePoolState;
  /** The time of the stored block at `height` (block store), or undefined when not stored. */
  blockTimeAt(height: bigint): Promise<Timestamp | undefined>;
  /** The validator set of `height` (state store), or undefined when not stored. */
  validatorsAt(height: bigint): Promise<readonly Validator[] | undefined>;
  /** Signature check of evidence votes (default node:crypto's ed25519). */
  verify?: SignatureVerifier;
}

export interface BlockValidationDeps {
  chainState(): ChainState;
  verifier?: BatchVerifier;
  evidence?: BlockEvidenceDeps;
}

const same = (a: Uint8Array | undefined, b: Uint8Array | undefined) =>
  Buffer.from(a ?? new Uint8Array(0)).equals(Buffer.from(b ?? new Uint8Array(0)));

/** What is wrong with `block` as the next block of `chain`, or undefined. */
export async function blockProblem(
  chain: ChainState,
  block: Block,
  verifier?: BatchVerifier,
  evidence?: BlockEvidenceDeps,
): Promise<string | undefined> {
  try {
    validateBlock(block);
  } catch (error) {
    return (error as Error).message;
  }
  const h = block.header;
  const expected = chain.lastBlockHeight === 0n ? chain.initialHeight : chain.lastBlockHeight + 1n;
  const version = chain.version?.consensus;
  if (h.version?.block !== BLOCK_PROTOCOL)
    return `wrong block version ${h.version?.block}, expected ${BLOCK_PROTOCOL}`;
  if (h.version.app !== (version?.app ?? 0n))
    return `wrong app version ${h.version.app}, expected ${version?.app ?? 0n}`;
  if (h.chainId !== chain.chainId) return `wrong chain id ${h.chainId}, expected ${chain.chainId}`;
  if (h.height !== expected) return `wrong height ${h.height}, expected ${expected}`;
  const timeProblem = blockTimeProblem(chain, block);
  if (timeProblem !== undefined) return `wrong block time: ${timeProblem}`;
  if (!same(h.lastBlockId?.hash, chain.lastBlockId?.hash)) return "wrong last block id";
  if (!same(h.appHash, chain.appHash)) return "wrong app hash";
  if (!same(h.lastResultsHash, chain.lastResultsHash)) return "wrong last results hash";
  if (!same(h.validatorsHash, ValidatorSet.fromProto(chain.validators!).hash()))
    return "wrong validators hash";
  if (!same(h.nextValidatorsHash, ValidatorSet.fromProto(chain.nextValidators!).hash()))
    return "wrong next validators hash";
  if (!same(h.consensusHash, consensusParamsHash(chain.consensusParams)))
    return "wrong consensus params hash";
  if (!ValidatorSet.fromProto(chain.validators!).hasAddress(h.proposerAddress ?? new Uint8Array(0)))
    return `proposer address ${Buffer.from(h.proposerAddress ?? [])
      .toString("hex")
      .toUpperCase()} is not a validator`;
  if (h.height === chain.initialHeight && (block.lastCommit?.signatures.length ?? 0) > 0)
    return "the initial block has LastCommit signatures";
  if (h.height > chain.initialHeight) {
    if (block.lastCommit === undefined) return "missing last commit";
    try {
      await verifyCommit(
        chain.chainId,
        ValidatorSet.fromProto(chain.lastValidators!),
        chain.lastBlockId!,
        chain.lastBlockHeight,
        block.lastCommit,
        verifier ? { verifier } : {},
      );
    } catch (error) {
      return `invalid last commit: ${(error as Error).message}`;
    }
  }
  const items = block.evidence?.evidence ?? [];
  if (items.length > 0) {
    if (evidence === undefined) return "the block has evidence and this node cannot verify it";
    const problem = checkBlockEvidence(
      evidence.pool(),
      items,
      chain,
      await evidenceHistory(evidence, items.map(evidenceHeight)),
      evidence.verify ?? verifyEd25519,
    );
    if (problem !== undefined) return `invalid evidence: ${problem}`;
  }
  return undefined;
}

/** The stores' history at the evidence heights, loaded ahead so the pure check reads it synchronously. */
async function evidenceHistory(
  deps: BlockEvidenceDeps,
  heights: readonly bigint[],
): Promise<EvidenceHistory> {
  const times = new Map<bigint, Timestamp | undefined>();
  const sets = new Map<bigint, readonly Validator[] | undefined>();
  for (const height of new Set(heights)) {
    if (height <= 0n) continue;
    times.set(height, await deps.blockTimeAt(height).catch(() => undefined));
    sets.set(height, await deps.validatorsAt(height).catch(() => undefined));
  }
  return { blockTimeAt: (h) => times.get(h), validatorsAt: (h) => sets.get(h) };
}

export function blockValidationHandler(deps: BlockValidationDeps) {
  return (effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> =>
    effect$.pipe(
      filter((e): e is ValidateBlock => e.type === "ValidateBlock"),
      concatMap((e) =>
        defer(async (): Promise<ConsensusInput> => {
          const error = await blockProblem(deps.chainState(), e.block, deps.verifier, deps.evidence);
          return {
            type: "BlockValidated",
            time: UNSTAMPED,
            height: e.height,
            blockHash: e.blockId.hash,
            ...(error === undefined ? {} : { error }),
          };
        }).pipe(
          catchError((error: unknown) =>
            of<ConsensusInput>({
              type: "BlockValidated",
              time: UNSTAMPED,
              height: e.height,
              blockHash: e.blockId.hash,
              error: `validation failed: ${(error as Error).message}`,
            }),
          ),
        ),
      ),
    );
}
