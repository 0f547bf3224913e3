// CommitBlock → BlockExecuted, one height at a time (concatMap: ABCI consensus calls and store
// writes keep their order). The order is the crash-safety argument:
//   save block → execute on the app (responses saved before Commit) → save state → index
//   → mempool BlockCommitted (as Tendermint updates its mempool before firing events)
//   → publish NewBlock/NewBlockHeader/Tx/ValidatorSetUpdates (a client that saw a Tx event always
//   finds it indexed and no longer pending) → WAL end-of-height marker → BlockExecuted.
// A crash anywhere is repaired at the next start by reconcile + handshake (stores and app) and the
// restart rule of the log (restart-fold.ts). Any failure halts: nothing more is signed.
import { concatMap, defer, EMPTY, filter, type Observable } from "rxjs";
import { catchError } from "rxjs/operators";
import type { ConsensusConnection } from "../../src/abci/client/abci-client.js";
import type { CommitBlock, ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { addressOf, sha256 } from "../../src/crypto/hash.js";
import type { Logger } from "../../src/logger/index.js";
import { executeBlock } from "../../src/state/execute-block.js";
import type { BlockStore } from "../../src/store/block-store.js";
import type { HeightIndexer } from "../../src/store/indexer/event-indexer.js";
import { persistExecutedHeight } from "../../src/store/persist-height.js";
import type { StateStore } from "../../src/store/state-store.js";
import type { ABCIResponses, State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type { Validator } from "../../src/wire/generated/tendermint/types/validator.js";
import type { EventBus } from "../projections/event-bus.js";
import { upperHex } from "../projections/event-bus.js";
import { UNSTAMPED } from "../sources/stamp-time.js";

export interface BlockCommitDeps {
  consensus: ConsensusConnection;
  stores: { blockStore: BlockStore; stateStore: StateStore; indexer: HeightIndexer };
  /** The chain state the next block executes against; updated here after each block. */
  chainState(): ChainState;
  setChainState(state: ChainState): void;
  events: EventBus;
  /** Wal.endHeight: appends the end-of-height marker and syncs. */
  endHeight(height: bigint): Promise<void>;
  /** Tells the mempool which txs left with the block (BlockCommitted). */
  blockCommitted(block: Block, responses: ABCIResponses): void;
  /** Tells the evidence pool about the new chain state and the block's evidence. */
  evidenceUpdated(state: ChainState, block: Block): void;
  /** Stops the node: a block that cannot be committed is a halt, never a retry. */
  halt(reason: string, cause: unknown): void;
  /** Registers the work under way, so a stop waits for it before closing the stores. */
  track?<T>(work: Promise<T>): Promise<T>;
  logger: Logger;
}

function validatorsOfUpdates(responses: ABCIResponses): Validator[] {
  return (responses.endBlock?.validatorUpdates ?? []).map((u) => {
    const key = u.pubKey.sum;
    const raw =
      key?.$case === "ed25519" ? key.ed25519 : key?.$case === "secp256k1" ? key.secp256k1 : new Uint8Array(0);
    return { address: addressOf(raw), pubKey: u.pubKey, votingPower: u.power, proposerPriority: 0n };
  });
}

export function blockCommitHandler(deps: BlockCommitDeps) {
  return (effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> =>
    effect$.pipe(
      filter((e): e is CommitBlock => e.type === "CommitBlock"),
      concatMap((e) =>
        defer(() => (deps.track ? deps.track(commitOne(deps, e)) : commitOne(deps, e))).pipe(
          catchError((error: unknown) => {
            const reason = `committing block ${e.height} (${upperHex(e.blockId.hash)}) failed: ${error instanceof Error ? error.message : String(error)}`;
            deps.halt(reason, error);
            return EMPTY;
          }),
        ),
      ),
    );
}

async function commitOne(deps: BlockCommitDeps, e: CommitBlock): Promise<ConsensusInput> {
  const { block, blockId } = e;
  const before = deps.chainState();
  const started = Date.now();
  if (deps.stores.blockStore.height() < e.height) {
    await deps.stores.blockStore.saveBlock({ block, blockId, parts: e.parts, seenCommit: e.seenCommit });
  }
  const executed = await executeBlock(
    {
      consensus: deps.consensus,
      saveAbciResponses: (height, responses) => deps.stores.stateStore.saveABCIResponses(height, responses),
    },
    before,
    block,
    blockId,
  );
  await persistExecutedHeight(deps.stores, {
    block: { block, blockId, parts: e.parts, seenCommit: e.seenCommit },
    state: executed.state,
    abciResponses: executed.responses,
  });
  deps.setChainState(executed.state);
  deps.blockCommitted(block, executed.responses);
  deps.events.publishBlock(
    block,
    executed.events,
    executed.responses.beginBlock ?? { events: [] },
    executed.responses.endBlock ?? { validatorUpdates: [], consensusParamUpdates: undefined, events: [] },
    validatorsOfUpdates(executed.responses),
  );
  await deps.endHeight(e.height);
  deps.evidenceUpdated(executed.state, block);
  deps.logger.info("committed block", {
    height: e.height,
    round: e.round,
    txs: block.data.txs.length,
    hash: upperHex(blockId.hash),
    appHash: upperHex(executed.state.appHash),
    ms: Date.now() - started,
  });
  return { type: "BlockExecuted", time: UNSTAMPED, height: e.height, chainState: executed.state };
}

/** Upper-case hex sha256 of each tx of a block (the mempool's keys). */
export function txHashesOf(block: Block): string[] {
  return block.data.txs.map((tx) => upperHex(sha256(tx)));
}
