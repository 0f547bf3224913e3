// RunCheckTx / RunRecheck on the ABCI mempool connection. Requests are pipelined: each is sent
// as its effect arrives, without waiting for earlier answers (one socket write per batch); the
// connection answers in call order, so answers come back as inputs in the order the txs arrived.
// The full CheckTx response of a caller's tx is kept aside for that caller (broadcast_tx_sync
// returns it), keyed by request id. Plain promise callbacks rather than an inner Observable per tx:
// this path runs once per transaction.
import { Observable } from "rxjs";
import type { MempoolConnection } from "../../src/abci/client/abci-client.js";
import type { Logger } from "../../src/logger/index.js";
import type { MempoolEffect } from "../../src/mempool/effect.js";
import type { MempoolInput } from "../../src/mempool/input.js";
import { CheckTxType, type ResponseCheckTx } from "../../src/wire/generated/tendermint/abci/types.js";

export interface MempoolAbciDeps {
  mempool: MempoolConnection;
  /** Receives each caller's full CheckTx answer before its CheckTxCompleted is folded. */
  onCheckTxResponse(requestId: number, response: ResponseCheckTx): void;
  /** A failing mempool connection stops the node (haltOnAbciFailure); here the tx is dropped. */
  logger: Logger;
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
      const sub = effect$.subscribe((e) => {
        if (e.type === "RunCheckTx") {
          deps.mempool.checkTx({ tx: e.tx, type: CheckTxType.NEW }).then(
            (response) => {
              deps.onCheckTxResponse(e.requestId, response);
              emit({
                type: "CheckTxCompleted",
                requestId: e.requestId,
                hash: e.hash,
                tx: e.tx,
                from: e.from,
                code: response.code,
                gasWanted: response.gasWanted,
                time: 0,
              });
            },
            failed("CheckTx failed", e.hash),
          );
        } else if (e.type === "RunRecheck") {
          for (const { hash, tx } of e.txs) {
            deps.mempool
              .checkTx({ tx, type: CheckTxType.RECHECK })
              .then(
                (r) => emit({ type: "RecheckCompleted", hash, code: r.code, time: 0 }),
                failed("recheck failed", hash),
              );
          }
        }
      });
      return () => {
        open = false;
        sub.unsubscribe();
      };
    });
}
