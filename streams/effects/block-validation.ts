// ValidateBlock → BlockValidated: a complete proposal block from someone else, checked by the rule
// of src/state/validate-proposal-block.ts against the chain state, through the ports the runner
// gives (the node: the shared verify pool and the stores; the simulation: a memoised verifier and
// history in memory). One at a time (concatMap); the answer is logged, so replay does not
// validate again.
import { catchError, concatMap, type Observable, of } from "rxjs";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import type { EvidenceHistory } from "../../src/evidence/index.js";
import { type ProposalBlockPorts, proposalBlockProblem } from "../../src/state/validate-proposal-block.js";
import { andThen } from "../../src/types/maybe-async.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { SignedHeader } from "../../src/wire/generated/tendermint/types/types.js";
import type { Validator } from "../../src/wire/generated/tendermint/types/validator.js";
import { UNSTAMPED } from "../sources/stamp-time.js";
import { answerOf } from "./answer.js";
import { ofKinds } from "./effect-kinds.js";

export interface BlockValidationDeps {
  /** The chain state the next block must follow (the chain-state projection). */
  chainState(): ChainState;
  ports: ProposalBlockPorts;
}

/**
 * Our signed header at `height`: the stored header with the commit that signed it (block h+1's
 * LastCommit, or the seen commit at our latest height, where no later block exists yet).
 */
export async function storedSignedHeader(
  blockStore: {
    loadBlockMeta(h: bigint): Promise<{ header?: SignedHeader["header"] } | undefined>;
    loadBlockCommit(h: bigint): Promise<SignedHeader["commit"]>;
    loadSeenCommit(h: bigint): Promise<SignedHeader["commit"]>;
  },
  height: bigint,
): Promise<SignedHeader | undefined> {
  const header = (await blockStore.loadBlockMeta(height))?.header;
  const commit = (await blockStore.loadBlockCommit(height)) ?? (await blockStore.loadSeenCommit(height));
  return header && commit ? { header, commit } : undefined;
}

/** Evidence history read from the stores ahead of the pure check (the node's port). */
export async function storedEvidenceHistory(
  stores: {
    blockTimeAt(height: bigint): Promise<Timestamp | undefined>;
    validatorsAt(height: bigint): Promise<readonly Validator[] | undefined>;
    signedHeaderAt?(height: bigint): Promise<SignedHeader | undefined>;
  },
  heights: readonly bigint[],
): Promise<EvidenceHistory> {
  const times = new Map<bigint, Timestamp | undefined>();
  const sets = new Map<bigint, readonly Validator[] | undefined>();
  const headers = new Map<bigint, SignedHeader | undefined>();
  for (const height of heights) {
    times.set(height, await stores.blockTimeAt(height).catch(() => undefined));
    sets.set(height, await stores.validatorsAt(height).catch(() => undefined));
    if (stores.signedHeaderAt)
      headers.set(height, await stores.signedHeaderAt(height).catch(() => undefined));
  }
  return {
    blockTimeAt: (h) => times.get(h),
    validatorsAt: (h) => sets.get(h),
    signedHeaderAt: (h) => headers.get(h),
  };
}

/** The node's evidence-history port over its block and state stores. */
export function nodeEvidenceHistory(stores: {
  blockStore: Parameters<typeof storedSignedHeader>[0];
  stateStore: { loadValidators(h: bigint): Promise<{ validators: readonly Validator[] }> };
}): (heights: readonly bigint[]) => Promise<EvidenceHistory> {
  return (heights) =>
    storedEvidenceHistory(
      {
        blockTimeAt: async (h) => (await stores.blockStore.loadBlockMeta(h))?.header?.time,
        validatorsAt: async (h) => (await stores.stateStore.loadValidators(h)).validators,
        signedHeaderAt: (h) => storedSignedHeader(stores.blockStore, h),
      },
      heights,
    );
}

/** The effect kinds this handler carries out (the factory routes these to it). */
export const BLOCK_VALIDATION_KINDS = ["ValidateBlock"] as const;

export function blockValidationHandler(deps: BlockValidationDeps) {
  return function blockValidation(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    return effect$.pipe(
      ofKinds(BLOCK_VALIDATION_KINDS),
      concatMap((e) =>
        answerOf(() =>
          andThen(
            proposalBlockProblem(deps.chainState(), e.block, deps.ports),
            (error): ConsensusInput => ({
              type: "BlockValidated",
              time: UNSTAMPED,
              height: e.height,
              blockHash: e.blockId.hash,
              ...(error === undefined ? {} : { error }),
            }),
          ),
        ).pipe(
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
  };
}
