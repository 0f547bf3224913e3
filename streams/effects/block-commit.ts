// CommitBlock → BlockExecuted, one height at a time (concatMap: ABCI consensus calls and store
// writes keep their order). The order is the crash-safety argument:
//   save block, while the app runs BeginBlock/DeliverTx/EndBlock and the ABCI responses are
//   saved (the app keeps nothing of a block before Commit, so only Commit waits for both synced
//   writes) → around Commit the mempool is locked: its connection flushed, new CheckTx held, then
//   mempool BlockCommitted, then unlocked, as v0.34 does, so no tx is checked between the app's
//   Commit and the mempool update → save state → WAL end-of-height marker → BlockExecuted, whose
//   fold publishes NewBlock/NewBlockHeader/Tx/ValidatorSetUpdates (projections/node-events.ts).
//   The mempool update (with the recheck it sends) runs on the next turn of the event loop,
//   overlapping the state save; the lock is held until it ran and BlockExecuted waits for it.
// The index of the height runs on the node's index queue (height-index-queue.ts), queued at
// Commit before the mempool update, while the state is saved and the next height starts; the
// index readers wait for every queued height, so a client that saw a Tx event (or a tx leave the
// mempool) always finds it indexed; H+1's state is saved only after H's index. Without a queue
// (tests, tools), the height is indexed before the WAL marker.
// With `stateSaves` (the node's), the height ends at the app's Commit: the end-of-height marker
// (the block is durable by then) and the state's synced save run behind it, while H+1 is proposed;
// H+1's commit waits for H's state before it saves its block, so a crash still finds block =
// state or block = state + 1 with the responses saved (docs/storage.md, "The node's pipeline").
// A crash anywhere is repaired at the next start by reconcile + handshake (stores and app) and the
// restart rule of the log (restart-fold.ts). Any failure halts: nothing more is signed.
import type { ConsensusConnection, MempoolConnection } from "../../src/abci/client/abci-client.js";
import { executeBlock } from "../../src/abci/execute-block.js";
import type { CommitBlock } from "../../src/consensus/effect.js";
import { isEvidenceExpired } from "../../src/evidence/index.js";
import type { Logger } from "../../src/logger/index.js";
import { nextTurn } from "../../src/next-turn.js";
import type { BlockStore } from "../../src/store/block-store.js";
import { encodeAbciResponsesInPieces, RESPONSES_PIECE } from "../../src/store/deliver-tx-bytes.js";
import type { HeightIndexer } from "../../src/store/indexer/event-indexer.js";
import { heightIndexInputFrom } from "../../src/store/indexer/height-index-input.js";
import { persistExecutedHeight, persistHeightState } from "../../src/store/persist-height.js";
import type { StateStore } from "../../src/store/state-store.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import {
  CheckTxType,
  type RequestCheckTx,
  type ResponseCheckTx,
  type ResponseDeliverTx,
} from "../../src/wire/generated/tendermint/abci/types.js";
import type { ABCIResponses, State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import { upperHex } from "../projections/event-bus.js";
import { type ExecutedBlocks, executedBlockResults } from "../projections/node-events.js";
import { blockExecutionHandler } from "./block-execution.js";
import type { HeightIndexQueue } from "./height-index-queue.js";
import type { StateSaveTail } from "./state-save-tail.js";

export interface BlockCommitDeps {
  consensus: ConsensusConnection;
  stores: { blockStore: BlockStore; stateStore: StateStore; indexer: HeightIndexer };
  /** The chain state the next block executes against (the node's chain-state projection). */
  chainState(): ChainState;
  /** Told the state after each block, before BlockExecuted is folded (tests without a loop). */
  setChainState?(state: ChainState): void;
  /** Where the block's results go for the event projection (projections/node-events.ts). */
  executed: Pick<ExecutedBlocks, "put">;
  /** Wal.endHeight: appends the end-of-height marker and syncs. */
  endHeight(height: bigint): Promise<void>;
  /**
   * With `stateSaves`, used instead of endHeight when given: appends the marker and writes it
   * without an fsync of its own; the log's next sync (before our next signature at the latest)
   * makes it durable together with what follows it (Wal.appendEndHeight).
   */
  markEndHeight?(height: bigint): Promise<void>;
  /**
   * Tells the mempool which txs left with the block (BlockCommitted), right after the app's Commit;
   * a promise when it does so over several turns of the event loop (the lock is held until it
   * resolves).
   */
  blockCommitted(block: Block, deliverTxs: readonly ResponseDeliverTx[]): void | Promise<void>;
  /**
   * Indexes each height off the critical path (the node's). Absent: the height is indexed before
   * BlockExecuted.
   */
  indexQueue?: HeightIndexQueue;
  /** Held around the app's Commit (the node's; absent in tests that need no mempool). */
  mempoolLock?: MempoolCommitLock;
  /**
   * The node's: each height's state is saved behind its commit (commitOne resolves after the app's
   * Commit and the mempool update), and the next height's block save waits for it. Absent: commitOne
   * resolves once the state and the end-of-height marker are durable.
   */
  stateSaves?: StateSaveTail;
  /** Stops the node: a block that cannot be committed is a halt, never a retry. */
  halt(reason: string, cause: unknown): void;
  /**
   * Heights a restart needs below the latest one (double_sign_check_height's commits); pruning
   * for the app's retain_height never goes below them. Default 1: the latest height only.
   */
  keepRecentHeights?: bigint;
  /** Registers the work under way, so a stop waits for it before closing the stores. */
  track?<T>(work: Promise<T>): Promise<T>;
  logger: Logger;
}

/**
 * v0.34's mempool lock around Commit. Admissions use `connection`: while locked, a CheckTx for a
 * new tx waits (in arrival order) until unlock; rechecks (sent by the mempool update itself) pass.
 * lock() flushes the mempool connection, so every CheckTx sent before it is answered before the
 * app commits.
 */
export class MempoolCommitLock {
  readonly connection: MempoolConnection;
  #locked = false;
  #held: (() => void)[] = [];

  constructor(private readonly inner: MempoolConnection) {
    const checkTx = (req: RequestCheckTx): Promise<ResponseCheckTx> => {
      if (!this.#locked || req.type === CheckTxType.RECHECK) return inner.checkTx(req);
      return new Promise((resolve, reject) =>
        this.#held.push(() => inner.checkTx(req).then(resolve, reject)),
      );
    };
    // A batch is held whole unless it is all rechecks (the mempool never mixes the two).
    const batch = inner.checkTxs?.bind(inner);
    const checkTxs =
      batch &&
      ((reqs: readonly RequestCheckTx[]): Promise<ResponseCheckTx[]> => {
        if (!this.#locked || reqs.every((r) => r.type === CheckTxType.RECHECK)) return batch(reqs);
        return new Promise((resolve, reject) => this.#held.push(() => batch(reqs).then(resolve, reject)));
      });
    this.connection = {
      get name() {
        return inner.name;
      },
      get error() {
        return inner.error;
      },
      echo: (message) => inner.echo(message),
      flush: () => inner.flush(),
      checkTx,
      ...(checkTxs && { checkTxs }),
    };
  }

  get locked(): boolean {
    return this.#locked;
  }

  /** Holds new CheckTx and waits until every one already sent is answered. */
  async lock(): Promise<void> {
    this.#locked = true;
    await this.inner.flush();
  }

  /** Sends the held CheckTx, in the order they arrived. */
  unlock(): void {
    this.#locked = false;
    const held = this.#held;
    this.#held = [];
    for (const send of held) send();
  }
}

/** Milliseconds spent in each named phase of a height's commit, for the debug log. */
class PhaseClock {
  readonly spans: Record<string, number> = {};
  #last = performance.now();
  mark(phase: string): void {
    const now = performance.now();
    this.spans[phase] = Math.round((now - this.#last) * 10) / 10;
    this.#last = now;
  }
}

export function blockCommitHandler(deps: BlockCommitDeps) {
  return blockExecutionHandler({
    execute: (e) => (deps.track ? deps.track(commitOne(deps, e)) : commitOne(deps, e)),
    halt: (reason, error) => deps.halt(reason, error),
  });
}

/** The ABCI and store I/O of one decided block; the chain state after it. */
export async function commitOne(deps: BlockCommitDeps, e: CommitBlock): Promise<ChainState> {
  const { block, blockId } = e;
  const started = Date.now();
  const phases = new PhaseClock();
  const tail = deps.stateSaves;
  // The block store may be at most one height ahead of the state: the previous height's state,
  // saved behind its commit, is durable before this block's save begins.
  if (tail) {
    await tail.settled();
    phases.mark("previousStateMs");
  }
  const before = deps.chainState();
  // The block's synced save runs while the app runs BeginBlock/DeliverTx/EndBlock and while the
  // responses are saved: the app keeps nothing of a block before its Commit, so only Commit must
  // wait for both to be durable (docs/storage.md, "The node's pipeline").
  const blockSaved =
    deps.stores.blockStore.height() < e.height
      ? deps.stores.blockStore.saveBlock({ block, blockId, parts: e.parts, seenCommit: e.seenCommit })
      : Promise.resolve();
  // Awaited before Commit, or on the way out of a failed execution below.
  blockSaved.catch(() => undefined);
  const lock = deps.mempoolLock;
  const queue = deps.indexQueue;
  let responses: ABCIResponses | undefined;
  let executed: Awaited<ReturnType<typeof executeBlock>> | undefined;
  // With an index queue: the height is queued at Commit, before the mempool drops its txs, and
  // indexed while its state is saved and the next height is proposed (height-index-queue.ts).
  let previousIndexed: Promise<void> = Promise.resolve();
  let mempoolUpdated: Promise<void> = Promise.resolve();
  let mempoolMs = 0;
  let stateSaved: { resolve(): void; reject(error: unknown): void } | undefined;
  try {
    try {
      executed = await executeBlock(
        {
          consensus: deps.consensus,
          // Admissions and RPC answers run between windows of a large block's DeliverTx.
          betweenDeliverTxWindows: nextTurn,
          saveAbciResponses: async (height, saved) => {
            phases.mark("executeMs");
            responses = saved;
            // A large height's record is encoded a piece per turn before its save (which then
            // writes those very bytes); the save still precedes Commit, as the block's does.
            if (saved.deliverTxs.length > RESPONSES_PIECE) {
              await encodeAbciResponsesInPieces(saved, nextTurn);
              phases.mark("encodeResponsesMs");
            }
            await Promise.all([blockSaved, deps.stores.stateStore.saveABCIResponses(height, saved)]);
          },
          beforeCommit: async () => {
            phases.mark("saveBlockAndResponsesMs");
            await lock?.lock();
          },
          afterCommit: async (committed, deliverTxs) => {
            phases.mark("appCommitMs");
            if (queue && responses) {
              const indexed = responses;
              previousIndexed = queue.settled();
              const saved = new Promise<void>((resolve, reject) => {
                stateSaved = { resolve, reject };
              });
              queue.enqueue(
                e.height,
                () => deps.stores.indexer.indexHeight(heightIndexInputFrom(block, indexed)),
                saved,
              );
            }
            // The mempool update (and the recheck of every remaining tx it sends) runs on the
            // next turn of the event loop, while this height's state is saved; the lock stays
            // held until it ran, so held CheckTx still follow the rechecks, and BlockExecuted
            // waits for it, so the next proposal never reaps a committed tx.
            mempoolUpdated = new Promise<void>((resolve) =>
              setImmediate(() => {
                const at = performance.now();
                const done = () => {
                  lock?.unlock();
                  mempoolMs = Math.round((performance.now() - at) * 10) / 10;
                  resolve();
                };
                // A piece per turn of the event loop (mempool-node.ts): the lock is held until
                // the last recheck is sent.
                let updating: void | Promise<void>;
                try {
                  updating = deps.blockCommitted(committed, deliverTxs);
                } catch (error) {
                  done();
                  throw error;
                }
                if (updating === undefined) done();
                else
                  updating.then(done, (error: unknown) => {
                    done();
                    deps.halt(
                      `the mempool's update after block ${e.height} failed: ${error instanceof Error ? error.message : String(error)}`,
                      error,
                    );
                  });
              }),
            );
          },
        },
        before,
        block,
        blockId,
      );
    } catch (error) {
      // A failed Commit halts the node; held admissions are not left waiting meanwhile.
      if (lock?.locked) lock.unlock();
      // The halt closes the stores: the block's write must have finished by then.
      await blockSaved.catch(() => undefined);
      throw error;
    }
  } catch (error) {
    stateSaved?.reject(error);
    throw error;
  }
  const done = executed;
  const persisted = {
    block: { block, blockId, parts: e.parts, seenCommit: e.seenCommit },
    state: done.state,
    abciResponses: done.responses,
    abciResponsesSaved: responses !== undefined,
  };
  // The state's save, behind the commit (its own clock) or inline (the height's): at most two
  // heights in flight, so the one before is indexed before this state is saved; the index queue's
  // wait for this height (stateSaved) is settled either way.
  const saveState = async (clock: PhaseClock): Promise<void> => {
    try {
      await previousIndexed;
      clock.mark("previousIndexMs");
      if (stateSaved) await persistHeightState(deps.stores, persisted);
      else await persistExecutedHeight(deps.stores, persisted);
      clock.mark("persistMs");
      stateSaved?.resolve();
    } catch (error) {
      stateSaved?.reject(error);
      throw error;
    }
  };
  const afterState = async () => {
    if (done.commit.retainHeight > 0n) await pruneBelow(deps, done.state, done.commit.retainHeight);
  };
  if (tail) {
    // Behind the commit: the end-of-height marker (the block it ends is durable: Commit waited for
    // it; the log's next sync, the one before our next signature at the latest, carries it, so
    // the node appends it without an fsync of its own), and the state's save, registered at once
    // so that the next height's commit waits for it.
    const marked = deps.markEndHeight ? deps.markEndHeight(e.height) : deps.endHeight(e.height);
    const saved = (async () => {
      const behindClock = new PhaseClock();
      await saveState(behindClock);
      deps.logger.debug("state saved behind the commit", { height: e.height, ...behindClock.spans });
      await afterState();
    })();
    tail.add(saved);
    const behind = Promise.all([marked, saved]).catch((error: unknown) =>
      deps.halt(
        `saving block ${e.height}'s state or end-of-height marker failed: ${error instanceof Error ? error.message : String(error)}`,
        error,
      ),
    );
    if (deps.track) void deps.track(behind);
  } else {
    await saveState(phases);
  }
  deps.setChainState?.(done.state);
  // The events (NewBlock, Tx…) are published when BlockExecuted is folded (node-events.ts).
  deps.executed.put(e.height, executedBlockResults(block, done.responses));
  if (!tail) {
    await deps.endHeight(e.height);
    phases.mark("walMs");
  }
  await mempoolUpdated;
  phases.mark("mempoolWaitMs");
  phases.spans.mempoolUpdateMs = mempoolMs;
  if (!tail) await afterState();
  deps.logger.info("committed block", {
    height: e.height,
    round: e.round,
    txs: block.data.txs.length,
    hash: upperHex(blockId.hash),
    appHash: upperHex(done.state.appHash),
    ms: Date.now() - started,
  });
  deps.logger.debug("block commit phases", { height: e.height, ...phases.spans });
  return done.state;
}

/**
 * The height blocks and states are pruned below for the app's `appRetain` (Commit's
 * retain_height), never below what is still needed: the latest `keepRecent` heights (a restart's
 * double-sign check and handshake), and every height whose evidence has not expired (v0.34's
 * IsEvidenceExpired: older than BOTH max_age_num_blocks and max_age_duration), so evidence of it
 * can still be verified against its block time and validator set.
 */
export async function safeRetainHeight(
  state: ChainState,
  appRetain: bigint,
  base: bigint,
  blockTimeAt: (height: bigint) => Promise<Timestamp | undefined>,
  keepRecent = 1n,
): Promise<bigint> {
  const latest = state.lastBlockHeight;
  let retain = appRetain;
  const recentFloor = latest - (keepRecent > 1n ? keepRecent : 1n) + 1n;
  if (retain > recentFloor) retain = recentFloor;
  const ageFloor = latest - state.consensusParams.evidence.maxAgeNumBlocks;
  if (retain > ageFloor) retain = ageFloor;
  if (retain <= base) return base;
  // Block times grow with height: find the lowest height in [base, retain) not yet expired by time.
  const expired = async (h: bigint) => {
    const time = await blockTimeAt(h);
    return time !== undefined && isEvidenceExpired(state, h, time);
  };
  if (await expired(retain - 1n)) return retain;
  let lo = base;
  let hi = retain - 1n; // not expired
  if (!(await expired(lo))) return base;
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (await expired(mid)) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Prunes blocks, then states, below the safe retain height; a failure is logged, never a halt. */
async function pruneBelow(deps: BlockCommitDeps, state: ChainState, appRetain: bigint): Promise<void> {
  const { blockStore, stateStore } = deps.stores;
  try {
    const base = blockStore.base();
    const retain = await safeRetainHeight(
      state,
      appRetain,
      base,
      async (h) => (await blockStore.loadBlockMeta(h))?.header?.time,
      deps.keepRecentHeights,
    );
    if (retain <= base) return;
    const blocks = await blockStore.pruneBlocks(retain);
    const states = await stateStore.pruneStates(retain);
    deps.logger.info("pruned blocks", {
      heights: blocks,
      states,
      base: blockStore.base(),
      retainHeight: retain,
      appRetainHeight: appRetain,
    });
  } catch (error) {
    deps.logger.error("failed to prune blocks", {
      appRetainHeight: appRetain,
      err: error instanceof Error ? error.message : String(error),
    });
  }
}
