// RunCheckTx / RunRecheck on the ABCI mempool connection. Requests are pipelined (mergeMap: many
// in flight, one socket write per batch); the connection answers in call order, so answers come
// back as inputs in the order the txs arrived. The full CheckTx response of a caller's tx is kept
// aside for that caller (broadcast_tx_sync returns it), keyed by request id.
import { catchError, EMPTY, filter, from, mergeMap, type Observable, of } from "rxjs";
import type { MempoolConnection } from "../../src/abci/client/abci-client.js";
import type { Logger } from "../../src/logger/index.js";
import type { MempoolEffect, RunCheckTx, RunRecheck } from "../../src/mempool/effect.js";
import type { MempoolInput } from "../../src/mempool/input.js";
import { CheckTxType, type ResponseCheckTx } from "../../src/wire/generated/tendermint/abci/types.js";

export interface MempoolAbciDeps {
  mempool: MempoolConnection;
  /** Receives each caller's full CheckTx answer before its CheckTxCompleted is folded. */
  onCheckTxResponse(requestId: number, response: ResponseCheckTx): void;
  /** A failing mempool connection stops the node (haltOnAbciFailure); here the tx is dropped. */
  logger: Logger;
}

/** Most CheckTx calls in flight at once. */
export const CHECK_TX_IN_FLIGHT = 4096;

export function mempoolAbciHandler(deps: MempoolAbciDeps) {
  return (effect$: Observable<MempoolEffect>): Observable<MempoolInput> =>
    effect$.pipe(
      filter((e): e is RunCheckTx | RunRecheck => e.type === "RunCheckTx" || e.type === "RunRecheck"),
      mergeMap(
        (e): Observable<MempoolInput> => (e.type === "RunCheckTx" ? checkTx(deps, e) : recheck(deps, e)),
        CHECK_TX_IN_FLIGHT,
      ),
    );
}

function checkTx(deps: MempoolAbciDeps, e: RunCheckTx): Observable<MempoolInput> {
  return from(deps.mempool.checkTx({ tx: e.tx, type: CheckTxType.NEW })).pipe(
    mergeMap((response) => {
      deps.onCheckTxResponse(e.requestId, response);
      return of<MempoolInput>({
        type: "CheckTxCompleted",
        requestId: e.requestId,
        hash: e.hash,
        tx: e.tx,
        from: e.from,
        code: response.code,
        gasWanted: response.gasWanted,
        time: 0,
      });
    }),
    catchError((error: unknown) => {
      deps.logger.error("CheckTx failed", { hash: e.hash, err: (error as Error).message });
      return EMPTY;
    }),
  );
}

function recheck(deps: MempoolAbciDeps, e: RunRecheck): Observable<MempoolInput> {
  return from(e.txs).pipe(
    mergeMap(
      ({ hash, tx }) =>
        from(deps.mempool.checkTx({ tx, type: CheckTxType.RECHECK })).pipe(
          mergeMap((r) => of<MempoolInput>({ type: "RecheckCompleted", hash, code: r.code, time: 0 })),
          catchError((error: unknown) => {
            deps.logger.error("recheck failed", { hash, err: (error as Error).message });
            return EMPTY;
          }),
        ),
      CHECK_TX_IN_FLIGHT,
    ),
  );
}
