// RunCheckTx / RunCheckTxs / RunRecheck on the ABCI mempool connection. Requests are pipelined: each is sent
// as its effect arrives, without waiting for earlier answers (one socket write per batch); the
// connection answers in call order, so answers come back as inputs in the order the txs arrived.
// The full CheckTx response of a caller's tx is kept aside for that caller (broadcast_tx_sync
// returns it), keyed by request id. Plain promise callbacks rather than an inner Observable per tx:
// this path runs once per transaction. A connection offering checkTxs (the in-process app) gets a
// turn's txs, and each recheck window, in one call with one promise.
import { Observable } from "rxjs";
import type { MempoolConnection } from "../../src/abci/client/abci-client.js";
import type { Logger } from "../../src/logger/index.js";
import type { MempoolEffect } from "../../src/mempool/effect.js";
import type { CheckTxResult, MempoolInput } from "../../src/mempool/input.js";
import { CheckTxType, type ResponseCheckTx } from "../../src/wire/generated/tendermint/abci/types.js";

/** Recheck answers folded together (one RechecksCompleted input each). */
export const RECHECK_WINDOW = 1024;

export interface MempoolAbciDeps {
  mempool: MempoolConnection;
  /** Receives each caller's full CheckTx answer before its CheckTxCompleted is folded. */
  onCheckTxResponse(requestId: number, response: ResponseCheckTx): void;
  /** A failing mempool connection stops the node (haltOnAbciFailure); here the tx is dropped. */
  logger: Logger;
  /**
   * Awaited between a recheck's windows (the node's: the event loop's next turn): an in-process
   * app answers a window at once, so tens of thousands of rechecks sent together held the thread.
   * Absent: every window is sent at once.
   */
  betweenRecheckWindows?: () => Promise<void>;
  /** Told of each recheck's sending, which resolves once its last window is sent. */
  recheckSending?(sending: Promise<void>): void;
}

type CheckedTx = Pick<CheckTxResult, "requestId" | "hash" | "tx" | "sha256" | "from">;

/** A tx's CheckTx answer as the reducer folds it; the caller's full answer is handed aside first. */
function checkTxResult(deps: MempoolAbciDeps, checked: CheckedTx, response: ResponseCheckTx): CheckTxResult {
  deps.onCheckTxResponse(checked.requestId, response);
  return {
    requestId: checked.requestId,
    hash: checked.hash,
    tx: checked.tx,
    sha256: checked.sha256,
    from: checked.from,
    code: response.code,
    gasWanted: response.gasWanted,
  };
}

export function mempoolAbciHandler(deps: MempoolAbciDeps) {
  return (effect$: Observable<MempoolEffect>): Observable<MempoolInput> =>
    new Observable<MempoolInput>((out) => {
      let open = true;
      const emit = (input: MempoolInput) => {
        if (open) out.next(input);
      };
      const failed = (what: string, hash: string) => (error: unknown) =>
        deps.logger.error(what, { hash, err: (error as Error).message });
      // A batch fails whole (its connection failed): its txs are dropped, as each failed call's is.
      const batchFailed = (what: string, txs: number, error: unknown) =>
        deps.logger.error(what, { txs, err: (error as Error).message });
      const batch = deps.mempool.checkTxs?.bind(deps.mempool);
      const sub = effect$.subscribe((e) => {
        if (e.type === "RunCheckTx") {
          deps.mempool
            .checkTx({ tx: e.tx, type: CheckTxType.NEW })
            .then(
              (response) => emit({ type: "CheckTxCompleted", ...checkTxResult(deps, e, response), time: 0 }),
              failed("CheckTx failed", e.hash),
            );
        } else if (e.type === "RunCheckTxs" && batch !== undefined) {
          // The whole turn's txs in one call (an app in this process): no promise per tx.
          const txs = e.txs;
          const reqs = txs.map(({ tx }) => ({ tx, type: CheckTxType.NEW }));
          batch(reqs).then(
            (responses) => {
              const results: CheckTxResult[] = new Array(txs.length);
              for (let i = 0; i < txs.length; i++) results[i] = checkTxResult(deps, txs[i]!, responses[i]!);
              if (results.length > 0) emit({ type: "CheckTxsCompleted", results, time: 0 });
            },
            (error: unknown) => batchFailed("CheckTx failed", txs.length, error),
          );
        } else if (e.type === "RunCheckTxs") {
          // A batch's CheckTx calls are all sent at once; their answers come back as one input, in
          // the order sent, once the last has answered (a failed call leaves its tx out).
          const answers = e.txs.map((checked) =>
            deps.mempool.checkTx({ tx: checked.tx, type: CheckTxType.NEW }).then(
              (response) => checkTxResult(deps, checked, response),
              (error: unknown) => {
                failed("CheckTx failed", checked.hash)(error);
                return undefined;
              },
            ),
          );
          void Promise.all(answers).then((all) => {
            const results = all.filter((a): a is CheckTxResult => a !== undefined);
            if (results.length > 0) emit({ type: "CheckTxsCompleted", results, time: 0 });
          });
        } else if (e.type === "RunRecheck") {
          // Every recheck is sent (pipelined) in windows of RECHECK_WINDOW, whose answers come
          // back as one input each, in the order sent; with a pause between windows, a window
          // is sent per turn.
          const sendWindow = (start: number) => {
            if (batch !== undefined) {
              const slice = e.txs.slice(start, start + RECHECK_WINDOW);
              batch(slice.map(({ tx }) => ({ tx, type: CheckTxType.RECHECK }))).then(
                (responses) => {
                  const results = slice.map(({ hash }, i) => ({ hash, code: responses[i]!.code }));
                  emit({ type: "RechecksCompleted", generation: e.generation, results, time: 0 });
                },
                (error: unknown) => batchFailed("recheck failed", slice.length, error),
              );
              return;
            }
            const window = e.txs.slice(start, start + RECHECK_WINDOW).map(({ hash, tx }) =>
              deps.mempool.checkTx({ tx, type: CheckTxType.RECHECK }).then(
                (r) => ({ hash, code: r.code }),
                (error: unknown) => {
                  failed("recheck failed", hash)(error);
                  return undefined;
                },
              ),
            );
            void Promise.all(window).then((answers) => {
              const results = answers.filter((a): a is { hash: string; code: number } => a !== undefined);
              if (results.length > 0)
                emit({ type: "RechecksCompleted", generation: e.generation, results, time: 0 });
            });
          };
          const pause = deps.betweenRecheckWindows;
          if (pause === undefined || e.txs.length <= RECHECK_WINDOW) {
            for (let start = 0; start < e.txs.length; start += RECHECK_WINDOW) sendWindow(start);
            return;
          }
          const sending = (async () => {
            for (let start = 0; start < e.txs.length; start += RECHECK_WINDOW) {
              if (start > 0) await pause();
              if (!open) return;
              sendWindow(start);
            }
          })();
          deps.recheckSending?.(sending);
        }
      });
      return () => {
        open = false;
        sub.unsubscribe();
      };
    });
}
