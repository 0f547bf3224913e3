// ValidateBlock → BlockValidated: a complete proposal block from someone else checked against the
// chain state (v0.34's validateBlock in the parts that need no app): structure, chain id, height,
// last block ID, the hashes the state fixes, and the LastCommit's signatures on the shared verify
// pool. One at a time (concatMap); the answer is logged, so replay does not validate again.
import { catchError, concatMap, defer, filter, type Observable, of } from "rxjs";
import type { ConsensusEffect, ValidateBlock } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import type { BatchVerifier } from "../../src/crypto/verify-item.js";
import { verifyCommit } from "../../src/types/commit-verification.js";
import { validateBlock } from "../../src/types/validate-block.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import { UNSTAMPED } from "../sources/stamp-time.js";

export interface BlockValidationDeps {
  chainState(): ChainState;
  verifier?: BatchVerifier;
}

const same = (a: Uint8Array | undefined, b: Uint8Array | undefined) =>
  Buffer.from(a ?? new Uint8Array(0)).equals(Buffer.from(b ?? new Uint8Array(0)));

/** What is wrong with `block` as the next block of `chain`, or undefined. */
export async function blockProblem(
  chain: ChainState,
  block: Block,
  verifier?: BatchVerifier,
): Promise<string | undefined> {
  try {
    validateBlock(block);
  } catch (error) {
    return (error as Error).message;
  }
  const h = block.header;
  const expected = chain.lastBlockHeight === 0n ? chain.initialHeight : chain.lastBlockHeight + 1n;
  if (h.chainId !== chain.chainId) return `wrong chain id ${h.chainId}, expected ${chain.chainId}`;
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
  return undefined;
}

export function blockValidationHandler(deps: BlockValidationDeps) {
  return (effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> =>
    effect$.pipe(
      filter((e): e is ValidateBlock => e.type === "ValidateBlock"),
      concatMap((e) =>
        defer(async (): Promise<ConsensusInput> => {
          const error = await blockProblem(deps.chainState(), e.block, deps.verifier);
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
