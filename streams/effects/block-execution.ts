// CommitBlock → BlockExecuted, one height at a time (concatMap: the app's consensus calls and the
// store writes keep their order). The executor is a port: the node's saves the block, runs it on
// the ABCI app and persists the state (block-commit.ts); the simulation's saves it in memory and
// runs the simulated app after a delay on virtual time. A block that cannot be committed halts the
// node: nothing more is signed, never a retry.
import { catchError, concatMap, EMPTY, map, type Observable } from "rxjs";
import type { CommitBlock, ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import { UNSTAMPED } from "../sources/stamp-time.js";
import { answerOf, type PortAnswer } from "./answer.js";
import { ofKinds } from "./effect-kinds.js";

export interface BlockExecutionDeps {
  /** Saves and executes the decided block; the chain state after it (none: nothing to report). */
  execute(e: CommitBlock): PortAnswer<ChainState>;
  halt(reason: string, cause: unknown): void;
}

const upperHex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();

/** The effect kinds this handler carries out (the factory routes these to it). */
export const BLOCK_EXECUTION_KINDS = ["CommitBlock"] as const;

export function blockExecutionHandler(deps: BlockExecutionDeps) {
  return function blockExecution(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    return effect$.pipe(
      ofKinds(BLOCK_EXECUTION_KINDS),
      concatMap((e) =>
        answerOf(() => deps.execute(e)).pipe(
          map(
            (chainState): ConsensusInput => ({
              type: "BlockExecuted",
              time: UNSTAMPED,
              height: e.height,
              chainState,
            }),
          ),
          catchError((error: unknown) => {
            deps.halt(
              `committing block ${e.height} (${upperHex(e.blockId.hash)}) failed: ${error instanceof Error ? error.message : String(error)}`,
              error,
            );
            return EMPTY;
          }),
        ),
      ),
    );
  };
}
