// The mempool as the node runs it: its pure reducer in a loop of its own (no log: mempool inputs
// are not consensus-critical and are rebuilt from peers and clients), CheckTx on the ABCI mempool
// connection, callers waiting for their admission, and the TxsAvailable notice for consensus.
import { filter, map, type Observable, type Subscription, share } from "rxjs";
import type { MempoolConnection } from "../src/abci/client/abci-client.js";
import type { Logger } from "../src/logger/index.js";
import type { AdmissionDecided, MempoolEffect } from "../src/mempool/effect.js";
import type { MempoolInput, TxResent, TxSubmission } from "../src/mempool/input.js";
import { mempoolReducer } from "../src/mempool/reducer.js";
import { initialMempoolState, type MempoolConfig, type MempoolState } from "../src/mempool/state.js";
import {
  CheckTxType,
  type ResponseCheckTx,
  type ResponseDeliverTx,
} from "../src/wire/generated/tendermint/abci/types.js";
import type { Block } from "../src/wire/generated/tendermint/types/block.js";
import { rememberedTxHashes, rememberedTxKeys, TxSha256 } from "../src/wire/hashes.js";
import { mempoolAbciHandler } from "./effects/mempool-abci.js";
import { createLoop, type LoopFault } from "./loop.js";
import { Multicast } from "./multicast.js";
import type { NodeEvent, NodeMempool, SubmitResult } from "./node-handle.js";
import { blockTxHashHex } from "./projections/event-bus.js";
import { TxCommitWaiter } from "./projections/tx-commit-waiter.js";

export interface MempoolNodeOptions {
  config: MempoolConfig;
  /** Height of the last committed block. */
  height: bigint;
  connection: MempoolConnection;
  events$: Observable<NodeEvent>;
  logger: Logger;
  now?: () => number;
  /** Our own exception in the mempool's reducer or handler: the node halts with this reason. */
  onFault(fault: LoopFault): void;
  /**
   * Awaited between the pieces of a block's update and between the recheck's windows (the node's:
   * the event loop's next turn, so RPC requests are served meanwhile). Absent: all in one go.
   */
  betweenPieces?: () => Promise<void>;
}

export interface MempoolNode extends NodeMempool {
  /** Heights for which txs are waiting (the mempool's TxsAvailable), for consensus. */
  readonly txsAvailable$: Observable<bigint>;
  readonly effect$: Observable<MempoolEffect>;
  /** Every fold of the mempool loop (metrics count its inputs). */
  readonly transition$: Observable<{ input: MempoolInput }>;
  /**
   * NodeMempool's hashTx; `bytesKey`, the tx's admitted-tx-digests key when the caller (the mempool
   * reactor) computed it, is carried in the TxSha256 to the admitted digests' memo.
   */
  hashTx(tx: Uint8Array, bytesKey?: number): TxSha256;
  /**
   * The block's txs leave the pool and the rest are rechecked: resolves once every recheck is sent
   * (the mempool lock is held until then, so held CheckTx follow the rechecks).
   */
  blockCommitted(block: Block, deliverTxs: readonly ResponseDeliverTx[]): Promise<void>;
  /**
   * A peer's tx (hashed by hashTx) that the mempool has seen already (cached, pending, in check, or
   * queued this turn): its sender is noted at the next fold and true is answered, with no
   * submission, waiter or CheckTx; false: not seen, submit it (submitHashed).
   */
  resentByPeer(hash: string, from: string): boolean;
  /** submit() of a tx hashed by hashTx. */
  submitHashed(hashed: TxSha256, from: string): Promise<SubmitResult>;
  /**
   * Registers the one function that gets every peer tx's outcome (the mempool reactor's), without
   * the CheckTx response; returns its removal. A second registration while one is in place is our
   * own wiring error and throws.
   */
  answerPeerTxs(answered: PeerTxAnswered): () => void;
  /**
   * A peer's tx (hashed by hashTx) submitted with no promise, waiter object or result object: its
   * outcome goes to the function registered by answerPeerTxs (throws when none is).
   */
  submitPeerTx(hashed: TxSha256, from: string): void;
  start(): Subscription;
}

/** The outcome of a peer's tx (submitPeerTx): its sender, hash, and what the admission decided. */
export type PeerTxAnswered = (from: string, hash: string, outcome: AdmissionDecided["outcome"]) => void;

/**
 * Bytes a view's buffer may hold beyond the view for the view to be kept as the tx's own. A peer's
 * tx is a view into its message (mempool-wire.ts), and a one-packet message is itself a view of the
 * decrypted frame it came in (up to 1 KiB, src/p2p/mconnection/mconnection.ts): such a tx is
 * copied here once, so a kept tx never pins its frame. A tx whose buffer is its own but for a few
 * bytes of framing (a message of several packets, concatenated) is kept as it is.
 */
export const OWN_BYTES_SLACK = 16;

/** The bytes themselves, copied when `bytes` is a view into a larger buffer (by more than OWN_BYTES_SLACK). */
export function ownBytes(bytes: Uint8Array): Uint8Array {
  return bytes.buffer.byteLength - bytes.byteLength <= OWN_BYTES_SLACK ? bytes : new Uint8Array(bytes);
}

/** Committed txs folded per turn of the event loop (BlockTxsCommitted), when the node pauses. */
export const UPDATE_PIECE = 2048;

export function createMempoolNode(options: MempoolNodeOptions): MempoolNode {
  const now = options.now ?? Date.now;
  let latest: MempoolState = initialMempoolState(options.config, options.height);
  let nextRequestId = 1;
  const waiting = new Map<number, { resolve: (r: SubmitResult) => void; hash: string }>();
  const responses = new Map<number, ResponseCheckTx>();
  // Peers' txs awaiting their decision, by request id: the sender only. In a full mesh most of a
  // node's admissions are peers' txs, and a promise per tx (with its executor, resolve and
  // reaction closures, a waiter and a result object) was garbage made per tx for one counter.
  const peerWaiting = new Map<number, string>();
  let peerAnswered: PeerTxAnswered | undefined;
  // A committed block's tx hashes, none computed twice: a block is committed here only after its
  // data hash was computed for that very txs array (made as our proposal, or checked as another's),
  // which remembers each tx's sha256, so only the hex is made. (A WeakMap from each admitted tx's
  // bytes to its hex hash did the same for our own proposals; its set per admitted tx cost more
  // than the hex conversion it saved, and its ephemerons more in every GC.)
  // A committed tx's key is the pool's own string where the block's reaping remembered it
  // (rememberedTxKeys), else made from the remembered hash or the tx.
  const committedTxHashes = (
    txs: readonly Uint8Array[],
    remembered: readonly Uint8Array[] | undefined,
    keys: readonly (string | undefined)[] | undefined,
    from: number,
    to: number,
  ): string[] => {
    const hashes: string[] = new Array(to - from);
    for (let i = from; i < to; i++) hashes[i - from] = blockTxHashHex(txs[i]!, remembered, i, keys);
    return hashes;
  };
  const pause = options.betweenPieces;
  // The recheck's windows being sent (mempool-abci.ts), awaited by blockCommitted.
  const recheck = { sending: Promise.resolve() };
  // Submissions wait here until the end of the event loop's turn and are folded as one
  // TxsSubmitted (one fold, one CheckTx round, one answer fold for all the requests that one turn
  // read), in arrival order. Hashes queued with a cache on, for broadcast_tx_async's refusal of a
  // duplicate before its fold.
  let queued: TxSubmission[] = [];
  const queuedHashes = new Set<string>();
  // Peers' resent txs of this turn, folded after its submissions (mempool-node's resentByPeer).
  let resent: TxResent[] = [];
  let drainScheduled = false;

  const loop = createLoop<MempoolState, MempoolInput, MempoolEffect, MempoolInput>({
    initialState: latest,
    reducer: mempoolReducer,
    sources: [],
    stamp: (input) => ({ ...input, time: now() }),
    toInput: (record) => record,
    onFault: (fault) => options.onFault(fault),
    handlers: [
      mempoolAbciHandler({
        mempool: options.connection,
        onCheckTxResponse: (id, response) => {
          if (waiting.has(id)) responses.set(id, response);
        },
        logger: options.logger,
        ...(pause && {
          betweenRecheckWindows: pause,
          recheckSending: (sending: Promise<void>) => {
            recheck.sending = sending;
          },
        }),
      }),
    ],
  });
  // Shared through a Multicast, not share()'s default Subject: every effect passes it (multicast.ts).
  const effect$ = loop.effect$.pipe(share({ connector: () => new Multicast<MempoolEffect>() }));
  const commitWaiter = new TxCommitWaiter(options.events$);

  const answer = (e: AdmissionDecided) => {
    const from = peerWaiting.get(e.requestId);
    if (from !== undefined) {
      peerWaiting.delete(e.requestId);
      // A reactor that stopped while its txs were in check has no one left to tell.
      peerAnswered?.(from, e.hash, e.outcome);
      return;
    }
    const waiter = waiting.get(e.requestId);
    if (!waiter) return;
    waiting.delete(e.requestId);
    const checkTx = responses.get(e.requestId);
    responses.delete(e.requestId);
    const o = e.outcome;
    waiter.resolve({
      hash: e.hash,
      outcome:
        o.kind === "refused"
          ? { kind: "refused", code: o.refusal.code, message: o.refusal.message }
          : o.kind === "invalid"
            ? { kind: "invalid", code: o.code }
            : { kind: "added" },
      checkTx,
    });
  };

  /** Folds the queued submissions now (before any other input, so arrival order is kept). */
  const drain = () => {
    if (queued.length === 0 && resent.length === 0) return;
    const submissions = queued;
    queued = [];
    queuedHashes.clear();
    if (resent.length === 0) {
      loop.dispatch({ type: "TxsSubmitted", submissions, time: 0 });
      return;
    }
    const notes = resent;
    resent = [];
    loop.dispatch({ type: "TxsSubmitted", submissions, resent: notes, time: 0 });
  };
  const scheduleDrain = () => {
    if (!drainScheduled) {
      drainScheduled = true;
      setImmediate(scheduled);
    }
  };
  const scheduled = () => {
    drainScheduled = false;
    drain();
  };
  const dispatch = (input: MempoolInput) => {
    drain();
    loop.dispatch(input);
  };

  // A pending tx owns its bytes: a view into a larger buffer (a slab of Node's 8 KB Buffer pool,
  // a request body, a peer's message) would keep all of it alive while the tx waits, up to the
  // pool's size in txs: native memory that grew with the load and outlived it. Its sha256 is taken
  // of the bytes it keeps, once: the key, and the digests its admission makes.
  // `bytesKey`: the tx's bytesKey when the caller has it (admitted-tx-digests.ts), carried on.
  const hashTx = (given: Uint8Array, bytesKey?: number): TxSha256 => TxSha256.of(ownBytes(given), bytesKey);

  /** Queues a tx for this turn's fold; its request id (no waiter is registered here). */
  const enqueue = (hashed: TxSha256, from: string): number => {
    const requestId = nextRequestId++;
    const hash = hashed.key;
    queued.push({ requestId, hash, tx: hashed.tx, sha256: hashed, from });
    if (options.config.cacheSize > 0) queuedHashes.add(hash);
    scheduleDrain();
    return requestId;
  };

  const submitHashed = (hashed: TxSha256, from: string): Promise<SubmitResult> => {
    const requestId = enqueue(hashed, from);
    return new Promise<SubmitResult>((resolve) => waiting.set(requestId, { resolve, hash: hashed.key }));
  };
  const answerPeerTxs = (answered: PeerTxAnswered): (() => void) => {
    if (peerAnswered) throw new Error("mempool: peer txs already have their answer registered");
    peerAnswered = answered;
    return () => {
      if (peerAnswered === answered) peerAnswered = undefined;
    };
  };
  const submitPeerTx = (hashed: TxSha256, from: string): void => {
    if (!peerAnswered) throw new Error("mempool: a peer tx was submitted before answerPeerTxs");
    peerWaiting.set(enqueue(hashed, from), from);
  };
  const submit = (given: Uint8Array, from = "rpc"): Promise<SubmitResult> =>
    submitHashed(hashTx(given), from);
  const seen = (hash: string) => queuedHashes.has(hash) || latest.cache.has(hash);

  return {
    txsAvailable$: effect$.pipe(
      filter((e) => e.type === "TxsAvailable"),
      map((e) => (e as { height: bigint }).height),
    ),
    effect$,
    transition$: loop.transition$,
    state: () => latest,
    seen,
    submit,
    submitHashed,
    answerPeerTxs,
    submitPeerTx,
    // Pending and in-check txs are asked too: the cache may be smaller than the pool. (A tx in
    // check is also queued or cached unless cache_size is 0, when nothing is queued by hash.)
    resentByPeer: (hash, from) => {
      if (!(seen(hash) || latest.txs.has(hash) || latest.checking.has(hash))) return false;
      resent.push({ hash, from });
      scheduleDrain();
      return true;
    },
    hashTx,
    // No waiter: the decision finds none and is dropped, and its CheckTx answer is not kept. A
    // hash not made by hashTx is not taken: the tx is hashed again from its own bytes.
    offer: (hashed) => {
      const tx = hashed.tx;
      enqueue(TxSha256.madeFor(hashed, tx) ? hashed : hashTx(tx), "rpc");
    },
    submitAndWaitForCommit: (tx, timeoutMs) => {
      const hashed = hashTx(tx);
      return commitWaiter.submitAndWait(() => submitHashed(hashed, "rpc"), hashed.key, timeoutMs);
    },
    checkTx: (tx) => options.connection.checkTx({ tx, type: CheckTxType.NEW }),
    flush: () => dispatch({ type: "MempoolFlushed", time: 0 }),
    async blockCommitted(block, deliverTxs) {
      const txs = block.data.txs;
      const remembered = rememberedTxHashes(txs);
      const keys = rememberedTxKeys(txs);
      const codes = deliverTxs.map((r) => r.code);
      const height = block.header.height;
      // Pieces of the block's txs leave one turn at a time, the last with BlockCommitted, which
      // sends the recheck (a block of 50,000 txs was 35-115 ms in one piece).
      let from = 0;
      if (pause !== undefined) {
        for (; txs.length - from > UPDATE_PIECE; from += UPDATE_PIECE) {
          const to = from + UPDATE_PIECE;
          dispatch({
            type: "BlockTxsCommitted",
            height,
            txHashes: committedTxHashes(txs, remembered, keys, from, to),
            deliverTxCodes: codes.slice(from, to),
            time: 0,
          });
          await pause();
        }
      }
      recheck.sending = Promise.resolve();
      dispatch({
        type: "BlockCommitted",
        height,
        txHashes: committedTxHashes(txs, remembered, keys, from, txs.length),
        deliverTxCodes: from === 0 ? codes : codes.slice(from),
        time: 0,
      });
      await recheck.sending;
    },
    start() {
      const running = loop.state$.subscribe((s) => {
        latest = s;
      });
      running.add(
        effect$.subscribe((e) => {
          if (e.type === "AdmissionDecided") {
            answer(e);
          } else if (e.type === "TxsEvicted") {
            options.logger.debug("txs evicted", { reason: e.reason, count: e.hashes.length });
          }
        }),
      );
      running.add(loop.start());
      return running;
    },
  };
}
