// Executing a decided block against the app, on the consensus connection (v0.34 ApplyBlock):
// BeginBlock, every DeliverTx pipelined, EndBlock; the next state computed and checked (so a bad
// validator or params update stops the block before Commit); the ABCI responses saved; Commit,
// whose data is the app hash of the next header. Nothing is half applied: any failure before
// Commit leaves the app able to re-run the block, and the caller gets no new state.

import { upperHex } from "../bytes.js";
import { beginBlockRequest } from "../state/begin-block-request.js";
import { StateError } from "../state/errors.js";
import { nextState, withAppHash } from "../state/next-state.js";
import type {
  Event,
  RequestDeliverTx,
  ResponseCommit,
  ResponseDeliverTx,
  TxResult,
  ValidatorUpdate,
} from "../wire/generated/tendermint/abci/types.js";
import type { ABCIResponses, State } from "../wire/generated/tendermint/state/types.js";
import type { Block } from "../wire/generated/tendermint/types/block.js";
import type { BlockID } from "../wire/generated/tendermint/types/types.js";
import type { Validator } from "../wire/generated/tendermint/types/validator.js";
import type { AbciLogger, ConsensusConnection } from "./client/abci-client.js";
import { silentLogger } from "./client/abci-client.js";

/** DeliverTx requests in flight at once: one write and one flush per window on a socket. */
export const DELIVER_TX_WINDOW = 8192;
/**
 * DeliverTx per call to an app in this process (deliverTxs), which answers at once on the node's
 * thread: a window of 8,192 kvstore txs held it ~10-15 ms, a quarter of that lets RPC requests in
 * four times as often, and a window's own cost (one call, one promise) stays small beside it.
 */
export const IN_PROCESS_DELIVER_TX_WINDOW = 2048;

export interface ExecuteBlockDeps {
  consensus: ConsensusConnection;
  logger?: AbciLogger;
  /**
   * Stores the block's ABCI responses before Commit (block_results, and the handshake's replay
   * of a block the app committed but the node did not record). Implemented by the state store.
   */
  saveAbciResponses?(height: bigint, responses: ABCIResponses): Promise<void>;
  /**
   * Runs right before Commit. The node locks the mempool here and flushes the mempool
   * connection, as Tendermint does, so no CheckTx interleaves with the app's commit.
   */
  beforeCommit?(): Promise<void>;
  /** Runs after Commit, with the mempool still locked: update it with the block's txs, unlock. */
  afterCommit?(block: Block, deliverTxs: readonly ResponseDeliverTx[]): Promise<void>;
  /**
   * Awaited between two windows of DeliverTx (the node's: the event loop's next turn). An in-process
   * app answers a window synchronously, so a block of tens of thousands of txs otherwise held the
   * main thread for its whole DeliverTx, and every RPC answer waited behind it.
   */
  betweenDeliverTxWindows?(): Promise<void>;
  /** Prunes blocks (and states) below the app's retain height; failures are logged, not fatal. */
  pruneBlocks?(retainHeight: bigint): Promise<unknown>;
}

/** What the event bus and indexer need from one executed block. */
export interface BlockEvents {
  height: bigint;
  beginBlock: Event[];
  endBlock: Event[];
  txs: TxResult[];
  validatorUpdates: ValidatorUpdate[];
}

export interface ExecutedBlock {
  /** The state after the block, app hash from Commit included. */
  state: State;
  responses: ABCIResponses;
  commit: ResponseCommit;
  events: BlockEvents;
}

/** BeginBlock, the DeliverTxs and EndBlock, without Commit; the answers in ABCIResponses form. */
export async function runBlockOnApp(
  consensus: ConsensusConnection,
  block: Block,
  blockHash: Uint8Array,
  lastValidators: readonly Validator[],
  initialHeight: bigint,
  betweenWindows?: () => Promise<void>,
): Promise<ABCIResponses> {
  const beginBlock = await consensus.beginBlock(
    beginBlockRequest(block, blockHash, lastValidators, initialHeight),
  );
  const txs = block.data.txs;
  const deliverTxs: ResponseDeliverTx[] = new Array(txs.length);
  const windowSize = consensus.deliverTxs ? IN_PROCESS_DELIVER_TX_WINDOW : DELIVER_TX_WINDOW;
  for (let start = 0; start < txs.length; start += windowSize) {
    if (start > 0) await betweenWindows?.();
    const end = Math.min(start + windowSize, txs.length);
    let answers: ResponseDeliverTx[];
    if (consensus.deliverTxs) {
      const requests: RequestDeliverTx[] = new Array(end - start);
      for (let i = start; i < end; i++) requests[i - start] = { tx: txs[i]! };
      answers = await consensus.deliverTxs(requests);
    } else {
      const window: Promise<ResponseDeliverTx>[] = [];
      for (let i = start; i < end; i++) window.push(consensus.deliverTx({ tx: txs[i]! }));
      answers = await Promise.all(window);
    }
    for (let i = 0; i < answers.length; i++) deliverTxs[start + i] = answers[i]!;
  }
  const endBlock = await consensus.endBlock({ height: block.header.height });
  return { deliverTxs, endBlock, beginBlock };
}

/** BeginBlock … Commit with no state update (the handshake's replay); returns the app hash. */
export async function commitBlockOnApp(
  consensus: ConsensusConnection,
  block: Block,
  blockHash: Uint8Array,
  lastValidators: readonly Validator[],
  initialHeight: bigint,
): Promise<{ responses: ABCIResponses; appHash: Uint8Array }> {
  const responses = await runBlockOnApp(consensus, block, blockHash, lastValidators, initialHeight);
  const commit = await consensus.commit();
  return { responses, appHash: commit.data };
}

/**
 * The block's events. `txs` (an object per tx) is made on its first read: with no subscriber the
 * event bus never reads it, and a height of 20,000 txs made 20,000 objects for nothing, twice
 * (here and in the events' projection).
 */
export function blockEvents(block: Block, responses: ABCIResponses): BlockEvents {
  const height = block.header.height;
  let txs: TxResult[] | undefined;
  return {
    height,
    beginBlock: responses.beginBlock?.events ?? [],
    endBlock: responses.endBlock?.events ?? [],
    get txs() {
      txs ??= responses.deliverTxs.map((result, index) => ({
        height,
        index,
        tx: block.data.txs[index]!,
        result,
      }));
      return txs;
    },
    validatorUpdates: responses.endBlock?.validatorUpdates ?? [],
  };
}

/** The height the state expects next. */
function expectedHeight(state: State): bigint {
  return state.lastBlockHeight === 0n ? state.initialHeight : state.lastBlockHeight + 1n;
}

/** Applies a decided block: the app runs it, the next state is computed, the app commits. */
export async function executeBlock(
  deps: ExecuteBlockDeps,
  state: State,
  block: Block,
  blockId: BlockID,
): Promise<ExecutedBlock> {
  const logger = deps.logger ?? silentLogger;
  const height = block.header.height;
  if (height !== expectedHeight(state)) {
    throw new StateError(
      "STATE_WRONG_BLOCK",
      `block height ${height} does not follow the state's last height ${state.lastBlockHeight}`,
      height,
    );
  }
  const started = Date.now();
  const responses = await runBlockOnApp(
    deps.consensus,
    block,
    blockId.hash,
    state.lastValidators?.validators ?? [],
    state.initialHeight,
    deps.betweenDeliverTxWindows,
  );
  if (responses.deliverTxs.length !== block.data.txs.length) {
    throw new StateError(
      "STATE_RESPONSE_COUNT_MISMATCH",
      `${block.data.txs.length} txs but ${responses.deliverTxs.length} DeliverTx answers`,
      height,
    );
  }
  // Checked before Commit: an app sending an invalid update stops the node with the block unapplied.
  const next = nextState(state, blockId, block.header, {
    deliverTxs: responses.deliverTxs,
    endBlock: responses.endBlock!,
  });
  await deps.saveAbciResponses?.(height, responses);

  await deps.beforeCommit?.();
  const commit = await deps.consensus.commit();
  await deps.afterCommit?.(block, responses.deliverTxs);

  let invalid = 0;
  for (const r of responses.deliverTxs) if (r.code !== 0) invalid++;
  logger.info("executed block", {
    height,
    validTxs: responses.deliverTxs.length - invalid,
    invalidTxs: invalid,
    appHash: upperHex(commit.data),
    ms: Date.now() - started,
  });

  if (commit.retainHeight > 0n && deps.pruneBlocks) {
    try {
      await deps.pruneBlocks(commit.retainHeight);
    } catch (err) {
      logger.error("failed to prune blocks", {
        retainHeight: commit.retainHeight,
        err: (err as Error).message,
      });
    }
  }
  return { state: withAppHash(next, commit.data), responses, commit, events: blockEvents(block, responses) };
}
